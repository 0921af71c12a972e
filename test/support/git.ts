// Real git repositories in temp folders for the GitDiff and Impact tests. No global git config is
// assumed: identity and signing are set per command.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { tempDir } from "./temp-dir.js"

const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env }
  // A test run inside a git hook must not aim at the outer repository.
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete e[key]
  return {
    ...e,
    GIT_AUTHOR_NAME: "Spec Tester",
    GIT_AUTHOR_EMAIL: "tester@example.invalid",
    GIT_COMMITTER_NAME: "Spec Tester",
    GIT_COMMITTER_EMAIL: "tester@example.invalid",
    GIT_CONFIG_NOSYSTEM: "1"
  }
}

export interface Repo {
  readonly dir: string
  git(...args: string[]): string
  write(file: string, content: string): void
  remove(file: string): void
  commit(message: string): string
}

export { tempDir }

export const runGitIn = (dir: string, args: ReadonlyArray<string>): string =>
  execFileSync("git", ["-c", "commit.gpgsign=false", "-c", "core.quotePath=false", ...args], {
    cwd: dir,
    env: env(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })

export const repoAt = (dir: string): Repo => ({
  dir,
  git: (...args) => runGitIn(dir, args),
  write: (file, content) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), content)
  },
  remove: (file) => fs.rmSync(path.join(dir, file)),
  commit: (message) => {
    runGitIn(dir, ["add", "-A"])
    runGitIn(dir, ["commit", "-q", "--allow-empty", "-m", message])
    return runGitIn(dir, ["rev-parse", "HEAD"]).trim()
  }
})

export const makeRepo = (): Repo => {
  const dir = tempDir("specbundle-git-")
  runGitIn(dir, ["init", "-q", "-b", "main"])
  return repoAt(dir)
}

/** A minimal valid Markdown Spec carrier. */
export const specCarrier = (id: string, title = "A spec", relations = "relations: {}"): string =>
  `---\nid: ${id}\nkind: behavior\naltitude: story\nreadiness: idea\n${relations}\n---\n# ${title}\n`

/** A comment-form code anchor satisfying the given Specs. */
export const codeAnchor = (id: string, satisfies: ReadonlyArray<string>): string =>
  `/**\n * @sdpAnchor ${id}\n${satisfies.length > 0 ? ` * @sdpSatisfies ${satisfies.join(", ")}\n` : ""} */\nexport const x = 1\n`

/**
 * The example corpus in a git repository with its two commits (examples/make-history.mjs, what
 * `specbundle example DIR` writes), in a new temp folder: the real history most tests can share.
 */
export const exampleHistory = (label = "specbundle-example-"): Repo => {
  const dir = path.join(tempDir(label), "bike-dock")
  execFileSync(process.execPath, [path.join(import.meta.dirname, "..", "..", "examples", "make-history.mjs"), dir], {
    env: env(),
    stdio: ["ignore", "pipe", "pipe"]
  })
  return repoAt(dir)
}
