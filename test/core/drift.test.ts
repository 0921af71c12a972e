// The pure drift pass (src/core/changes/drift.ts): git's log as data, the reviews file, "after the
// watermark" over a history with branches, substance against layout. The git side is
// test/cli/drift.test.ts's, in real repositories.
import { describe, expect, it } from "vitest"
import type { HistoryCommit } from "../../src/core/changes/drift.js"
import { formatReviews, parseLogZ, parseReviews, planDrift, substanceKey, substanceOf } from "../../src/core/changes/drift.js"
import { extractFile } from "../../src/core/read/extract.js"
import { buildGraph } from "../../src/core/graph/graph.js"
import type { AnchorNode, CarrierRead, SpecNode } from "../../src/core/model.js"
import { anchor as node } from "../support/nodes.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")

const carrier = (id: string, title: string, relations = "relations: {}"): CarrierRead =>
  extractFile(
    {
      path: `specs/${id.slice(5)}.sdp.md`,
      bytes: Buffer.from(`---\nid: ${id}\nkind: rule\naltitude: story\nreadiness: idea\n${relations}\n---\n# ${title}\n`)
    },
    { selfHosting: false }
  )!

/** A code anchor at line 1 of `file` that satisfies these Specs (test/support/nodes.ts's anchor). */
const anchor = (id: string, file: string, satisfies: string[]): AnchorNode =>
  node({ id, nodeType: "CodeNode", flavor: "code", form: "comment", file, satisfies })

describe("parseLogZ", () => {
  it("reads commits, parents and name-status entries (a rename's two paths), and rebases paths under the root", () => {
    const text =
      `\x1e${sha(3)} ${sha(2)} ${sha(1)}\0` +
      `\x1e${sha(2)} ${sha(1)}\0\nM\0pkg/a.ts\0R087\0pkg/old.ts\0pkg/new.ts\0M\0other/x.ts\0R100\0other/in.ts\0pkg/in.ts\0` +
      `\x1e${sha(1)}\0\nA\0pkg/a.ts\0`
    const log = parseLogZ(text, (p) => (p.startsWith("pkg/") ? p.slice(4) : null))
    expect(log).toEqual([
      { commit: sha(3), parents: [sha(2), sha(1)], changes: [] },
      {
        commit: sha(2),
        parents: [sha(1)],
        changes: [
          { status: "M", path: "a.ts" },
          { status: "R", path: "new.ts", oldPath: "old.ts" },
          { status: "A", path: "in.ts" }
        ]
      },
      { commit: sha(1), parents: [], changes: [{ status: "A", path: "a.ts" }] }
    ])
  })
})

describe("the reviews file", () => {
  it("is sorted by id, a blank line apart, and reads back; a line that is no record is named by number", () => {
    const text = formatReviews(
      new Map([
        ["spec:b", sha(2)],
        ["spec:a", sha(1)]
      ])
    )
    expect(text.split("\n").filter((l) => !l.startsWith("#"))).toEqual(["", `spec:a\t${sha(1)}`, "", `spec:b\t${sha(2)}`, ""])
    const read = parseReviews(`${text}spec:a\t${sha(9)}\nnot a record\n`)
    expect([...read.reviews]).toEqual([
      ["spec:a", [sha(1), sha(9)]],
      ["spec:b", [sha(2)]]
    ])
    expect(read.problems).toEqual([{ line: 8, problem: "not a review record (ID<TAB>full commit id)" }])
  })
})

describe("substanceOf", () => {
  it("ignores where things sit and how white space runs, not a changed word", () => {
    const spec = (title: string, file = "specs/x.sdp.md"): SpecNode =>
      extractFile(
        {
          path: file,
          bytes: Buffer.from(`---\nid: spec:x\nkind: rule\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# ${title}\n`)
        },
        { selfHosting: false }
      )!.specs[0]
    expect(substanceOf(spec("A  title", "specs/moved.sdp.md"))).toBe(substanceOf(spec("A title")))
    expect(substanceOf(spec("A titles"))).not.toBe(substanceOf(spec("A title")))
    expect(substanceOf(undefined)).toBeNull()
  })
})

describe("planDrift over a history with branches", () => {
  // 1 adds everything; 2 (branch) edits the code; 3 (main) edits the Spec; 4 merges 2 into 3.
  const history: HistoryCommit[] = [
    { commit: sha(4), parents: [sha(3), sha(2)], changes: [] },
    { commit: sha(3), parents: [sha(1)], changes: [{ status: "M", path: "specs/s.sdp.md" }] },
    { commit: sha(2), parents: [sha(1)], changes: [{ status: "M", path: "src/s.ts" }] },
    {
      commit: sha(1),
      parents: [],
      changes: [
        { status: "A", path: "specs/s.sdp.md" },
        { status: "A", path: "specs/t.sdp.md" },
        { status: "A", path: "src/s.ts" }
      ]
    }
  ]
  const graph = buildGraph([
    carrier("spec:s", "S", "relations:\n  dependsOn: spec:t"),
    carrier("spec:t", "T"),
    { file: "src/s.ts", specs: [], packs: [], anchors: [anchor("impl:s", "src/s.ts", ["spec:s"])], findings: [] }
  ])

  it("a code change on a branch the Spec's later edit never saw counts, though the edit is newer in the log", () => {
    const plan = planDrift({ history, graph, reviews: new Map() })
    expect(plan.questions).toEqual([])
    expect(plan.finish(new Set())).toEqual([
      {
        id: "spec:s",
        file: "specs/s.sdp.md",
        watermark: { commit: sha(3), by: "carrier" },
        reasons: [{ file: "src/s.ts", via: { id: "impl:s", edgeType: "satisfies", claim: "anchored" }, commits: [sha(2)] }]
      }
    ])
  })

  it("a review at the merge sees both sides; a review naming a commit outside the history is reported", () => {
    const plan = planDrift({ history, graph, reviews: new Map([["spec:s", [sha(4), sha(99)]]]) })
    expect(plan.finish(new Set())).toEqual([])
    expect(plan.unknownReviews).toEqual([{ id: "spec:s", commit: sha(99) }])
  })

  it("a stood-on Spec's change is a question, and counts only when answered as substance", () => {
    const later: HistoryCommit[] = [{ commit: sha(5), parents: [sha(4)], changes: [{ status: "M", path: "specs/t.sdp.md" }] }, ...history]
    const plan = planDrift({ history: later, graph, reviews: new Map([["spec:s", [sha(4)]]]) })
    expect(plan.questions).toEqual([{ spec: "spec:t", commit: sha(5), parent: sha(4), path: "specs/t.sdp.md", oldPath: "specs/t.sdp.md" }])
    expect(plan.finish(new Set())).toEqual([])
    expect(plan.finish(new Set([substanceKey("spec:t", sha(5))])).map((r) => r.reasons)).toEqual([
      [{ file: "specs/t.sdp.md", via: { id: "spec:t", edgeType: "dependsOn", claim: "declared" }, commits: [sha(5)] }]
    ])
  })
})
