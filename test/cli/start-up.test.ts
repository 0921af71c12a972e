// End to end, through the built CLI: what the pre-commit hook's start-up asks of git (issue 38).
// Each git process costs a start-up of its own: the location question also names HEAD, so the hook
// starts three, not four; and at a work tree's top (the root holds `.git`) the index listing and
// the staged diff start beside it instead of after it, used only once rev-parse confirms the top.
import { spawnSync } from "node:child_process"
import { buildSync } from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parseCacheEntries } from "../support/cache-file.js"
import { tempDir } from "../support/git.js"
import { gitCallsIn } from "../support/hostile.js"
import { CLI, env, git, repo, spec } from "../support/hooks.js"
import { REPO } from "../support/cli.js"

/** `impact --staged --strict --quiet` in `dir` with GIT_TRACE on: its report and the git commands it started. */
const hook = (dir: string, root = dir) => {
  const trace = path.join(dir, ".git", "specbundle-trace.txt")
  fs.rmSync(trace, { force: true })
  const r = spawnSync(process.execPath, [CLI, "impact", "--root", root, "--staged", "--strict", "--quiet"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...env(), GIT_TRACE: trace }
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, calls: gitCallsIn(trace) }
}

const ids = (list: ReadonlyArray<{ id: string }>) => list.map((s) => s.id)

describe("the pre-commit hook's git processes", () => {
  it("three to find the changes: one rev-parse for the top, the prefix and HEAD, the index listing, the staged diff; HEAD is the old side", () => {
    const dir = repo()
    fs.rmSync(path.join(dir, "specs", "b.sdp.md"))
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha, renamed"))
    git(dir, "add", "-A")
    const r = hook(dir)
    expect([r.code, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout)
    // The removed Spec is known only from HEAD's tree: the old side was read at the commit rev-parse named.
    expect(ids(report.removedSpecs)).toEqual(["spec:b"])
    expect(ids(report.impactedSpecs)).toEqual(["spec:a"])
    // (The old side's blobs come from `cat-file --batch` afterwards, unless a cache holds them.)
    expect(r.calls.filter((c) => !c.startsWith("cat-file --batch"))).toHaveLength(3)
    expect(r.calls.filter((c) => c.includes("rev-parse"))).toEqual([
      expect.stringMatching(/rev-parse --show-toplevel --show-prefix --verify --quiet 'HEAD\^\{commit\}'$/)
    ])
    expect(r.calls.filter((c) => c === "ls-files -s -z")).toHaveLength(1)
    expect(r.calls.filter((c) => /^diff .*--cached/.test(c))).toHaveLength(1)
  })

  it("before the first commit: the same one rev-parse (no HEAD: a silent exit 1 after the location), every staged Spec added", () => {
    const dir = tempDir("specbundle-start-up-")
    git(dir, "init", "-q", "-b", "main")
    fs.mkdirSync(path.join(dir, "specs"))
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
    git(dir, "add", "-A")
    const r = hook(dir)
    expect([r.code, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout)
    expect(report.changedFiles).toEqual([{ path: "specs/a.sdp.md", status: "added" }])
    expect(ids(report.impactedSpecs)).toEqual(["spec:a"])
    expect(r.calls.filter((c) => c.includes("rev-parse"))).toHaveLength(1)
  })

  /** A repository with a Spec in `sub/`, staged changed, and one at the top. */
  const withSubFolder = () => {
    const dir = repo()
    fs.mkdirSync(path.join(dir, "sub"))
    fs.writeFileSync(path.join(dir, "sub", "c.sdp.md"), spec("spec:c", "Gamma"))
    git(dir, "add", "-A")
    git(dir, "commit", "-q", "-m", "sub")
    fs.writeFileSync(path.join(dir, "sub", "c.sdp.md"), spec("spec:c", "Gamma, renamed"))
    git(dir, "add", "-A")
    return dir
  }
  const listings = (calls: ReadonlyArray<string>) => calls.filter((c) => c === "ls-files -s -z" || /^diff .*--cached/.test(c))

  it("the root a sub-folder (no `.git` in it): the listings only after rev-parse, at the top; the report the sub-folder's", () => {
    const dir = withSubFolder()
    const r = hook(dir, path.join(dir, "sub"))
    expect([r.code, r.stderr]).toEqual([0, ""])
    expect(ids(JSON.parse(r.stdout).impactedSpecs)).toEqual(["spec:c"])
    expect(r.calls.filter((c) => c.includes("rev-parse"))).toHaveLength(1)
    expect(listings(r.calls)).toHaveLength(2)
  })

  it("a sub-folder holding a `.git` that is no repository: the early listings are dropped and asked again at the top, the same report", () => {
    const dir = withSubFolder()
    const plain = hook(dir, path.join(dir, "sub"))
    fs.mkdirSync(path.join(dir, "sub", ".git"))
    const r = hook(dir, path.join(dir, "sub"))
    expect([r.code, r.stderr]).toEqual([0, ""])
    expect(r.stdout).toBe(plain.stdout)
    expect(r.calls.filter((c) => c.includes("rev-parse"))).toHaveLength(1)
    // Twice each: beside rev-parse in sub/, then at the top.
    expect(listings(r.calls)).toHaveLength(4)
  })

  it("outside any repository the run fails with rev-parse's line (exit 1), whatever the early listings said", () => {
    const dir = tempDir("specbundle-start-up-")
    fs.mkdirSync(path.join(dir, ".git"))
    const r = spawnSync(process.execPath, [CLI, "impact", "--root", dir, "--staged", "--quiet"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...env(), GIT_CEILING_DIRECTORIES: path.dirname(dir) }
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`specbundle: ${dir} is not inside a git repository\n`)
  })
})

describe("a changeset's git processes (the PR bundle)", () => {
  it("one rev-parse names the top, the prefix, the index and the git folder: the work tree's files are still vouched for by object id", () => {
    const dir = repo()
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha, renamed"))
    git(dir, "commit", "-q", "-am", "rename")
    const cache = tempDir("specbundle-start-up-cache-")
    const trace = path.join(dir, ".git", "specbundle-trace.txt")
    const withCache: NodeJS.ProcessEnv = { ...env(), GIT_TRACE: trace, SPECBUNDLE_CODE_CACHE_DIR: cache }
    delete withCache.SPECBUNDLE_CODE_CACHE
    const bundle = () => {
      fs.rmSync(trace, { force: true })
      const r = spawnSync(process.execPath, [CLI, "bundle", "--root", dir, "--changeset", "HEAD~1", "--parts", "--budget", "20000"], {
        cwd: dir,
        encoding: "utf8",
        env: withCache
      })
      return { code: r.status, stdout: r.stdout, stderr: r.stderr, calls: gitCallsIn(trace) }
    }
    const first = bundle()
    expect([first.code, first.stderr]).toEqual([0, ""])
    expect(first.stdout).toContain("spec:a")
    const revParses = first.calls.filter((c) => c.includes("rev-parse"))
    expect(revParses).toHaveLength(2)
    expect(revParses[0]).toMatch(/rev-parse --show-toplevel --show-prefix --path-format=absolute --git-path index --git-common-dir$/)
    expect(revParses[1]).toMatch(/rev-parse --verify --quiet --end-of-options 'HEAD~1\^\{commit\}'$/)
    expect(first.calls.filter((c) => c.includes("diff-files"))).toHaveLength(1)
    // git's answer was used: the cache's entries carry the index's object ids (given only where git vouched).
    const second = bundle()
    expect([second.code, second.stdout]).toEqual([0, first.stdout])
    // (b is no old-side file: only the work tree's cache holds it.)
    const entries = parseCacheEntries(cache, "specs/b.sdp.md")
    for (const file of ["specs/a.sdp.md", "specs/b.sdp.md"]) expect(entries.get(file)?.oid, file).toBe(git(dir, "rev-parse", `HEAD:${file}`).trim())
  })
})

describe("what the hook's process loads", () => {
  /** Node's built-in modules the built CLI loaded (a preload lists them at exit), without any cache. */
  const builtins = (dir: string, args: ReadonlyArray<string>): string[] => {
    const list = path.join(dir, ".git", "specbundle-builtins.txt")
    const probe = path.join(dir, ".git", "specbundle-probe.cjs")
    fs.writeFileSync(
      probe,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13)).join("\\n")))\n`
    )
    const r = spawnSync(process.execPath, ["--require", probe, CLI, ...args], { cwd: dir, encoding: "utf8", env: { ...env(), SPECBUNDLE_CODE_CACHE: "0" } })
    expect(r.status, r.stderr).toBe(0)
    return fs.readFileSync(list, "utf8").split("\n")
  }

  it("a small corpus's staged hook starts no worker thread, walks no folder and prompts for nothing: no node:worker_threads, fs.promises or node:readline", () => {
    const dir = repo()
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha, staged"))
    git(dir, "add", "-A")
    const loaded = builtins(dir, ["impact", "--staged", "--strict", "--quiet"])
    expect(loaded).toContain("child_process")
    expect(loaded).not.toContain("worker_threads")
    expect(loaded).not.toContain("internal/fs/promises")
    // node:readline is the terminal's, which only --wizard's prompts read.
    expect(loaded).not.toContain("readline")
    // A read of the work tree walks its folders: the same probe sees fs.promises load then.
    expect(builtins(dir, ["check", "--quiet"])).toContain("internal/fs/promises")
  })
})

describe("what the hook's handlers evaluate", () => {
  /** The repository's source files a module reaches when its code runs (static and dynamic imports; types-only ones go). */
  const reached = (entry: string): string[] =>
    Object.keys(
      buildSync({
        entryPoints: [path.join(REPO, entry)],
        absWorkingDir: REPO,
        bundle: true,
        write: false,
        metafile: true,
        platform: "node",
        format: "esm",
        packages: "external",
        logLevel: "silent"
      }).metafile.inputs
    )

  // The hook's command lines run from their own bundle (src/hook.ts, chosen by the loader), which
  // builds the Changes use case alone; Drift comes with it, as the impact report can carry its section.
  it("the hook bundle builds the Changes use case alone: no composer, manifest, tokenizer, stale or corpus modules", () => {
    for (const entry of ["src/hook.ts"]) {
      const files = reached(entry)
      expect(files, entry).toContain("src/usecases/Changes.ts")
      for (const other of [
        "src/usecases/layer.ts",
        "src/usecases/Bundler.ts",
        "src/services/Composer.ts",
        "src/core/manifest.ts",
        "src/node/tokenizer.ts",
        "src/usecases/Stale.ts",
        "src/usecases/Corpus.ts"
      ]) {
        expect(files, entry).not.toContain(other)
      }
    }
  })
})
