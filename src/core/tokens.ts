// Exact token counts for a named encoding (`bundle --tokens`), beside the bundle, never in it: the
// value's shape and its budget stay in UTF-16 code units (bundle-contract.md section 2, the seed's
// "no model's tokenizer binds the Protocol"). Pure: the count function is handed in
// (src/node/tokenizer.ts loads it), so nothing here loads a tokenizer.
import type { BundleParams, Diagnostic, Diagnostics } from "./bundle/index.js"
import { composeBundleText, isBudgetExceeded, isDiagnostics, isPartsExceeded, isPartsSplit, planParts, stageLengths } from "./bundle/index.js"
import type { Encoding } from "./encodings.js"
import { ENCODINGS } from "./encodings.js"
import type { Facts } from "./model.js"

export { ENCODINGS, type Encoding }

/** One text's exact count: what the manifest's parts and the MCP tool report. */
export interface TokenCount {
  readonly value: number
  readonly encoding: Encoding
}

/**
 * Counts the tokens of one text (the compact JSON of a part, the text its `used` measures). With
 * `limit`, counting may stop once the count passes it: any number above `limit` is then returned.
 */
export type CountTokens = (text: string, limit?: number) => number

/** The stderr line of a run with `--tokens`: one count, or one per part in part order. */
export const tokensLine = (encoding: Encoding, counts: ReadonlyArray<number>, parts: boolean): string =>
  parts ? `${encoding} tokens by part: ${counts.join(", ")}` : `${encoding} tokens: ${counts.join(", ")}`

/** How the caller names a field: a diagnostic's scope, and the field in a problem's words (src/usecases/spelling.ts). */
export interface FieldNaming {
  readonly name: (field: string) => string
  readonly cite: (field: string) => string
}

/**
 * The `budgetTokens` field as given: its problems, each a diagnostic under the field's name as
 * `spell` names it (`--budget-tokens` on the command line), or the target. It needs an encoding
 * and replaces the code-unit budget, never both.
 */
export const budgetTokensProblems = (
  text: string,
  spell: FieldNaming,
  given: { readonly encoding: boolean; readonly budget: boolean }
): { readonly target: number } | Diagnostics => {
  const diagnostics: Diagnostic[] = []
  const [scope, field, tokens] = [spell.name("budgetTokens"), spell.cite("budgetTokens"), spell.cite("tokens")]
  const target = /^[1-9][0-9]*$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(target)) diagnostics.push({ scope, problem: `${field} takes a positive integer (tokens), not ${JSON.stringify(text)}.` })
  if (!given.encoding) diagnostics.push({ scope, problem: `${field} counts in an encoding: give ${ENCODINGS.map((e) => `${tokens} ${e}`).join(" or ")}.` })
  if (given.budget) diagnostics.push({ scope, problem: `Give ${spell.cite("budget")} (UTF-16 code units) or ${field}, not both.` })
  return diagnostics.length > 0 ? { diagnostics } : { target }
}

/**
 * The code-unit budget a token target translates to, found by composing and counting, never by
 * an estimated ratio: `fits`, the largest budget the bisection found at which every part (or the
 * one value) counts at most the target, with the largest count there; `none`, when even the
 * least budget that gives a bundle counts more (`least` at `at`): `budget` is then one code unit
 * below `at`, so the request composes the budgetExceeded (or oversized) value, as a code-unit
 * budget that nothing fits would.
 */
export type TokenFit =
  | { readonly _tag: "fits"; readonly budget: number; readonly most: number }
  | { readonly _tag: "none"; readonly budget: number; readonly least: number; readonly at: number }

/** Room above the uncut value's length for the part field and a budget with more digits. */
const SLACK = 64

/**
 * Bisects the code-unit budget for a token target (`split`: the request splits into parts, by
 * `--parts` or `--part K`, and every part must fit; `--part K` takes its part of that same split).
 * Every budget it settles on is composed and counted: token counts are not strictly monotone in
 * the budget (a cut may trade values for longer addresses), so the budget found is verified, and
 * the largest the bisection meets. Bounded work: the least budget that gives a bundle is read from
 * the budgetExceeded value (its protectedLength, or its oversized items' lengths) and checked, with
 * a bisection behind it; then one bisection between it and the uncut length, where each budget's
 * parts are counted until one passes the target, and a count stops there (`count`'s limit).
 * Diagnostics (an unknown Pack, a bad part) come back as the composer gives them.
 */
export const fitTokenBudget = (facts: Facts, params: BundleParams, split: boolean, count: CountTokens, target: number): TokenFit | Diagnostics => {
  const lengths = stageLengths(facts, params)
  if (isDiagnostics(lengths)) return lengths
  /** The least budget the value at `budget` says it needs (null: it fits at `budget`). */
  const needAt = (budget: number): number | null => {
    if (!split) {
      const { value } = composeBundleText(facts, { ...params, budget })
      return isBudgetExceeded(value) ? value.protectedLength : null
    }
    const plan = planParts(facts, { ...params, budget })
    return isPartsExceeded(plan) ? Math.max(...plan.oversized.map((o) => o.length)) : null
  }
  const fits = (budget: number): boolean => budget > 0 && needAt(budget) === null
  /** The texts a budget gives (every part, or the one value); null when nothing fits. */
  const textsAt = (budget: number): ReadonlyArray<string> | null => {
    if (!split) {
      const { value, text } = composeBundleText(facts, { ...params, budget })
      return isBudgetExceeded(value) || isDiagnostics(value) ? null : [text]
    }
    const plan = planParts(facts, { ...params, budget })
    return isPartsSplit(plan) ? Array.from({ length: plan.of }, (_, i) => plan.renderText(i + 1)) : null
  }
  /** Each budget's largest count: exact when within the target, else a lower bound past it (counting stopped). */
  const counted = new Map<number, { readonly most: number; readonly exact: boolean }>()
  /** The largest part's count at a budget (Infinity when nothing fits); `exact`: never stop early. */
  const most = (budget: number, exact = false): number => {
    const known = counted.get(budget)
    if (known !== undefined && (known.exact || !exact)) return known.most
    const texts = textsAt(budget)
    if (texts === null) return Number.POSITIVE_INFINITY
    const limit = exact ? Number.POSITIVE_INFINITY : target
    let found = 0
    // The longest first: a budget over the target is usually told by its longest part alone.
    for (const text of [...texts].sort((a, b) => b.length - a.length)) {
      found = Math.max(found, count(text, limit))
      if (found > limit) break
    }
    counted.set(budget, { most: found, exact: exact || found <= target })
    return found
  }
  const ok = (budget: number): boolean => most(budget) <= target

  const hi = lengths[0] + SLACK
  if (!fits(hi)) return { _tag: "none", budget: hi, least: Number.POSITIVE_INFINITY, at: hi }
  // The least budget that gives a bundle: what the exceeded value needs (its digits settle in a
  // step or two), checked; a bisection when the check fails (fitting is monotone in the budget).
  let least = 1
  for (let step = 0; step < 4; step++) {
    const need = needAt(least)
    if (need === null) break
    least = Math.min(hi, Math.max(least + 1, need))
  }
  if (!(fits(least) && !fits(least - 1))) {
    let below = 0
    least = hi
    while (least - below > 1) {
      const mid = Math.floor((below + least) / 2)
      if (fits(mid)) least = mid
      else below = mid
    }
  }
  if (!ok(least)) return { _tag: "none", budget: Math.max(1, least - 1), least: most(least, true), at: least }
  if (ok(hi)) return { _tag: "fits", budget: hi, most: most(hi) }
  // Bisect [good, over]: ok at good, not at over.
  let good = least
  let over = hi
  while (over - good > 1) {
    const mid = Math.floor((good + over) / 2)
    if (ok(mid)) good = mid
    else over = mid
  }
  return { _tag: "fits", budget: good, most: most(good) }
}

/** The line that says what the token target (`budgetTokens`) did, the fields cited as `spell` cites them (the CLI's stderr: `--budget-tokens`). */
export const fitLine = (fit: TokenFit, target: number, encoding: Encoding, split: boolean, spell: Pick<FieldNaming, "cite">): string => {
  const what = split ? "every part counts" : "the bundle counts"
  const [tokens, budget] = [spell.cite("budgetTokens"), spell.cite("budget")]
  if (fit._tag === "fits") {
    return `${tokens} ${target} (${encoding}): composed with ${budget} ${fit.budget}, the largest code-unit budget found at which ${what} at most ${target} tokens (${split ? "the largest part: " : ""}${fit.most}).`
  }
  const least = Number.isFinite(fit.least) ? `the smallest, at ${budget} ${fit.at}, counts ${fit.least}` : "nothing fits at any budget"
  return `${tokens} ${target} (${encoding}): no code-unit budget gives a bundle within ${target} tokens (${least}); composed with ${budget} ${fit.budget}, which does not fit either.`
}
