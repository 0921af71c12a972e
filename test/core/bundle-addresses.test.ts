// rule.cutOrder: the cuts never cut entry addresses. Over generated Packs whose texts name
// addresses everywhere a cut reaches (narrative, sections, questions, member and outside example
// steps, the example space, pinned declarations), every address present in the uncut bundle is
// present at every stage the request permits. Outside Specs' titles name none: the boundary cut's
// shape keeps ids only (docs/decisions.md). The addresses are looked for by a plain search for the
// five the texts are made of, not by the bundle's own mention scanner (addressesIn), so a scanner
// that misses them cannot make the property hold by finding none.
import { describe, expect, it } from "vitest"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import { maxStage } from "../../src/core/bundle/index.js"
import type { DeclarationMode, Json } from "../../src/core/bundle/index.js"
import { validateParams } from "../../src/core/bundle/params.js"
import { composition } from "../../src/core/bundle/stages.js"
import { factsOf } from "../../src/core/graph/facts.js"
import type { OpenQuestion } from "../../src/core/model.js"
import type { AnyNode } from "../support/nodes.js"
import { graphOf, gwt, pack, spec } from "../support/nodes.js"

const ADDRESSES = ["spec:m.s0#design.k0", "spec:m.s1#question.q0", "spec:m.s0#rule.a", "spec:o.x0#ui.k1", "spec:o.x1#design.long"]

/** A short text that may name addresses, in the places mention scanning finds them. */
const text = fc
  .tuple(fc.string({ maxLength: 8 }), fc.subarray(ADDRESSES), fc.constantFrom(" ", "\n", ", ", " (", "\u2028"))
  .map(([head, named, sep]) => [head, ...named].join(sep))

const memberArb = fc.record({
  narrative: fc.option(text, { nil: null }),
  outcome: text,
  risks: fc.array(text, { maxLength: 2 }),
  questions: fc.array(fc.record({ question: text, blocking: fc.boolean(), keyed: fc.boolean() }), { maxLength: 3 }),
  rules: fc.array(fc.oneof(text, fc.record({ key: fc.constantFrom("a", "b"), rule: text })), { maxLength: 2 }),
  design: fc.array(fc.record({ pinned: fc.boolean(), value: text }), { maxLength: 3 }),
  ui: fc.option(text, { nil: undefined }),
  term: fc.option(text, { nil: undefined }),
  space: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  memberExample: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  outsideExample: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  dependsOnOutside: fc.boolean()
})

const worldArb = fc.record({
  members: fc.array(memberArb, { minLength: 1, maxLength: 4 }),
  declarations: fc.constantFrom<DeclarationMode[]>("whole", "addresses")
})
type World = typeof worldArb extends fc.Arbitrary<infer W> ? W : never

const nodesOf = (w: World): AnyNode[] => {
  const ids: string[] = []
  const nodes: AnyNode[] = []
  for (let j = 0; j < 2; j++) nodes.push(spec({ id: `spec:o.x${j}`, title: `Outside ${j}`, sections: { ui: { k1: "u" }, design: { long: "l" } } }))
  w.members.forEach((m, i) => {
    const id = `spec:m.s${i}`
    ids.push(id)
    const design: Record<string, string> = {}
    m.design.forEach((d, k) => (design[`k${k}`] = d.pinned ? `\`d${k}\` ${d.value}` : d.value))
    const questions: OpenQuestion[] = m.questions.map((q, k) =>
      q.keyed ? { question: q.question, blocking: q.blocking, key: `q${k}` } : { question: q.question, blocking: q.blocking }
    )
    const rules = m.rules.filter((r, k) => typeof r === "string" || m.rules.findIndex((o) => typeof o !== "string" && o.key === r.key) === k)
    nodes.push(
      spec({
        id,
        narrative: m.narrative,
        relations: m.dependsOnOutside ? { dependsOn: "spec:o.x0" } : {},
        sections: {
          intent: { outcome: m.outcome, risks: m.risks, openQuestions: questions },
          behavior: { rules, ...(m.space === undefined ? {} : { exampleSpace: gwt(m.space, ["w"], ["t"]) }) },
          ...(m.term === undefined ? {} : { model: { terms: { cart: m.term } } }),
          design,
          ...(m.ui === undefined ? {} : { ui: { layout: m.ui } })
        },
        locations: { "intent.outcome": i + 3, "behavior.exampleSpace": i + 20 }
      })
    )
    if (m.memberExample !== undefined) {
      ids.push(`spec:m.s${i}.ex`)
      nodes.push(
        spec({ id: `spec:m.s${i}.ex`, kind: "example", relations: { refines: id }, sections: { behavior: { examples: [gwt(m.memberExample, ["w"], ["t"])] } } })
      )
    }
    if (m.outsideExample !== undefined) {
      nodes.push(
        spec({ id: `spec:o.ex${i}`, kind: "example", relations: { refines: id }, sections: { behavior: { examples: [gwt(["g"], m.outsideExample, ["t"])] } } })
      )
    }
  })
  nodes.unshift(pack("pack:m", ids, { framing: "Generated." }))
  return nodes
}

/** A character that would make a written address part of a longer token (another id or address). */
const CONTINUES = /[A-Za-z0-9_#:/-]/

/** Whether `text` holds `address` whole: not inside a longer token before or after it. */
const holds = (text: string, address: string): boolean => {
  for (let at = text.indexOf(address); at >= 0; at = text.indexOf(address, at + 1)) {
    const before = at === 0 ? "" : text[at - 1]
    const end = at + address.length
    const after = text[end] ?? ""
    const longer = CONTINUES.test(after) || (after === "." && CONTINUES.test(text[end + 1] ?? ""))
    if (!CONTINUES.test(before) && !longer) return true
  }
  return false
}

/** Which of ADDRESSES any string of a value holds. */
const addressesOf = (value: Json, into = new Set<string>()): Set<string> => {
  if (typeof value === "string") {
    for (const a of ADDRESSES) if (holds(value, a)) into.add(a)
  } else if (Array.isArray(value)) for (const v of value) addressesOf(v, into)
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) addressesOf(v, into)
  return into
}

describe("entry addresses survive every cut", () => {
  it("every address in the uncut bundle is in the bundle at every permitted stage", () => {
    let named = 0
    let stages = 0
    fc.assert(
      fc.property(worldArb, (w) => {
        const facts = factsOf(graphOf(...nodesOf(w)))
        const request = Result.getOrThrow(validateParams(facts.graph, { pack: "pack:m", declarations: w.declarations }))
        const c = composition(facts, request)
        expect(c.maxStage).toBe(maxStage(w.declarations))
        const at = (stage: number): Json => {
          const items = c.items(stage)
          return { members: items.rows(0, request.memberIds.length), boundary: items.boundary } as unknown as Json
        }
        const uncut = addressesOf(at(0))
        if (uncut.size > 0) named++
        for (let stage = 1; stage <= c.maxStage; stage++) {
          stages++
          const kept = addressesOf(at(stage))
          expect(
            [...uncut].filter((a) => !kept.has(a)),
            `stage ${stage}`
          ).toEqual([])
        }
      }),
      { numRuns: 200 }
    )
    // Not vacuous: most generated bundles name addresses, and are cut.
    console.log(`bundle-addresses: ${named} of 200 uncut bundles name addresses; ${stages} stages checked`)
    expect(named).toBeGreaterThan(100)
    expect(stages).toBeGreaterThan(200)
  })
})
