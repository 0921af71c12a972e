// `specbundle bundle`: read the graph (working tree, or the side a changeset names), compose, write.
// Parameter values are read as text and checked by the composer's rules, so every bad value is
// the seed's { diagnostics } value and exit 2. This file holds the command's definition, all that
// `--help` needs; the handler (bundle-run.ts) and the services it uses load when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { text, toggle, choice } from "../../../usecases/fields.js"
import { BundleRequest, tokenFields } from "../../../usecases/requests.js"
import { commandFields, findingsField } from "./common.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

export const BUNDLE_FORMATS = ["json", "pretty", "ndjson"] as const

/** The request's fields and how the value is written: what `bundle` and `watch` share. */
export const bundleFields = {
  ...commandFields(BundleRequest.fields),
  format: choice(BUNDLE_FORMATS, {
    description: "json: compact on one line (what the budget measures); pretty: indented; ndjson: one value per line.",
    default: "json"
  }),
  out: text({ description: "Write part-NNN.json files and manifest.json into DIR (atomically) instead of stdout.", value: "DIR" })
}

/** `bundle`'s own: one output file, a CI job's gate and annotations, and token counts. */
const bundleOnlyFields = {
  output: text({
    description: "Write into FILE (atomically) what stdout would carry: the value, or with --parts every part, one per line.",
    value: "FILE",
    alias: "o"
  }),
  ...findingsField,
  failOnExceeded: toggle({ description: "Exit 3 after printing the value when the bundle did not fit (budgetExceeded), for a CI gate." }),
  ...tokenFields
}

/** `bundle`'s arguments; watch's lack the fields of `bundle` alone. */
export type BundleArgs = Args<typeof bundleFields> & Partial<Args<typeof bundleOnlyFields>>

/**
 * The `bundle` command given its handler: main.ts passes the handler, loaded when the command runs
 * (bundle-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const bundleCommand = <E, R>(handler: (args: BundleArgs) => Effect.Effect<void, E, R>) =>
  Command.make("bundle", flagsOf({ ...bundleFields, ...bundleOnlyFields }), handler).pipe(
    Command.withDescription(
      [
        "Compose the context bundle for one scope (--pack, --specs, or a change) within a hard budget and print it on stdout as compact JSON, the text the budget measures. Corpus findings go to stderr: the first few, then a tally.",
        "Exit 0 when a value was produced (budgetExceeded and oversized results are values: a stderr line says what would fit), 2 for wrong parameters ({ diagnostics } on stdout), 1 for any other failure; with --fail-on-exceeded, 3 after a budgetExceeded value."
      ].join("\n")
    )
  )

export const bundleExamples = [
  "specbundle bundle --pack pack:rides-v1 --budget M",
  "specbundle bundle --specs spec:rides.ride-fare-rule --format pretty",
  "specbundle bundle --changeset HEAD~1 --parts --budget 20000",
  "specbundle bundle --pack pack:docks-v1 --budget S --out .specbundle/out",
  "specbundle bundle --pack pack:rides-v1 --parts --budget M -o rides.ndjson",
  "specbundle bundle --pack pack:rides-v1 --parts --tokens o200k_base"
]
