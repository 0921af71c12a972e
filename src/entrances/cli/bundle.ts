// `specbundle bundle`: read the graph (working tree, or the side a changeset names), compose, write.
// Parameter values are read as text and checked by the composer's rules, so every bad value is
// the seed's { diagnostics } value and exit 2. This file holds the command's definition, all that
// `--help` needs; the handler (bundle-run.ts) and the services it uses load when the command runs.
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import { ENCODINGS, type Encoding } from "../../core/encodings.js"
import type { CommonArgs } from "./common.js"
import { changesetOptions, choiceOption, common, flag, valueOption } from "./common.js"

export const scopeOptions = {
  pack: valueOption("pack", "ID", "Bundle the members of this Pack, in the Pack's order (specbundle list packs names them)."),
  members: valueOption("members", "ID,...", "With --pack: bundle only these members, in this order, comma-separated."),
  perspective: valueOption(
    "perspective",
    "NAME",
    "With --pack: bundle the members a perspective selects (blocked, changed, not-ready, unimplemented, unverified, or one the configuration names)."
  ),
  specs: valueOption("specs", "ID,...", "Bundle these Specs, in this order, comma-separated (specbundle list specs names them)."),
  ...changesetOptions
} as const

export const bundleOptions = {
  ...common,
  ...scopeOptions,
  budget: valueOption("budget", "N|TIER", "Hard limit in UTF-16 code units of the compact JSON, or a tier: S 16000, M 64000, L 200000 (default 100000)."),
  profile: valueOption("profile", "NAME", "Take budget, declarations and excludes from this profile of the configuration file."),
  declarations: valueOption("declarations", "whole|addresses", "addresses lets the last cut replace pinned declarations by their addresses (default whole)."),
  part: valueOption("part", "K", "Print only part K (1-based) of the split bundle."),
  parts: flag("parts", "Print every part, one compact JSON value per line, part 1 first."),
  format: choiceOption(
    "format",
    ["json", "pretty", "ndjson"],
    "json",
    "json: compact on one line (what the budget measures); pretty: indented; ndjson: one value per line."
  ),
  out: valueOption("out", "DIR", "Write part-NNN.json files and manifest.json into DIR (atomically) instead of stdout.")
} as const

export interface BundleArgs extends CommonArgs {
  readonly pack: Option.Option<string>
  readonly members: Option.Option<string>
  readonly perspective: Option.Option<string>
  readonly specs: Option.Option<string>
  readonly changeset: Option.Option<string>
  readonly staged: boolean
  readonly budget: Option.Option<string>
  readonly profile: Option.Option<string>
  readonly declarations: Option.Option<string>
  readonly part: Option.Option<string>
  readonly parts: boolean
  readonly format: "json" | "pretty" | "ndjson"
  readonly out: Option.Option<string>
  /** `bundle` only (watch shares these arguments): how findings are written on stderr. */
  readonly findings?: "text" | "github"
  /** `bundle` only: exit 3 after the value when it is budgetExceeded. */
  readonly failOnExceeded?: boolean
  /** `bundle` only: count each part's tokens in this encoding (src/core/tokens.ts). */
  readonly tokens?: Option.Option<Encoding>
  /** `bundle` only: a token target, translated to a code-unit budget by composing and counting. */
  readonly budgetTokens?: Option.Option<string>
}

/** Options of `bundle` alone: a CI job's gate and annotations. */
const ciOptions = {
  findings: choiceOption(
    "findings",
    ["text", "github"],
    "text",
    "Write corpus findings on stderr as text lines, or as GitHub workflow commands (annotations)."
  ),
  failOnExceeded: flag("fail-on-exceeded", "Exit 3 after printing the value when the bundle did not fit (budgetExceeded), for a CI gate."),
  tokens: Flag.Literals("tokens", ENCODINGS).pipe(
    Flag.withDescription(
      "Count each part's exact tokens in this encoding: on stderr, and in manifest.json with --out. The value and its budget stay in code units."
    ),
    Flag.optional
  ),
  budgetTokens: valueOption(
    "budget-tokens",
    "N",
    "With --tokens, instead of --budget: the largest code-unit budget at which every part counts at most N tokens (found by counting; stderr says which)."
  )
} as const

export const bundleCommand = Command.make("bundle", { ...bundleOptions, ...ciOptions }, (args) =>
  Effect.promise(() => import("./bundle-run.js")).pipe(Effect.flatMap((run) => run.runBundle(args)))
).pipe(
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
  "specbundle bundle --pack pack:rides-v1 --parts --tokens o200k_base"
]
