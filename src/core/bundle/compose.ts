// The context bundle (recipe 36): composeBundle and planParts. Pure: no I/O, no clock, no Effect.
//
// Interpretations (where the seed and bundle-contract.md section 2 leave room):
// - Stages: the cuts of cut-table.ts in its order (the declaration cut only under declarations
//   "addresses"). Stage k applies cuts 1..k and leftOut is the first k lines; a stage counts even
//   when it removed nothing.
// - "Entry addresses written in" a text are mention tokens (sdp-format.md section 5 scanning) that
//   parse as spec:<id>#<design|ui|question|rule>.<key>; plain Spec ids are not addresses.
// - questionCut "links": the entry addresses written in the question text, other than its own,
//   in order of first appearance. The protocol's captured-only question links field is not read.
// - pointer rule "a cut entry whose text names other entry addresses": applied to every cut entry
//   without a form of its own: section values, keyed rules, design/ui values, declarations, and
//   the example cut's entries, whose text is every step written in them (a member's
//   behavior.examples entry, its example space, an outside example row's steps).
// - Section entries are the string leaves of `sections` (intent fields, risks[i], behavior
//   description, rules[i], flows[i], each constraint field, model terms, decision fields and
//   lists, verification mode and criteria[i], design/ui values and descriptions). A keyed rule
//   `{ key, rule }` is one entry with address #rule.<key>. `description` has no address.
// - Pointer lines: the location table row of the entry's own path (model.ts); a keyed rule also
//   tries `rule.<key>` and a question `question[<index>]` (sdp-format.md naming). Otherwise null.
// - Example rows: `steps` is the example Spec's behavior.examples (its structured given/when/then
//   entries, [] when none); cut to the pointer of `behavior.examples`, or of `behavior.examples[0]`
//   when the table has no row for the list itself.
// - exampleRow.member: the example is a member of the whole bundle (its scope), also in parts.
// - `sections` drops intent.openQuestions; an intent left empty by that is left out.
// - A manifest member missing from the graph: lists [], everything else null (sections, design too).
// - Parts: stages are tried from no cut; the oversized result comes only when no stage splits,
//   so an item that fits uncut is never named because its cut form (or the header's longer
//   leftOut) would not. An item's "alone" length is measured as part 1 of 1 after every permitted
//   cut. If every item fits alone yet a later part's longer index/of digits push one over at every
//   stage, that item is named with the length it needs in its place (a corner; never seen).
// - protectedLength is the least budget at which the same request returns a bundle: the least over
//   the permitted stages, each stage's length solved for a budget of its own digits.
// - changeset is a label beside specs (the CLI fills specs); changeset without specs is a diagnostic.
// - partsExceeded.part.index is the requested part (1 when planning every part).
// - Diagnostics name the parameter in `scope` ("scope" when both or neither are given); only
//   `undefined` counts as absent, so `null` is a wrong value.
import * as Result from "effect/Result"
import type { Facts } from "../model.js"
import { bundleText, digits, leastBudget, listLength, maxBase, solveUsed } from "./measure.js"
import { validateParams } from "./params.js"
import { planSplit } from "./parts.js"
import type { Composition } from "./stages.js"
import { composition } from "./stages.js"
import type { BundleParams } from "./params.js"
import type { BudgetExceeded, BundleResult, BundleValue, Diagnostics, PartsPlan } from "./types.js"
import { TOKEN_METHOD } from "./types.js"

export interface Composed {
  readonly value: BundleResult
  /** Compact JSON text of value (what the budget measures). */
  readonly text: string
}

const wholeBundle = (c: Composition): Composed => {
  const limit = maxBase(c.request.budget)
  let least = Number.POSITIVE_INFINITY
  for (let stage = 0; stage <= c.maxStage; stage++) {
    const header = c.header(stage)
    const items = c.items(stage)
    const base = bundleText(header, "", "", "", "").length + listLength(items.memberLengths) + items.boundaryText.length
    if (base > limit) {
      // A later cut can make the value longer (addresses longer than the values they replace).
      least = Math.min(least, leastBudget(base - digits(c.request.budget)))
      continue
    }
    const used = solveUsed(base)
    const token = Math.ceil(used / 4)
    const value: BundleValue = {
      scope: header.scope,
      budget: header.budget,
      declarations: header.declarations,
      used,
      tokenEstimate: { value: token, method: TOKEN_METHOD },
      leftOut: header.leftOut,
      pack: header.pack,
      members: items.rows(0, c.request.memberIds.length),
      boundary: items.boundary
    }
    return { value, text: bundleText(header, String(used), String(token), items.memberTexts.join(","), items.boundaryText) }
  }
  const exceeded: BudgetExceeded = {
    scope: c.request.scope,
    budget: c.request.budget,
    declarations: c.request.declarations,
    budgetExceeded: true,
    protectedLength: least,
    leftOut: c.header(c.maxStage).leftOut
  }
  return { value: exceeded, text: JSON.stringify(exceeded) }
}

const composed = (value: BundleResult): Composed => ({ value, text: JSON.stringify(value) })

/** The result and its compact JSON text, built once (the text comes from cached item texts). */
export const composeBundleText = (facts: Facts, params: BundleParams): Composed => {
  const validated = validateParams(facts.graph, params)
  if (Result.isFailure(validated)) return composed(validated.failure)
  const request = validated.success
  const c = composition(facts, request)
  if (request.part === null) return wholeBundle(c)
  const planned = planSplit(c)
  if (Result.isFailure(planned)) return composed(planned.failure)
  const plan = planned.success
  if (request.part > plan.of) {
    return composed({ diagnostics: [{ scope: "part", problem: `The bundle has ${plan.of} parts.` }] })
  }
  return { value: plan.render(request.part), text: plan.renderText(request.part) }
}

/** One value: the bundle, a budget-exceeded result, a part (when part is given), or diagnostics. */
export const composeBundle = (facts: Facts, params: BundleParams): BundleResult => composeBundleText(facts, params).value

/**
 * The compact length the whole bundle would have at each permitted stage (index = stage), or the
 * diagnostics: what the budget is compared against, for tests, benches and explanations. The value
 * holds params.budget (default 100000), so its digits count in every length.
 */
export const stageLengths = (facts: Facts, params: BundleParams): ReadonlyArray<number> | Diagnostics => {
  const request = validateParams(facts.graph, params)
  if (Result.isFailure(request)) return request.failure
  const c = composition(facts, request.success)
  const lengths: number[] = []
  for (let stage = 0; stage <= c.maxStage; stage++) {
    const items = c.items(stage)
    lengths.push(solveUsed(bundleText(c.header(stage), "", "", "", "").length + listLength(items.memberLengths) + items.boundaryText.length))
  }
  return lengths
}

/**
 * Every part, for streaming (`--parts`): diagnostics, the oversized result, or the split with a
 * lazy render. params.part is checked like any parameter but does not change the split.
 */
export const planParts = (facts: Facts, params: BundleParams): PartsPlan =>
  Result.merge(Result.flatMap(validateParams(facts.graph, params), (request) => planSplit(composition(facts, request))))
