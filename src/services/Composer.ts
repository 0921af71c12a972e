// Composition as a service: the pure composer (src/core/bundle) lifted into a Stream of parts, so
// the CLI writes part 1 while part 2 is still to be built.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { composeBundleText, isDiagnostics, planParts } from "../core/bundle/index.js"
import type { BundleParams, BundleResult, Diagnostics, PartsExceeded } from "../core/bundle/index.js"
import { factsOf } from "../core/graph/facts.js"
import type { Graph } from "../core/model.js"

/** One composed value and its compact JSON text (the exact text the budget measured). */
export interface ComposedValue {
  readonly value: BundleResult
  readonly text: string
}

export interface ComposedPart {
  readonly index: number
  readonly of: number
  /** `used` of the part. */
  readonly used: number
  readonly text: string
}

export type PartsOutcome =
  | { readonly _tag: "Diagnostics"; readonly value: Diagnostics }
  | { readonly _tag: "Oversized"; readonly value: PartsExceeded; readonly text: string }
  | { readonly _tag: "Parts"; readonly of: number; readonly parts: Stream.Stream<ComposedPart> }

const live = {
  /** One value: the bundle, a part (with params.part), budgetExceeded, or diagnostics. */
  compose: (graph: Graph, params: BundleParams): Effect.Effect<ComposedValue> => Effect.sync(() => composeBundleText(factsOf(graph), params)),

  /** Every part in order; each is rendered only when the stream pulls it. */
  parts: (graph: Graph, params: BundleParams): Effect.Effect<PartsOutcome> =>
    Effect.sync((): PartsOutcome => {
      const plan = planParts(factsOf(graph), params)
      if (isDiagnostics(plan)) return { _tag: "Diagnostics", value: plan }
      if (!("render" in plan)) return { _tag: "Oversized", value: plan, text: JSON.stringify(plan) }
      const parts = Stream.range(1, plan.of).pipe(
        Stream.map((index): ComposedPart => {
          const text = plan.renderText(index)
          // `used` is by definition the length of the compact text.
          return { index, of: plan.of, used: text.length, text }
        })
      )
      return { _tag: "Parts", of: plan.of, parts }
    })
} as const

export class Composer extends Context.Service<Composer, typeof live>()("specbundle/Composer") {
  static readonly Default: Layer.Layer<Composer> = Layer.succeed(this, live)
}
