// The seed's rule lines 27-39 (unkeyed ones by line number) and rule.oneCopy.
import { describe, expect, it } from "vitest"
import { composeBundle, composeBundleText } from "../../src/core/bundle/index.js"
import type { BudgetExceeded, BundleValue, Json } from "../../src/core/bundle/index.js"
import { LEFT_OUT_LINES, TOKEN_METHOD } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import { isEntryAddress } from "../../src/core/ids.js"
import type { AnyNode } from "../support/nodes.js"
import { anchor, graphOf, gwt, pack, spec } from "../support/nodes.js"

const nodes = (): AnyNode[] => [
  pack("pack:lib", ["spec:lib.loan", "spec:lib.fine", "spec:lib.hold"], { framing: "Lending desk." }),
  spec({
    id: "spec:lib.loan",
    narrative: "Loans.",
    relations: { dependsOn: "spec:core.card" },
    sections: {
      intent: { outcome: "A loan.", openQuestions: [{ question: "Which tier?", blocking: false, key: "tier" }] },
      design: { borrow: "`borrow(card: Card): Loan` records", note: "free text" }
    },
    locations: { "intent.openQuestions[0]": 9, "design.borrow": 12 }
  }),
  spec({ id: "spec:lib.fine", relations: { refines: "spec:lib.loan" } }),
  spec({ id: "spec:lib.hold", relations: { refines: "spec:lib.loan" } }),
  spec({ id: "spec:core.card", readiness: "defined" }),
  spec({
    id: "spec:lib.shared.ex",
    kind: "example",
    relations: { refines: ["spec:lib.fine", "spec:lib.hold"] },
    sections: { behavior: { examples: [gwt(["a fine"], ["w"], ["t"])] } }
  }),
  spec({
    id: "spec:lib.loan.ex",
    kind: "example",
    relations: { verifies: "spec:lib.loan" },
    sections: { behavior: { examples: [gwt(["own"], ["w"], ["t"])] } }
  }),
  anchor({ id: "impl:lib.loan", satisfies: ["spec:lib.loan"], line: 17 })
]
const facts = factsOf(graphOf(...nodes()))
const PACK = { pack: "pack:lib" }
const value = (params = {}) => composeBundle(facts, { ...PACK, ...params }) as BundleValue

const strings = (v: Json, out: string[] = []): string[] => {
  if (typeof v === "string") out.push(v)
  else if (Array.isArray(v)) for (const x of v) strings(x, out)
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) strings(x, out)
  return out
}

describe("rules", () => {
  it("rule line 27: scope and budget are parameters of one call and come back in the value", () => {
    const v = value({ budget: 50000 })
    expect(v.scope).toEqual(PACK)
    expect(v.budget).toBe(50000)
  })

  it("rule line 28: two invocations over the same graph, or a re-read graph, compose the same bundle", () => {
    const once = composeBundleText(facts, PACK).text
    expect(composeBundleText(facts, PACK).text).toBe(once)
    expect(composeBundleText(factsOf(graphOf(...nodes().reverse())), PACK).text).toBe(once)
  })

  it("rule line 29: a specs scope lists the given Specs in the given order; both scopes or neither is a diagnostic", () => {
    const v = composeBundle(facts, { specs: ["spec:lib.hold", "spec:lib.loan"] }) as BundleValue
    expect(v.members.map((m) => m.id)).toEqual(["spec:lib.hold", "spec:lib.loan"])
    expect(JSON.stringify(v.boundary)).toBe(JSON.stringify(facts.specsBoundary(["spec:lib.hold", "spec:lib.loan"])))
    expect(composeBundle(facts, { ...PACK, specs: ["spec:lib.loan"] })).toMatchObject({ diagnostics: [{ scope: "scope" }] })
    expect(composeBundle(facts, {})).toMatchObject({ diagnostics: [{ scope: "scope" }] })
  })

  it("rule line 30: members keeps the Pack's framing and boundary, lists those members in that order, states the subset", () => {
    const whole = value()
    const subset = value({ members: ["spec:lib.hold", "spec:lib.loan"] })
    expect(subset.scope).toEqual({ pack: "pack:lib", members: ["spec:lib.hold", "spec:lib.loan"] })
    expect(subset.members.map((m) => m.id)).toEqual(["spec:lib.hold", "spec:lib.loan"])
    expect(subset.pack).toEqual(whole.pack)
    expect(subset.boundary).toEqual(whole.boundary)
  })

  it("rule line 31: a Pack bundle carries the assembly, members in authored order, questions, footing, declarations, examples", () => {
    const v = value()
    expect(v.pack?.framing).toBe("Lending desk.")
    expect(v.members.map((m) => m.id)).toEqual(["spec:lib.loan", "spec:lib.fine", "spec:lib.hold"])
    const loan = v.members[0]
    expect(loan.questions).toEqual([{ index: 0, question: "Which tier?", blocking: false, key: "tier", address: "spec:lib.loan#question.tier", line: 9 }])
    expect((loan.footing as Array<{ id: string }>).map((f) => f.id)).toEqual(["spec:core.card"])
    expect(loan.declarations).toEqual(["borrow"])
    expect((loan.examples as Array<{ id: string }>).map((e) => e.id)).toEqual(["spec:lib.loan.ex"])
  })

  it("rule line 32: the budget is a hard limit on the compact JSON length, used counts itself, tokens are an estimate", () => {
    const full = value()
    for (const budget of [full.used, full.used - 1, Math.floor(full.used / 2)]) {
      const r = composeBundleText(facts, { ...PACK, budget })
      if ("used" in r.value) {
        expect(r.text.length).toBe(r.value.used)
        expect(r.value.used).toBeLessThanOrEqual(budget)
        expect(r.value.tokenEstimate).toEqual({ value: Math.ceil(r.value.used / 4), method: TOKEN_METHOD })
      } else {
        expect((r.value as BudgetExceeded).protectedLength).toBeGreaterThan(budget)
      }
      expect(JSON.stringify(r.value)).toBe(r.text)
    }
  })

  it("rule line 36: when the protected content alone exceeds, the result is budget-exceeded data with the minimum length", () => {
    const r = composeBundle(facts, { ...PACK, budget: 1000 }) as BudgetExceeded
    expect(r).toMatchObject({ scope: PACK, budget: 1000, declarations: "whole", budgetExceeded: true })
    expect("members" in r).toBe(false)
    expect(r.protectedLength).toBeGreaterThan(1000)
    expect(r.protectedLength).toBeLessThan(10000)
    // The minimum it names is enough (same digit count of the budget): that budget composes a bundle.
    const fits = composeBundle(facts, { ...PACK, budget: r.protectedLength }) as BundleValue
    expect(fits.used).toBeLessThanOrEqual(r.protectedLength)
  })

  it("rule line 37: code units are given by file and line, never by a source excerpt", () => {
    const loan = value().members[0]
    expect(loan.implementedBy).toEqual([{ id: "impl:lib.loan", claim: "anchored", file: "src/lib.loan.ts", line: 17, role: null, component: null }])
    expect(loan.file).toBe("specs/lib.loan.sdp.md")
  })

  it("rule line 38: the bundle states its scope, its budget and what it left out", () => {
    // Four-digit budgets on both sides: the budget's own digits are part of the measured text.
    const whole = value({ budget: 9999 })
    expect(whole.used).toBeGreaterThan(999)
    const cut = value({ budget: whole.used - 1 })
    expect(whole.leftOut).toEqual([])
    expect(cut.leftOut.length).toBeGreaterThan(0)
    expect(cut.leftOut).toEqual(LEFT_OUT_LINES.slice(0, cut.leftOut.length))
    expect([cut.scope, cut.budget]).toEqual([PACK, whole.used - 1])
  })

  it("rule line 39: every text in the bundle comes from the graph or the fixed vocabulary, never an instruction", () => {
    const v = value()
    const corpus = JSON.stringify(nodes()) + JSON.stringify(v.members.map((m) => facts.floor(m.id as string)))
    // The fixed vocabulary: leftOut lines, the estimate label, modes, claims and the floor's "none".
    const fixed = new Set<string>([...LEFT_OUT_LINES, TOKEN_METHOD, "whole", "addresses", "declared", "anchored", "inferred", "none"])
    for (const text of strings(v as unknown as Json)) {
      const known = fixed.has(text) || isEntryAddress(text) || corpus.includes(JSON.stringify(text).slice(1, -1))
      expect(known, text).toBe(true)
    }
  })

  it("rule.oneCopy: questions only in questions, declaration values only in Design, example steps once", () => {
    const v = value()
    const loan = v.members[0]
    expect(JSON.stringify(loan.sections)).not.toContain("Which tier?")
    expect(JSON.stringify(loan).split("`borrow(card: Card): Loan`").length - 1).toBe(1)
    // An outside example refining two members keeps its steps in each member's row.
    const rows = v.members.slice(1).map((m) => (m.examples as Array<{ id: string; steps: unknown }>)[0])
    expect(rows.map((r) => r.id)).toEqual(["spec:lib.shared.ex", "spec:lib.shared.ex"])
    expect(rows.every((r) => JSON.stringify(r.steps).includes("a fine"))).toBe(true)
    // An example that is itself a member keeps its steps only in its own row.
    const withExample = composeBundle(facts, { specs: ["spec:lib.loan", "spec:lib.loan.ex"] }) as BundleValue
    expect(JSON.stringify(withExample.members).split('"own"').length - 1).toBe(1)
    expect((withExample.members[0].examples as Array<{ steps: unknown }>)[0].steps).toBeNull()
  })
})
