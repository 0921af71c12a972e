// `impact --root pkg` in a real repository: changed files outside the root are listed in
// `outsideRoot`, except those in folders the reader skips (.github, node_modules, dist, ...).
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { run } from "../support/run.js"
import { makeRepo, specCarrier } from "../support/git.js"

describe("impact outsideRoot", () => {
  it("lists changes outside the root but not those in skipped folders outside it", async () => {
    const repo = makeRepo()
    const outside = [".github/workflows/ci.yml", "node_modules/x/index.js", "other/dist/out.js", "other/.cache/c.sdp.md", "other/keep.txt", "docs/note.sdp.md"]
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:pkg.a", "A"))
    for (const file of outside) repo.write(file, "one\n")
    repo.commit("one")
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:pkg.a", "A, changed"))
    for (const file of outside) repo.write(file, "two\n")
    repo.commit("two")
    const r = await run(repo.dir, ["impact", "--root", "pkg", "--changeset", "HEAD~1"])
    expect(r.status, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as { changedFiles: Array<{ path: string }>; outsideRoot: string[] }
    expect(report.outsideRoot).toEqual(["docs/note.sdp.md", "other/keep.txt"])
    expect(report.changedFiles.map((f) => f.path)).toEqual(["specs/a.sdp.md"])
    // The same from inside the root, and for the work tree (--changeset HEAD with an untracked file).
    repo.write("dist/new.js", "x\n")
    repo.write("other/new.txt", "x\n")
    const tree = await run(path.join(repo.dir, "pkg"), ["impact", "--changeset", "HEAD"])
    expect(tree.status, tree.stderr).toBe(0)
    expect((JSON.parse(tree.stdout) as { outsideRoot: string[] }).outsideRoot).toEqual(["other/new.txt"])
  })
})
