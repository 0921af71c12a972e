// git's index file read in process (src/node/indexFile.ts): the entries `git ls-files -s` lists,
// on real repositories; an entry unchanged since an earlier read is that read's object; and no
// entries at all where the file is one this reader does not know (version 4, a split index, a
// checksum that does not hold), so that the MCP server asks git instead.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { readIndexFile } from "../../src/node/indexFile.js"
import { makeRepo, type Repo } from "../support/git.js"

const indexOf = (repo: Repo) => readIndexFile(fs.readFileSync(path.join(repo.dir, ".git", "index")))

/** `git ls-files -s -z` as entries: mode, object, stage, path. */
const listed = (repo: Repo) =>
  repo
    .git("ls-files", "-s", "-z")
    .split("\0")
    .filter((r) => r !== "")
    .map((r) => {
      const [meta, p] = [r.slice(0, r.indexOf("\t")), r.slice(r.indexOf("\t") + 1)]
      const [mode, object, stage] = meta.split(" ")
      return { mode, object, stage: Number(stage), path: p }
    })

const entries = (repo: Repo) => indexOf(repo)?.entries.map(({ mode, object, stage, path: p }) => ({ mode, object, stage, path: p }))

const corpus = () => {
  const repo = makeRepo()
  repo.write("a.txt", "a\n")
  repo.write("dir/é ü.md", "unicode\n")
  repo.write("run.sh", "#!/bin/sh\n")
  fs.chmodSync(path.join(repo.dir, "run.sh"), 0o755)
  fs.symlinkSync("a.txt", path.join(repo.dir, "link"))
  repo.commit("first")
  // A path longer than 0xfff bytes (the entry's length field then says "longer"): in the index only, as no file system holds it.
  const blob = repo.git("hash-object", "-w", "a.txt").trim()
  repo.git("update-index", "--add", "--cacheinfo", `100644,${blob},${Array.from({ length: 21 }, (_, i) => `${i}`.repeat(200)).join("/")}`)
  repo.git("commit", "-q", "-m", "long")
  return repo
}

describe("the index file read in process", () => {
  it("lists what git lists: modes, object ids, stages and paths, long and not ASCII", () => {
    const repo = corpus()
    expect(entries(repo)).toEqual(listed(repo))
    expect(listed(repo).map((e) => e.mode)).toEqual(expect.arrayContaining(["100644", "100755", "120000"]))
  })

  it("marks intent-to-add entries (version 3) and lists a conflict's stages", () => {
    const repo = corpus()
    repo.write("later.md", "later\n")
    repo.git("add", "-N", "later.md")
    repo.git("update-index", "--skip-worktree", "a.txt")
    expect(entries(repo)).toEqual(listed(repo))
    expect(
      indexOf(repo)
        ?.entries.filter((e) => e.intentToAdd)
        .map((e) => e.path)
    ).toEqual(["later.md"])
    repo.git("rm", "-q", "--cached", "later.md")
    repo.git("update-index", "--no-skip-worktree", "a.txt")
    repo.git("checkout", "-q", "-b", "side")
    repo.write("a.txt", "side\n")
    repo.commit("side")
    repo.git("checkout", "-q", "main")
    repo.write("a.txt", "main\n")
    repo.commit("main")
    expect(() => repo.git("merge", "-q", "side")).toThrow()
    expect(entries(repo)).toEqual(listed(repo))
    expect(
      indexOf(repo)
        ?.entries.filter((e) => e.stage > 0)
        .map((e) => e.stage)
    ).toEqual([1, 2, 3])
  })

  it("keeps an earlier read's entry objects for the entries that did not change, stat data aside", () => {
    const repo = corpus()
    const was = indexOf(repo)!
    repo.write("a.txt", "edited\n")
    repo.git("add", "a.txt")
    // A refresh rewrites every entry's stat data, not what they hold.
    fs.utimesSync(path.join(repo.dir, "run.sh"), new Date(2001, 1, 1), new Date(2001, 1, 1))
    repo.git("update-index", "-q", "--really-refresh")
    const now = readIndexFile(fs.readFileSync(path.join(repo.dir, ".git", "index")), was)!
    expect(now.entries.map(({ mode, object, stage, path: p }) => ({ mode, object, stage, path: p }))).toEqual(listed(repo))
    expect(now.entries.filter((e, i) => e !== was.entries[i]).map((e) => e.path)).toEqual(["a.txt"])
  })

  it("reads nothing from a version 4 index, a split index or a file whose checksum does not hold", () => {
    const repo = corpus()
    const file = path.join(repo.dir, ".git", "index")
    const good = fs.readFileSync(file)
    const bad = Buffer.from(good)
    bad[20] ^= 1
    expect(readIndexFile(bad)).toBeUndefined()
    repo.git("update-index", "--index-version", "4")
    expect(readIndexFile(fs.readFileSync(file))).toBeUndefined()
    repo.git("update-index", "--index-version", "2")
    repo.git("update-index", "--split-index")
    expect(readIndexFile(fs.readFileSync(file))).toBeUndefined()
    repo.git("update-index", "--no-split-index")
    expect(entries(repo)).toEqual(listed(repo))
  })
})
