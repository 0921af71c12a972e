import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { reached } from "../support/branches.js"
import { type Slot, isConcrete, parseSlots, skeleton, stepFitsVocabulary, valueFits, vocabularyStep } from "../../src/core/graph/slots.js"

/**
 * Step text made of the pieces slots are made of (braces, colons, quotes, bars, names, types,
 * values, whole slots and prose groups) and any characters between them: fc.string() alone almost
 * never writes `{name: value}`, and a property over it would hardly ever see a slot.
 */
const slotText = fc
  .array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom("{", "}", ":", '"', "|", " ", "n", "state", "__proto__", "number", "boolean", "2", "-1.5", ".5", "true", '"on shelf"')
      },
      { weight: 1, arbitrary: fc.constantFrom("{n: 2}", '{s:"a"|"b"}', "{x}", "{m: lots}", "{1, 2}", '{ "q" }', "{k:string}") },
      { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }
    ),
    { maxLength: 14 }
  )
  .map((parts) => parts.join(""))

// Each property counts the texts that reached its branches (test/support/branches.ts). Each floor
// is the count a run of 1,000 cases falls below with a chance under 1e-7 at the rates 10,000 gave:
// a slot named 20%, typed 11%, bound 6%, bare 7%, malformed 7%, prose braces 21%; without an
// opening brace, a closing one 7.5%, a colon 6.7%.

describe("parseSlots", () => {
  it("reads typed slots: number, string, boolean and a union of two or more literals", () => {
    expect(parseSlots('{n:number} {s:string} {b:boolean} {r:"a"|"b c"}')).toEqual([
      { form: "typed", name: "n", type: { kind: "number" } },
      { form: "typed", name: "s", type: { kind: "string" } },
      { form: "typed", name: "b", type: { kind: "boolean" } },
      { form: "typed", name: "r", type: { kind: "enum", values: ["a", "b c"] } }
    ])
  })

  it("reads bound slots with spacing conventional only", () => {
    expect(parseSlots('{n: 2} {x:-1.5} {y: .5} {s: "on shelf"} { b : false }')).toEqual([
      { form: "bound", name: "n", value: 2 },
      { form: "bound", name: "x", value: -1.5 },
      { form: "bound", name: "y", value: 0.5 },
      { form: "bound", name: "s", value: "on shelf" },
      { form: "bound", name: "b", value: false }
    ])
  })

  it("reads a single quoted literal as a binding, not a declaration", () => {
    expect(parseSlots('{x: "only"}')).toEqual([{ form: "bound", name: "x", value: "only" }])
  })

  it("tells bare from malformed slots, and __proto__ is always malformed", () => {
    expect(parseSlots('{n} {m: lots} {k:} {__proto__: 1} {q: "a"|b}')).toEqual([
      { form: "bare", name: "n" },
      { form: "malformed", name: "m" },
      { form: "malformed", name: "k" },
      { form: "malformed", name: "__proto__" },
      { form: "malformed", name: "q" }
    ])
  })

  it("treats brace groups that do not open with an identifier, and unterminated groups, as prose", () => {
    expect(parseSlots('a {1, 2} set, {} and { "q" } and {open')).toEqual([])
  })

  it("scans quotes: a closing brace inside a literal does not end the group", () => {
    expect(parseSlots('{s: "a}b"}')).toEqual([{ form: "bound", name: "s", value: "a}b" }])
  })

  it("restarts at an unquoted open brace inside an open group", () => {
    expect(parseSlots("{x {n: 1}")).toEqual([{ form: "bound", name: "n", value: 1 }])
  })
})

describe("skeleton", () => {
  it("gives a binding and its declaration the same skeleton and keeps prose braces", () => {
    expect(skeleton('every copy is {state: "on shelf"}')).toBe("every copy is {state}")
    expect(skeleton('every copy is {state:"on shelf"|"on loan"}')).toBe("every copy is {state}")
    expect(skeleton("a {1, 2} set of {n:number}")).toBe("a {1, 2} set of {n}")
  })

  it("is idempotent on any text", () => {
    const count = reached("facts-slots: skeleton is idempotent", { slotNamed: 130, typed: 60, bound: 25, bare: 28, malformed: 28, proseBraces: 140 })
    fc.assert(
      fc.property(fc.oneof(fc.string(), slotText), (s) => {
        count.case()
        const once = skeleton(s)
        if (once !== s) count.hit("slotNamed")
        const forms = new Set(parseSlots(s).map((slot: Slot) => slot.form))
        for (const form of forms) count.hit(form)
        // A brace kept as prose: the skeleton still holds more `{` than it names slots.
        if (once.split("{").length - 1 > parseSlots(s).length) count.hit("proseBraces")
        return skeleton(once) === once
      }),
      { numRuns: 1000 }
    )
    count.check()
  })

  it("leaves text without braces unchanged and concrete", () => {
    const count = reached("facts-slots: text without an opening brace", { closingBrace: 35, colon: 30 })
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), slotText).filter((s) => !s.includes("{")),
        (s) => {
          count.case()
          if (s.includes("}")) count.hit("closingBrace")
          if (s.includes(":")) count.hit("colon")
          return skeleton(s) === s && isConcrete(s)
        }
      ),
      { numRuns: 1000 }
    )
    count.check()
  })
})

describe("compatibility", () => {
  it("fits values to types", () => {
    expect(valueFits(2, { kind: "number" })).toBe(true)
    expect(valueFits("2", { kind: "number" })).toBe(false)
    expect(valueFits(true, { kind: "boolean" })).toBe(true)
    expect(valueFits("x", { kind: "string" })).toBe(true)
    expect(valueFits("a", { kind: "enum", values: ["a", "b"] })).toBe(true)
    expect(valueFits("c", { kind: "enum", values: ["a", "b"] })).toBe(false)
  })

  it("refuses a step whose vocabulary entry names the slot without a type", () => {
    const vocab = [vocabularyStep("a member with {fines} fines")]
    expect(stepFitsVocabulary("a member with {fines: 0} fines", vocab)).toBe(false)
  })

  it("refuses a step when matching vocabulary entries disagree on the slot's type", () => {
    const vocab = [vocabularyStep("the count is {n:number}"), vocabularyStep("the count is {n:string}")]
    expect(stepFitsVocabulary("the count is {n: 2}", vocab)).toBe(false)
    expect(stepFitsVocabulary("the count is {n: 2}", [vocab[0]])).toBe(true)
  })

  it("matches skeletons across phases (a vocabulary step of any phase)", () => {
    const vocab = [vocabularyStep("the desk says {msg:string}")]
    expect(stepFitsVocabulary('the desk says {msg: "hi"}', vocab)).toBe(true)
  })
})
