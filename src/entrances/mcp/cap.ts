// The tool-result cap: an agent refuses a tool result over its token limit (Claude Code: 25,000,
// or MAX_MCP_OUTPUT_TOKENS), so a `bundle` call that gives no budget is answered within it: the
// whole value when it fits, else part 1 of a split whose every part fits, with the part count and
// the call that returns part 2. And every part says, in one sentence, which of the scope's Specs it
// leaves out and the call that returns them.
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { BundleParams } from "../../core/bundle/index.js"
import { composeBundleText, isBudgetExceeded, isDiagnostics, isPartsSplit, planParts, validateParams } from "../../core/bundle/index.js"
import type { Facts } from "../../core/model.js"
import type { CountTokens } from "../../core/tokens.js"
import * as Result from "effect/Result"

/** Claude Code's limit on a tool result, in tokens, when MAX_MCP_OUTPUT_TOKENS does not set one. */
export const DEFAULT_OUTPUT_TOKENS = 25000

/** The server's tool-result cap in o200k tokens, and where it came from. */
export interface OutputCapValue {
  readonly tokens: number
  readonly fromEnvironment: boolean
}

/**
 * MAX_MCP_OUTPUT_TOKENS, read once through the ConfigProvider in context (the server's environment
 * unless a test gives another); a value that is not a positive integer stops the server with its line.
 */
export class OutputCap extends Context.Service<OutputCap, OutputCapValue>()("specbundle/mcp/OutputCap") {
  static readonly layer: Layer.Layer<OutputCap, Error> = Layer.effect(
    this,
    Effect.gen(function* () {
      const raw = yield* Config.option(Config.String("MAX_MCP_OUTPUT_TOKENS")).pipe(
        Effect.mapError((e) => new Error(`MAX_MCP_OUTPUT_TOKENS could not be read (${e.message})`))
      )
      if (Option.isNone(raw)) return { tokens: DEFAULT_OUTPUT_TOKENS, fromEnvironment: false }
      const text = raw.value.trim()
      const tokens = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN
      if (!Number.isSafeInteger(tokens) || tokens < 1000) {
        return yield* Effect.fail(new Error(`MAX_MCP_OUTPUT_TOKENS: expected a whole number of tokens, 1000 or more, got ${JSON.stringify(raw.value)}`))
      }
      return { tokens, fromEnvironment: true }
    })
  )
}

/**
 * Tokens of the cap kept for what follows the value (the sentence naming the Specs left out, the
 * warnings and hints): a part counts at most the cap less this.
 */
export const reserveOf = (cap: number): number => Math.min(2000, Math.floor(cap / 4))

/** Code units a token takes at least in the composer's JSON, for a first budget to try (the count decides). */
const FIRST_RATIO = 3

/**
 * The code-unit budget at which every part of the split counts at most `target` tokens, or null
 * when the whole value at `params.budget` already does (or no split can help: the value the
 * request gives then stands, with its hint). Bounded work: at most eight budgets, each planned
 * once and its parts counted longest first, stopping at the first over the target; the next
 * budget shrinks by the ratio the count showed.
 */
export const capBudget = (facts: Facts, params: BundleParams, count: CountTokens, target: number): number | null => {
  const whole = composeBundleText(facts, { ...params, part: undefined })
  if (isDiagnostics(whole.value)) return null
  if (!isBudgetExceeded(whole.value) && count(whole.text, target) <= target) return null
  let budget = Math.max(1, Math.min(typeof params.budget === "number" ? params.budget : Number.POSITIVE_INFINITY, target * FIRST_RATIO))
  for (let attempt = 0; attempt < 8; attempt++) {
    const plan = planParts(facts, { ...params, part: undefined, budget })
    if (!isPartsSplit(plan)) return null
    const texts = Array.from({ length: plan.of }, (_, i) => plan.renderText(i + 1)).sort((a, b) => b.length - a.length)
    let most = 0
    for (const text of texts) {
      most = Math.max(most, count(text, target))
      if (most > target) break
    }
    if (most <= target) return budget
    budget = Math.max(1, Math.floor(((budget * target) / most) * 0.95))
  }
  return null
}

/** The Spec ids of the scope in order, and those each part carries (index 0 is part 1). */
export const partMembers = (
  facts: Facts,
  params: BundleParams
): { readonly scope: ReadonlyArray<string>; readonly parts: ReadonlyArray<ReadonlyArray<string>> } | null => {
  const validated = validateParams(facts.graph, { ...params, part: undefined })
  if (Result.isFailure(validated)) return null
  const plan = planParts(facts, { ...params, part: undefined })
  if (!isPartsSplit(plan)) return null
  const parts = Array.from({ length: plan.of }, (_, i) => plan.render(i + 1).members.flatMap((m) => (typeof m.id === "string" ? [m.id] : [])))
  return { scope: validated.success.memberIds, parts }
}

/** Characters of ids a sentence lists at most (about 1,000 tokens); the rest are counted. */
const IDS_SHOWN = 3000

/**
 * The sentence a part answer ends with: the part, what of the scope it carries, the ids it leaves
 * out (as many as fit, then how many more) and the exact call that returns the next part.
 */
export const partSentence = (
  index: number,
  scope: ReadonlyArray<string>,
  parts: ReadonlyArray<ReadonlyArray<string>>,
  call: (part: number) => unknown
): string => {
  const carried = new Set(parts[index - 1] ?? [])
  const out = scope.filter((id) => !carried.has(id))
  const shown: string[] = []
  let length = 0
  for (const id of out) {
    if (length + id.length + 2 > IDS_SHOWN) break
    shown.push(id)
    length += id.length + 2
  }
  const more = out.length - shown.length
  const next = index < parts.length ? index + 1 : 1
  const left =
    out.length === 0
      ? "it leaves none of them out"
      : `it leaves out ${out.length}: ${shown.join(", ")}${more > 0 ? `, and ${more} more in the other parts` : ""}`
  return `Part ${index} of ${parts.length} carries ${carried.size} of the scope's ${scope.length} Specs; ${left}. The call that returns part ${next}: ${JSON.stringify(call(next))}`
}
