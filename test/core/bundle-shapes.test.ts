// The shape lines of the seed (bundleRecipe, bundleShape, memberShape, exampleRow, boundaryRows,
// budgetExceeded, partShape, partsExceeded) and contract section 2's diagnostics.
import { describe, expect, it } from "vitest"
import { composeBundle, planParts } from "../../src/core/bundle/index.js"
import type { BudgetExceeded, BundleParams, BundleValue, Diagnostics, PartValue, PartsExceeded } from "../../src/core/bundle/index.js"
import { TOKEN_METHOD } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import { anchor, graphOf, gwt, pack, spec } from "../support/nodes.js"

const A = "spec:shop.cart"
const B = "spec:shop.pay"

const facts = factsOf(
  graphOf(
    pack("pack:shop", [B, A, "spec:shop.gone"], { title: "Shop", framing: "Buying things." }),
    spec({
      id: A,
      readiness: "defined",
      narrative: "The cart.",
      relations: { dependsOn: "spec:base.money", decidedBy: "spec:decisions.cart", supersedes: "spec:old.cart" },
      sections: {
        intent: {
          outcome: "Items are held.",
          openQuestions: [
            { question: "Keyed?", blocking: false, key: "keyed" },
            { question: "Unkeyed?", blocking: true }
          ]
        },
        design: { api: "`addItem(id: Id): Cart` adds", note: "plain" }
      },
      locations: { "intent.openQuestions[0]": 14 }
    }),
    spec({ id: B, relations: { refines: A } }),
    spec({ id: "spec:base.money", readiness: "ready" }),
    spec({ id: "spec:decisions.cart", kind: "decision", readiness: "defined" }),
    spec({ id: "spec:old.cart" }),
    spec({
      id: "spec:shop.cart.ex",
      kind: "example",
      relations: { refines: A, verifies: A },
      sections: { behavior: { examples: [gwt(["g"], ["w"], ["t"])] } }
    }),
    spec({ id: "spec:shop.cart.ex2", kind: "example", relations: { verifies: A } }),
    anchor({ id: "component:shop", layer: "domain", context: "orders" }),
    anchor({ id: "impl:shop.cart", satisfies: [A], component: "component:shop", role: "service", line: 4 }),
    anchor({ id: "impl:shop.ui", references: [A] }),
    anchor({ id: "test:shop.cart.ex", verifies: ["spec:shop.cart.ex"] })
  )
)

const bundle = (params: BundleParams = {}) => composeBundle(facts, { pack: "pack:shop", ...params }) as BundleValue
const memberA = () => bundle().members[1]

const BUNDLE_KEYS = ["scope", "budget", "declarations", "used", "tokenEstimate", "leftOut", "pack", "members", "boundary"]
const MEMBER_KEYS = [
  "id",
  "file",
  "title",
  "specKind",
  "altitude",
  "statedReadiness",
  "floorReached",
  "statedNextRung",
  "holds",
  "narrative",
  "sections",
  "questions",
  "footing",
  "declarations",
  "examples",
  "design",
  "decisions",
  "implementedBy",
  "referencedBy",
  "verifiers"
]

const problems = (params: BundleParams) => (composeBundle(facts, params) as Diagnostics).diagnostics

describe("shapes", () => {
  it('bundleRecipe: budget defaults to 100000 and declarations to "whole"', () => {
    const v = bundle()
    expect(v.budget).toBe(100000)
    expect(v.declarations).toBe("whole")
  })

  it("bundleRecipe: a missing, doubled or unknown scope returns diagnostics and no bundle", () => {
    expect(problems({})).toEqual([{ scope: "scope", problem: expect.any(String) }])
    expect(problems({ pack: "pack:shop", specs: [A] }).map((d) => d.scope)).toEqual(["scope"])
    expect(problems({ pack: "pack:nope" }).map((d) => d.scope)).toEqual(["pack"])
    expect(problems({ specs: [A, "spec:nope"] })).toEqual([{ scope: "specs", problem: 'Unknown Spec "spec:nope".' }])
    expect(problems({ specs: [A, A] }).map((d) => d.scope)).toEqual(["specs"])
    expect(problems({ pack: "pack:shop", members: [A, A] }).map((d) => d.scope)).toEqual(["members"])
    expect(problems({ pack: "pack:shop", members: ["spec:base.money"] })).toEqual([
      { scope: "members", problem: '"spec:base.money" is not a member of pack:shop.' }
    ])
    expect(problems({ specs: [A], members: [A] }).map((d) => d.scope)).toEqual(["members"])
  })

  it("bundleRecipe: a part that is not a positive integer returns diagnostics", () => {
    for (const part of [0, -1, 1.5, "abc", null, true, "1", Number.NaN, Infinity]) {
      expect(problems({ pack: "pack:shop", part }).map((d) => d.scope)).toEqual(["part"])
    }
    for (const budget of [0, -5, 2.5, "100", null]) {
      expect(problems({ pack: "pack:shop", budget }).map((d) => d.scope)).toEqual(["budget"])
    }
  })

  it("bundleShape: keys in order, pack header for a Pack scope, null for specs, token estimate labeled", () => {
    const v = bundle()
    expect(Object.keys(v)).toEqual(BUNDLE_KEYS)
    expect(v.pack).toEqual({ id: "pack:shop", title: "Shop", framing: "Buying things." })
    expect(v.tokenEstimate).toEqual({ value: Math.ceil(v.used / 4), method: TOKEN_METHOD })
    expect(TOKEN_METHOD).toBe("UTF-16 code units divided by four, an estimate")
    expect((composeBundle(facts, { specs: [A] }) as BundleValue).pack).toBeNull()
  })

  it("bundleShape: scope is { pack }, { pack, members } or { specs } with changeset added", () => {
    expect(bundle().scope).toEqual({ pack: "pack:shop" })
    expect(bundle({ members: [A] }).scope).toEqual({ pack: "pack:shop", members: [A] })
    const cs = composeBundle(facts, { specs: [B, A], changeset: "main...HEAD" }) as BundleValue
    expect(JSON.stringify(cs.scope)).toBe(`{"specs":["${B}","${A}"],"changeset":"main...HEAD"}`)
    expect(problems({ pack: "pack:shop", changeset: "HEAD" }).map((d) => d.scope)).toEqual(["changeset"])
    // A changeset that impacts no Spec: a valid bundle with no members.
    const none = composeBundle(facts, { specs: [], changeset: "HEAD" }) as BundleValue
    expect([none.scope, none.members, none.pack]).toEqual([{ specs: [], changeset: "HEAD" }, [], null])
    expect(JSON.stringify(none).length).toBe(none.used)
  })

  it("memberShape: keys in order, file, rungs, sections without openQuestions, declarations as keys", () => {
    const m = memberA()
    expect(Object.keys(m)).toEqual(MEMBER_KEYS)
    expect(m).toMatchObject({ id: A, file: "specs/shop.cart.sdp.md", specKind: "behavior", altitude: "feature", statedReadiness: "defined" })
    expect(m.sections).toEqual({ intent: { outcome: "Items are held." }, design: { api: "`addItem(id: Id): Cart` adds", note: "plain" } })
    expect(m.declarations).toEqual(["api"])
    expect(m.design).toEqual({ entries: 2, declarations: 1, openQuestions: 2, blockingQuestions: 1 })
    expect(m.holds).toEqual(facts.floor(A).holds)
    expect(m.floorReached).toBe(facts.floor(A).floorReached)
  })

  it("memberShape: questions rows, key absent and address null when none", () => {
    expect(JSON.stringify(memberA().questions)).toBe(
      JSON.stringify([
        { index: 0, question: "Keyed?", blocking: false, key: "keyed", address: `${A}#question.keyed`, line: 14 },
        { index: 1, question: "Unkeyed?", blocking: true, address: null, line: null }
      ])
    )
  })

  it("memberShape: footing, decisions, implementedBy, referencedBy and verifiers rows", () => {
    const m = memberA()
    expect(JSON.stringify(m.footing)).toBe(
      JSON.stringify([
        {
          type: "dependsOn",
          id: "spec:base.money",
          claim: "declared",
          resolved: true,
          statedReadiness: "ready",
          floorReached: facts.floor("spec:base.money").floorReached
        },
        {
          type: "decidedBy",
          id: "spec:decisions.cart",
          claim: "declared",
          resolved: true,
          statedReadiness: "defined",
          floorReached: facts.floor("spec:decisions.cart").floorReached
        }
      ])
    )
    expect(JSON.stringify(m.decisions)).toBe(JSON.stringify([{ id: "spec:decisions.cart", statedReadiness: "defined", resolved: true }]))
    expect(JSON.stringify(m.implementedBy)).toBe(
      JSON.stringify([
        {
          id: "impl:shop.cart",
          claim: "anchored",
          file: "src/shop.cart.ts",
          line: 4,
          role: "service",
          component: { id: "component:shop", layer: "domain", context: "orders" }
        }
      ])
    )
    expect(m.referencedBy).toEqual([{ id: "impl:shop.ui", claim: "anchored", file: "src/shop.ui.ts", line: 1, role: null, component: null }])
    expect((m.verifiers as Array<{ id: string }>).map((v) => Object.keys(v))).toEqual([
      ["id", "claim", "enabled", "file", "line"],
      ["id", "claim", "enabled", "file", "line"]
    ])
  })

  it("memberShape: a manifest member missing from the graph keeps its row, every other field null or empty", () => {
    const gone = bundle().members[2]
    expect(Object.keys(gone)).toEqual(MEMBER_KEYS)
    expect(gone.id).toBe("spec:shop.gone")
    for (const [key, value] of Object.entries(gone)) {
      if (key !== "id") expect(value === null || (Array.isArray(value) && value.length === 0)).toBe(true)
    }
  })

  it("exampleRow: examples that refine or verify the member, in id order, with steps", () => {
    expect(JSON.stringify(memberA().examples)).toBe(
      JSON.stringify([
        {
          id: "spec:shop.cart.ex",
          member: false,
          file: "specs/shop.cart.ex.sdp.md",
          statedReadiness: "idea",
          enabled: true,
          steps: [gwt(["g"], ["w"], ["t"])]
        },
        { id: "spec:shop.cart.ex2", member: false, file: "specs/shop.cart.ex2.sdp.md", statedReadiness: "idea", enabled: false, steps: [] }
      ])
    )
    const withExample = composeBundle(facts, { specs: [A, "spec:shop.cart.ex"] }) as BundleValue
    expect(withExample.members[0].examples).toMatchObject([{ id: "spec:shop.cart.ex", member: true, steps: null }, { member: false }])
  })

  it("boundaryRows: a Pack scope's boundary is the Pack design's; a Spec list's is its one-hop neighbors", () => {
    expect(JSON.stringify(bundle().boundary)).toBe(JSON.stringify(facts.packBoundary("pack:shop")))
    const specs = composeBundle(facts, { specs: [A] }) as BundleValue
    expect(JSON.stringify(specs.boundary)).toBe(JSON.stringify(facts.specsBoundary([A])))
    const restsOn = specs.boundary.restsOn as Array<{ id: string; via: Array<{ type: string }> }>
    expect(restsOn.map((r) => r.id)).toContain("spec:old.cart")
    expect(restsOn.find((r) => r.id === "spec:old.cart")?.via.map((v) => v.type)).toEqual(["supersedes"])
    expect(Object.keys(restsOn[0])).toEqual(["id", "title", "statedReadiness", "implemented", "via"])
  })

  it("budgetExceeded: { scope, budget, declarations, budgetExceeded, protectedLength, leftOut } and nothing else", () => {
    const r = composeBundle(facts, { pack: "pack:shop", budget: 50 }) as BudgetExceeded
    expect(Object.keys(r)).toEqual(["scope", "budget", "declarations", "budgetExceeded", "protectedLength", "leftOut"])
    expect(r.budgetExceeded).toBe(true)
    expect(r.protectedLength).toBeGreaterThan(50)
    expect(r.leftOut).toHaveLength(6)
  })

  it("partShape: the bundle shape with part after declarations; used measures the part", () => {
    const p = composeBundle(facts, { pack: "pack:shop", part: 1 }) as PartValue
    expect(Object.keys(p)).toEqual(["scope", "budget", "declarations", "part", "used", "tokenEstimate", "leftOut", "pack", "members", "boundary"])
    expect(p.part).toEqual({ index: 1, of: 1 })
    expect(JSON.stringify(p).length).toBe(p.used)
    expect(p.boundary).not.toBeNull()
  })

  it("partsExceeded: { scope, budget, declarations, part: { index, of: null }, budgetExceeded, oversized, leftOut }", () => {
    const r = composeBundle(facts, { pack: "pack:shop", budget: 300, part: 2 }) as PartsExceeded
    expect(Object.keys(r)).toEqual(["scope", "budget", "declarations", "part", "budgetExceeded", "oversized", "leftOut"])
    expect(r.part).toEqual({ index: 2, of: null })
    expect(r.oversized[0].item).toBe("header")
    const plan = planParts(facts, { pack: "pack:shop", budget: 300 }) as PartsExceeded
    expect(plan.part).toEqual({ index: 1, of: null })
  })
})
