import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { ChangedFile } from "../../src/core/changes/changeset.js"
import { buildGraph } from "../../src/core/graph/graph.js"
import type { ImpactInput } from "../../src/core/changes/impact.js"
import { carrierReadsOf, impactReport } from "../../src/core/changes/impact.js"
import { memberChangeText, memberChanges } from "../../src/core/changes/impact-members.js"
import type { CarrierRead, Graph } from "../../src/core/model.js"
import { anchor, graphOf, pack, readsOf, spec } from "../support/nodes.js"
import { IMPACT_REPORT_KEYS } from "../support/contract.js"

/** The invented corpus of sdp-reader-semantics.md 2.7. */
const billingNodes = () => [
  spec({
    id: "spec:billing.invoice",
    file: "specs/billing/invoice.sdp.md",
    relations: { refines: "spec:billing.core", dependsOn: "spec:billing.tax-rule", decidedBy: "spec:decisions.rounding" }
  }),
  spec({ id: "spec:billing.tax-rule", kind: "rule", file: "specs/billing/tax-rule.sdp.md" }),
  spec({
    id: "spec:billing.invoice.happy",
    kind: "example",
    file: "specs/billing/invoice.happy.sdp.md",
    relations: { refines: "spec:billing.invoice", verifies: "spec:billing.invoice" }
  }),
  spec({ id: "spec:billing.core", file: "specs/billing/core.sdp.md" }),
  spec({ id: "spec:decisions.rounding", kind: "decision", file: "specs/decisions/rounding.sdp.md" }),
  pack("pack:billing-v1", ["spec:billing.invoice", "spec:billing.tax-rule"], { file: "specs/billing.pack.sdp.md" }),
  anchor({ id: "impl:billing.invoice", file: "src/billing/invoice.ts", satisfies: ["spec:billing.invoice"], component: "component:billing.core" }),
  anchor({ id: "impl:billing.format", file: "src/billing/format.ts", component: "component:billing.core" }),
  anchor({ id: "test:billing.invoice", file: "test/billing/invoice.test.ts", verifies: ["spec:billing.invoice.happy"] })
]

const input = (graph: Graph, changedFiles: ReadonlyArray<ChangedFile>, oldReads: ReadonlyArray<CarrierRead> = []): ImpactInput => ({
  changeset: "HEAD~1",
  root: ".",
  changedFiles,
  graph,
  oldReads,
  outsideRoot: []
})

const modified = (...paths: string[]): ChangedFile[] => paths.map((path) => ({ path, status: "modified" as const }))

describe("impactReport: the blast radius of semantics 2.3", () => {
  it("reproduces the worked example of semantics 2.7, in the contract's key order", () => {
    const graph = graphOf(...billingNodes())
    const report = impactReport(
      input(graph, modified("src/billing/invoice.ts", "src/billing/format.ts", "src/billing/money.ts", "./specs/billing/tax-rule.sdp.md"))
    )
    expect(Object.keys(report)).toEqual(IMPACT_REPORT_KEYS)
    expect(report.changedFiles.map((c) => c.path)).toEqual([
      "specs/billing/tax-rule.sdp.md",
      "src/billing/format.ts",
      "src/billing/invoice.ts",
      "src/billing/money.ts"
    ])
    expect(report.impactedSpecs).toEqual([
      {
        id: "spec:billing.invoice",
        reasons: [{ file: "src/billing/invoice.ts", via: { id: "impl:billing.invoice", edgeType: "satisfies", claim: "anchored" } }]
      },
      { id: "spec:billing.tax-rule", reasons: [{ file: "specs/billing/tax-rule.sdp.md", via: null }] }
    ])
    expect(report.impactedPacks).toEqual([])
    expect(report.atRisk.map((r) => [r.id, r.nodeType, r.reasons.length])).toEqual([
      ["pack:billing-v1", "Pack", 2],
      ["spec:billing.core", "Primitive", 1],
      ["spec:billing.invoice.happy", "Primitive", 2],
      ["spec:decisions.rounding", "Primitive", 1]
    ])
    expect(report.atRisk[2].reasons).toEqual([
      { from: "spec:billing.invoice.happy", edgeType: "refines", to: "spec:billing.invoice", claim: "declared" },
      { from: "spec:billing.invoice.happy", edgeType: "verifies", to: "spec:billing.invoice", claim: "declared" }
    ])
    expect(report.coverageUnknown).toEqual(["src/billing/money.ts"])
    expect(report.unlinked).toEqual([{ file: "src/billing/format.ts", id: "impl:billing.format" }])
    expect(report.removedSpecs).toEqual([])
  })

  it("a changed Pack manifest with no old reading impacts the Pack and puts every member at risk through belongsTo", () => {
    const graph = graphOf(...billingNodes())
    const report = impactReport(input(graph, modified("specs/billing.pack.sdp.md")))
    expect(report.impactedPacks).toEqual([{ id: "pack:billing-v1", reasons: [{ file: "specs/billing.pack.sdp.md", via: null }] }])
    expect(report.impactedSpecs).toEqual([])
    expect(report.atRisk.map((r) => r.id)).toEqual(["spec:billing.invoice", "spec:billing.tax-rule"])
    expect(report.atRisk[0].reasons).toEqual([{ from: "spec:billing.invoice", edgeType: "belongsTo", to: "pack:billing-v1", claim: "declared" }])
  })

  it("follows a models edge only when it is the one resolving oracle for its target", () => {
    const target = spec({ id: "spec:a" })
    const lone = graphOf(target, anchor({ id: "oracle:a", models: ["spec:a"] }))
    expect(impactReport(input(lone, modified("test/a.test.ts"))).impactedSpecs).toEqual([
      { id: "spec:a", reasons: [{ file: "test/a.test.ts", via: { id: "oracle:a", edgeType: "models", claim: "anchored" } }] }
    ])
    const two = graphOf(target, anchor({ id: "oracle:a", models: ["spec:a"] }), anchor({ id: "oracle:b", models: ["spec:a"] }))
    const report = impactReport(input(two, modified("test/a.test.ts")))
    expect(report.impactedSpecs).toEqual([])
    // An Anchor with nothing traversable is listed nowhere; the file is not coverage-unknown.
    expect(report.unlinked).toEqual([])
    expect(report.coverageUnknown).toEqual([])
  })

  it("follows references and verifies, and keeps a dangling target as impacted", () => {
    const graph = graphOf(
      spec({ id: "spec:a" }),
      anchor({ id: "impl:x", file: "src/x.ts", references: ["spec:a"], satisfies: ["spec:missing"] }),
      anchor({ id: "test:x", file: "src/x.ts", verifies: ["spec:a"] })
    )
    const report = impactReport(input(graph, modified("src/x.ts")))
    expect(report.impactedSpecs).toEqual([
      {
        id: "spec:a",
        reasons: [
          { file: "src/x.ts", via: { id: "impl:x", edgeType: "references", claim: "anchored" } },
          { file: "src/x.ts", via: { id: "test:x", edgeType: "verifies", claim: "anchored" } }
        ]
      },
      { id: "spec:missing", reasons: [{ file: "src/x.ts", via: { id: "impl:x", edgeType: "satisfies", claim: "anchored" } }] }
    ])
  })
})

describe("impactReport: the old side", () => {
  const parent = spec({ id: "spec:parent", file: "specs/parent.sdp.md" })
  const child = spec({ id: "spec:child", file: "specs/child.sdp.md", relations: { refines: "spec:gone" } })

  it("a deleted carrier's Spec is removed, and Specs that relate to it are at risk", () => {
    const graph = graphOf(parent, child)
    const old = readsOf(spec({ id: "spec:gone", file: "specs/gone.sdp.md" }))
    const report = impactReport(input(graph, [{ path: "specs/gone.sdp.md", status: "deleted" }], old))
    expect(report.removedSpecs).toEqual([{ id: "spec:gone", file: "specs/gone.sdp.md" }])
    expect(report.impactedSpecs).toEqual([])
    expect(report.coverageUnknown).toEqual([])
    expect(report.atRisk).toEqual([
      { id: "spec:child", nodeType: "Primitive", reasons: [{ from: "spec:child", edgeType: "refines", to: "spec:gone", claim: "declared" }] }
    ])
  })

  it("a deleted file with no old reading is coverage-unknown", () => {
    const report = impactReport(input(graphOf(parent), [{ path: "docs/readme.md", status: "deleted" }]))
    expect(report.coverageUnknown).toEqual(["docs/readme.md"])
  })

  it("a renamed carrier whose Spec still exists is impacted through both paths, not removed", () => {
    const moved = spec({ id: "spec:parent", file: "specs/new/parent.sdp.md" })
    const graph = graphOf(moved)
    const old = readsOf(parent)
    const report = impactReport(input(graph, [{ path: "specs/new/parent.sdp.md", status: "renamed", oldPath: "specs/parent.sdp.md" }], old))
    expect(report.changedFiles).toEqual([{ path: "specs/new/parent.sdp.md", status: "renamed", oldPath: "specs/parent.sdp.md" }])
    expect(report.impactedSpecs).toEqual([
      {
        id: "spec:parent",
        reasons: [
          { file: "specs/new/parent.sdp.md", via: null },
          { file: "specs/parent.sdp.md", via: null }
        ]
      }
    ])
    expect(report.removedSpecs).toEqual([])
  })

  it("a deleted code file impacts the Specs its anchors bound, and removes bound ids the graph lacks", () => {
    const graph = graphOf(parent)
    const old = readsOf(anchor({ id: "impl:old", file: "src/old.ts", satisfies: ["spec:parent", "spec:vanished"] }))
    const report = impactReport(input(graph, [{ path: "src/old.ts", status: "deleted" }], old))
    expect(report.impactedSpecs).toEqual([
      { id: "spec:parent", reasons: [{ file: "src/old.ts", via: { id: "impl:old", edgeType: "satisfies", claim: "anchored" } }] }
    ])
    expect(report.removedSpecs).toEqual([{ id: "spec:vanished", file: "src/old.ts" }])
  })

  it("a changed carrier the new side refuses keeps its old Spec impacted rather than removed", () => {
    const reads: CarrierRead[] = [
      ...readsOf(child),
      {
        file: "specs/parent.sdp.md",
        specs: [],
        packs: [],
        anchors: [],
        findings: [{ file: "specs/parent.sdp.md", line: 3, code: "extract/invalid-frontmatter", message: "bad", severity: "error" }]
      }
    ]
    const report = impactReport(input(buildGraph(reads), modified("specs/parent.sdp.md"), readsOf(parent)))
    expect(report.impactedSpecs).toEqual([{ id: "spec:parent", reasons: [{ file: "specs/parent.sdp.md", via: null }] }])
    expect(report.removedSpecs).toEqual([])
  })

  it("a modified carrier whose id changed removes the old id and impacts the new one", () => {
    const renamed = spec({ id: "spec:parent2", file: "specs/parent.sdp.md" })
    const report = impactReport(input(graphOf(renamed), modified("specs/parent.sdp.md"), readsOf(parent)))
    expect(report.impactedSpecs.map((r) => r.id)).toEqual(["spec:parent2"])
    expect(report.removedSpecs).toEqual([{ id: "spec:parent", file: "specs/parent.sdp.md" }])
  })

  it("carrierReadsOf groups a graph back into per-file reads", () => {
    const reads = carrierReadsOf(graphOf(parent, child, pack("pack:p", ["spec:parent"]), anchor({ id: "impl:z", file: "specs/child.sdp.md" })))
    expect(reads.map((r) => [r.file, r.specs.length, r.packs.length, r.anchors.length])).toEqual([
      ["specs/child.sdp.md", 1, 0, 1],
      ["specs/p.pack.sdp.md", 0, 1, 0],
      ["specs/parent.sdp.md", 1, 0, 0]
    ])
  })
})

describe("impactReport: determinism", () => {
  it("gives the same bytes whatever order changed files and old reads arrive in", () => {
    const nodes = billingNodes()
    const graph = graphOf(...nodes)
    const files: ChangedFile[] = [
      ...modified("src/billing/invoice.ts", "src/billing/format.ts", "specs/billing.pack.sdp.md", "zeta.md", "Ä.md"),
      { path: "specs/billing/old.sdp.md", status: "deleted" },
      { path: "test/billing/invoice.test.ts", status: "renamed", oldPath: "test/old.test.ts" }
    ]
    const old = [
      ...readsOf(spec({ id: "spec:billing.old", file: "specs/billing/old.sdp.md" })),
      ...readsOf(anchor({ id: "test:old", file: "test/old.test.ts", verifies: ["spec:billing.core"] }))
    ]
    const expected = JSON.stringify(impactReport({ ...input(graph, files, old), outsideRoot: ["b", "a", "b"] }))
    expect(JSON.parse(expected).outsideRoot).toEqual(["a", "b"])
    fc.assert(
      fc.property(fc.shuffledSubarray(files, { minLength: files.length }), fc.shuffledSubarray(old, { minLength: old.length }), (f, o) => {
        expect(JSON.stringify(impactReport({ ...input(graph, f, o), outsideRoot: ["b", "a", "b"] }))).toBe(expected)
      })
    )
  })
})

describe("impactReport: removedPacks and lostBindings (bundle-contract.md section 5)", () => {
  const a = spec({ id: "spec:a", file: "specs/a.sdp.md" })
  const b = spec({ id: "spec:b", file: "specs/b.sdp.md" })

  it("a deleted Pack manifest's Pack is removed, not impacted", () => {
    const graph = graphOf(a, b)
    const old = readsOf(pack("pack:gone", ["spec:a"], { file: "specs/gone.pack.sdp.md" }))
    const report = impactReport(input(graph, [{ path: "specs/gone.pack.sdp.md", status: "deleted" }], old))
    expect(report.removedPacks).toEqual([{ id: "pack:gone", file: "specs/gone.pack.sdp.md" }])
    expect(report.impactedPacks).toEqual([])
    expect(report.coverageUnknown).toEqual([])
  })

  it("a Pack manifest that still holds its Pack is impacted, not removed", () => {
    const manifest = pack("pack:kept", ["spec:a"], { file: "specs/kept.pack.sdp.md" })
    const report = impactReport(input(graphOf(a, manifest), modified("specs/kept.pack.sdp.md"), readsOf(manifest)))
    expect(report.removedPacks).toEqual([])
    expect(report.impactedPacks.map((p) => p.id)).toEqual(["pack:kept"])
  })

  it("an anchor moved from Spec B to Spec A names B in lostBindings; A is impacted through the new side", () => {
    const now = anchor({ id: "impl:x", file: "src/x.ts", satisfies: ["spec:a"] })
    const before = anchor({ id: "impl:x", file: "src/x.ts", satisfies: ["spec:b"], verifies: [] })
    const gone = anchor({ id: "impl:y", file: "src/x.ts", references: ["spec:b", "spec:a"] })
    const report = impactReport(input(graphOf(a, b, now), modified("src/x.ts"), readsOf(before, gone)))
    expect(report.lostBindings).toEqual([
      { spec: "spec:a", anchor: "impl:y", claim: "anchored", file: "src/x.ts" },
      { spec: "spec:b", anchor: "impl:x", claim: "anchored", file: "src/x.ts" },
      { spec: "spec:b", anchor: "impl:y", claim: "anchored", file: "src/x.ts" }
    ])
    expect(report.impactedSpecs.map((s) => s.id)).toEqual(["spec:a"])
    expect(report.removedSpecs).toEqual([])
  })

  it("a renamed code file's lost bindings name its old path; a binding kept under the new path is not lost", () => {
    const now = anchor({ id: "impl:x", file: "src/new.ts", satisfies: ["spec:a"] })
    const before = anchor({ id: "impl:x", file: "src/old.ts", satisfies: ["spec:a", "spec:b"] })
    const report = impactReport(input(graphOf(a, b, now), [{ path: "src/new.ts", status: "renamed", oldPath: "src/old.ts" }], readsOf(before)))
    expect(report.lostBindings).toEqual([{ spec: "spec:b", anchor: "impl:x", claim: "anchored", file: "src/old.ts" }])
  })
})

describe("impactReport: a changed Pack manifest puts at risk only the members whose standing changed", () => {
  const ids = ["a", "b", "c", "d", "e", "f"].map((x) => `spec:m.${x}`)
  const members = ids.map((id) => spec({ id, file: `specs/m/${id.slice(7)}.sdp.md` }))
  const FILE = "specs/m.pack.sdp.md"
  const reportOf = (before: ReadonlyArray<string>, after: ReadonlyArray<string>) => {
    const now = pack("pack:m", after, { file: FILE })
    return impactReport(input(graphOf(...members, now), modified(FILE), readsOf(pack("pack:m", before, { file: FILE }))))
  }

  it("an unchanged member list (the framing edited) puts no member at risk", () => {
    const report = reportOf(ids, ids)
    expect(report.impactedPacks.map((p) => p.id)).toEqual(["pack:m"])
    expect(report.atRisk).toEqual([])
  })

  it("names the added, the removed and the moved member, each with its reason; the rest stay out", () => {
    // Old: a b c d e. New: f a c d b (f added at the top, e removed, b moved behind d).
    const report = reportOf(ids.slice(0, 5), ["spec:m.f", "spec:m.a", "spec:m.c", "spec:m.d", "spec:m.b"])
    expect(report.atRisk).toEqual([
      {
        id: "spec:m.b",
        nodeType: "Primitive",
        reasons: [{ from: "spec:m.b", edgeType: "belongsTo", to: "pack:m", claim: "declared", member: { change: "moved", oldPosition: 2, newPosition: 5 } }]
      },
      {
        id: "spec:m.e",
        nodeType: "Primitive",
        reasons: [
          { from: "spec:m.e", edgeType: "belongsTo", to: "pack:m", claim: "declared", member: { change: "removed", oldPosition: 5, newPosition: null } }
        ]
      },
      {
        id: "spec:m.f",
        nodeType: "Primitive",
        reasons: [{ from: "spec:m.f", edgeType: "belongsTo", to: "pack:m", claim: "declared", member: { change: "added", oldPosition: null, newPosition: 1 } }]
      }
    ])
  })

  it("skips a changed member that is impacted itself, and a member the graph lacks", () => {
    const now = pack("pack:m", ["spec:m.a", "spec:m.b", "spec:m.ghost"], { file: FILE })
    const old = readsOf(pack("pack:m", ["spec:m.a"], { file: FILE }))
    const changedB = [...modified(FILE), ...modified("specs/m/b.sdp.md")]
    const report = impactReport(input(graphOf(...members, now), changedB, old))
    expect(report.impactedSpecs.map((s) => s.id)).toEqual(["spec:m.b"])
    expect(report.atRisk.map((r) => r.id)).toEqual([])
    const added = impactReport(input(graphOf(...members, now), modified(FILE), old))
    expect(added.atRisk.map((r) => [r.id, r.reasons.map((x) => x.member?.change)])).toEqual([["spec:m.b", ["added"]]])
  })

  it("a manifest added in the changeset has every member added, in manifest order", () => {
    const now = pack("pack:m", ["spec:m.b", "spec:m.a"], { file: FILE })
    const report = impactReport(input(graphOf(...members, now), [{ path: FILE, status: "added" }]))
    expect(report.atRisk.map((r) => [r.id, r.reasons[0].member])).toEqual([
      ["spec:m.a", { change: "added", oldPosition: null, newPosition: 2 }],
      ["spec:m.b", { change: "added", oldPosition: null, newPosition: 1 }]
    ])
  })

  it("a renamed manifest compares against the old path's Pack", () => {
    const now = pack("pack:m", ["spec:m.a", "spec:m.b"], { file: "specs/renamed.pack.sdp.md" })
    const old = readsOf(pack("pack:m", ["spec:m.b", "spec:m.a"], { file: FILE }))
    const report = impactReport(input(graphOf(...members, now), [{ path: "specs/renamed.pack.sdp.md", status: "renamed", oldPath: FILE }], old))
    expect(report.atRisk.map((r) => [r.id, memberChangeText(r.reasons[0].member!)])).toEqual([["spec:m.a", "member moved from position 2 to 1"]])
  })
})

describe("memberChanges", () => {
  it("one member inserted at the top moves nobody after it", () => {
    const old = Array.from({ length: 150 }, (_, i) => `spec:x.${i}`)
    expect([...memberChanges(old, ["spec:x.new", ...old])]).toEqual([["spec:x.new", { change: "added", oldPosition: null, newPosition: 1 }]])
  })

  it("a reversed list keeps one member in place and moves the rest", () => {
    const changes = memberChanges(["a", "b", "c"], ["c", "b", "a"])
    expect([...changes.values()].filter((c) => c.change === "moved")).toHaveLength(2)
    expect(changes.size).toBe(2)
  })

  it("names each change in words", () => {
    expect(memberChangeText({ change: "added", oldPosition: null, newPosition: 4 })).toBe("member added at position 4")
    expect(memberChangeText({ change: "removed", oldPosition: 3, newPosition: null })).toBe("member removed from position 3")
    expect(memberChangeText({ change: "moved", oldPosition: 3, newPosition: 5 })).toBe("member moved from position 3 to 5")
  })

  it("the moved, added and removed members rebuild the new order from the old (property)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 20 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 20 }),
        (a, b) => {
          const before = a.map(String)
          const after = b.map(String)
          const changes = memberChanges(before, after)
          // The members left unnamed keep their relative order, and every added or removed id is named.
          const still = after.filter((id) => !changes.has(id))
          expect(before.filter((id) => still.includes(id))).toEqual(still)
          for (const id of after) if (!before.includes(id)) expect(changes.get(id)?.change).toBe("added")
          for (const id of before) if (!after.includes(id)) expect(changes.get(id)?.change).toBe("removed")
        }
      )
    )
  })
})
