import { describe, expect, it } from "vitest"
import { factsOf, openingCodeSpan } from "../../src/core/graph/facts.js"
import { anchor, graphOf, pack, spec } from "../support/nodes.js"

describe("delivery facts and verifier enablement", () => {
  const nodes = [
    spec({ id: "spec:p" }),
    spec({ id: "spec:p.enabled", kind: "example", relations: { verifies: "spec:p" }, line: 4 }),
    spec({ id: "spec:p.idle", kind: "example", relations: { verifies: "spec:p" } }),
    spec({ id: "spec:p.rule", kind: "rule", relations: { verifies: "spec:p" } }),
    spec({ id: "spec:q" }),
    anchor({ id: "test:p.enabled", verifies: ["spec:p.enabled"], file: "test/p.test.ts", line: 9 }),
    anchor({ id: "test:p.rule", verifies: ["spec:p.rule"] }),
    anchor({ id: "test:q", verifies: ["spec:q"], line: 12 }),
    anchor({ id: "oracle:p", models: ["spec:p"] })
  ]
  const facts = factsOf(graphOf(...nodes))

  it("enables an example only when a test anchor verifies it", () => {
    expect(facts.isEnabledExample("spec:p.enabled")).toBe(true)
    expect(facts.isEnabledExample("spec:p.idle")).toBe(false)
    expect(facts.isEnabledExample("spec:p.rule")).toBe(false)
  })

  it("decodes every verifies edge into the Spec, sorted by verifier id, enabled only through an enabled example", () => {
    expect(facts.verifiers("spec:p")).toEqual([
      { id: "spec:p.enabled", claim: "declared", enabled: true, file: "specs/p.enabled.sdp.md", line: 4 },
      { id: "spec:p.idle", claim: "declared", enabled: false, file: "specs/p.idle.sdp.md", line: 2 },
      { id: "spec:p.rule", claim: "declared", enabled: false, file: "specs/p.rule.sdp.md", line: 2 }
    ])
  })

  it("decodes a test anchor verifying a Spec directly, with the anchor's file and line", () => {
    expect(facts.verifiers("spec:q")).toEqual([{ id: "test:q", claim: "anchored", enabled: true, file: "test/q.test.ts", line: 12 }])
    expect(facts.hasVerifier("spec:q")).toBe(true)
  })

  it("gives has-verifier through an enabled example, never through an idle one or an oracle", () => {
    expect(facts.hasVerifier("spec:p")).toBe(true)
    const withoutTest = factsOf(graphOf(...nodes.filter((n) => n.id !== "test:p.enabled")))
    expect(withoutTest.hasVerifier("spec:p")).toBe(false)
    expect(withoutTest.verifiers("spec:p").every((v) => !v.enabled)).toBe(true)
  })

  it("counts implemented only from an anchored satisfies edge, never through refines or references", () => {
    const g = graphOf(
      spec({ id: "spec:a" }),
      spec({ id: "spec:a.child", relations: { refines: "spec:a" } }),
      spec({ id: "spec:b" }),
      anchor({ id: "impl:a", satisfies: ["spec:a"] }),
      anchor({ id: "impl:b", references: ["spec:b"] })
    )
    const f = factsOf(g)
    expect(f.implemented("spec:a")).toBe(true)
    expect(f.implemented("spec:a.child")).toBe(false)
    expect(f.implemented("spec:b")).toBe(false)
  })
})

describe("implementedBy and referencedBy", () => {
  const facts = factsOf(
    graphOf(
      spec({ id: "spec:s" }),
      anchor({ id: "impl:z", satisfies: ["spec:s"], role: "service", component: "component:core", line: 5, file: "src/z.ts" }),
      anchor({ id: "api:a", satisfies: ["spec:s"] }),
      anchor({ id: "impl:Z", references: ["spec:s"] }),
      anchor({ id: "component:core", layer: "domain", context: "billing" })
    )
  )

  it("sorts units by id in code units and fills the component's layer and context from its node", () => {
    expect(facts.implementedBy("spec:s")).toEqual([
      { id: "api:a", claim: "anchored", file: "src/a.ts", line: 1, role: null, component: null },
      { id: "impl:z", claim: "anchored", file: "src/z.ts", line: 5, role: "service", component: { id: "component:core", layer: "domain", context: "billing" } }
    ])
  })

  it("lists references apart from satisfies", () => {
    expect(facts.referencedBy("spec:s").map((r) => r.id)).toEqual(["impl:Z"])
  })
})

describe("decisions, examples and design counts", () => {
  const s = spec({
    id: "spec:s",
    relations: { refines: "spec:parent", decidedBy: ["spec:d.b", "spec:d.A", "spec:d.gone"] },
    sections: {
      intent: {
        outcome: "o",
        openQuestions: [
          { question: "a?", blocking: true },
          { question: "b?", blocking: false, key: "bee" },
          { question: "c?", blocking: true }
        ]
      },
      design: { description: "prose", fnMake: "`make(): S` builds one", note: "plain", later: "see `x`" },
      ui: { description: "ui prose", layout: "`Grid` two columns" }
    }
  })
  const facts = factsOf(
    graphOf(
      s,
      spec({ id: "spec:d.b", kind: "decision", readiness: "ready" }),
      spec({ id: "spec:d.A", kind: "decision", readiness: "scoped" }),
      spec({ id: "spec:s.z", kind: "example", relations: { refines: "spec:s", verifies: "spec:s" } }),
      spec({ id: "spec:s.Y", kind: "example", relations: { verifies: "spec:s" } }),
      spec({ id: "spec:s.rule", kind: "rule", relations: { refines: "spec:s" } }),
      spec({ id: "spec:s.dep", kind: "example", relations: { dependsOn: "spec:s" } })
    )
  )

  it("lists distinct decidedBy targets by code units, unresolved ones with a null rung", () => {
    expect(facts.decisions("spec:s")).toEqual([
      { id: "spec:d.A", statedReadiness: "scoped", resolved: true },
      { id: "spec:d.b", statedReadiness: "ready", resolved: true },
      { id: "spec:d.gone", statedReadiness: null, resolved: false }
    ])
  })

  it("lists example Specs that refine or verify the Spec, once each, by code units", () => {
    expect(facts.examplesOf("spec:s")).toEqual(["spec:s.Y", "spec:s.z"])
  })

  it("counts design and ui entries without description, pinned declarations and questions", () => {
    expect(facts.designCounts("spec:s")).toEqual({ entries: 4, declarations: 1, openQuestions: 3, blockingQuestions: 2 })
  })
})

describe("pinned declarations", () => {
  const pinned = (design: Record<string, string>, ui: Record<string, string> = {}) =>
    factsOf(graphOf(spec({ id: "spec:s", sections: { design, ui } }))).pinnedDeclarations("spec:s")

  it("takes a single-backtick span that opens the value, content verbatim", () => {
    expect(pinned({ loanService: "`borrow(card: CardId): Loan` records one loan" })).toEqual([
      { key: "loanService", declaration: "borrow(card: CardId): Loan" }
    ])
  })

  it("takes a double-backtick span holding a single backtick, closed only by exactly two", () => {
    expect(pinned({ tick: "`` a ` b `` then prose" })).toEqual([{ key: "tick", declaration: " a ` b " }])
    expect(openingCodeSpan("``x```y``")).toBe("x```y")
    expect(openingCodeSpan("```x`` never closed")).toBeNull()
  })

  it("does not count a span later in the value, an unclosed run, or a description", () => {
    expect(pinned({ later: "calls `borrow()` first", open: "`never closed", description: "`looks pinned`" })).toEqual([])
  })

  it("never counts ui entries", () => {
    expect(pinned({}, { layout: "`Grid(2)` two columns" })).toEqual([])
  })

  it("keeps Design order", () => {
    expect(pinned({ b: "`B`", a: "`A`" }).map((d) => d.key)).toEqual(["b", "a"])
  })
})

describe("footing", () => {
  const facts = factsOf(
    graphOf(
      spec({
        id: "spec:s",
        relations: {
          decidedBy: "spec:d",
          dependsOn: ["spec:b", "spec:B", "spec:gone", "pack:p"],
          refines: "spec:z",
          verifies: "spec:v",
          supersedes: "spec:old"
        }
      }),
      spec({ id: "spec:b", readiness: "defined" }),
      spec({ id: "spec:B", readiness: "scoped" }),
      spec({ id: "spec:z", readiness: "ready", relations: { refines: "spec:b" }, sections: { intent: { outcome: "o" }, behavior: { rules: ["r"] } } }),
      spec({ id: "spec:d", kind: "decision", readiness: "ready" }),
      spec({ id: "spec:v" }),
      spec({ id: "spec:old" }),
      pack("pack:p", [])
    )
  )

  it("orders rows refines, dependsOn, constrainedBy, decidedBy, then id by code units (not locale)", () => {
    expect(facts.footing("spec:s").map((r) => `${r.type} ${r.id}`)).toEqual([
      "refines spec:z",
      "dependsOn pack:p",
      "dependsOn spec:B",
      "dependsOn spec:b",
      "dependsOn spec:gone",
      "decidedBy spec:d"
    ])
  })

  it("marks unresolved and non-Spec targets with null rungs, Specs with their stated rung and floor", () => {
    const row = (id: string) => facts.footing("spec:s").find((r) => r.id === id)
    expect(row("spec:gone")).toEqual({ type: "dependsOn", id: "spec:gone", claim: "declared", resolved: false, statedReadiness: null, floorReached: null })
    expect(row("pack:p")).toEqual({ type: "dependsOn", id: "pack:p", claim: "declared", resolved: true, statedReadiness: null, floorReached: null })
    expect(row("spec:z")).toEqual({ type: "refines", id: "spec:z", claim: "declared", resolved: true, statedReadiness: "ready", floorReached: "ready" })
    expect(row("spec:b")?.floorReached).toBe("none")
  })
})
