// The work tree read trusts a cache entry by object id wherever `git diff-files` finds a tracked
// file unchanged (src/node/gitWorkTree.ts). Each case here is a real repository where git's
// "unchanged" is NOT "the index object's bytes", and where trusting git would print the file's old
// content: warm runs must still print what uncached runs print (docs/decisions.md, "Asking git
// which tracked files changed"). The cache's own records show the trap was set: before it, the warm
// runs took git's word for every tracked file (each entry holds the object id git named for it); after
// it, the trapped file's entry holds its bytes on disk, and the other files' still git's ids.
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parseCacheEntries } from "../support/cache-file.js"
import type { Run } from "../support/cli.js"
import { BIN, cacheEnv, runAsync } from "../support/cli.js"
import type { Repo } from "../support/git.js"
import { codeAnchor, makeRepo, runGitIn, specCarrier, tempDir } from "../support/git.js"

const PACK = `---\nid: pack:all\nspecs:\n  - spec:g.one\n  - spec:g.two\n---\n# All\n`
/** Two readings of one Spec of the same size: an edit stat data alone may not see. */
const BEFORE = specCarrier("spec:g.one", "Draft one")
const AFTER = specCarrier("spec:g.one", "Ready one")
const SPEC = "one.sdp.md"
const PAST = new Date("2020-01-01T00:00:00Z")

const OUT = tempDir("specbundle-unchanged-out-")
/**
 * The commands that read the work tree, one after another without blocking the test worker: a
 * changeset's impact, and a whole bundle written out with its manifest, whose file hashes show
 * every byte the reader was given (a Spec with CRLF line ends gives the same Spec).
 */
const runAll = async (cwd: string, cache: string | undefined): Promise<Run[]> => {
  const run = (args: ReadonlyArray<string>) => runAsync(process.execPath, [BIN, ...args], { cwd, env: cacheEnv(cache), timeout: 60_000 })
  // One folder for every run: its name is in the messages.
  const out = path.join(OUT, "out")
  fs.rmSync(out, { recursive: true, force: true })
  const bundle = await run(["bundle", "--pack", "pack:all", "--parts", "--budget", "20000", "--out", out])
  const written = fs.existsSync(out)
    ? fs
        .readdirSync(out)
        .sort()
        .map((name) => fs.readFileSync(path.join(out, name), "utf8"))
    : []
  return [{ ...bundle, stdout: [bundle.stdout, ...written].join("\n") }, await run(["impact", "--changeset", "HEAD"])]
}

/**
 * Warm runs print what uncached runs print: twice, since the first run into an empty cache records
 * entries and the second gives them the object ids git vouches for (the trap's bait).
 */
const expectSameAsUncached = async (cwd: string, cache: string): Promise<Run[]> => {
  const reference = await runAll(cwd, undefined)
  for (const r of reference) expect(r.status, r.stderr).toBe(0)
  expect(await runAll(cwd, cache)).toEqual(reference)
  expect(await runAll(cwd, cache)).toEqual(reference)
  return reference
}

/** The object id git's index names for each tracked carrier and code file under `cwd`, by path relative to it. */
const indexIds = (cwd: string): Map<string, string> => {
  const ids = new Map<string, string>()
  for (const record of runGitIn(cwd, ["ls-files", "-s", "-z"]).split("\0")) {
    const entry = /^\d+ ([0-9a-f]{40}) 0\t(.+\.(?:sdp\.md|ts))$/.exec(record)
    if (entry !== null) ids.set(entry[2], entry[1])
  }
  return ids
}

/**
 * The bait was taken: the cache was written, and its entry for every tracked file but `except`
 * holds the object id git named for that file (an entry gets one only where git vouched for it).
 */
const expectTrustedGit = (cwd: string, cache: string, except?: string) => {
  const entries = parseCacheEntries(cache, "two.sdp.md")
  const ids = indexIds(cwd)
  expect([...ids.keys()].sort()).toEqual(["one.sdp.md", "pack.sdp.md", "src/one.ts", "two.sdp.md"])
  for (const [file, id] of ids) if (file !== except) expect(entries.get(file)?.oid, file).toBe(id)
}

/** The trap was not taken: the cache's entry for `file` is its bytes on disk, under no object id they are not. */
const expectReadFromDisk = (cwd: string, cache: string, file = SPEC) => {
  const bytes = fs.readFileSync(path.join(cwd, file))
  const entry = parseCacheEntries(cache, "two.sdp.md").get(file)
  expect(entry?.hash).toBe(createHash("sha256").update(bytes).digest("hex"))
  const asBlob = runGitIn(cwd, ["hash-object", "--no-filters", file]).trim()
  expect(asBlob).not.toBe(indexIds(cwd).get(file))
  expect([null, asBlob]).toContain(entry?.oid)
}

/** The whole case: warm runs as uncached ones before and after `trap`, git trusted before it, and after it for all but the trapped file. */
const expectTrapAvoided = async (cwd: string, trap: () => void, file = SPEC): Promise<Run[]> => {
  const cache = tempDir("specbundle-unchanged-cache-")
  await expectSameAsUncached(cwd, cache)
  expectTrustedGit(cwd, cache)
  trap()
  const after = await expectSameAsUncached(cwd, cache)
  expectTrustedGit(cwd, cache, file)
  expectReadFromDisk(cwd, cache, file)
  return after
}

/** A committed corpus under `folder`, its Spec's mtime in the past (so git's index entry is not racy). */
const corpus = (folder = ""): Repo => {
  const repo = makeRepo()
  const at = (file: string) => (folder === "" ? file : `${folder}/${file}`)
  repo.write(at("pack.sdp.md"), PACK)
  repo.write(at(SPEC), BEFORE)
  repo.write(at("two.sdp.md"), specCarrier("spec:g.two", "Two"))
  repo.write(at("src/one.ts"), codeAnchor("impl:g.one", ["spec:g.one"]))
  fs.utimesSync(path.join(repo.dir, at(SPEC)), PAST, PAST)
  repo.commit("first")
  return repo
}

/** The Spec rewritten in place, same size, its mtime set back: only the ctime (and the bytes) changed. */
const editKeepingMtime = (repo: Repo, file = SPEC) => {
  fs.writeFileSync(path.join(repo.dir, file), AFTER)
  fs.utimesSync(path.join(repo.dir, file), PAST, PAST)
}

/** Proof that the case is a trap: git, as the repository is set up, calls the edited file unchanged. */
const gitCallsUnchanged = (repo: Repo) => expect(repo.git("diff-files", "--name-only")).toBe("")

/** The Spec's committed text with CRLF line ends, staged: git cleans it to the same object, and keeps the new file's stat data. */
const stageWithCrlf = (repo: Repo, file = SPEC) => {
  fs.writeFileSync(path.join(repo.dir, file), BEFORE.replaceAll("\n", "\r\n"))
  repo.git("add", file)
}

describe("git's stat comparison is made as strict as the cache's own", () => {
  it.each([
    ["core.trustctime", "false"],
    ["core.checkStat", "minimal"]
  ])(
    "%s=%s: an edit that keeps size and mtime is seen",
    async (key, value) => {
      const repo = corpus()
      repo.git("config", key, value)
      const after = await expectTrapAvoided(repo.dir, () => {
        editKeepingMtime(repo)
        gitCallsUnchanged(repo)
      })
      expect(after[0].stdout).toContain("Ready one")
    },
    120_000
  )
})

describe("index entries git does not look at are checked by stat data", () => {
  it.each(["--assume-unchanged", "--skip-worktree"])(
    "%s",
    async (flag) => {
      const repo = corpus()
      const after = await expectTrapAvoided(repo.dir, () => {
        repo.git("update-index", flag, SPEC)
        fs.writeFileSync(path.join(repo.dir, SPEC), specCarrier("spec:g.one", "Ready one, and longer"))
        gitCallsUnchanged(repo)
      })
      expect(after[0].stdout).toContain("Ready one, and longer")
    },
    120_000
  )
})

describe("conversions: git compares cleaned content, the reader reads the bytes", () => {
  it.each(["true", "input"])(
    "core.autocrlf=%s",
    async (value) => {
      const repo = corpus()
      await expectTrapAvoided(repo.dir, () => {
        repo.git("config", "core.autocrlf", value)
        stageWithCrlf(repo)
        gitCallsUnchanged(repo)
      })
    },
    120_000
  )

  /** Each place git reads attributes from, with `text` set there for the Specs. */
  const PLACES: ReadonlyArray<[string, (repo: Repo) => void]> = [
    ["the root's .gitattributes", (repo) => repo.write(".gitattributes", "*.md text\n")],
    [
      "an ignored .gitattributes",
      (repo) => {
        repo.write(".gitignore", ".gitattributes\n")
        repo.write(".gitattributes", "*.md text\n")
      }
    ],
    [".git/info/attributes", (repo) => repo.write(".git/info/attributes", "*.md text\n")],
    [
      "core.attributesFile",
      (repo) => {
        const file = path.join(tempDir("specbundle-attributes-"), "attributes")
        fs.writeFileSync(file, "*.md text\n")
        repo.git("config", "core.attributesFile", file)
      }
    ],
    ["a macro", (repo) => repo.write(".gitattributes", "[attr]lines text eol=lf\n*.md lines\n")]
  ]
  it.each(PLACES)(
    "text set in %s",
    async (_, place) => {
      const repo = corpus()
      await expectTrapAvoided(repo.dir, () => {
        place(repo)
        stageWithCrlf(repo)
        gitCallsUnchanged(repo)
      })
    },
    120_000
  )

  it("text set in a folder above the root", async () => {
    const repo = corpus("docs")
    await expectTrapAvoided(path.join(repo.dir, "docs"), () => {
      repo.write(".gitattributes", "*.md text\n")
      stageWithCrlf(repo, `docs/${SPEC}`)
      gitCallsUnchanged(repo)
    })
  }, 120_000)

  it("ident: the expanded $Id$ is not the object's bytes", async () => {
    const repo = corpus()
    repo.write(SPEC, BEFORE.replace("# Draft one", "# Draft one $Id$"))
    repo.commit("an id to expand")
    const after = await expectTrapAvoided(repo.dir, () => {
      repo.write(".gitattributes", "*.md ident\n")
      fs.writeFileSync(path.join(repo.dir, SPEC), BEFORE.replace("# Draft one", "# Draft one $Id: stale $"))
      repo.git("add", SPEC)
      gitCallsUnchanged(repo)
    })
    expect(after[0].stdout).toContain("$Id: stale $")
  }, 120_000)
})
