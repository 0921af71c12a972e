// Warm runs print what uncached runs print, in real repositories through the built CLI, across
// what happens to a work tree between commits: edits, branch switches that keep every size,
// `git stash` and `reset --hard`, a rename, a delete, two runs at once, and a cache file cut short
// or of another format. And with core.autocrlf, a warm `--staged` run asks git for no blob.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { sealed, unsealed } from "../support/cache-file.js"
import type { Run } from "../support/cli.js"
import { cacheEnv as envOf, cli, cliAsync } from "../support/cli.js"
import type { Repo } from "../support/git.js"
import { codeAnchor, makeRepo, specCarrier, tempDir } from "../support/git.js"

const PACK = (members: ReadonlyArray<string>) => `---\nid: pack:all\nspecs:\n${members.map((m) => `  - ${m}`).join("\n")}\n---\n# All\n`

/** What the hook, the work tree's impact and a whole bundle print (each reads the corpus a way of its own). */
const COMMANDS = [
  ["impact", "--staged"],
  ["impact", "--changeset", "HEAD"],
  ["bundle", "--pack", "pack:all", "--parts", "--budget", "20000"]
]
/**
 * The commands' runs as subprocesses the test worker does not wait on (its RPC to the runner times
 * out at 60 s): one after another with a cache (the first may record what the next reads), all at
 * once without one (nothing is shared, so order cannot matter).
 */
const runAll = async (repo: Repo, cache: string | undefined): Promise<Run[]> => {
  const run = (args: ReadonlyArray<string>) => cliAsync(repo.dir, args, { env: envOf(cache), timeout: 60_000 })
  if (cache === undefined) return Promise.all(COMMANDS.map(run))
  const runs: Run[] = []
  for (const args of COMMANDS) runs.push(await run(args))
  return runs
}

/** Each command warm (twice: the first may record, the second trusts) prints what it prints without any cache. */
const expectSameAsUncached = async (repo: Repo, cache: string) => {
  const reference = await runAll(repo, undefined)
  for (const r of reference) expect(r.status, r.stderr).toBe(0)
  expect(await runAll(repo, cache)).toEqual(reference)
  expect(await runAll(repo, cache)).toEqual(reference)
}

const IDS = ["spec:i.one", "spec:i.two", "spec:i.three"]
const corpus = (): Repo => {
  const repo = makeRepo()
  repo.write("pack.sdp.md", PACK(IDS))
  repo.write("one.sdp.md", specCarrier("spec:i.one", "One"))
  repo.write("two.sdp.md", specCarrier("spec:i.two", "Two"))
  repo.write("three.sdp.md", specCarrier("spec:i.three", "Three"))
  repo.write("src/one.ts", codeAnchor("impl:i.one", ["spec:i.one"]))
  repo.write("src/two.ts", codeAnchor("impl:i.two", ["spec:i.two"]))
  repo.commit("first")
  return repo
}

/** Past the racy window (3 s): the next run records stat data it will trust. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3500))

describe("a warm run prints what an uncached run prints", () => {
  it("across edits, a branch switch that keeps every size, git stash and reset --hard", async () => {
    const repo = corpus()
    const cache = tempDir("specbundle-inc-cache-")
    repo.git("checkout", "-q", "-b", "other")
    // Same sizes on the other branch: stat data alone (size) cannot tell the branches apart.
    repo.write("one.sdp.md", specCarrier("spec:i.one", "Eno"))
    repo.write("src/one.ts", codeAnchor("impl:i.eno", ["spec:i.two"]))
    repo.commit("other")
    repo.git("checkout", "-q", "main")
    await settle()
    await expectSameAsUncached(repo, cache)
    repo.git("checkout", "-q", "other")
    await expectSameAsUncached(repo, cache)
    await settle()
    await expectSameAsUncached(repo, cache)
    repo.git("checkout", "-q", "main")
    await expectSameAsUncached(repo, cache)
    // An edit staged, another not; then stashed away and back, then thrown away.
    repo.write("two.sdp.md", specCarrier("spec:i.two", "Two, edited"))
    repo.git("add", "two.sdp.md")
    repo.write("src/two.ts", codeAnchor("impl:i.two", ["spec:i.three"]))
    await expectSameAsUncached(repo, cache)
    repo.git("stash", "-q")
    await expectSameAsUncached(repo, cache)
    repo.git("stash", "pop", "-q", "--index")
    await expectSameAsUncached(repo, cache)
    repo.git("reset", "-q", "--hard")
    await expectSameAsUncached(repo, cache)
  }, 600_000)

  it("after a rename and a delete, staged or not", async () => {
    const repo = corpus()
    const cache = tempDir("specbundle-inc-cache-")
    await expectSameAsUncached(repo, cache)
    repo.git("mv", "one.sdp.md", "renamed.sdp.md")
    repo.git("mv", "src/one.ts", "src/renamed.ts")
    await expectSameAsUncached(repo, cache)
    repo.git("rm", "-q", "three.sdp.md")
    await expectSameAsUncached(repo, cache)
    repo.remove("src/two.ts")
    await expectSameAsUncached(repo, cache)
    repo.commit("renamed and deleted")
    await expectSameAsUncached(repo, cache)
  }, 600_000)

  it("two runs at once leave a cache the next runs use", async () => {
    const repo = corpus()
    const cache = tempDir("specbundle-inc-cache-")
    const reference = await runAll(repo, undefined)
    const spawned = (args: ReadonlyArray<string>) => cliAsync(repo.dir, args, { env: envOf(cache), timeout: 60_000 })
    for (const [i, args] of COMMANDS.entries()) {
      const both = await Promise.all([spawned(args), spawned(args)])
      expect(both).toEqual([reference[i], reference[i]])
    }
    expect(await runAll(repo, cache)).toEqual(reference)
    // No temp file is left behind by either writer.
    expect(fs.readdirSync(cache).filter((n) => n.endsWith(".tmp"))).toEqual([])
  }, 600_000)

  it("a cache file cut short, or of another format with a valid checksum, is ignored and rewritten", async () => {
    const repo = corpus()
    const cache = tempDir("specbundle-inc-cache-")
    const reference = await runAll(repo, undefined)
    expect(await runAll(repo, cache)).toEqual(reference)
    // Each shard's entries file (its prose file is named after its content: cut short, it is not used).
    const shards = () => fs.readdirSync(cache).filter((n) => n.startsWith("specbundle-parse-") && /-[0-9a-f]{2}\.json$/.test(n))
    const prose = () => fs.readdirSync(cache).filter((n) => n.startsWith("specbundle-parse-") && /-[0-9a-f]{32}\.json$/.test(n))
    expect(shards().length).toBeGreaterThan(0)
    const damage = [
      (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2)),
      (bytes: Buffer) => bytes.subarray(0, bytes.length - 1),
      // Another format's file, whole and sealed, whose entries would hide every Spec if read.
      (bytes: Buffer) => {
        const [head, entries] = unsealed(bytes).toString("utf8").split("\n")
        const value = JSON.parse(head) as { reads: Array<{ specs: unknown[] }> }
        const hidden = { ...value, format: 4, reads: value.reads.map((read) => ({ ...read, specs: [] })) }
        return sealed(`${JSON.stringify(hidden)}\n${entries}`)
      }
    ]
    // The staged run's kept answer (src/node/savedAnswer.ts) would answer without reading any shard: gone each round.
    const answers = () => fs.readdirSync(cache).filter((n) => n.startsWith("specbundle-parse-answer-"))
    for (const cut of damage) {
      for (const name of answers()) fs.rmSync(path.join(cache, name))
      const written = new Map(shards().map((n) => [n, fs.readFileSync(path.join(cache, n))]))
      for (const [name, bytes] of written) fs.writeFileSync(path.join(cache, name), cut(bytes), { mode: 0o600 })
      expect(await runAll(repo, cache)).toEqual(reference)
      // Rewritten whole: the next run reads them back.
      for (const name of shards()) expect(fs.readFileSync(path.join(cache, name)).equals(cut(written.get(name) ?? Buffer.alloc(0)))).toBe(false)
      expect(await runAll(repo, cache)).toEqual(reference)
    }
    // A prose file cut short: its shard is read again (and its Specs' prose is never read from it).
    expect(prose().length).toBeGreaterThan(0)
    for (const name of answers()) fs.rmSync(path.join(cache, name))
    for (const name of prose()) fs.writeFileSync(path.join(cache, name), fs.readFileSync(path.join(cache, name)).subarray(0, 40), { mode: 0o600 })
    expect(await runAll(repo, cache)).toEqual(reference)
    expect(await runAll(repo, cache)).toEqual(reference)
  }, 600_000)
})

/** The git commands a run started, from GIT_TRACE (one "trace: built-in: git …" line each). */
const gitCalls = (trace: string): string[] =>
  fs.existsSync(trace)
    ? fs
        .readFileSync(trace, "utf8")
        .split("\n")
        .flatMap((l) => /trace: built-in: git (.*)$/.exec(l)?.[1] ?? [])
    : []

/** A repository whose index holds the corpus and a package.json, and a staged new code file. */
const stagedCorpus = (setup: (repo: Repo) => void): Repo => {
  const repo = makeRepo()
  setup(repo)
  repo.write("package.json", `{"name":"demo","private":true}\n`)
  repo.write("pack.sdp.md", PACK(IDS))
  for (const [i, id] of IDS.entries()) repo.write(`s${i}.sdp.md`, specCarrier(id, `Spec ${i}`))
  repo.write("src/one.ts", codeAnchor("impl:i.one", ["spec:i.one"]))
  repo.commit("first")
  repo.write("src/two.ts", codeAnchor("impl:i.two", ["spec:i.two"]))
  repo.git("add", "src/two.ts")
  return repo
}

const HOOK = ["impact", "--staged", "--strict"]

/** A `--staged` run with the cache folder and the git commands it started. */
const traced = (repo: Repo, cache: string) => {
  const trace = path.join(tempDir("specbundle-inc-trace-"), "trace")
  const run = cli(repo.dir, HOOK, { env: envOf(cache, { GIT_TRACE: trace }) })
  return { run, blobReads: gitCalls(trace).filter((c) => c.startsWith("cat-file")), calls: gitCalls(trace).length }
}

describe("--staged asks git for blobs only where the work tree cannot give them, once", () => {
  it("core.autocrlf: CRLF files on disk stand in for the index's LF blobs (their twin has the object id): no blob read, cold or warm", () => {
    const repo = stagedCorpus((r) => r.git("config", "core.autocrlf", "true"))
    // Written out again: CRLF on disk, LF in the index, git sees no change.
    for (const f of ["package.json", "pack.sdp.md", "s0.sdp.md", "s1.sdp.md", "s2.sdp.md", "src/one.ts", "src/two.ts"]) repo.remove(f)
    repo.git("checkout", "--", ".")
    expect(fs.readFileSync(path.join(repo.dir, "s0.sdp.md"), "utf8")).toContain("\r\n")
    expect(fs.readFileSync(path.join(repo.dir, "package.json"), "utf8")).toContain("\r\n")
    const reference = cli(repo.dir, HOOK, { env: envOf(undefined) })
    expect(reference.status, reference.stderr).toBe(0)
    expect(reference.stdout).toContain("spec:i.two")
    const cache = tempDir("specbundle-inc-cache-")
    for (let i = 0; i < 2; i++) {
      const run = traced(repo, cache)
      expect(run.run).toEqual(reference)
      expect(run.calls).toBeGreaterThan(0)
      expect(run.blobReads).toEqual([])
    }
  }, 120_000)

  it("a file changed again after staging: its blob is read once, then its result is kept by object id", () => {
    const repo = stagedCorpus(() => {})
    repo.write("s1.sdp.md", specCarrier("spec:i.two", "Spec 1, staged"))
    repo.git("add", "s1.sdp.md")
    repo.write("s1.sdp.md", specCarrier("spec:i.two", "Spec 1, not staged"))
    const reference = cli(repo.dir, HOOK, { env: envOf(undefined) })
    expect(reference.status, reference.stderr).toBe(0)
    const cache = tempDir("specbundle-inc-cache-")
    const first = traced(repo, cache)
    expect(first.run).toEqual(reference)
    expect(first.blobReads).not.toEqual([])
    const second = traced(repo, cache)
    expect(second.run).toEqual(reference)
    // The old side of the staged Spec comes from git (a changed file's), not the new side's blob.
    expect(second.blobReads.length).toBeLessThan(first.blobReads.length)
  }, 120_000)
})

describe("a changeset's new side that is a commit's tree, warm, prints what an uncached run prints", () => {
  /** Runs whose new side is a commit's tree: an untracked file in the work tree, or a commit other than HEAD. */
  const TREE_COMMANDS = [
    ["impact", "--changeset", "HEAD~1...HEAD"],
    ["bundle", "--changeset", "HEAD~1", "--parts", "--budget", "20000"],
    ["impact", "--changeset", "HEAD~2..HEAD~1"]
  ]
  const runTree = async (repo: Repo, cache: string | undefined): Promise<Run[]> => {
    const runs: Run[] = []
    for (const args of TREE_COMMANDS) runs.push(await cliAsync(repo.dir, args, { env: envOf(cache), timeout: 60_000 }))
    return runs
  }
  const same = async (repo: Repo, cache: string) => {
    const reference = await runTree(repo, undefined)
    for (const r of reference) expect(r.status, r.stderr).toBe(0)
    expect(await runTree(repo, cache)).toEqual(reference)
    expect(await runTree(repo, cache)).toEqual(reference)
  }
  /** The cache files of the commit trees' reads, from their names' key (the source is part of it): any at all. */
  const parseFiles = (cache: string) => fs.readdirSync(cache).filter((n) => n.startsWith("specbundle-parse-"))

  it("after edits, a commit, a checkout, a same-size same-second rewrite, a deleted and a foreign shard file", async () => {
    const repo = corpus()
    repo.write("two.sdp.md", specCarrier("spec:i.two", "Two, again"))
    repo.commit("second")
    repo.write("src/one.ts", codeAnchor("impl:i.one", ["spec:i.one", "spec:i.three"]))
    repo.commit("third")
    // An untracked file: the work tree is not HEAD's tree as it is, so HEAD's tree is read by object id.
    repo.write("notes/untracked.md", "# not added\n")
    const cache = tempDir("specbundle-inc-cache-")
    await same(repo, cache)
    expect(parseFiles(cache).length).toBeGreaterThan(0)
    await settle()
    await same(repo, cache)
    // The tree's files come from the work tree where it holds their objects (and from the cache,
    // warm), not from git's blobs: the one blob batch left is the old side's (the changed files'
    // old versions). Read from git's blobs, the new side asked a second.
    const blobBatches = async (dir: string | undefined) => {
      const trace = path.join(tempDir("specbundle-inc-trace-"), "trace")
      const r = await cliAsync(repo.dir, TREE_COMMANDS[0]!, { env: envOf(dir, { GIT_TRACE: trace }), timeout: 60_000 })
      expect(r.status, r.stderr).toBe(0)
      return gitCalls(trace).filter((c) => c.startsWith("cat-file")).length
    }
    expect(await blobBatches(undefined)).toBe(1)
    expect(await blobBatches(cache)).toBe(1)
    // Edits in the work tree the tree's files no longer hold: their bytes come from git.
    repo.write("three.sdp.md", specCarrier("spec:i.three", "Three, edited"))
    repo.write("src/two.ts", codeAnchor("impl:i.two", ["spec:i.one"]))
    await same(repo, cache)
    // The same size, the same second, other bytes: the stat data cannot tell, the object id does.
    const before = fs.statSync(path.join(repo.dir, "one.sdp.md"))
    repo.write("one.sdp.md", specCarrier("spec:i.one", "Eno"))
    fs.utimesSync(path.join(repo.dir, "one.sdp.md"), before.atime, before.mtime)
    expect(fs.statSync(path.join(repo.dir, "one.sdp.md")).size).toBe(before.size)
    await same(repo, cache)
    repo.commit("fourth")
    await same(repo, cache)
    repo.git("checkout", "-q", "HEAD~1")
    await same(repo, cache)
    repo.git("checkout", "-q", "main")
    await same(repo, cache)
    // A shard file deleted, and every shard file swapped for another's (a shard of another read or version).
    const shards = () => fs.readdirSync(cache).filter((n) => n.startsWith("specbundle-parse-") && /-[0-9a-f]{2}\.json$/.test(n))
    fs.rmSync(path.join(cache, shards()[0]!))
    await same(repo, cache)
    const names = shards()
    const bytes = names.map((n) => fs.readFileSync(path.join(cache, n)))
    names.forEach((n, i) => fs.writeFileSync(path.join(cache, n), bytes[(i + 1) % bytes.length]!, { mode: 0o600 }))
    await same(repo, cache)
  }, 600_000)
})
