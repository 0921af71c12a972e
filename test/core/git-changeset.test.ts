import * as Result from "effect/Result"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  changesetText,
  dropSkippedFolders,
  parseChangeset,
  parseLsFilesStageZ,
  parseLsTreeZ,
  parseRawZ,
  parseIndexListingZ,
  rebaseChanges,
  revisionProblem
} from "../../src/core/changes/changeset.js"

describe("parseChangeset", () => {
  it("reads REV, A..B and A...B, an empty side meaning HEAD", () => {
    expect(parseChangeset("HEAD~1")).toEqual(Result.succeed({ _tag: "Rev", rev: "HEAD~1" }))
    expect(parseChangeset("main..feature")).toEqual(Result.succeed({ _tag: "Range", from: "main", to: "feature" }))
    expect(parseChangeset("origin/main...HEAD")).toEqual(Result.succeed({ _tag: "MergeBase", from: "origin/main", to: "HEAD" }))
    expect(parseChangeset("v1..")).toEqual(Result.succeed({ _tag: "Range", from: "v1", to: "HEAD" }))
    expect(parseChangeset("...topic")).toEqual(Result.succeed({ _tag: "MergeBase", from: "HEAD", to: "topic" }))
  })

  it("refuses values git could read as an option, on either side", () => {
    for (const value of ["--output=/tmp/x", "-p", "HEAD..--output=x", "-x...HEAD", "a..-b"]) {
      expect(Result.isFailure(parseChangeset(value))).toBe(true)
    }
    expect(revisionProblem("")).not.toBeNull()
    expect(revisionProblem("a\nb")).not.toBeNull()
    expect(parseChangeset("a..b..c")).toEqual(Result.fail({ revision: "a..b..c", problem: '"a..b..c" is not REV, A..B or A...B' }))
  })

  it("writes a changeset back as typed", () => {
    expect(changesetText({ _tag: "MergeBase", from: "a", to: "b" })).toBe("a...b")
    expect(changesetText({ _tag: "Range", from: "a", to: "b" })).toBe("a..b")
    expect(changesetText({ _tag: "Staged" })).toBe("--staged")
  })
})

describe("NUL-separated git output", () => {
  it("parses raw diffs with renames, copies, type changes and unmerged entries, and the old side's object ids", () => {
    const o = (c: string) => c.repeat(40)
    const Z = "0".repeat(40)
    const row = (modes: string, old: string, status: string, ...paths: string[]) => `:${modes} ${old} ${o("f")} ${status}\x00${paths.join("\x00")}\x00`
    const out = [
      row("100644 100644", o("a"), "M", "a.ts"),
      row("100644 100644", o("b"), "R087", "old name.sdp.md", "new\nname.sdp.md"),
      row("000000 100644", Z, "A", "b.ts"),
      row("100755 000000", o("c"), "D", "c.ts"),
      row("100644 100644", o("d"), "C100", "src.ts", "copy.ts"),
      row("120000 100644", o("e"), "T", "link"),
      row("000000 000000", Z, "U", "conflict.ts")
    ].join("")
    const parsed = parseRawZ(out)
    expect(parsed.changes).toEqual([
      { path: "a.ts", status: "modified" },
      { path: "new\nname.sdp.md", status: "renamed", oldPath: "old name.sdp.md" },
      { path: "b.ts", status: "added" },
      { path: "c.ts", status: "deleted" },
      { path: "copy.ts", status: "added" },
      { path: "link", status: "modified" },
      { path: "conflict.ts", status: "modified" }
    ])
    // Regular files only (a symlink's old side is never read), none for what did not exist.
    expect([...parsed.oldObjects]).toEqual([
      ["a.ts", o("a")],
      ["old name.sdp.md", o("b")],
      ["c.ts", o("c")],
      ["src.ts", o("d")]
    ])
    expect(parseRawZ("")).toEqual({ changes: [], oldObjects: new Map() })
  })

  it("keeps any path that holds no NUL through a raw diff round trip", () => {
    const pathArb = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes("\x00"))
    const ids = ":100644 100644 " + "1".repeat(40) + " " + "2".repeat(40) + " "
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("M", "A", "D", "R100"), pathArb, pathArb), { maxLength: 8 }), (rows) => {
        const text = rows.map(([s, a, b]) => (s === "R100" ? `${ids}${s}\x00${a}\x00${b}\x00` : `${ids}${s}\x00${a}\x00`)).join("")
        const parsed = parseRawZ(text)
        expect(parsed.changes.map((p) => p.path)).toEqual(rows.map(([s, a, b]) => (s === "R100" ? b : a)))
      })
    )
  })

  it("keeps regular blobs only from ls-tree and stage-0 entries from ls-files -s", () => {
    const tree = "100644 blob aaa\ta b.ts\x00120000 blob bbb\tlink.ts\x00160000 commit ccc\tsub\x00100755 blob ddd\tx\ty.sh\x00"
    expect(parseLsTreeZ(tree)).toEqual([
      { mode: "100644", object: "aaa", path: "a b.ts" },
      { mode: "100755", object: "ddd", path: "x\ty.sh" }
    ])
    const index = "100644 aaa 0\tok.ts\x00100644 bbb 1\tconflict.ts\x00100644 ccc 2\tconflict.ts\x00120000 ddd 0\tlink\x00100644 eee 3\tz.ts\x00"
    expect(parseLsFilesStageZ(index)).toEqual([{ mode: "100644", object: "aaa", path: "ok.ts" }])
    expect(parseIndexListingZ(index)).toEqual({ merged: [{ mode: "100644", object: "aaa", path: "ok.ts" }], unmerged: ["conflict.ts", "z.ts"] })
  })
})

describe("rebaseChanges", () => {
  it("rebases under the root, lists the rest as outside, and splits renames across the root's edge", () => {
    const rebased = rebaseChanges("pkg/", [
      { path: "pkg/z.ts", status: "modified" },
      { path: "other/a.ts", status: "added" },
      { path: "pkg/in.sdp.md", status: "renamed", oldPath: "outside.sdp.md" },
      { path: "elsewhere.sdp.md", status: "renamed", oldPath: "pkg/out.sdp.md" },
      { path: "pkg/b.sdp.md", status: "renamed", oldPath: "pkg/a.sdp.md" },
      { path: "pkgx/not-under.ts", status: "modified" }
    ])
    expect(rebased.files).toEqual([
      { path: "b.sdp.md", status: "renamed", oldPath: "a.sdp.md" },
      { path: "in.sdp.md", status: "added" },
      { path: "out.sdp.md", status: "deleted" },
      { path: "z.ts", status: "modified" }
    ])
    expect(rebased.outsideRoot).toEqual(["elsewhere.sdp.md", "other/a.ts", "outside.sdp.md", "pkgx/not-under.ts"])
  })

  it("keeps every path at the repository top", () => {
    const rebased = rebaseChanges("", [
      { path: "b", status: "untracked" },
      { path: "a", status: "deleted" }
    ])
    expect(rebased.files.map((f) => f.path)).toEqual(["a", "b"])
    expect(rebased.outsideRoot).toEqual([])
  })
})

describe("dropSkippedFolders", () => {
  it("drops files in folders the reader skips, keeps dot-files and the corpus side of a rename across the edge", () => {
    expect(
      dropSkippedFolders([
        { path: ".specbundle/out/part-001.json", status: "untracked" },
        { path: ".gitignore", status: "modified" },
        { path: "a/node_modules/x.ts", status: "added" },
        { path: "dist/x.sdp.md", status: "renamed", oldPath: "specs/x.sdp.md" },
        { path: "specs/y.sdp.md", status: "renamed", oldPath: "generated/y.sdp.md" },
        { path: "specs/z.sdp.md", status: "renamed", oldPath: "specs/old-z.sdp.md" },
        { path: "src/coverage.ts", status: "modified" }
      ])
    ).toEqual([
      { path: ".gitignore", status: "modified" },
      { path: "specs/x.sdp.md", status: "deleted" },
      { path: "specs/y.sdp.md", status: "added" },
      { path: "specs/z.sdp.md", status: "renamed", oldPath: "specs/old-z.sdp.md" },
      { path: "src/coverage.ts", status: "modified" }
    ])
  })
})
