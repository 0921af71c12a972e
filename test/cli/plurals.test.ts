// Counts in the lines people read take the number they count (issue 37): a corpus of one Spec in one
// Pack, one changed file, one part, run in process in a real git repository. (The part
// diagnostic "The bundle has 1 parts." is the contract's verbatim text, section 2, and stays.)
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { run } from "../support/run.js"
import { makeRepo, type Repo } from "../support/git.js"
import { ruleSpec, tempDir } from "../support/tmp.js"

const PACK = "---\nid: pack:one\nspecs:\n  - spec:one.rule\nmodelRefs: []\n---\n# One\n\nOne rule.\n"

let repo: Repo
beforeAll(() => {
  repo = makeRepo()
  repo.write("specs/one.pack.sdp.md", PACK)
  repo.write("specs/one/rule.sdp.md", ruleSpec("spec:one.rule", "The rule"))
  repo.commit("one Spec in one Pack")
})

const lines = (text: string) => text.split("\n").filter((l) => l !== "")

describe("one of each reads in the singular", () => {
  it("list packs: 1 member", async () => {
    const r = await run(repo.dir, ["list", "packs"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe("pack:one  1 member  One\n")
  })

  it("check: 1 spec, 1 pack, 0 anchors, 0 findings", async () => {
    const r = await run(repo.dir, ["check"])
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stderr)).toEqual(["1 spec, 1 pack, 0 anchors, 0 findings"])
  })

  it("impact --format text: 1 pack, 1 changed file", async () => {
    repo.write("specs/one.pack.sdp.md", PACK.replace("One rule.", "One rule, said again."))
    try {
      const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "text"])
      expect(r.status, r.stderr).toBe(0)
      expect(lines(r.stdout)[1]).toBe("0 impacted, 1 pack, 0 removed, 0 at risk, 0 uncovered (1 changed file, 0 unlinked code units, 0 outside the root)")
    } finally {
      repo.git("checkout", "--", ".")
    }
  })

  it("bundle --out: wrote 1 part file", async () => {
    const out = path.join(tempDir("specbundle-plural-out-"), "out")
    const r = await run(repo.dir, ["bundle", "--pack", "pack:one", "--out", out])
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stderr)).toEqual([`wrote 1 part file and manifest.json to ${out}`])
  })
})
