// The `bundle` tool: the context bundle of one scope as the CLI prints it, within the agent's
// tool-result cap when no budget is given (cap.ts): part 1 of a split whose every part fits, and
// the call that returns the next.
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { isBudgetExceeded, isPartsExceeded } from "../../../core/bundle/index.js"
import { factsOf } from "../../../core/graph/facts.js"
import { exceededLine } from "../../../core/render/exceeded.js"
import { danglingLine, unmatchedExcludeLines } from "../../../core/render/corpus-lines.js"
import { fitLine } from "../../../core/tokens.js"
import { Bundler, type PreparedBundle } from "../../../usecases/Bundler.js"
import { BundleRequest, requestOf, tokenFields } from "../../../usecases/requests.js"
import { capBudget, OutputCap, partMembers, partSentence, reserveOf } from "../cap.js"
import type { Arguments } from "../parameters.js"
import { PARAMETER_NAMES, parametersOf } from "../parameters.js"
import { capCounter, define, fail, ok } from "../tool.js"

const bundleFields = { ...BundleRequest.fields, ...tokenFields }

export const BundleParameters = parametersOf(bundleFields)

type BundleArguments = Arguments<typeof bundleFields>

const runBundle = (p: BundleArguments, given: Record<string, unknown>) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    // The tokenizer bundle beside this one, only when asked (Bundler.tokens); the token target's budget found by Bundler.fit.
    const tokens = yield* bundler.tokens(p, __dirname)
    let prepared: PreparedBundle = yield* bundler.prepare(requestOf(BundleRequest, p))
    // What the CLI says on stderr about the scope: the impacted ids it left out, excludes that matched nothing.
    const notes = [danglingLine(prepared.dangling) ?? undefined, ...unmatchedExcludeLines(prepared.exclude, prepared.excluded, p.root)]
    // No budget given: the answer fits the agent's tool-result cap (cap.ts), split when the whole does not.
    let capped: string | undefined
    const noBudget = p.budget === undefined && p.budgetTokens === undefined && p.profile === undefined
    if (noBudget) {
      const cap = yield* OutputCap
      const budget = capBudget(factsOf(prepared.graph), prepared.params, yield* capCounter(bundler), cap.tokens - reserveOf(cap.tokens))
      if (budget !== null) {
        const part = prepared.params.part ?? (p.parts === true ? undefined : 1)
        prepared = { ...prepared, params: { ...prepared.params, budget, part } }
        capped = `The whole bundle is over the ${cap.tokens}-token limit of a tool result (o200k_base; ${cap.fromEnvironment ? "MAX_MCP_OUTPUT_TOKENS sets it" : "MAX_MCP_OUTPUT_TOKENS in the server's environment changes it"}), so it is split at budget ${budget}.`
      }
    }
    /** The call that returns part `k` of this split: the arguments given, the budget found, the part. */
    const callFor = (k: number) => {
      const { count: _count, ...rest } = given
      return { name: "bundle", arguments: { ...rest, ...(capped === undefined ? {} : { budget: prepared.params.budget }), part: k } }
    }
    /** A part's sentence: the Specs of the scope it leaves out and the call that returns the next part. */
    const partLine = (value: unknown): string | undefined => {
      const at = (value as { readonly part?: { readonly index: number } }).part
      if (at === undefined) return capped
      const members = partMembers(factsOf(prepared.graph), prepared.params)
      if (members === null) return capped
      const sentence = partSentence(at.index, members.scope, members.parts, callFor)
      return capped === undefined ? sentence : `${capped} ${sentence}`
    }
    const split = p.parts === true || prepared.params.part !== undefined
    let fit: string | undefined
    const fitted = bundler.fit(prepared, tokens, split)
    if (fitted.fit !== null && tokens?.target !== undefined) {
      fit = fitLine(fitted.fit, tokens.target, tokens.encoding, split, PARAMETER_NAMES)
      prepared = fitted.prepared
    }
    const counted = (texts: ReadonlyArray<string>) =>
      tokens === undefined ? undefined : texts.map((t) => ({ value: tokens.count(t), encoding: tokens.encoding }))
    if (p.parts === true) {
      const { of, parts, exceeded } = yield* bundler.split(prepared)
      const texts = tokens === undefined && of !== null ? [] : (yield* Stream.runCollect(parts)).map((t) => t.text)
      // No split fits the budget: the value that says so, as `--parts` prints it, and its hint.
      if (of === null) {
        const counts = counted(texts)
        return ok(
          texts.map((t) => t + "\n").join(""),
          counts === undefined ? undefined : JSON.stringify({ tokens: counts }),
          ...notes,
          fit,
          exceeded === null ? undefined : exceededLine(exceeded, PARAMETER_NAMES)
        )
      }
      const counts = counted(texts)
      const first = capped === undefined ? undefined : `${capped} The call that returns part 1: ${JSON.stringify(callFor(1))}`
      return ok(JSON.stringify(counts === undefined ? { parts: of } : { parts: of, tokens: counts }) + "\n", ...notes, fit, first)
    }
    const { value, text: out } = yield* bundler.compose(prepared)
    const counts = counted([out])
    // A budgetExceeded value is a result, as the CLI's (exit 0); the hint it prints on stderr comes last.
    const result = ok(
      out + "\n",
      counts === undefined ? undefined : JSON.stringify({ tokens: counts }),
      ...notes,
      fit,
      partLine(value),
      isBudgetExceeded(value) || isPartsExceeded(value) ? exceededLine(value, PARAMETER_NAMES) : undefined
    )
    if (!noBudget) return result
    // No split fits under the cap (a value repeats its scope: ten thousand ids in `specs` are over it
    // alone): one line that says so, not an answer the agent would refuse.
    const cap = yield* OutputCap
    const total = (yield* capCounter(bundler))(result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"), cap.tokens)
    if (total <= cap.tokens) return result
    return fail(
      `specbundle: the bundle of this scope is over the ${cap.tokens}-token limit of a tool result (o200k_base), and no split fits under it: each part repeats the scope (${scopeSize(value)}). Give a narrower scope (a Pack, fewer specs, members), or run specbundle bundle with --out DIR and read its parts.\n`
    )
  })

/** How large the scope a value repeats is, in words: its Spec count, or its length. */
const scopeSize = (value: unknown): string => {
  const scope = (value as { readonly scope?: { readonly specs?: ReadonlyArray<string>; readonly members?: ReadonlyArray<string> } }).scope
  const ids = scope?.specs ?? scope?.members
  return ids === undefined ? `${JSON.stringify(scope ?? null).length} characters` : `${ids.length} Spec ids`
}

export const bundleTool = define(
  "bundle",
  "The context bundle of one scope (pack, specs or changeset) within a hard budget, as the CLI prints it; text items after it: token counts, the CLI's stderr lines.",
  BundleParameters,
  runBundle
)
