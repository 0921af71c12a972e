// Real repositories for the hook tests (test/cli/hook*.test.ts): git without a surrounding hook's
// GIT_DIR, `specbundle hook ...` run in process (the hooks it installs run the built CLI when git
// fires them), a two-Spec corpus, temp folders removed after the file.
import type { SpawnSyncReturns } from "node:child_process"
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"
import { run as inProcess } from "./run.js"

export const CLI = path.resolve("bin/specbundle.js")

export const created: string[] = []
afterAll(() => {
  for (const d of created) fs.rmSync(d, { recursive: true, force: true })
})

/** git's environment without a surrounding hook's GIT_DIR (a test run inside a hook). */
export const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete e[key]
  return e
}
export const IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]

export const git = (cwd: string, ...args: string[]): string => execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", env: env() })
export const gitTry = (cwd: string, ...args: string[]): SpawnSyncReturns<string> =>
  spawnSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", env: env() })
/** `specbundle ...args` in `cwd`, in process (test/support/run.ts), with env() unless given; `stdin` as git gives a hook. */
export const run = async (cwd: string, args: ReadonlyArray<string>, options: { readonly env?: NodeJS.ProcessEnv; readonly stdin?: string } = {}) => {
  const r = await inProcess(cwd, args, { env: options.env ?? env(), ...(options.stdin === undefined ? {} : { stdin: options.stdin }) })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split("\n").filter((l) => l !== "") }
}

export const spec = (id: string, title: string): string => `---\nid: ${id}\nkind: behavior\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# ${title}\n`
export const BROKEN = "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n"

/**
 * Commits a broken carrier, `fixtures/bad.sdp.md`, before any hook is installed: a refusal the
 * team already lives with, which a hook must not print on every commit or push.
 */
export const commitBrokenFixture = (dir: string): void => {
  fs.mkdirSync(path.join(dir, "fixtures"))
  fs.writeFileSync(path.join(dir, "fixtures", "bad.sdp.md"), "---\nid: spec:fixture\nkind: rule\nbroken: [\n---\n# A deliberately broken fixture\n")
  git(dir, "add", "-A")
  git(dir, "commit", "-q", "-m", "fixtures")
}

export const repo = (): string => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-cli-hook-")))
  created.push(dir)
  git(dir, "init", "-q", "-b", "main")
  fs.mkdirSync(path.join(dir, "specs"))
  fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
  fs.writeFileSync(path.join(dir, "specs", "b.sdp.md"), spec("spec:b", "Beta"))
  git(dir, "add", "-A")
  git(dir, "commit", "-q", "-m", "corpus")
  return dir
}

export const head = (dir: string) => git(dir, "rev-parse", "HEAD").trim()
