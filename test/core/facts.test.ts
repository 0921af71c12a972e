import { describe, expect, it } from "vitest"
import { factsOf } from "../../src/core/graph/facts.js"
import type { Rung } from "../../src/core/model.js"
import { anchor, graphOf, gwt, pack, spec } from "../support/nodes.js"

// The invented billing corpus of sdp-reader-semantics.md 2.7, 3.2 and 4.5, as graph nodes.
// `spec:billing.core` states `defined` so that only tax-rule and rounding hold invoice below ready.
// Only the relations the worked example names are declared.

const billingNodes = (invoiceReadiness: Rung = "defined") => [
  spec({
    id: "spec:billing.invoice",
    readiness: invoiceReadiness,
    title: "Invoice an order",
    file: "specs/billing/invoice.sdp.md",
    relations: { refines: "spec:billing.core", dependsOn: "spec:billing.tax-rule", decidedBy: "spec:decisions.rounding" },
    sections: {
      intent: { outcome: "Every order gets one invoice." },
      behavior: { rules: ["An invoice totals its lines."] }
    }
  }),
  spec({
    id: "spec:billing.tax-rule",
    kind: "rule",
    readiness: "scoped",
    title: "Tax rule",
    file: "specs/billing/tax-rule.sdp.md",
    sections: { intent: { outcome: "Tax is applied per line." }, behavior: { rules: ["Tax rounds per line."] } }
  }),
  spec({
    id: "spec:billing.invoice.happy",
    kind: "example",
    altitude: "story",
    readiness: "defined",
    title: "An ordinary invoice",
    file: "specs/billing/invoice.happy.sdp.md",
    relations: { refines: "spec:billing.invoice", verifies: "spec:billing.invoice" },
    sections: {
      intent: { outcome: "Show an ordinary invoice." },
      behavior: { examples: [gwt(["an order of {lines: 2} lines"], ["the order is invoiced"], ["the invoice has {lines: 2} lines"])] }
    }
  }),
  spec({
    id: "spec:billing.core",
    readiness: "defined",
    title: "Billing core",
    file: "specs/billing/core.sdp.md",
    sections: { intent: { outcome: "Orders are billed." }, behavior: { rules: ["Bills are issued in one currency."] } }
  }),
  spec({
    id: "spec:decisions.rounding",
    kind: "decision",
    readiness: "scoped",
    title: "Round half to even",
    file: "specs/decisions/rounding.sdp.md",
    sections: { intent: { outcome: "One rounding rule." }, decision: { context: "Cents drift." } }
  }),
  pack("pack:billing-v1", ["spec:billing.invoice", "spec:billing.tax-rule"], { file: "specs/billing.pack.sdp.md" }),
  anchor({
    id: "impl:billing.invoice",
    file: "src/billing/invoice.ts",
    line: 4,
    satisfies: ["spec:billing.invoice"],
    component: "component:billing.core"
  }),
  anchor({ id: "impl:billing.format", file: "src/billing/format.ts", line: 3, component: "component:billing.core" }),
  anchor({ id: "test:billing.invoice", file: "test/billing/invoice.test.ts", line: 7, verifies: ["spec:billing.invoice.happy"] })
]

describe("billing worked example (reader semantics 2.7, 3.2, 4.5)", () => {
  const facts = factsOf(graphOf(...billingNodes()))

  it("derives implemented and has-verifier exactly as the example states", () => {
    expect(facts.implemented("spec:billing.invoice")).toBe(true)
    expect(facts.hasVerifier("spec:billing.invoice")).toBe(true)
    expect(facts.isEnabledExample("spec:billing.invoice.happy")).toBe(true)
    expect(facts.hasVerifier("spec:billing.invoice.happy")).toBe(true)
    expect(facts.implemented("spec:billing.invoice.happy")).toBe(false)
    expect(facts.implemented("spec:billing.tax-rule")).toBe(false)
    expect(facts.hasVerifier("spec:billing.tax-rule")).toBe(false)
  })

  it("holds invoice below ready by the typed-dependency clause with tax-rule and rounding as targets", () => {
    expect(facts.floor("spec:billing.invoice")).toEqual({
      floorReached: "defined",
      statedNextRung: "ready",
      floorFailures: [],
      holds: [
        {
          clauseId: "typed-dependency-targets-are-defined",
          description: expect.any(String),
          targets: [
            { type: "dependsOn", id: "spec:billing.tax-rule", statedReadiness: "scoped" },
            { type: "decidedBy", id: "spec:decisions.rounding", statedReadiness: "scoped" }
          ]
        }
      ]
    })
  })

  it("leaves holds empty when invoice states idea (the floor already holds scoped)", () => {
    const floor = factsOf(graphOf(...billingNodes("idea"))).floor("spec:billing.invoice")
    expect(floor.statedNextRung).toBe("scoped")
    expect(floor.holds).toEqual([])
    expect(floor.floorReached).toBe("defined")
  })

  it("gives invoice footing rows in type order with each target's stated rung and floor", () => {
    expect(facts.footing("spec:billing.invoice")).toEqual([
      { type: "refines", id: "spec:billing.core", claim: "declared", resolved: true, statedReadiness: "defined", floorReached: "idea" },
      { type: "dependsOn", id: "spec:billing.tax-rule", claim: "declared", resolved: true, statedReadiness: "scoped", floorReached: "idea" },
      { type: "decidedBy", id: "spec:decisions.rounding", claim: "declared", resolved: true, statedReadiness: "scoped", floorReached: "idea" }
    ])
  })

  it("lists the pack boundary of the example: core and rounding rested on, happy resting on invoice", () => {
    expect(facts.packBoundary("pack:billing-v1")).toEqual({
      restsOn: [
        {
          id: "spec:billing.core",
          title: "Billing core",
          statedReadiness: "defined",
          implemented: false,
          via: [{ type: "refines", members: ["spec:billing.invoice"] }]
        },
        {
          id: "spec:decisions.rounding",
          title: "Round half to even",
          statedReadiness: "scoped",
          implemented: false,
          via: [{ type: "decidedBy", members: ["spec:billing.invoice"] }]
        }
      ],
      restedOnBy: [
        {
          id: "spec:billing.invoice.happy",
          title: "An ordinary invoice",
          statedReadiness: "defined",
          implemented: false,
          via: [
            { type: "refines", members: ["spec:billing.invoice"] },
            { type: "verifies", members: ["spec:billing.invoice"] }
          ]
        }
      ]
    })
  })

  it("decodes invoice's verifier as the enabled example with the example's file and line", () => {
    expect(facts.verifiers("spec:billing.invoice")).toEqual([
      { id: "spec:billing.invoice.happy", claim: "declared", enabled: true, file: "specs/billing/invoice.happy.sdp.md", line: 2 }
    ])
    expect(facts.verifiers("spec:billing.invoice.happy")).toEqual([
      { id: "test:billing.invoice", claim: "anchored", enabled: true, file: "test/billing/invoice.test.ts", line: 7 }
    ])
  })

  it("lists invoice's implementing unit with its component even when the component node is absent", () => {
    expect(facts.implementedBy("spec:billing.invoice")).toEqual([
      {
        id: "impl:billing.invoice",
        claim: "anchored",
        file: "src/billing/invoice.ts",
        line: 4,
        role: null,
        component: { id: "component:billing.core", layer: null, context: null }
      }
    ])
    expect(facts.referencedBy("spec:billing.invoice")).toEqual([])
  })

  it("names invoice's decision and its example", () => {
    expect(facts.decisions("spec:billing.invoice")).toEqual([{ id: "spec:decisions.rounding", statedReadiness: "scoped", resolved: true }])
    expect(facts.examplesOf("spec:billing.invoice")).toEqual(["spec:billing.invoice.happy"])
    expect(facts.examplesOf("spec:billing.tax-rule")).toEqual([])
  })
})

describe("loans mini-corpus (format section 12)", () => {
  const borrowBook = (relations: Record<string, string> = {}) =>
    spec({
      id: "spec:loans.borrow-book",
      readiness: "defined",
      title: "Member borrows a book",
      file: "specs/borrow-book.sdp.md",
      relations,
      sections: {
        intent: { outcome: "A member in good standing leaves with the loan recorded." },
        behavior: {
          exampleSpace: gwt(
            ["a member whose card shows {fines:number} unpaid fines"],
            ["the member presents the copy at the desk"],
            ["the loan is recorded with a due date {days:number} days out"]
          )
        },
        design: { deskFlow: "Card first, then copy, then slip." }
      }
    })
  const rest = [
    spec({
      id: "spec:loans.borrow-book.happy-path",
      kind: "example",
      altitude: "story",
      readiness: "defined",
      file: "specs/borrow-book-happy-path.sdp.md",
      relations: { refines: "spec:loans.borrow-book", verifies: "spec:loans.borrow-book" },
      sections: {
        intent: { outcome: "Show the ordinary checkout at the desk." },
        behavior: {
          examples: [
            gwt(
              ["a member whose card shows {fines: 0} unpaid fines"],
              ["the member presents the copy at the desk"],
              ["the loan is recorded with a due date {days: 21} days out"]
            )
          ]
        }
      }
    }),
    pack("pack:loans-v1", ["spec:loans.borrow-book", "spec:loans.borrow-book.happy-path"]),
    anchor({ id: "impl:loans.borrow", file: "src/borrow.ts", line: 3, satisfies: ["spec:loans.borrow-book"] }),
    anchor({ id: "test:loans.borrow-book.happy-path", file: "test/borrow.test.ts", line: 5, verifies: ["spec:loans.borrow-book.happy-path"] })
  ]

  it("fails at-least-one-relation only, so the floor reached is idea", () => {
    const floor = factsOf(graphOf(borrowBook(), ...rest)).floor("spec:loans.borrow-book")
    expect(floor.floorFailures.map((f) => f.clauseId)).toEqual(["at-least-one-relation"])
    expect(floor.floorReached).toBe("idea")
    expect(floor.statedNextRung).toBe("ready")
    expect(floor.holds.map((f) => f.clauseId)).toEqual(["at-least-one-relation"])
  })

  it("is honest at defined once borrow-book refines a parent, through the promoted example child", () => {
    const facts = factsOf(graphOf(borrowBook({ refines: "spec:loans.circulation" }), ...rest))
    const floor = facts.floor("spec:loans.borrow-book")
    expect(floor.floorFailures).toEqual([])
    expect(floor.floorReached).toBe("defined")
    // the unresolved parent is the only thing between it and ready
    expect(floor.holds.map((f) => f.clauseId)).toEqual(["all-relations-resolve"])
  })

  it("derives the delivery facts of the emitted graph", () => {
    const facts = factsOf(graphOf(borrowBook(), ...rest))
    expect(facts.implemented("spec:loans.borrow-book")).toBe(true)
    expect(facts.hasVerifier("spec:loans.borrow-book")).toBe(true)
    expect(facts.implemented("spec:loans.borrow-book.happy-path")).toBe(false)
    expect(facts.hasVerifier("spec:loans.borrow-book.happy-path")).toBe(true)
  })

  it("lets the concrete happy path reach ready against its parent's vocabulary", () => {
    const floor = factsOf(graphOf(borrowBook(), ...rest)).floor("spec:loans.borrow-book.happy-path")
    expect(floor).toEqual({ floorReached: "ready", statedNextRung: "ready", holds: [], floorFailures: [] })
  })
})

describe("memoization", () => {
  it("returns the same Facts object and the same answers for one graph", () => {
    const graph = graphOf(...billingNodes())
    const facts = factsOf(graph)
    expect(factsOf(graph)).toBe(facts)
    expect(facts.footing("spec:billing.invoice")).toBe(facts.footing("spec:billing.invoice"))
    expect(facts.specsBoundary(["spec:billing.invoice"])).toBe(facts.specsBoundary(["spec:billing.invoice"]))
    expect(factsOf(graphOf(...billingNodes()))).not.toBe(facts)
  })

  it("answers unknown ids with empty facts instead of throwing", () => {
    const facts = factsOf(graphOf())
    expect(facts.floor("spec:nope")).toEqual({ floorReached: "none", statedNextRung: null, holds: [], floorFailures: [] })
    expect(facts.footing("spec:nope")).toEqual([])
    expect(facts.designCounts("spec:nope")).toEqual({ entries: 0, declarations: 0, openQuestions: 0, blockingQuestions: 0 })
    expect(facts.packBoundary("pack:nope")).toEqual({ restsOn: [], restedOnBy: [] })
    expect(facts.implemented("spec:nope")).toBe(false)
  })
})
