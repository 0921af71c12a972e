// `--budget-tokens`: the code-unit budget a token target translates to, found by composing the
// example corpus's Pack and counting with gpt-tokenizer (the package itself, in this process), and
// the parameter's problems.
import { countTokens as cl100kCount } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as o200kCount, isWithinTokenLimit } from "gpt-tokenizer/encoding/o200k_base"
import { beforeAll, describe, expect, it } from "vitest"
import type { Facts } from "../../src/core/model.js"
import { composeBundleText, isBudgetExceeded, isDiagnostics, isPartsSplit, planParts, stageLengths } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import type { CountTokens, TokenFit } from "../../src/core/tokens.js"
import { budgetTokensProblems, fitLine, fitTokenBudget } from "../../src/core/tokens.js"
import { BIKE_DOCK } from "../support/paths.js"
import { readTree } from "../support/tmp.js"

const PACK = { pack: "pack:rides-v1" }
// Whole counts: the limit a CountTokens may take only lets it stop early.
const o200k: CountTokens = (t) => o200kCount(t)
const cl100k: CountTokens = (t) => cl100kCount(t)
const COUNTERS: ReadonlyArray<[string, CountTokens]> = [
  ["o200k_base", o200k],
  ["cl100k_base", cl100k]
]

let facts: Facts
beforeAll(async () => {
  facts = factsOf((await readTree(BIKE_DOCK)).graph)
})

/** Every part's count at a budget (the one value's when not split), or null when nothing fits. */
const countsAt = (budget: number, split: boolean, count: CountTokens): number[] | null => {
  if (!split) {
    const { value, text } = composeBundleText(facts, { ...PACK, budget })
    return isBudgetExceeded(value) ? null : [count(text)]
  }
  const plan = planParts(facts, { ...PACK, budget })
  return isPartsSplit(plan) ? Array.from({ length: plan.of }, (_, i) => count(plan.renderText(i + 1))) : null
}

const fitted = (split: boolean, count: CountTokens, target: number): TokenFit => {
  const found = fitTokenBudget(facts, PACK, split, count, target)
  if (isDiagnostics(found)) throw new Error(JSON.stringify(found))
  return found
}

describe("fitTokenBudget", () => {
  // The whole Pack counts ~5,900 tokens uncut and ~3,900 after every cut: targets in and past that range.
  it.each(COUNTERS)("%s, in parts: every part counts at most the target at the budget found, and one code unit more puts a part over it", (_, count) => {
    // The least a part can count: its largest member after every cut (a target of 1 reaches nothing).
    const floor = fitted(true, count, 1)
    expect(floor._tag).toBe("none")
    const least = floor._tag === "none" ? floor.least : 0
    // `at` is the least budget that splits at all (read from the oversized value, then checked).
    if (floor._tag === "none") {
      expect(isPartsSplit(planParts(facts, { ...PACK, budget: floor.at }))).toBe(true)
      expect(isPartsSplit(planParts(facts, { ...PACK, budget: floor.at - 1 }))).toBe(false)
      expect(Math.max(...countsAt(floor.at, true, count)!)).toBe(least)
    }
    for (const target of [least, least + 150, 2500]) {
      const found = fitted(true, count, target)
      expect(found._tag, `target ${target}`).toBe("fits")
      if (found._tag !== "fits") continue
      const at = countsAt(found.budget, true, count)!
      expect(Math.max(...at)).toBe(found.most)
      expect(found.most).toBeLessThanOrEqual(target)
      const above = countsAt(found.budget + 1, true, count)
      expect(above === null ? Number.POSITIVE_INFINITY : Math.max(...above), `target ${target}`).toBeGreaterThan(target)
    }
  })

  it.each(COUNTERS)("%s, one value: a target between the cut and the uncut counts finds a cut bundle within it, the next budget over it", (_, count) => {
    const lengths = stageLengths(facts, PACK) as ReadonlyArray<number>
    const smallest = countsAt(lengths[lengths.length - 1]! + 10, false, count)![0]!
    const whole = countsAt(10_000_000, false, count)![0]!
    expect(smallest).toBeLessThan(whole)
    const target = Math.floor((smallest + whole) / 2)
    const found = fitted(false, count, target)
    expect(found._tag).toBe("fits")
    if (found._tag !== "fits") return
    expect(countsAt(found.budget, false, count)).toEqual([found.most])
    expect(found.most).toBeLessThanOrEqual(target)
    expect(countsAt(found.budget + 1, false, count)![0]).toBeGreaterThan(target)
  })

  it("a target the whole uncut bundle is within: a budget at which nothing is cut", () => {
    const found = fitted(false, o200k, 1_000_000)
    expect(found._tag).toBe("fits")
    const { value } = composeBundleText(facts, { ...PACK, budget: found.budget })
    expect(value).toMatchObject({ leftOut: [] })
    expect(found.budget).toBeGreaterThanOrEqual((value as unknown as { used: number }).used)
  })

  it("a target nothing reaches: one code unit below the least budget that gives a bundle, which composes budgetExceeded", () => {
    const found = fitted(false, o200k, 100)
    expect(found._tag).toBe("none")
    if (found._tag !== "none") return
    expect(found.budget).toBe(found.at - 1)
    const { value } = composeBundleText(facts, { ...PACK, budget: found.budget })
    expect(isBudgetExceeded(value)).toBe(true)
    expect((value as { protectedLength: number }).protectedLength).toBe(found.at)
    expect(countsAt(found.at, false, o200k)).toEqual([found.least])
    // Cited as the CLI cites the fields (its flags).
    const flags = { cite: (field: string) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` }
    expect(fitLine(found, 100, "o200k_base", false, flags)).toBe(
      `--budget-tokens 100 (o200k_base): no code-unit budget gives a bundle within 100 tokens (the smallest, at --budget ${found.at}, counts ${found.least}); composed with --budget ${found.budget}, which does not fit either.`
    )
  })

  it("bounded work: at most 2 + log2(the uncut length) budgets are counted, each part at most once per budget", () => {
    const texts: string[] = []
    const found = fitted(true, (t) => (texts.push(t), o200k(t)), 1500)
    expect(found._tag).toBe("fits")
    const hi = (stageLengths(facts, PACK) as ReadonlyArray<number>)[0]! + 64
    // A budget's parts are counted until one is over the target, so at most `of` texts per budget,
    // and the least budget that splits has the most parts.
    const floor = fitted(true, o200k, 1)
    const maxParts = planParts(facts, { ...PACK, budget: floor._tag === "none" ? floor.at : 0 })
    expect(isPartsSplit(maxParts)).toBe(true)
    expect(texts.length).toBeLessThanOrEqual((Math.ceil(Math.log2(hi)) + 2) * (isPartsSplit(maxParts) ? maxParts.of : 0))
    expect(texts.length).toBeGreaterThan(0)
  })

  it("a counter that stops past the limit (as the CLI's does) finds the same budgets as whole counts", () => {
    const stopping: CountTokens = (t, limit) => {
      if (limit === undefined || !Number.isFinite(limit)) return o200kCount(t)
      const within = isWithinTokenLimit(t, limit)
      return within === false ? limit + 1 : within
    }
    for (const [split, target] of [
      [true, 900],
      [true, 2000],
      [false, 4500],
      [false, 100]
    ] as const) {
      expect(fitted(split, stopping, target), `${split} ${target}`).toEqual(fitted(split, o200k, target))
    }
  })

  it("the composer's diagnostics come back as they are (an unknown Pack)", () => {
    const found = fitTokenBudget(facts, { pack: "pack:nope" }, false, o200k, 1000)
    expect(isDiagnostics(found)).toBe(true)
    expect(JSON.stringify(found)).toContain("pack:nope")
  })
})

describe("budgetTokensProblems", () => {
  /** The command line's spelling (flags) and the MCP tool's (parameters), as the entrances give them. */
  const flags = {
    name: (f: string) => f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    cite: (f: string) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
  }
  const parameters = { name: (f: string) => f, cite: (f: string) => f }

  it("takes a positive integer with an encoding and without a code-unit budget", () => {
    expect(budgetTokensProblems("8000", flags, { encoding: true, budget: false })).toEqual({ target: 8000 })
  })

  it("names each problem under the field as the caller spells it, in one value", () => {
    expect(budgetTokensProblems("0", flags, { encoding: false, budget: true })).toEqual({
      diagnostics: [
        { scope: "budget-tokens", problem: '--budget-tokens takes a positive integer (tokens), not "0".' },
        { scope: "budget-tokens", problem: "--budget-tokens counts in an encoding: give --tokens o200k_base or --tokens cl100k_base." },
        { scope: "budget-tokens", problem: "Give --budget (UTF-16 code units) or --budget-tokens, not both." }
      ]
    })
    expect(budgetTokensProblems("0", parameters, { encoding: false, budget: true })).toEqual({
      diagnostics: [
        { scope: "budgetTokens", problem: 'budgetTokens takes a positive integer (tokens), not "0".' },
        { scope: "budgetTokens", problem: "budgetTokens counts in an encoding: give tokens o200k_base or tokens cl100k_base." },
        { scope: "budgetTokens", problem: "Give budget (UTF-16 code units) or budgetTokens, not both." }
      ]
    })
    for (const text of ["1.5", "-3", "abc", "", "1e3", "99999999999999999999"]) {
      expect(isDiagnostics(budgetTokensProblems(text, flags, { encoding: true, budget: false })), text).toBe(true)
    }
  })
})
