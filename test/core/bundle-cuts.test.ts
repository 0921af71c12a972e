// The cut lines of the seed (rule.cutOrder, the cut shapes, pointer, leftOutLines), on one rich
// Pack where every stage shortens the bundle, so budget = length at stage k stops exactly at k.
import { describe, expect, it } from "vitest"
import { composeBundle, stageLengths } from "../../src/core/bundle/index.js"
import type { BudgetExceeded, BundleValue, DeclarationMode, MemberRow } from "../../src/core/bundle/index.js"
import { LEFT_OUT_LINES } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import { anchor, graphOf, gwt, pack, spec } from "../support/nodes.js"
import { CONTRACT_LEFT_OUT } from "../support/contract.js"

const pad = (word: string) => ` ${word}`.repeat(40)
const MAIN = "spec:rich.main"
const DEP_API = "spec:out.dep#design.api"

const facts = factsOf(
  graphOf(
    pack("pack:rich", [MAIN, "spec:rich.main.ex", "spec:rich.gone"], { framing: "Rich framing." }),
    spec({
      id: MAIN,
      readiness: "scoped",
      narrative: `Reads spec:rich.other#design.api first, then spec:rich.main#question.later.${pad("prose")}`,
      relations: { refines: "spec:out.parent", dependsOn: "spec:out.dep", decidedBy: "spec:out.decision" },
      sections: {
        intent: {
          description: `Intent prose.${pad("intent")}`,
          outcome: "An order exists.",
          risks: [`Risk tied to ${DEP_API}.`],
          openQuestions: [
            { question: `Later? See ${DEP_API}.${pad("later")}`, blocking: false, key: "later" },
            { question: `Unkeyed and open.${pad("open")}`, blocking: false },
            { question: `Must we decide now?${pad("must")}`, blocking: true, key: "must" }
          ]
        },
        behavior: {
          rules: [`Plain rule.${pad("rule")}`, { key: "cutOrder", rule: `Keyed rule naming ${DEP_API}.${pad("keyed")}` }],
          examples: [gwt([`a cart${pad("given")}`], ["the order is placed"], ["an order exists"])],
          exampleSpace: gwt([`a cart with {items:number}${pad("space")}`], ["the order is placed"], ["an order exists"])
        },
        constraints: [{ statement: `Fast enough.${pad("fast")}`, flavor: "performance" }],
        design: {
          description: `Design prose.${pad("design")}`,
          api: `\`createOrder(cart: Cart): Order\`${pad("decl")}`,
          storage: `Rows in the order table.${pad("rows")}`,
          link: `\`link()\` see ${DEP_API}${pad("link")}`
        },
        ui: { layout: "Two columns." }
      },
      locations: {
        "intent.description": 10,
        "intent.risks[0]": 12,
        "intent.openQuestions[0]": 20,
        "intent.openQuestions[1]": 21,
        "intent.openQuestions[2]": 22,
        "behavior.rules[0]": 30,
        "behavior.rules[1]": 31,
        "behavior.examples[0]": 40,
        "behavior.exampleSpace": 50,
        "constraints[0].statement": 55,
        "design.api": 60,
        "design.storage": 61,
        "design.link": 62,
        "ui.layout": 70
      }
    }),
    spec({
      id: "spec:rich.main.ex",
      kind: "example",
      relations: { refines: MAIN, verifies: MAIN },
      sections: { behavior: { examples: [gwt([`member steps${pad("member")}`], ["w"], ["t"])] } }
    }),
    spec({
      id: "spec:out.ex",
      kind: "example",
      title: `Outside example${pad("title")}`,
      relations: { refines: MAIN },
      sections: { behavior: { examples: [gwt([`outside steps${pad("outside")}`], ["w"], ["t"])] } },
      locations: { "behavior.examples[0]": 7 }
    }),
    spec({ id: "spec:out.parent", title: `Parent${pad("parent")}`, readiness: "defined" }),
    spec({ id: "spec:out.dep", title: `Dependency${pad("dep")}`, sections: { design: { api: "`dep()`" } } }),
    spec({ id: "spec:out.decision", kind: "decision", title: `Decision${pad("decision")}` }),
    anchor({ id: "impl:rich.main", satisfies: [MAIN], component: "component:rich" }),
    anchor({ id: "test:rich.main.ex", verifies: ["spec:rich.main.ex"] })
  )
)

const params = (declarations: DeclarationMode) => ({ pack: "pack:rich", declarations })

/** Lengths per stage; every length here has four digits, and so has this budget (it is in the value). */
const lengthsOf = (declarations: DeclarationMode) => stageLengths(facts, { ...params(declarations), budget: 9999 }) as number[]

/** The bundle composed with the budget set to its own length at stage k. */
const atStage = (k: number, declarations: DeclarationMode = "whole"): BundleValue => {
  const value = composeBundle(facts, { ...params(declarations), budget: lengthsOf(declarations)[k] }) as BundleValue
  expect(value.leftOut).toHaveLength(k)
  return value
}

const main = (v: BundleValue): MemberRow => v.members[0]
const sections = (v: BundleValue) => main(v).sections as Record<string, Record<string, unknown>>

describe("cuts", () => {
  it("rule.cutOrder: each stage is tried in order and the first at which the bundle fits is taken", () => {
    const lengths = lengthsOf("addresses")
    expect(lengths).toHaveLength(8)
    for (let k = 1; k < lengths.length; k++) expect(lengths[k]).toBeLessThan(lengths[k - 1])
    for (let k = 0; k < lengths.length; k++) {
      const v = composeBundle(facts, { ...params("addresses"), budget: lengths[k] }) as BundleValue
      expect(v.leftOut).toEqual(LEFT_OUT_LINES.slice(0, k))
      expect(v.used).toBe(lengths[k])
    }
  })

  it("rule.cutOrder: ids, rungs, floor, next rung, blocking questions and addresses survive every cut", () => {
    const whole = atStage(0)
    const cut = atStage(7, "addresses")
    expect(cut.members.map((m) => [m.id, m.statedReadiness, m.floorReached, m.statedNextRung, m.holds])).toEqual(
      whole.members.map((m) => [m.id, m.statedReadiness, m.floorReached, m.statedNextRung, m.holds])
    )
    expect((main(cut).questions as unknown[])[2]).toEqual((main(whole).questions as unknown[])[2])
    const text = JSON.stringify(cut)
    for (const address of ["spec:rich.main#question.later", "spec:rich.main#rule.cutOrder", "spec:rich.main#design.storage", DEP_API]) {
      expect(text).toContain(address)
    }
  })

  it("boundaryRows cut: the boundary cut keeps ids per direction", () => {
    const v = atStage(1)
    const whole = atStage(0)
    expect(v.boundary).toEqual({
      restsOn: whole.boundary.restsOn.map((r) => (r as { id: string }).id),
      restedOnBy: whole.boundary.restedOnBy.map((r) => (r as { id: string }).id)
    })
    expect(v.boundary.restsOn).toEqual(["spec:out.decision", "spec:out.dep", "spec:out.parent"])
  })

  it("footingCut: footing becomes target ids per relation type, an empty type left out", () => {
    expect(main(atStage(2)).footing).toEqual({
      refines: ["spec:out.parent"],
      dependsOn: ["spec:out.dep"],
      decidedBy: ["spec:out.decision"]
    })
    expect(Object.keys(main(atStage(2)).footing as object)).toEqual(["refines", "dependsOn", "decidedBy"])
  })

  it("narrativeCut: the narrative becomes its entry addresses joined by spaces, or null", () => {
    const v = atStage(3)
    expect(main(v).narrative).toBe("spec:rich.other#design.api spec:rich.main#question.later")
    expect(v.members[1].narrative).toBeNull()
  })

  it("exampleCut: behavior.examples entries and the example space become pointers, outside steps the example's pointer", () => {
    const v = atStage(4)
    const behavior = sections(v).behavior
    expect(behavior.examples).toEqual([{ line: 40 }])
    expect(behavior.exampleSpace).toEqual({ line: 50 })
    const rows = main(v).examples as Array<{ id: string; member: boolean; steps: unknown }>
    expect(rows.map((r) => [r.id, r.member, r.steps])).toEqual([
      ["spec:out.ex", false, { line: 7 }],
      ["spec:rich.main.ex", true, null]
    ])
    // The member example's own row holds its steps: cut to a pointer there too.
    expect((v.members[1].sections as Record<string, Record<string, unknown>>).behavior.examples).toEqual([{ line: null }])
  })

  it("questionCut: non-blocking questions become their address or pointer, { pointer, links } with links", () => {
    const questions = main(atStage(5)).questions as unknown[]
    expect(questions[0]).toEqual({ pointer: "spec:rich.main#question.later", links: [DEP_API] })
    expect(questions[1]).toEqual({ line: 21 })
    expect(questions[2]).toMatchObject({ index: 2, blocking: true, key: "must", address: "spec:rich.main#question.must", line: 22 })
  })

  it("sectionCut: entries other than pinned declarations become their address, else their pointer", () => {
    const s = sections(atStage(6))
    expect(s.intent).toEqual({ description: { line: 10 }, outcome: { line: null }, risks: [[DEP_API, { line: 12 }]] })
    expect(s.behavior.rules).toEqual([{ line: 30 }, ["spec:rich.main#rule.cutOrder", DEP_API]])
    expect(s.design.description).toEqual({ line: null })
    expect(s.design.storage).toBe("spec:rich.main#design.storage")
    expect(s.design.api).toMatch(/^`createOrder\(cart: Cart\): Order`/)
    expect(s.ui).toEqual({ layout: "spec:rich.main#ui.layout" })
    expect(s.constraints).toEqual([{ statement: { line: 55 }, flavor: { line: null } }])
  })

  it("declarationCut: under addresses pinned declarations become addresses; declarations keeps the keys", () => {
    const v = atStage(7, "addresses")
    expect(sections(v).design.api).toBe("spec:rich.main#design.api")
    expect(sections(v).design.link).toEqual(["spec:rich.main#design.link", DEP_API])
    expect(main(v).declarations).toEqual(["api", "link"])
  })

  it("pointer: a cut entry without an address is { line } from the location table, null when none", () => {
    const s = sections(atStage(6))
    expect(s.intent.description).toEqual({ line: 10 })
    expect(s.intent.outcome).toEqual({ line: null })
    // Text naming other addresses: the list of them, ended by the pointer.
    expect(s.intent.risks).toEqual([[DEP_API, { line: 12 }]])
  })

  it('rule.declarationAddresses: without "addresses" pinned declarations stay whole even when the budget is exceeded', () => {
    const exceeded = composeBundle(facts, { pack: "pack:rich", budget: 1000 }) as BudgetExceeded
    expect(exceeded.leftOut).toEqual(LEFT_OUT_LINES.slice(0, 6))
    expect(exceeded.protectedLength).toBe(lengthsOf("whole")[6])
    const whole = composeBundle(facts, { pack: "pack:rich", budget: lengthsOf("whole")[6] }) as BundleValue
    expect(sections(whole).design.api).toMatch(/^`createOrder/)
    expect(composeBundle(facts, { pack: "pack:rich", declarations: "all" })).toEqual({
      diagnostics: [{ scope: "declarations", problem: 'declarations must be "whole" or "addresses", not "all".' }]
    })
  })

  it("leftOutLines: the seven lines are verbatim and in cut order", () => {
    expect(LEFT_OUT_LINES).toEqual(CONTRACT_LEFT_OUT)
    expect(atStage(7, "addresses").leftOut).toEqual(LEFT_OUT_LINES)
  })

  it("rule.cutOrder: a stage counts when it removed nothing (a Pack without boundary still lists the boundary line)", () => {
    const bare = factsOf(graphOf(pack("pack:bare", ["spec:bare.a"]), spec({ id: "spec:bare.a", narrative: "n".repeat(500) })))
    const lengths = stageLengths(bare, { pack: "pack:bare", budget: 1000 }) as number[]
    // Stage 1 changes nothing but leftOut, which grows by its line.
    expect(lengths[1]).toBe(lengths[0] + JSON.stringify(LEFT_OUT_LINES[0]).length)
    const v = composeBundle(bare, { pack: "pack:bare", budget: lengths[3] }) as BundleValue
    expect(v.leftOut).toEqual(LEFT_OUT_LINES.slice(0, 3))
    expect(v.boundary).toEqual({ restsOn: [], restedOnBy: [] })
  })
})
