// End to end: `specbundle hook install|uninstall` in real repositories (bundle-contract.md section 6):
// the hook runs this CLI by absolute path, refuses a commit whose staged carrier does not read,
// honours core.hooksPath, never touches a foreign hook without --force, and pre-push composes.
import type { SpawnSyncReturns } from "node:child_process"
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const CLI = path.resolve("bin/specbundle.js")

const created: string[] = []
afterAll(() => created.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

/** git's environment without a surrounding hook's GIT_DIR (a test run inside a hook). */
const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete e[key]
  return e
}
const IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]

const git = (cwd: string, ...args: string[]): string => execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", env: env() })
const gitTry = (cwd: string, ...args: string[]): SpawnSyncReturns<string> => spawnSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", env: env() })
const run = (cwd: string, args: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: env() })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split("\n").filter((l) => l !== "") }
}

const spec = (id: string, title: string): string => `---\nid: ${id}\nkind: behavior\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# ${title}\n`
const BROKEN = "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n"

const repo = (): string => {
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

const head = (dir: string) => git(dir, "rev-parse", "HEAD").trim()
const FOREIGN = "#!/bin/sh\n# someone else's hook\nexit 0\n"

describe("hook install pre-commit", () => {
  it("writes an executable hook that runs this node and this CLI by absolute path", () => {
    const dir = repo()
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(0)
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    expect(r.lines).toEqual([`installed ${file}`])
    expect(fs.statSync(file).mode & 0o111).toBe(0o111)
    const text = fs.readFileSync(file, "utf8")
    expect(text.startsWith("#!/bin/sh\n")).toBe(true)
    expect(text).toContain(`'${process.execPath}' '${CLI}' impact --staged`)
    expect(text).not.toContain("npx")
  })

  it("refuses a commit with a staged broken carrier (naming file:line) and lets a healthy one through", () => {
    const dir = repo()
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)
    const before = head(dir)

    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/specs\/broken\.sdp\.md:\d+: extract\//)
    expect(head(dir)).toBe(before)

    // Fixed only in the working tree: the index is still broken, so the commit is still refused.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), spec("spec:broken", "Fixed"))
    expect(gitTry(dir, "commit", "-q", "-m", "still broken").status).not.toBe(0)
    expect(head(dir)).toBe(before)

    git(dir, "add", "specs/broken.sdp.md")
    const ok = gitTry(dir, "commit", "-q", "-m", "healthy")
    expect(ok.status, ok.stderr).toBe(0)
    expect(head(dir)).not.toBe(before)
  })

  it("honours core.hooksPath", () => {
    const dir = repo()
    git(dir, "config", "core.hooksPath", ".githooks")
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(0)
    expect(fs.existsSync(path.join(dir, ".githooks", "pre-commit"))).toBe(true)
    expect(fs.existsSync(path.join(dir, ".git", "hooks", "pre-commit"))).toBe(false)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain("specs/broken.sdp.md:")
  })

  it("leaves a foreign hook untouched: exit 1 and one line naming --force", () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("--force")
    expect(r.lines[0]).toContain(file)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
    expect(fs.existsSync(`${file}.specbundle-backup`)).toBe(false)
  })

  it("--force keeps the foreign hook as pre-commit.specbundle-backup; uninstall removes ours and restores it", () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    expect(run(dir, ["hook", "install", "pre-commit", "--force"]).code).toBe(0)
    expect(fs.readFileSync(`${file}.specbundle-backup`, "utf8")).toBe(FOREIGN)
    expect(fs.readFileSync(file, "utf8")).toContain("# specbundle-hook")

    const u = run(dir, ["hook", "uninstall", "pre-commit"])
    expect(u.code).toBe(0)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
    expect(fs.existsSync(`${file}.specbundle-backup`)).toBe(false)
  })

  it("uninstall removes only a hook specbundle wrote", () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)
    expect(run(dir, ["hook", "uninstall", "pre-commit"]).code).toBe(0)
    expect(fs.existsSync(file)).toBe(false)

    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    const r = run(dir, ["hook", "uninstall", "pre-commit"])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
  })

  it("outside a git repository install is exit 1 with one line", () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-cli-nogit-")))
    created.push(dir)
    const r = spawnSync(process.execPath, [CLI, "hook", "install", "pre-commit"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...env(), GIT_CEILING_DIRECTORIES: path.dirname(dir) }
    })
    expect(r.status).toBe(1)
    expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1)
  })
})

describe("hook install pre-push", () => {
  it("writes a hook that composes the pushed range into .git/specbundle/pre-push", () => {
    const dir = repo()
    fs.appendFileSync(path.join(dir, "specs", "b.sdp.md"), "\nMore about beta.\n")
    git(dir, "add", "-A")
    git(dir, "commit", "-q", "-m", "touch beta")
    const sha = head(dir)

    expect(run(dir, ["hook", "install", "pre-push"]).code).toBe(0)
    const file = path.join(dir, ".git", "hooks", "pre-push")
    expect(fs.statSync(file).mode & 0o111).toBe(0o111)
    expect(fs.readFileSync(file, "utf8")).toContain(`'${process.execPath}' '${CLI}' bundle --changeset`)

    const zero = "0".repeat(40)
    const r = spawnSync(file, ["origin", "https://example.invalid/repo.git"], {
      cwd: dir,
      encoding: "utf8",
      env: env(),
      input: `refs/heads/main ${sha} refs/heads/main ${zero}\n`
    })
    expect(r.status, r.stderr).toBe(0)
    const out = path.join(dir, ".git", "specbundle", "pre-push")
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as {
      scope: { specs: string[]; changeset: string }
      parts: Array<{ file: string }>
      builtFrom: { commit: string }
    }
    expect(manifest.scope.specs).toEqual(["spec:b"])
    expect(manifest.scope.changeset).toBe(`${sha}~1..${sha}`)
    expect(manifest.parts.length).toBeGreaterThan(0)
    const part = JSON.parse(fs.readFileSync(path.join(out, manifest.parts[0].file), "utf8")) as { members: Array<{ id: string }> }
    expect(part.members.map((m) => m.id)).toEqual(["spec:b"])
  })
})
