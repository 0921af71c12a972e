// The fast paths inside a git repository give the bytes the slow ones gave, through the built CLI
// as a subprocess in real repositories: what git ignores comes from one `git ls-files` (checked
// here against `git check-ignore` path by path), `--staged` reads the working tree where it holds
// the index's bytes (checked against a copy whose working tree is the index), and the parse
// cache's stat data never hide an edit (a same-size edit with the mtime set back).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { unsealed } from "../support/cache-file.js"
import { codeAnchor, makeRepo, repoAt, runGitIn, specCarrier, tempDir } from "../support/git.js"
import { CLI, cleanEnv } from "../support/hostile.js"

interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
  /** The manifest's file list and graph digest (`--out`), when the command wrote one. */
  readonly files?: unknown
}

/** Runs the CLI; `cache`: a cache folder, or undefined for none (SPECBUNDLE_CODE_CACHE=0). */
const cli = (cwd: string, args: ReadonlyArray<string>, cache: string | undefined, workers = "0"): Run => {
  const env: NodeJS.ProcessEnv = { ...cleanEnv(), SPECBUNDLE_WORKERS: workers }
  if (cache === undefined) {
    env.SPECBUNDLE_CODE_CACHE = "0"
    delete env.SPECBUNDLE_CODE_CACHE_DIR
  } else {
    env.SPECBUNDLE_CODE_CACHE_DIR = cache
    delete env.SPECBUNDLE_CODE_CACHE
  }
  const out = args.includes("bundle") ? tempDir("specbundle-fast-out-") : undefined
  const r = spawnSync(process.execPath, [CLI, ...args, ...(out === undefined ? [] : ["--out", out])], { cwd, env, encoding: "utf8", timeout: 120_000 })
  const run: Run = { status: r.status, stdout: r.stdout, stderr: r.stderr.replaceAll(out ?? "\0", "OUT") }
  if (out === undefined) return run
  const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as {
    builtFrom: { files: unknown; graphDigest: string }
    parts: Array<{ file: string }>
  }
  const parts = manifest.parts.map((p) => fs.readFileSync(path.join(out, p.file), "utf8"))
  return { ...run, files: { files: manifest.builtFrom.files, digest: manifest.builtFrom.graphDigest, parts } }
}

const PACK = (members: ReadonlyArray<string>) => `---\nid: pack:all\nspecs:\n${members.map((m) => `  - ${m}`).join("\n")}\n---\n# All\n`

describe("what git ignores, from one listing", () => {
  it("ignored files, nested .gitignore files, core.excludesFile and .git/info/exclude: the files check-ignore lets through, no more", () => {
    const repo = makeRepo()
    const outside = tempDir("specbundle-excludes-")
    fs.writeFileSync(path.join(outside, "ignore"), "personal.sdp.md\n")
    repo.git("config", "core.excludesFile", path.join(outside, "ignore"))
    repo.git("config", "core.quotePath", "true")
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"].map((x) => `spec:t.${x}`)
    const files: Record<string, string> = {
      ".gitignore": "build-out/\n*.draft.sdp.md\n",
      "corpus/pack.sdp.md": PACK(ids),
      "corpus/a.sdp.md": specCarrier("spec:t.a"),
      "corpus/b.draft.sdp.md": specCarrier("spec:t.b"),
      "corpus/forced.draft.sdp.md": specCarrier("spec:t.c"),
      "corpus/build-out/d.sdp.md": specCarrier("spec:t.d"),
      "corpus/sub/.gitignore": "local.sdp.md\n!keep.draft.sdp.md\n",
      "corpus/sub/local.sdp.md": specCarrier("spec:t.e"),
      "corpus/sub/keep.draft.sdp.md": specCarrier("spec:t.f"),
      "corpus/sub/deeper/local.sdp.md": specCarrier("spec:t.g"),
      "corpus/personal.sdp.md": specCarrier("spec:t.h"),
      "corpus/info-excluded/i.sdp.md": specCarrier("spec:t.i"),
      "corpus/ünï cöde/j.ts": codeAnchor("impl:t.j", ["spec:t.j"]),
      "corpus/ünï cöde/j.sdp.md": specCarrier("spec:t.j"),
      "corpus/build-out/k.ts": codeAnchor("impl:t.k", ["spec:t.a"]),
      "corpus/gone.sdp.md": specCarrier("spec:t.k")
    }
    for (const [file, text] of Object.entries(files)) repo.write(file, text)
    fs.appendFileSync(path.join(repo.dir, ".git/info/exclude"), "info-excluded/\n")
    repo.git("add", "-A")
    repo.git("add", "-f", "corpus/forced.draft.sdp.md")
    repo.git("commit", "-q", "-m", "corpus")
    // Untracked and not ignored; tracked but deleted from the working tree; a nested repository.
    repo.write("corpus/new.sdp.md", specCarrier("spec:t.new"))
    repo.remove("corpus/gone.sdp.md")
    const nested = path.join(repo.dir, "corpus/vendor")
    fs.mkdirSync(nested)
    runGitIn(nested, ["init", "-q"])
    repoAt(nested).write("v.sdp.md", specCarrier("spec:t.vendored"))

    // The slow path's answer: every candidate file, asked of git check-ignore one by one.
    const root = path.join(repo.dir, "corpus")
    const candidates = [
      "a.sdp.md",
      "b.draft.sdp.md",
      "forced.draft.sdp.md",
      "build-out/d.sdp.md",
      "sub/local.sdp.md",
      "sub/keep.draft.sdp.md",
      "sub/deeper/local.sdp.md",
      "personal.sdp.md",
      "info-excluded/i.sdp.md",
      "ünï cöde/j.ts",
      "ünï cöde/j.sdp.md",
      "build-out/k.ts",
      "new.sdp.md",
      "pack.sdp.md"
    ]
    const ignored = candidates.filter((f) => spawnSync("git", ["check-ignore", "-q", "--", f], { cwd: root, env: cleanEnv() }).status === 0)
    expect(ignored.sort()).toEqual([
      "b.draft.sdp.md",
      "build-out/d.sdp.md",
      "build-out/k.ts",
      "info-excluded/i.sdp.md",
      "personal.sdp.md",
      "sub/deeper/local.sdp.md",
      "sub/local.sdp.md"
    ])
    // The same files outside git: what a reader that asks git nothing reads.
    const plain = tempDir("specbundle-plain-")
    for (const f of candidates) if (!ignored.includes(f)) fs.cpSync(path.join(root, f), path.join(plain, f))

    const args = ["bundle", "--specs", "spec:t.a", "--parts", "--budget", "20000"]
    const reference = cli(plain, args, undefined)
    expect(reference.status).toBe(0)
    const listed = (reference.files as { files: Array<{ path: string }> }).files.map((f) => f.path)
    expect(listed).toEqual(["a.sdp.md", "forced.draft.sdp.md", "new.sdp.md", "pack.sdp.md", "sub/keep.draft.sdp.md", "ünï cöde/j.sdp.md", "ünï cöde/j.ts"])
    const cache = tempDir("specbundle-fast-cache-")
    for (const run of [cli(root, args, undefined), cli(root, args, cache), cli(root, args, cache, "2")]) {
      expect(run.files).toEqual(reference.files)
      expect(run.stdout).toBe(reference.stdout)
      expect(run.status).toBe(0)
    }
    const check = cli(plain, ["check"], undefined)
    expect(cli(root, ["check"], undefined)).toEqual(check)
  }, 120_000)
})

/** A repository whose index differs from its working tree in every way a pre-commit hook meets. */
const stagedRepo = () => {
  const repo = makeRepo()
  const ids = ["spec:s.one", "spec:s.two", "spec:s.three", "spec:s.gone"]
  repo.write("pack.sdp.md", PACK(ids))
  repo.write("one.sdp.md", specCarrier("spec:s.one", "One"))
  repo.write("two.sdp.md", specCarrier("spec:s.two", "Two"))
  repo.write("three.sdp.md", specCarrier("spec:s.three", "Three"))
  repo.write("gone.sdp.md", specCarrier("spec:s.gone", "Gone"))
  repo.write("src/one.ts", codeAnchor("impl:s.one", ["spec:s.one"]))
  repo.write("src/two.ts", codeAnchor("impl:s.two", ["spec:s.two"]))
  repo.commit("first")
  // Staged, then changed again in the working tree (the hook must see the staged text).
  repo.write("one.sdp.md", specCarrier("spec:s.one", "One, staged"))
  repo.write("src/one.ts", codeAnchor("impl:s.one", ["spec:s.one", "spec:s.two"]))
  repo.git("add", "one.sdp.md", "src/one.ts")
  repo.write("one.sdp.md", specCarrier("spec:s.one", "One, not staged yet"))
  repo.write("src/one.ts", codeAnchor("impl:s.one.renamed", ["spec:s.three"]))
  // Staged as deleted, still on disk; deleted on disk, still in the index; new and staged.
  repo.git("rm", "-q", "--cached", "gone.sdp.md")
  repo.remove("two.sdp.md")
  repo.write("src/three.ts", codeAnchor("impl:s.three", ["spec:s.three"]))
  repo.git("add", "src/three.ts")
  // Untracked: not in the index, so not in the staged graph.
  repo.write("four.sdp.md", specCarrier("spec:s.four", "Four"))
  return repo
}

/** A copy of the repository whose working tree is exactly its index: any reader gives the index's bytes there. */
const indexCopy = (dir: string): string => {
  const copy = tempDir("specbundle-index-copy-")
  fs.cpSync(dir, copy, { recursive: true })
  runGitIn(copy, ["checkout-index", "-a", "-f"])
  runGitIn(copy, ["clean", "-q", "-f", "-d", "-x"])
  expect(runGitIn(copy, ["diff", "--name-only"])).toBe("")
  return copy
}

describe("--staged reads the working tree where it holds the index's bytes", () => {
  it("a staged file changed again, a file staged as deleted, one deleted on disk: the same output as from the index alone", () => {
    const repo = stagedRepo()
    const copy = indexCopy(repo.dir)
    const cache = tempDir("specbundle-fast-cache-")
    for (const args of [
      ["impact", "--staged", "--strict"],
      ["bundle", "--staged", "--parts", "--budget", "20000"]
    ]) {
      const reference = cli(copy, args, undefined)
      expect(reference.status).toBe(0)
      expect(reference.stdout + JSON.stringify(reference.files)).toContain("spec:s.one")
      for (const run of [cli(repo.dir, args, undefined), cli(repo.dir, args, cache), cli(repo.dir, args, cache, "2")]) {
        expect(run).toEqual(reference)
      }
    }
    // The staged text, not the working tree's, reached the bundle.
    expect(JSON.stringify(cli(repo.dir, ["bundle", "--staged", "--parts", "--budget", "20000"], undefined).files)).toContain("One, staged")
  }, 120_000)

  it("in a sub-folder root, with CRLF conversion (bytes on disk differ from the index with no change git reports)", () => {
    const repo = makeRepo()
    repo.git("config", "core.autocrlf", "true")
    repo.write("docs/specs/pack.sdp.md", PACK(["spec:c.one"]))
    repo.write("docs/specs/one.sdp.md", specCarrier("spec:c.one", "One"))
    repo.write("docs/specs/one.ts", codeAnchor("impl:c.one", ["spec:c.one"]))
    repo.commit("first")
    // Checked out again under autocrlf: CRLF on disk, LF in the index, and git sees no change.
    for (const f of ["docs/specs/one.sdp.md", "docs/specs/one.ts"]) repo.remove(f)
    repo.git("checkout", "--", ".")
    expect(fs.readFileSync(path.join(repo.dir, "docs/specs/one.sdp.md"), "utf8")).toContain("\r\n")
    repo.write("docs/specs/pack.sdp.md", PACK(["spec:c.one", "spec:c.two"]))
    repo.git("add", "docs/specs/pack.sdp.md")
    const copy = indexCopy(repo.dir)
    runGitIn(copy, ["config", "core.autocrlf", "false"])
    runGitIn(copy, ["checkout-index", "-a", "-f"])
    const args = ["bundle", "--staged", "--parts", "--budget", "20000", "--root", "docs/specs"]
    const reference = cli(copy, args, undefined)
    expect(reference.status).toBe(0)
    const cache = tempDir("specbundle-fast-cache-")
    for (const run of [cli(repo.dir, args, undefined), cli(repo.dir, args, cache), cli(repo.dir, args, cache)]) expect(run).toEqual(reference)
  }, 120_000)

  // Whether the index holds intent-to-add placeholders (`git add -N`) costs a diff that stats the
  // whole work tree; it is asked only when an entry names the empty blob, and then once a run (the
  // index was listed twice, for package.json and for the corpus, each asking again).
  it("intent-to-add placeholders are asked about once a run, and only when the index holds an empty file", () => {
    const intentAsks = (dir: string) => {
      const trace = path.join(tempDir("specbundle-fast-trace-"), "trace")
      const env = { ...cleanEnv(), SPECBUNDLE_WORKERS: "0", SPECBUNDLE_CODE_CACHE: "0", GIT_TRACE: trace }
      const r = spawnSync(process.execPath, [CLI, "impact", "--staged", "--strict"], { cwd: dir, env, encoding: "utf8" })
      const calls = fs.readFileSync(trace, "utf8").split("\n")
      return { status: r.status, stdout: r.stdout, asks: calls.filter((l) => /trace: built-in: git .*--diff-filter=A/.test(l)).length }
    }
    const repo = makeRepo()
    repo.write("package.json", `{"name":"demo","private":true}\n`)
    repo.write("pack.sdp.md", PACK(["spec:n.one"]))
    repo.write("one.sdp.md", specCarrier("spec:n.one", "One"))
    repo.commit("first")
    repo.write("src/one.ts", codeAnchor("impl:n.one", ["spec:n.one"]))
    repo.git("add", "src/one.ts")
    const plain = intentAsks(repo.dir)
    expect(plain.status).toBe(0)
    expect(plain.asks).toBe(0)
    // An empty file in the index, and a file only intended to be added: its anchor is not staged.
    repo.write(".gitkeep", "")
    repo.git("add", ".gitkeep")
    repo.write("src/two.ts", codeAnchor("impl:n.two", ["spec:n.one"]))
    repo.git("add", "-N", "src/two.ts")
    const withEmpty = intentAsks(repo.dir)
    expect(withEmpty.status).toBe(0)
    expect(withEmpty.asks).toBe(1)
    expect(withEmpty.stdout).toContain("src/one.ts")
    expect(withEmpty.stdout).not.toContain("src/two.ts")
  }, 120_000)
})

/**
 * The entries for `file` in every parse cache of the folder (the work tree's, the index's, the old
 * side's): each shard's entries file, whose second line lists them (src/node/cacheFormat.ts).
 */
const CACHE_ENTRIES = (dir: string, file: string): Array<[string, string | null, string]> =>
  fs
    .readdirSync(dir)
    .filter((n) => n.startsWith("specbundle-parse-") && /-[0-9a-f]{2}\.json$/.test(n))
    .flatMap((name) => {
      const lines = unsealed(fs.readFileSync(path.join(dir, name)))
        .toString("utf8")
        .split("\n")
      return (JSON.parse(lines[1]) as Array<[string, string | null, string]>).filter((e) => e[0] === file)
    })

/** Rewrites a file with other bytes of the same length and puts its mtime (whole seconds, set before the last run) back. */
const sameSizeEdit = (file: string, from: string, to: string) => {
  const before = fs.statSync(file)
  const text = fs.readFileSync(file, "utf8")
  expect(from.length).toBe(to.length)
  expect(text).toContain(from)
  fs.writeFileSync(file, text.replace(from, to))
  fs.utimesSync(file, before.mtimeMs / 1000, before.mtimeMs / 1000)
  const after = fs.statSync(file)
  expect(after.size).toBe(before.size)
  expect(after.mtimeMs).toBe(before.mtimeMs)
}

describe("the parse cache's stat data", () => {
  const corpus = () => {
    const repo = makeRepo()
    repo.write("pack.sdp.md", PACK(["spec:r.one", "spec:r.two"]))
    repo.write("one.sdp.md", specCarrier("spec:r.one", "One"))
    repo.write("two.sdp.md", specCarrier("spec:r.two", "Two"))
    repo.write("src/a.ts", codeAnchor("impl:r.aaa", ["spec:r.one"]))
    repo.commit("first")
    // Whole seconds, so that sameSizeEdit can put the very same mtime back.
    const second = Math.floor(Date.now() / 1000)
    for (const f of ["one.sdp.md", "src/a.ts"]) fs.utimesSync(path.join(repo.dir, f), second, second)
    return repo
  }
  const ARGS = [
    ["bundle", "--specs", "spec:r.one", "--parts", "--budget", "20000"],
    ["impact", "--staged", "--strict"]
  ]

  it("an entry made stale by a same-size edit within the same second is read again (racy: too recent to trust)", () => {
    const repo = corpus()
    const cache = tempDir("specbundle-fast-cache-")
    for (const args of ARGS) expect(cli(repo.dir, args, cache).status).toBe(0)
    // The work tree's cache and the index's each hold the file (without stat data when it was changed
    // within RACY_MS of the run: see test/node/read-cache.test.ts for the rule itself).
    expect(CACHE_ENTRIES(cache, "src/a.ts")).toHaveLength(2)
    sameSizeEdit(path.join(repo.dir, "src/a.ts"), "impl:r.aaa", "impl:r.bbb")
    repo.git("add", "src/a.ts")
    sameSizeEdit(path.join(repo.dir, "one.sdp.md"), "# One", "# Eno")
    repo.git("add", "one.sdp.md")
    for (const args of ARGS) {
      const reference = cli(repo.dir, args, undefined)
      expect(reference.stdout + JSON.stringify(reference.files)).toContain("impl:r.bbb")
      expect(cli(repo.dir, args, cache)).toEqual(reference)
    }
  }, 120_000)

  it("an entry trusted by its stat data is read again after a same-size edit that keeps size and mtime (ctime moved)", async () => {
    const repo = corpus()
    const cache = tempDir("specbundle-fast-cache-")
    // Old enough to be trusted by stat data (docs/decisions.md: the racy rule).
    await new Promise((resolve) => setTimeout(resolve, 3500))
    for (const args of ARGS) expect(cli(repo.dir, args, cache).status).toBe(0)
    // The work tree's cache keeps stat data; the index's needs none (its entries go by object id).
    const entries = CACHE_ENTRIES(cache, "src/a.ts")
    expect(entries).toHaveLength(2)
    expect(entries.filter((e) => e[1] !== null)).toHaveLength(1)
    sameSizeEdit(path.join(repo.dir, "src/a.ts"), "impl:r.aaa", "impl:r.ccc")
    repo.git("add", "src/a.ts")
    for (const args of ARGS) {
      const reference = cli(repo.dir, args, undefined)
      expect(reference.stdout + JSON.stringify(reference.files)).toContain("impl:r.ccc")
      expect(cli(repo.dir, args, cache)).toEqual(reference)
      expect(cli(repo.dir, args, cache, "2")).toEqual(reference)
    }
  }, 120_000)

  it("SPECBUNDLE_CODE_CACHE=0 writes nothing; a cache folder that cannot be created is not used", () => {
    const repo = corpus()
    const cache = tempDir("specbundle-fast-cache-")
    const args = ["impact", "--staged", "--strict"]
    const reference = cli(repo.dir, args, undefined)
    const env = { ...cleanEnv(), SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_CODE_CACHE_DIR: cache }
    const off = spawnSync(process.execPath, [CLI, ...args], { cwd: repo.dir, env, encoding: "utf8" })
    expect({ status: off.status, stdout: off.stdout, stderr: off.stderr }).toEqual(reference)
    expect(fs.readdirSync(cache)).toEqual([])
    // A regular file where the folder would go.
    const blocked = path.join(cache, "a-file")
    fs.writeFileSync(blocked, "")
    expect(cli(repo.dir, args, path.join(blocked, "cache"))).toEqual(reference)
    expect(cli(repo.dir, args, path.join(blocked, "cache"))).toEqual(reference)
  }, 120_000)
})
