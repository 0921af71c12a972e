import { describe, expect, it } from "vitest"
import { factsOf } from "../../src/core/graph/facts.js"
import { anchor, graphOf, pack, spec } from "../support/nodes.js"

// Members m1, m2 (manifest order m2 before m1 on purpose) and outside Specs around them.
const nodes = [
  spec({ id: "spec:m1", relations: { refines: "spec:out.parent", verifies: "spec:out.target", supersedes: "spec:out.old" } }),
  spec({
    id: "spec:m2",
    relations: { refines: "spec:out.parent", dependsOn: ["spec:m1", "spec:out.dep", "spec:out.missing"], constrainedBy: "spec:out.Limit" }
  }),
  spec({ id: "spec:out.parent", title: "Parent", readiness: "defined" }),
  spec({ id: "spec:out.target" }),
  spec({ id: "spec:out.old", kind: "decision" }),
  spec({ id: "spec:out.dep", readiness: "ready" }),
  spec({ id: "spec:out.Limit", kind: "constraint" }),
  spec({ id: "spec:out.child", kind: "example", relations: { refines: ["spec:m2", "spec:m1"], verifies: "spec:m1" } }),
  spec({ id: "spec:out.newer", kind: "decision", relations: { supersedes: "spec:m1" } }),
  spec({ id: "spec:out.user", relations: { dependsOn: "spec:m2", decidedBy: "spec:m1" } }),
  pack("pack:p", ["spec:m2", "spec:m1"]),
  anchor({ id: "impl:dep", satisfies: ["spec:out.dep"] }),
  anchor({ id: "impl:other", satisfies: ["spec:m1"] })
]
const facts = factsOf(graphOf(...nodes))

describe("packBoundary", () => {
  const b = facts.packBoundary("pack:p")

  it("rests on outside Specs through the four typed relations only, rows by code units", () => {
    expect(b.restsOn.map((r) => r.id)).toEqual(["spec:out.Limit", "spec:out.dep", "spec:out.parent"])
  })

  it("leaves out member-to-member edges, dangling targets and a member's outbound verifies and supersedes", () => {
    const ids = [...b.restsOn, ...b.restedOnBy].map((r) => r.id)
    expect(ids).not.toContain("spec:m1")
    expect(ids).not.toContain("spec:out.missing")
    expect(ids).not.toContain("spec:out.target")
    expect(ids).not.toContain("spec:out.old")
  })

  it("joins members per relation type in manifest order, without duplicates", () => {
    expect(b.restsOn.find((r) => r.id === "spec:out.parent")).toEqual({
      id: "spec:out.parent",
      title: "Parent",
      statedReadiness: "defined",
      implemented: false,
      via: [{ type: "refines", members: ["spec:m2", "spec:m1"] }]
    })
  })

  it("marks an outside Spec implemented from its own anchored satisfies edge", () => {
    expect(b.restsOn.find((r) => r.id === "spec:out.dep")?.implemented).toBe(true)
    expect(b.restsOn.find((r) => r.id === "spec:out.Limit")?.implemented).toBe(false)
  })

  it("is rested on by outside Specs through any of the six relations, via in type order", () => {
    expect(b.restedOnBy.map((r) => [r.id, r.via])).toEqual([
      [
        "spec:out.child",
        [
          { type: "refines", members: ["spec:m2", "spec:m1"] },
          { type: "verifies", members: ["spec:m1"] }
        ]
      ],
      ["spec:out.newer", [{ type: "supersedes", members: ["spec:m1"] }]],
      [
        "spec:out.user",
        [
          { type: "dependsOn", members: ["spec:m2"] },
          { type: "decidedBy", members: ["spec:m1"] }
        ]
      ]
    ])
  })
})

describe("specsBoundary", () => {
  it("rests on outside Specs by any of the six relations, verifies and supersedes as their own via entries", () => {
    const b = facts.specsBoundary(["spec:m1"])
    expect(b.restsOn.map((r) => [r.id, r.via])).toEqual([
      ["spec:out.old", [{ type: "supersedes", members: ["spec:m1"] }]],
      ["spec:out.parent", [{ type: "refines", members: ["spec:m1"] }]],
      ["spec:out.target", [{ type: "verifies", members: ["spec:m1"] }]]
    ])
  })

  it("treats a Spec outside the list as boundary even when it shares a Pack with a listed Spec", () => {
    const b = facts.specsBoundary(["spec:m1"])
    expect(b.restedOnBy.map((r) => r.id)).toEqual(["spec:m2", "spec:out.child", "spec:out.newer", "spec:out.user"])
    expect(b.restedOnBy[0].via).toEqual([{ type: "dependsOn", members: ["spec:m1"] }])
  })

  it("lists joined members in the given list order", () => {
    const b = facts.specsBoundary(["spec:m1", "spec:m2"])
    expect(b.restsOn.find((r) => r.id === "spec:out.parent")?.via).toEqual([{ type: "refines", members: ["spec:m1", "spec:m2"] }])
    const reversed = facts.specsBoundary(["spec:m2", "spec:m1"])
    expect(reversed.restsOn.find((r) => r.id === "spec:out.parent")?.via).toEqual([{ type: "refines", members: ["spec:m2", "spec:m1"] }])
    expect(reversed.restedOnBy.find((r) => r.id === "spec:out.child")?.via[0]).toEqual({ type: "refines", members: ["spec:m2", "spec:m1"] })
  })

  it("is empty for an empty list", () => {
    expect(facts.specsBoundary([])).toEqual({ restsOn: [], restedOnBy: [] })
  })
})

describe("scale", () => {
  // Speed is measured by `npm run bench`, not asserted here; this checks the answer at scale.
  it("computes the boundary of 10,000 members refining one parent", () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `spec:big.m${i}`)
    const g = graphOf(...ids.map((id) => spec({ id, relations: { refines: "spec:big" } })), spec({ id: "spec:big" }), pack("pack:big", ids))
    const b = factsOf(g).packBoundary("pack:big")
    expect(b.restsOn).toHaveLength(1)
    expect(b.restsOn[0].via[0].members).toEqual(ids)
  })
})
