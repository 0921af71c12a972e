// `outsideRoot` lists what would be corpus files under a wider root: changes outside the root in
// folders the reader skips (dot-folders, node_modules, dist, generated, coverage) are left out, as
// they are dropped inside it.
import { describe, expect, it } from "vitest"
import { dropSkippedFolders, rebaseChanges } from "../../src/core/changes/changeset.js"

describe("rebaseChanges: skipped folders outside the root", () => {
  it("leaves out paths in skipped folders outside the root, at any depth, and keeps the rest", () => {
    const rebased = rebaseChanges("pkg/", [
      { path: ".github/workflows/ci.yml", status: "modified" },
      { path: "node_modules/x/index.js", status: "added" },
      { path: "other/dist/out.js", status: "modified" },
      { path: "other/.cache/a.sdp.md", status: "untracked" },
      { path: "other/coverage/lcov.info", status: "deleted" },
      { path: "other/generated/g.ts", status: "added" },
      { path: "other/keep.txt", status: "modified" },
      { path: ".env.sdp.md", status: "modified" },
      { path: "pkg/specs/a.sdp.md", status: "modified" }
    ])
    // A dot-file at the top is a file, not a folder: still listed.
    expect(rebased.outsideRoot).toEqual([".env.sdp.md", "other/keep.txt"])
    expect(rebased.files).toEqual([{ path: "specs/a.sdp.md", status: "modified" }])
  })

  it("a rename across the root's edge from or into a skipped folder keeps its corpus side and lists no far path", () => {
    const rebased = rebaseChanges("pkg/", [
      { path: "pkg/specs/in.sdp.md", status: "renamed", oldPath: ".drafts/in.sdp.md" },
      { path: "dist/out.sdp.md", status: "renamed", oldPath: "pkg/specs/out.sdp.md" },
      { path: "other/moved.sdp.md", status: "renamed", oldPath: "pkg/specs/moved.sdp.md" }
    ])
    expect(rebased.outsideRoot).toEqual(["other/moved.sdp.md"])
    expect(dropSkippedFolders(rebased.files)).toEqual([
      { path: "specs/in.sdp.md", status: "added" },
      { path: "specs/moved.sdp.md", status: "deleted" },
      { path: "specs/out.sdp.md", status: "deleted" }
    ])
  })

  it("inside a skipped folder, the root's own files are still its files", () => {
    const rebased = rebaseChanges(".config/specs/", [
      { path: ".config/specs/a.sdp.md", status: "modified" },
      { path: ".config/other.txt", status: "modified" },
      { path: "top.txt", status: "modified" }
    ])
    expect(rebased.files).toEqual([{ path: "a.sdp.md", status: "modified" }])
    expect(rebased.outsideRoot).toEqual(["top.txt"])
  })
})
