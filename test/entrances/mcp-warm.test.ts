// The MCP server keeps the corpus it read warm between calls (issue 38): the built `specbundle mcp`
// over a real git repository, with the parse cache's folder, answers each call after an edit, an
// added, removed or renamed file, as a fresh CLI process without any cache prints the same request.
// And it answers from what it keeps: the server runs with test/support/pause.ts's preload counting
// the files it opens, so a call after nothing changed reads no file of the corpus or of the cache
// folder again, and a call after one edit reads that file and not the corpus. A server that read
// afresh on every call (the CLI's folder cache, or none) gives the same answers and fails there.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BIN, cacheEnv, cliAsync } from "../support/cli.js"
import { codeAnchor, makeRepo, specCarrier } from "../support/git.js"
import { countedReads } from "../support/pause.js"

const repo = makeRepo()
const cache = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-warm-cache-")))
/** Every file the server opens in the repository or the cache folder. */
const counted = countedReads(new RegExp(`^(${[repo.dir, cache].map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})/`))
let client: Client

beforeAll(async () => {
  for (let i = 0; i < 12; i++)
    repo.write(`specs/s${i}.sdp.md`, specCarrier(`spec:m.s${i}`, `Spec ${i}`, i === 0 ? "relations: {}" : "relations:\n  refines: spec:m.s0"))
  repo.write("src/a.ts", codeAnchor("impl:m.a", ["spec:m.s1"]))
  repo.commit("corpus")
  const env = cacheEnv(cache) as Record<string, string>
  client = new Client({ name: "specbundle-warm-test", version: "1.0.0" })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...counted.execArgv, BIN, "mcp"],
      cwd: repo.dir,
      env: { ...env, ...counted.env },
      stderr: "ignore"
    })
  )
}, 60_000)

afterAll(async () => {
  await client?.close()
  fs.rmSync(cache, { recursive: true, force: true })
})

/** The server's text for a tool call. */
const served = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const result = await client.callTool({ name, arguments: args })
  const content = result.content as ReadonlyArray<{ type: string; text?: string }>
  return content.map((c) => c.text ?? "").join("")
}

/** What the server read during the calls: the corpus's files (root-relative, git's own left out) and the cache folder's. */
interface Read {
  readonly corpus: string[]
  readonly cache: string[]
}

/** Each call the server answers as a fresh CLI process without any cache prints it; what the server read meanwhile. */
const sameAsFresh = async (): Promise<Read> => {
  const read: Read = { corpus: [], cache: [] }
  const calls: ReadonlyArray<readonly [string, Record<string, unknown>, ReadonlyArray<string>]> = [
    ["impact", { staged: true }, ["impact", "--staged"]],
    ["impact", { changeset: "HEAD", format: "markdown" }, ["impact", "--changeset", "HEAD", "--format", "markdown"]],
    ["check", { format: "json" }, ["check", "--format", "json"]],
    ["list", { what: "specs", format: "json" }, ["list", "specs", "--format", "json"]]
  ]
  for (const [name, args, argv] of calls) {
    const fresh = await cliAsync(repo.dir, argv, { env: cacheEnv(undefined) })
    expect(fresh.stderr).not.toContain("internal error")
    const before = counted.reads().length
    expect(await served(name, args), `${name} ${JSON.stringify(args)}`).toBe(fresh.stdout)
    for (const file of counted.reads().slice(before)) {
      if (file.startsWith(`${cache}/`)) read.cache.push(path.basename(file))
      else if (!file.startsWith(`${repo.dir}/.git/`)) read.corpus.push(path.relative(repo.dir, file))
    }
  }
  return read
}

describe("specbundle mcp between calls", () => {
  it("answers each call after a change as a fresh process does, reading again only what changed", async () => {
    const first = await sameAsFresh()
    // The first calls read the whole corpus: the count sees the server's reads.
    expect(new Set(first.corpus).size).toBe(13)
    // Nothing changed: every call answers from what the server keeps, reading no file again.
    expect(await sameAsFresh()).toEqual({ corpus: [], cache: [] })
    repo.write("specs/s3.sdp.md", specCarrier("spec:m.s3", "Spec 3, retitled", "relations:\n  refines: spec:m.s0"))
    repo.git("add", "--", "specs/s3.sdp.md")
    // One file edited and staged: it is read again, the other twelve files of the corpus are not (a
    // file kept in the same cache shard may be hashed again too, while its time stamp is recent).
    const edited = new Set((await sameAsFresh()).corpus)
    expect(edited).toContain("specs/s3.sdp.md")
    expect(edited.size).toBeLessThan(5)
    repo.write("specs/s4.sdp.md", specCarrier("spec:m.s4", "Spec 4", "relations:\n  refines: spec:m.s2"))
    await sameAsFresh()
    repo.write("specs/new.sdp.md", specCarrier("spec:m.new", "New"))
    repo.remove("specs/s5.sdp.md")
    await sameAsFresh()
    fs.mkdirSync(path.join(repo.dir, "specs/moved"))
    repo.git("add", "-A")
    repo.git("mv", "specs/s6.sdp.md", "specs/moved/s6.sdp.md")
    await sameAsFresh()
    repo.commit("changes")
    await sameAsFresh()
  }, 180_000)
})

describe("specbundle mcp: a staged answer from the repository's stat data", () => {
  const staged = makeRepo()
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-stamp-trace-")), "trace")
  const stampCache = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-stamp-cache-"))
  let server: Client
  /** Past the racy window (3 s): the next call may trust the stat data of what changed before. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 3500))
  /** The git processes the server started so far (GIT_TRACE, one "built-in: git" line each). */
  const gits = () =>
    fs.existsSync(trace)
      ? fs
          .readFileSync(trace, "utf8")
          .split("\n")
          .filter((l) => l.includes("trace: built-in: git ")).length
      : 0
  const impact = async (): Promise<string> => {
    const result = await server.callTool({ name: "impact", arguments: { staged: true } })
    return (result.content as ReadonlyArray<{ text?: string }>).map((c) => c.text ?? "").join("")
  }
  const fresh = async () => (await cliAsync(staged.dir, ["impact", "--staged"], { env: cacheEnv(undefined) })).stdout

  beforeAll(async () => {
    for (let i = 0; i < 4; i++) staged.write(`specs/s${i}.sdp.md`, specCarrier(`spec:t.s${i}`, `Spec ${i}`))
    staged.write("src/a.ts", codeAnchor("impl:t.a", ["spec:t.s1"]))
    staged.commit("corpus")
    staged.write("specs/s2.sdp.md", specCarrier("spec:t.s2", "Spec 2, staged"))
    staged.git("add", "--", "specs/s2.sdp.md")
    const env = { ...(cacheEnv(stampCache) as Record<string, string>), GIT_TRACE: trace }
    server = new Client({ name: "specbundle-stamp-test", version: "1.0.0" })
    await server.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: staged.dir, env, stderr: "ignore" }))
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    fs.rmSync(stampCache, { recursive: true, force: true })
  })

  /** The call answers as a fresh process; `again` then answers the same with no git process started. */
  const answers = async () => {
    await settle()
    expect(await impact()).toBe(await fresh())
    const before = gits()
    expect(await impact()).toBe(await fresh())
    return gits() - before
  }

  it("asks git nothing when nothing changed; answers anew after a staged edit, a same-size same-second one, a commit, a checkout", async () => {
    expect(await answers()).toBe(0)
    // A work tree edit not staged: the staged answer is the same, and still asks nothing.
    staged.write("specs/s3.sdp.md", specCarrier("spec:t.s3", "Spec 3, unstaged"))
    expect(await answers()).toBe(0)
    staged.write("specs/s1.sdp.md", specCarrier("spec:t.s1", "Spec 1, staged"))
    staged.git("add", "--", "specs/s1.sdp.md")
    expect(await answers()).toBe(0)
    // The same size, the same times, other bytes, staged: the index is another file.
    const file = path.join(staged.dir, "specs/s1.sdp.md")
    const was = fs.statSync(file)
    staged.write("specs/s1.sdp.md", specCarrier("spec:t.s1", "Spec 1, STAGED"))
    fs.utimesSync(file, was.atime, was.mtime)
    staged.git("add", "--", "specs/s1.sdp.md")
    expect(await answers()).toBe(0)
    staged.commit("second")
    expect(await answers()).toBe(0)
    staged.git("checkout", "-q", "HEAD~1")
    expect(await answers()).toBe(0)
    staged.git("checkout", "-q", "-")
    staged.write("specs/s0.sdp.md", specCarrier("spec:t.s0", "Spec 0, staged"))
    staged.git("add", "--", "specs/s0.sdp.md")
    expect(await answers()).toBe(0)
  }, 300_000)
})

describe("specbundle mcp: a staged answer after a staged edit, from the index file", () => {
  const repo = makeRepo()
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-index-trace-")), "trace")
  const indexCache = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-index-cache-"))
  let server: Client
  /** Past the racy window (3 s): HEAD's and the refs' stat data may be trusted again after a commit or a checkout. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 3500))
  /** The git processes the server started (GIT_TRACE, one line each): those that list or diff, and those that read blobs (cat-file). */
  const gits = () => {
    const lines = fs.existsSync(trace) ? fs.readFileSync(trace, "utf8").split("\n") : []
    const blobs = lines.filter((l) => l.includes(" trace: built-in: git cat-file ")).length
    return { listings: lines.filter((l) => l.includes(" trace: built-in: git ")).length - blobs, blobs }
  }
  const impact = async (): Promise<string> => {
    const result = await server.callTool({ name: "impact", arguments: { staged: true } })
    return (result.content as ReadonlyArray<{ text?: string }>).map((c) => c.text ?? "").join("")
  }
  const fresh = async () => (await cliAsync(repo.dir, ["impact", "--staged"], { env: cacheEnv(undefined) })).stdout
  /** The call answers as a fresh process does; how many listing gits it started (blob reads apart: `blobs`). */
  let blobs = 0
  const answer = async (): Promise<number> => {
    const before = gits()
    expect(await impact()).toBe(await fresh())
    const after = gits()
    blobs = after.blobs - before.blobs
    return after.listings - before.listings
  }
  /** A call that started no git process at all. */
  const noGit = async () => {
    expect(await answer()).toBe(0)
    expect(blobs).toBe(0)
  }
  const stage = (file: string, text: string) => {
    repo.write(file, text)
    repo.git("add", "--", file)
  }

  beforeAll(async () => {
    for (let i = 0; i < 6; i++)
      repo.write(`specs/s${i}.sdp.md`, specCarrier(`spec:x.s${i}`, `Spec ${i}`, i === 0 ? "relations: {}" : "relations:\n  refines: spec:x.s0"))
    repo.write("src/a.ts", codeAnchor("impl:x.a", ["spec:x.s1"]))
    repo.commit("corpus")
    stage("specs/s2.sdp.md", specCarrier("spec:x.s2", "Spec 2, staged", "relations:\n  refines: spec:x.s0"))
    const env = { ...(cacheEnv(indexCache) as Record<string, string>), GIT_TRACE: trace }
    server = new Client({ name: "specbundle-index-test", version: "1.0.0" })
    await server.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: repo.dir, env, stderr: "ignore" }))
  }, 60_000)

  afterAll(async () => {
    await server?.close()
    fs.rmSync(indexCache, { recursive: true, force: true })
  })

  it("answers staged edits, additions and removals right after they are made with no git process; asks git where the index alone cannot tell", async () => {
    await settle()
    expect(await answer()).toBeGreaterThan(0)
    // A staged edit, and another right after it, each within the racy window: the index's bytes
    // tell, and the old side (HEAD's object) is what the last read of the index gave for it.
    stage("specs/s1.sdp.md", specCarrier("spec:x.s1", "Spec 1, staged"))
    await noGit()
    // A Spec's id changed, then changed again: the old side is HEAD's Spec (removed), not the one staged before.
    stage("specs/s5.sdp.md", specCarrier("spec:x.s5b", "Spec 5, another id", "relations:\n  refines: spec:x.s0"))
    await noGit()
    stage("specs/s5.sdp.md", specCarrier("spec:x.s5c", "Spec 5, a third id", "relations:\n  refines: spec:x.s0"))
    await noGit()
    repo.git("checkout", "HEAD", "--", "specs/s5.sdp.md")
    await noGit()
    stage("specs/s3.sdp.md", specCarrier("spec:x.s3", "Spec 3, staged", "relations:\n  refines: spec:x.s1"))
    await noGit()
    // The same size, the same times, other bytes, staged.
    const file = path.join(repo.dir, "specs/s1.sdp.md")
    const was = fs.statSync(file)
    repo.write("specs/s1.sdp.md", specCarrier("spec:x.s1", "Spec 1, STAGED"))
    fs.utimesSync(file, was.atime, was.mtime)
    repo.git("add", "--", "specs/s1.sdp.md")
    await noGit()
    // A work tree edit not staged; a new file staged; an edit unstaged again.
    repo.write("specs/s4.sdp.md", specCarrier("spec:x.s4", "Spec 4, unstaged"))
    await noGit()
    stage("specs/new.sdp.md", specCarrier("spec:x.new", "New", "relations:\n  refines: spec:x.s0"))
    await noGit()
    repo.git("restore", "--staged", "--", "specs/s3.sdp.md")
    // HEAD's object back in the index, its bytes no longer in the work tree: read from git.
    expect(await answer()).toBe(0)
    // An addition and a removal at once: git may pair them as a rename, so git is asked.
    repo.git("rm", "-q", "--", "specs/s5.sdp.md")
    expect(await answer()).toBeGreaterThan(0)
    repo.git("rm", "-q", "--cached", "--", "specs/new.sdp.md")
    expect(await answer()).toBeGreaterThan(0)
    // A removal alone, answered again from the index.
    repo.git("rm", "-q", "-f", "--", "specs/s4.sdp.md")
    await noGit()
    // A rename staged: git.
    repo.git("mv", "specs/s3.sdp.md", "specs/s3-moved.sdp.md")
    expect(await answer()).toBeGreaterThan(0)
    // A commit moves HEAD: git is asked, right after it and past the racy window.
    repo.remove("specs/new.sdp.md")
    repo.commit("second")
    expect(await answer()).toBeGreaterThan(0)
    await settle()
    expect(await answer()).toBeGreaterThan(0)
    // An intent-to-add entry: git, and again once it is gone (nothing was kept meanwhile).
    repo.write("specs/new.sdp.md", specCarrier("spec:x.new", "New", "relations:\n  refines: spec:x.s0"))
    repo.git("add", "-N", "--", "specs/new.sdp.md")
    expect(await answer()).toBeGreaterThan(0)
    repo.git("rm", "-q", "--cached", "--", "specs/new.sdp.md")
    repo.remove("specs/new.sdp.md")
    expect(await answer()).toBeGreaterThan(0)
    // A file replaced in the index and the work tree by a checkout of the commit before.
    repo.git("checkout", "HEAD~1", "--", "specs/s2.sdp.md")
    await noGit()
    stage("src/a.ts", codeAnchor("impl:x.a", ["spec:x.s0"]))
    await noGit()
    // A commit, then a checkout, each past the racy window: HEAD's and the refs' stat data tell git is to be asked.
    repo.commit("third")
    await settle()
    expect(await answer()).toBeGreaterThan(0)
    stage("specs/s1.sdp.md", specCarrier("spec:x.s1", "Spec 1, staged again"))
    await noGit()
    repo.git("stash", "-q")
    repo.git("checkout", "-q", "HEAD~1")
    await settle()
    expect(await answer()).toBeGreaterThan(0)
    stage("specs/s0.sdp.md", specCarrier("spec:x.s0", "Spec 0, staged"))
    await noGit()
  }, 300_000)
})
