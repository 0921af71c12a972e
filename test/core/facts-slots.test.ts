import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isConcrete, parseSlots, skeleton, stepFitsVocabulary, valueFits, vocabularyStep } from "../../src/core/slots.js"

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
    fc.assert(fc.property(fc.string(), (s) => skeleton(skeleton(s)) === skeleton(s)))
  })

  it("leaves text without braces unchanged and concrete", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes("{")),
        (s) => skeleton(s) === s && isConcrete(s)
      )
    )
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
