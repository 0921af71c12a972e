// `check` (and every read of a work tree) with no git on PATH, as in a slim CI image: inside a git
// work tree (a `.git` at or above the root) the files git ignores cannot be told apart, so the run
// stops with one line, exit 1, instead of reading them; a plain folder is still read whole. The
// built CLI runs as a process whose PATH holds a folder with the pinned node alone.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type Run, cli, gitCleanEnv } from "../support/cli.js"
import { makeRepo, runGitIn, specCarrier, tempDir } from "../support/git.js"

const BROKEN = "---\nid: spec:x\nkind: rule\nbroken: [\n---\n# Ignored and broken\n"

/** A PATH with node and nothing else: a folder holding a link to the node running the tests (git and node may share /usr/bin). */
const nodeOnlyPath = (): string => {
  const dir = tempDir("specbundle-node-only-")
  fs.symlinkSync(process.execPath, path.join(dir, "node"))
  return dir
}

const NO_GIT = nodeOnlyPath()

const withoutGit = (cwd: string, args: ReadonlyArray<string>, extra: NodeJS.ProcessEnv = {}): Run =>
  cli(cwd, args, { env: { ...gitCleanEnv(), ...extra, PATH: NO_GIT } })

/** A repository whose git-ignored build/ holds a broken carrier (read, it would refuse `check`); the corpus in `pkg/`. */
const corpus = () => {
  const repo = makeRepo()
  repo.write("pkg/specs/a.sdp.md", specCarrier("spec:a", "Alpha"))
  repo.write(".gitignore", "build/\n")
  repo.commit("corpus")
  repo.write("pkg/build/generated.sdp.md", BROKEN)
  return repo
}

const missingLine = (root: string, repository: string) =>
  `specbundle: git is not installed or not on PATH, and the root ${root} is inside a git work tree (${repository}): ` +
  "specbundle needs git to leave out the files git ignores; install git or put it on PATH\n"

describe("check with git missing from PATH", () => {
  it("the PATH of these runs finds node and no git", () => {
    const env = { ...gitCleanEnv(), PATH: NO_GIT }
    expect(spawnSync("git", ["--version"], { env }).error?.message).toMatch(/ENOENT/)
    expect(spawnSync("node", ["-p", "process.version"], { env, encoding: "utf8" }).stdout).toMatch(/^v\d+/)
  })

  it("inside a work tree says so in one line, exit 1, instead of reading the ignored files: from the top, the root and a folder below", () => {
    const repo = corpus()
    // With git: the ignored carrier is not read.
    const withGit = cli(repo.dir, ["check", "--root", "pkg"])
    expect(withGit.status, withGit.stderr).toBe(0)
    const root = path.join(repo.dir, "pkg")
    const line = missingLine(root, path.join(repo.dir, ".git"))
    for (const [cwd, args] of [
      [repo.dir, ["check", "--root", "pkg"]],
      [root, ["check"]],
      [path.join(root, "specs"), ["check", "--root", ".."]],
      [root, ["check", "--format", "gitlab"]],
      [root, ["list", "specs"]]
    ] as const) {
      const r = withoutGit(cwd, args)
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(1)
      expect(r.stderr).toBe(line)
      expect(r.stdout).toBe("")
    }
  })

  it("a linked work tree (its .git a file) is a work tree too", () => {
    const repo = corpus()
    const linked = path.join(tempDir("specbundle-linked-"), "wt")
    runGitIn(repo.dir, ["worktree", "add", "-q", linked])
    fs.mkdirSync(path.join(linked, "pkg", "build"))
    fs.writeFileSync(path.join(linked, "pkg", "build", "generated.sdp.md"), BROKEN)
    expect(fs.statSync(path.join(linked, ".git")).isFile()).toBe(true)
    const r = withoutGit(linked, ["check", "--root", "pkg"])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(missingLine(path.join(linked, "pkg"), path.join(linked, ".git")))
  })

  it("outside any repository reads the folder whole, as before: the broken carrier is read and refused", () => {
    const dir = tempDir("specbundle-plain-")
    fs.mkdirSync(path.join(dir, "specs"))
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), specCarrier("spec:a", "Alpha"))
    fs.mkdirSync(path.join(dir, "build"))
    fs.writeFileSync(path.join(dir, "build", "generated.sdp.md"), BROKEN)
    // No .git at or above it (the ceiling keeps a repository around the temp folder out, as git would).
    const r = withoutGit(dir, ["check"], { GIT_CEILING_DIRECTORIES: path.dirname(dir) })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^build\/generated\.sdp\.md:\d+: extract\//m)
    expect(r.stderr).not.toContain("git is not installed")
  })
})
