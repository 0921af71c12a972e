// What git vouches for in the work tree read (src/node/gitWorkTree.ts) on real repositories,
// and how the parse cache's trust takes it (extractInThread.ts): an entry recorded for the object
// git vouches for is used without the file being stat'ed or read; anything else is checked.
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { CarrierRead } from "../../src/core/model.js"
import { extractInThread } from "../../src/node/extractInThread.js"
import { Git } from "../../src/node/git.js"
import { askGit, askSides, convertsNothing, mayBeInRepository } from "../../src/node/gitWorkTree.js"
import type { CacheEntry } from "../../src/node/parseCache.js"
import type { Repo } from "../support/git.js"
import { makeRepo, repoAt, runGitIn, specCarrier, tempDir } from "../support/git.js"
import { skipping } from "../support/skip.js"

const SPEC = specCarrier("spec:w.one", "One")
const oidOf = (text: string) =>
  createHash("sha1")
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest("hex")
/** A result no parse gives: seeing it proves the entry was used without reading the file. */
const PLANTED: CarrierRead = { file: "one.sdp.md", specs: [], packs: [], anchors: [], findings: [] }

const ask = (root: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* askGit(yield* Git, root, true)
    }).pipe(Effect.provide(Git.Default))
  )

const committed = (repo: Repo = makeRepo()): Repo => {
  repo.write("one.sdp.md", SPEC)
  repo.write("two.sdp.md", specCarrier("spec:w.two", "Two"))
  repo.commit("first")
  return repo
}

describe("askGit", () => {
  it("vouches for tracked files git finds unchanged, with the index's object id; not for edited or untracked ones", async () => {
    const repo = committed()
    repo.write("two.sdp.md", specCarrier("spec:w.two", "Two, edited"))
    repo.write("new.sdp.md", specCarrier("spec:w.new", "New"))
    const view = await ask(repo.dir)
    expect(view?.listed).toEqual(new Set(["one.sdp.md", "two.sdp.md", "new.sdp.md"]))
    expect([...(view?.unchanged ?? [])]).toEqual([["one.sdp.md", oidOf(SPEC)]])
  })

  it("a fsmonitor that reports nothing changed is not asked: git compares stat data itself", async () => {
    const repo = committed()
    const hook = path.join(tempDir("specbundle-fsmonitor-"), "hook.sh")
    fs.writeFileSync(hook, "#!/bin/sh\nprintf 'token\\0'\n", { mode: 0o755 })
    repo.git("config", "core.fsmonitor", hook)
    repo.git("update-index", "--fsmonitor")
    repo.git("status", "--short")
    repo.write("one.sdp.md", specCarrier("spec:w.one", "One, edited"))
    // The trap: git, as configured, calls the edited file unchanged.
    expect(repo.git("diff-files", "--name-only")).toBe("")
    expect([...((await ask(repo.dir))?.unchanged.keys() ?? [])]).toEqual(["two.sdp.md"])
  })

  it("vouches for nothing under core.autocrlf", async () => {
    const crlf = committed()
    expect((await ask(crlf.dir))?.unchanged.size).toBe(2)
    crlf.git("config", "core.autocrlf", "true")
    expect((await ask(crlf.dir))?.unchanged.size).toBe(0)
  })

  const shm = "/dev/shm"
  const noOtherDevice = skipping(
    !fs.existsSync(shm) || fs.statSync(shm).dev === fs.statSync(tempDir()).dev,
    "the index on another device than the work tree",
    `${shm} is missing or on the temporary folder's device`
  )
  it.skipIf(noOtherDevice)("vouches for nothing with the index on another device than the work tree (/dev/shm)", async () => {
    const work = fs.mkdtempSync(path.join(shm, "specbundle-device-"))
    try {
      runGitIn(work, ["init", "-q", "-b", "main", `--separate-git-dir=${path.join(tempDir(), "git")}`])
      const repo = committed(repoAt(work))
      expect((await ask(repo.dir))?.unchanged.size).toBe(0)
    } finally {
      fs.rmSync(work, { recursive: true, force: true })
    }
  })

  it("gives null outside a work tree", async () => {
    expect(await ask(tempDir())).toBeNull()
  })

  it("asks git nothing in a plain folder: no git process starts (GIT_TRACE writes nothing)", async () => {
    const trace = path.join(tempDir(), "trace.txt")
    process.env.GIT_TRACE = trace
    try {
      expect(await ask(tempDir())).toBeNull()
      expect(fs.existsSync(trace)).toBe(false)
      // The same folder inside a repository is asked (the trace shows git's processes).
      const repo = makeRepo()
      repo.write("one.sdp.md", SPEC)
      repo.commit("one")
      expect((await ask(repo.dir))?.listed).toEqual(new Set(["one.sdp.md"]))
      expect(fs.readFileSync(trace, "utf8")).toContain("ls-files")
    } finally {
      delete process.env.GIT_TRACE
    }
  })
})

describe("askGit with the side answers asked before (a changeset's diff starts them: issue 38)", () => {
  it("joins them instead of asking again: one diff-files, whose answer is of the moment it was asked", async () => {
    const repo = committed()
    const trace = path.join(tempDir(), "trace.txt")
    process.env.GIT_TRACE = trace
    try {
      const view = await Effect.runPromise(
        Effect.gen(function* () {
          const git = yield* Git
          const asked = yield* askSides(git, repo.dir)
          // Edited after git looked: the view is still the earlier answer (the read that follows
          // hashes before it records an id, so it never keeps the edit under the old id).
          repo.write("two.sdp.md", specCarrier("spec:w.two", "Two, edited"))
          return yield* askGit(git, repo.dir, true, undefined, Effect.succeed(asked))
        }).pipe(Effect.provide(Git.Default))
      )
      expect([...(view?.unchanged ?? [])].sort()).toEqual([
        ["one.sdp.md", oidOf(SPEC)],
        ["two.sdp.md", oidOf(specCarrier("spec:w.two", "Two"))]
      ])
      expect(fs.readFileSync(trace, "utf8").match(/ diff-files /g)).toHaveLength(1)
      // Asked afresh, git sees the edit.
      expect([...((await ask(repo.dir))?.unchanged ?? [])]).toEqual([["one.sdp.md", oidOf(SPEC)]])
    } finally {
      delete process.env.GIT_TRACE
    }
  })
})

describe("mayBeInRepository", () => {
  it("is false in a plain folder, true under a .git folder or file, in a bare repository, or with GIT_DIR set", () => {
    const plain = tempDir()
    fs.mkdirSync(path.join(plain, "a", "b"), { recursive: true })
    expect(mayBeInRepository(path.join(plain, "a", "b"), {})).toBe(false)

    const repo = makeRepo()
    fs.mkdirSync(path.join(repo.dir, "deep", "er"), { recursive: true })
    expect(mayBeInRepository(path.join(repo.dir, "deep", "er"), {})).toBe(true)
    expect(mayBeInRepository(path.join(repo.dir, ".git", "refs"), {})).toBe(true)

    // A linked work tree holds a .git file, not a folder.
    const linked = tempDir()
    fs.writeFileSync(path.join(linked, ".git"), `gitdir: ${path.join(repo.dir, ".git")}\n`)
    expect(mayBeInRepository(linked, {})).toBe(true)

    const bare = tempDir()
    runGitIn(bare, ["init", "-q", "--bare"])
    expect(mayBeInRepository(bare, {})).toBe(true)

    // The run's environment decides, not the process's.
    expect(mayBeInRepository(path.join(plain, "a", "b"), { GIT_DIR: path.join(repo.dir, ".git") })).toBe(true)
    expect(process.env.GIT_DIR).toBeUndefined()
  })
})

describe("convertsNothing", () => {
  const file = (text: string) => {
    const f = path.join(tempDir(), "attributes")
    fs.writeFileSync(f, text)
    return f
  }
  it("passes attributes that change no bytes, and a missing file", () => {
    expect(convertsNothing([file("# comment\n*.png binary\n*.md linguist-documentation -diff\n*.txt -text\n")], new Set())).toBe(true)
    expect(convertsNothing([path.join(tempDir(), "none")], new Set())).toBe(true)
  })
  it.each([
    "*.md text",
    "*.md text=auto",
    "* eol=crlf",
    "*.md crlf",
    "*.md filter=lfs",
    "*.md ident",
    "*.md working-tree-encoding=UTF-16",
    "[attr]conv text\n*.md conv"
  ])("refuses %j", (text) => expect(convertsNothing([file(`*.png binary\n${text}\n`)], new Set())).toBe(false))
  it("refuses a file git lists that is missing from the work tree (git reads the index's)", () => {
    const missing = path.join(tempDir(), ".gitattributes")
    expect(convertsNothing([missing], new Set([missing]))).toBe(false)
  })
})

describe("the work tree read's trust in a vouched object id", () => {
  const setup = () => {
    const root = tempDir("specbundle-vouched-")
    fs.writeFileSync(path.join(root, "one.sdp.md"), SPEC)
    return { path: "one.sdp.md", absolute: path.join(root, "one.sdp.md") }
  }
  const since = () => Date.now() + 5000
  const entry = (oid: string | null, stat: string | null = null): CacheEntry => ({ stat, hash: "0".repeat(64), oid, read: PLANTED })
  const statKey = (file: string) => {
    const s = fs.lstatSync(file)
    return `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`
  }

  it("an entry for the vouched object is used without a stat or a read (no file behind the path)", async () => {
    const oid = oidOf(SPEC)
    const input = { path: "one.sdp.md", absolute: path.join(tempDir(), "one.sdp.md"), unchanged: oid }
    const [hit] = await extractInThread([input], { selfHosting: false, known: new Map([["one.sdp.md", entry(oid)]]), since: since() })
    expect(hit).toEqual({ path: "one.sdp.md", read: PLANTED, hash: "0".repeat(64), stat: null, oid, reused: true })
  })

  it("an entry for another object is read even on matching stat data; one without an id takes the vouched id", async () => {
    const input = setup()
    const oid = oidOf(SPEC)
    const stat = statKey(input.absolute)
    const [other] = await extractInThread([{ ...input, unchanged: oid }], {
      selfHosting: false,
      known: new Map([["one.sdp.md", entry("1".repeat(40), stat)]]),
      since: since()
    })
    expect(other.read).not.toBe(PLANTED)
    expect(other.read?.specs.map((s) => s.id)).toEqual(["spec:w.one"])
    // Read and hashed: the bytes are the vouched object, so the id is recorded.
    expect(other.oid).toBe(oid)
    const [taken] = await extractInThread([{ ...input, unchanged: oid }], {
      selfHosting: false,
      known: new Map([["one.sdp.md", entry(null, stat)]]),
      since: since()
    })
    expect(taken).toMatchObject({ read: PLANTED, oid })
  })

  it("a read whose bytes are not the vouched object records no id; nor does a first run (no entry), which is not hashed twice", async () => {
    const input = setup()
    const known = new Map([["one.sdp.md", entry(null)]])
    const [read] = await extractInThread([{ ...input, unchanged: "2".repeat(40) }], { selfHosting: false, known, since: since() })
    expect(read.read?.specs.map((s) => s.id)).toEqual(["spec:w.one"])
    expect(read.oid).toBeUndefined()
    const [first] = await extractInThread([{ ...input, unchanged: oidOf(SPEC) }], { selfHosting: false, known: new Map(), since: since() })
    expect(first.read?.specs.map((s) => s.id)).toEqual(["spec:w.one"])
    expect(first.oid).toBeUndefined()
  })
})
