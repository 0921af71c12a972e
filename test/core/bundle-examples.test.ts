// The seed's two verifying examples (context-bundle-recipe.txt, "Verifying examples") and the part
// rules they exercise: a probe Pack of three members, budget 10000.
import { describe, expect, it } from "vitest"
import { composeBundle, planParts } from "../../src/core/bundle/index.js"
import type { BundleValue, PartValue, PartsExceeded } from "../../src/core/bundle/index.js"
import { LEFT_OUT_LINES, isDiagnostics } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import type { SpecNode } from "../../src/core/model.js"
import { graphOf, pack, spec } from "../support/nodes.js"

const MEMBERS = ["spec:probe.one", "spec:probe.two", "spec:probe.three"]
const BUDGET = 10000

/** Each member carries a 6,000-character narrative: one fits a part, two never do uncut. */
const probe = (two: Partial<SpecNode> = {}) =>
  factsOf(
    graphOf(
      pack("pack:probe", MEMBERS, { framing: "The probe Pack." }),
      spec({ id: MEMBERS[0], narrative: "a".repeat(6000), relations: { dependsOn: "spec:outside.base" } }),
      spec({ id: MEMBERS[1], narrative: "b".repeat(6000), ...two }),
      spec({ id: MEMBERS[2], narrative: "c".repeat(6000) }),
      spec({ id: "spec:outside.base", readiness: "defined" })
    )
  )

const eachPart = (facts: ReturnType<typeof probe>, of: number) =>
  Array.from({ length: of }, (_, i) => composeBundle(facts, { pack: "pack:probe", budget: BUDGET, part: i + 1 }))

describe("verifying examples", () => {
  it("A Pack too large for one bundle reads whole in parts", () => {
    const facts = probe()
    const whole = composeBundle(facts, { pack: "pack:probe", budget: BUDGET })
    // The Pack exceeds the budget as one bundle uncut (it fits only after the narrative cut).
    expect((whole as BundleValue).leftOut.length).toBeGreaterThan(0)

    const plan = planParts(facts, { pack: "pack:probe", budget: BUDGET })
    expect("render" in plan && plan.of).toBe(3)
    const parts = eachPart(facts, 3) as PartValue[]
    for (const [i, part] of parts.entries()) {
      expect(part.part).toEqual({ index: i + 1, of: 3 })
      expect(part.used).toBeLessThanOrEqual(BUDGET)
      expect(JSON.stringify(part).length).toBe(part.used)
    }
    const read = parts.flatMap((p) => p.members.map((m) => m.id))
    expect(read).toEqual(MEMBERS) // complete: true
    expect(new Set(read).size).toBe(MEMBERS.length)
  })

  it("A member larger than the budget is named, and no part is returned", () => {
    const blocking = { question: "q".repeat(BUDGET + 1), blocking: true }
    const facts = probe({ sections: { intent: { outcome: "Probe.", openQuestions: [blocking] } } })
    for (const [i, answer] of eachPart(facts, 3).entries()) {
      const exceeded = answer as PartsExceeded
      expect(exceeded.part).toEqual({ index: i + 1, of: null })
      expect(exceeded.budgetExceeded).toBe(true)
      expect(exceeded.oversized.map((o) => o.item)).toEqual(["spec:probe.two"])
      expect(exceeded.oversized[0].length).toBeGreaterThan(BUDGET)
      expect("members" in exceeded).toBe(false)
    }
  })
})

describe("part rules", () => {
  it("rule.parts: the members of the parts, in part order, are the bundle's members in order, each once", () => {
    const facts = probe()
    const plan = planParts(facts, { pack: "pack:probe", budget: 7000 })
    if (!("render" in plan)) throw new Error("expected a split")
    const ids = Array.from({ length: plan.of }, (_, i) => plan.render(i + 1).members.map((m) => m.id)).flat()
    expect(ids).toEqual(MEMBERS)
  })

  it("rule.partBoundaries: the boundary is the first item and each part holds the longest run that fits", () => {
    // Small members: many fit one part; the budget lets exactly two members join the boundary.
    const facts = probe()
    const wide = planParts(facts, { pack: "pack:probe", budget: 100000 })
    expect("render" in wide && wide.of).toBe(1)
    if (!("render" in wide)) return
    const one = wide.render(1)
    expect(one.boundary).not.toBeNull()
    // A budget under part 1 holding all three (the budget's own digits count too) moves the third.
    const tight = planParts(facts, { pack: "pack:probe", budget: one.used - 500 })
    if (!("render" in tight)) throw new Error("expected a split")
    expect(tight.render(1).members.map((m) => m.id)).toEqual(MEMBERS.slice(0, 2))
    expect(tight.render(2).members.map((m) => m.id)).toEqual(MEMBERS.slice(2))
    expect(tight.render(2).boundary).toBeNull()
  })

  it("rule.partCuts: the first stage at which every part fits is taken by every part, listed in leftOut", () => {
    const facts = probe()
    // 5,000 code units: no member fits uncut (6,000 narrative), all fit after the narrative cut.
    const plan = planParts(facts, { pack: "pack:probe", budget: 5000 })
    if (!("render" in plan)) throw new Error("expected a split")
    expect(plan.stage).toBe(3)
    for (let i = 1; i <= plan.of; i++) {
      const part = plan.render(i)
      expect(part.leftOut).toEqual(LEFT_OUT_LINES.slice(0, 3))
      expect(part.members.every((m) => m.narrative === null)).toBe(true)
      expect(part.used).toBeLessThanOrEqual(5000)
    }
  })

  it("rule.partHeader: every part repeats scope, budget, declarations, cuts, its place and the Pack; only part 1 has the boundary", () => {
    const parts = eachPart(probe(), 3) as PartValue[]
    for (const part of parts) {
      expect(part.scope).toEqual({ pack: "pack:probe" })
      expect(part.budget).toBe(BUDGET)
      expect(part.declarations).toBe("whole")
      expect(part.pack).toEqual({ id: "pack:probe", title: "Title of pack:probe", framing: "The probe Pack." })
    }
    expect(parts[0].boundary?.restsOn.length).toBe(1)
    expect(parts.slice(1).map((p) => p.boundary)).toEqual([null, null])
  })

  it("rule.sameParts: the split does not depend on part", () => {
    const facts = probe()
    const plan = planParts(facts, { pack: "pack:probe", budget: BUDGET, part: 2 })
    if (!("render" in plan)) throw new Error("expected a split")
    for (let i = 1; i <= plan.of; i++) {
      expect(JSON.stringify(composeBundle(facts, { pack: "pack:probe", budget: BUDGET, part: i }))).toBe(plan.renderText(i))
    }
  })

  it('rule.oversizedItem: a header over the budget is named "header" alone, with its length', () => {
    const facts = factsOf(graphOf(pack("pack:big", ["spec:big.a"], { framing: "f".repeat(3000) }), spec({ id: "spec:big.a" })))
    const answer = composeBundle(facts, { pack: "pack:big", budget: 2000, part: 1 }) as PartsExceeded
    expect(answer.oversized).toHaveLength(1)
    expect(answer.oversized[0].item).toBe("header")
    expect(answer.oversized[0].length).toBeGreaterThan(3000)
  })

  it("rule.oversizedItem: every oversized item is named in scope order, the boundary included", () => {
    const long = (id: string) => spec({ id, title: "t".repeat(3000) })
    const facts = factsOf(
      graphOf(
        pack("pack:p", ["spec:p.b", "spec:p.a"]),
        spec({ id: "spec:p.a", sections: { intent: { openQuestions: [{ question: "x".repeat(3000), blocking: true }] } } }),
        spec({
          id: "spec:p.b",
          relations: { dependsOn: ["spec:o.one", "spec:o.two"] },
          sections: { intent: { openQuestions: [{ question: "y".repeat(3000), blocking: true }] } }
        }),
        long("spec:o.one"),
        long("spec:o.two")
      )
    )
    const answer = planParts(facts, { pack: "pack:p", budget: 2500 }) as PartsExceeded
    // The cut boundary keeps ids only, so it fits; both members carry blocking text over the budget.
    expect(answer.oversized.map((o) => o.item)).toEqual(["spec:p.b", "spec:p.a"])
    // 100 outside Specs: the boundary ids alone exceed, and so does the member's footing ids.
    const outside = Array.from({ length: 100 }, (_, i) => `spec:outside.long-name-number-${i}`)
    const withBoundary = planParts(
      factsOf(graphOf(pack("pack:q", ["spec:q.a"]), spec({ id: "spec:q.a", relations: { dependsOn: outside } }), ...outside.map((id) => spec({ id })))),
      { pack: "pack:q", budget: 2500 }
    ) as PartsExceeded
    expect(withBoundary.oversized.map((o) => o.item)).toEqual(["boundary", "spec:q.a"])
  })

  it("partDiagnostic: a part above the number of parts is the verbatim diagnostic", () => {
    const facts = probe()
    expect(composeBundle(facts, { pack: "pack:probe", budget: 100000, part: 2 })).toEqual({
      diagnostics: [{ scope: "part", problem: "The bundle has 1 parts." }]
    })
    const four = composeBundle(facts, { pack: "pack:probe", budget: BUDGET, part: 4 })
    expect(isDiagnostics(four) && four.diagnostics).toEqual([{ scope: "part", problem: "The bundle has 3 parts." }])
  })
})
