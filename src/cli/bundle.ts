// `specbundle bundle`: read the graph (working tree, or the side a changeset names), compose, write.
// Parameter values are read as text and checked by the composer's rules, so every bad value is
// the seed's { diagnostics } value and exit 2. This file holds the command's definition, all that
// `--help` needs; the handler (bundle-run.ts) and the services it uses load when the command runs.
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { CommonArgs } from "./common.js"
import { common } from "./common.js"

const text = (name: string, description: string) => Options.text(name).pipe(Options.withDescription(description), Options.optional)

export const scopeOptions = {
  pack: text("pack", "Scope: a Pack id; members come in manifest order."),
  members: text("members", "With --pack: an ordered subset of its members, comma-separated."),
  specs: text("specs", "Scope: an ordered, comma-separated list of Spec ids."),
  changeset: text("changeset", "Scope: the Specs a changeset impacts: REV (against the working tree), A..B or A...B."),
  staged: Options.boolean("staged").pipe(Options.withDescription("Scope: the Specs the staged changes impact (index against HEAD)."))
} as const

export const bundleOptions = {
  ...common,
  ...scopeOptions,
  budget: text("budget", "Hard limit in UTF-16 code units of the compact JSON, or a tier name (S 16000, M 64000, L 200000). Default 100000."),
  profile: text("profile", "A named set of bundle parameters from the configuration file."),
  declarations: text("declarations", "whole (default) or addresses: lets the last cut replace pinned declarations by their addresses."),
  part: text("part", "Return only this 1-based part of the split bundle."),
  parts: Options.boolean("parts").pipe(Options.withDescription("Stream every part, one compact JSON value per line, part 1 first.")),
  format: Options.choice("format", ["json", "pretty", "ndjson"]).pipe(
    Options.withDescription("json: compact, one line (what the budget measures); pretty: indented; ndjson: one compact value per line."),
    Options.withDefault("json" as const)
  ),
  out: text("out", "Write part-NNN.json files and manifest.json into this folder (atomically) instead of stdout.")
} as const

export interface BundleArgs extends CommonArgs {
  readonly pack: Option.Option<string>
  readonly members: Option.Option<string>
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
}

export const bundleCommand = Command.make("bundle", bundleOptions, (args) =>
  Effect.promise(() => import("./bundle-run.js")).pipe(Effect.flatMap((run) => run.runBundle(args)))
).pipe(
  Command.withDescription(
    [
      "Compose the context bundle for one scope within a hard budget and print it on stdout (compact JSON, the text the budget measures). Corpus findings go to stderr.",
      "Exit 0 when a value was produced (budgetExceeded and oversized results are values), 2 for wrong parameters ({ diagnostics } on stdout), 1 for any other failure.",
      "",
      "Examples:",
      "  specbundle bundle --pack pack:checkout-v1 --budget M",
      "  specbundle bundle --changeset HEAD~1 --parts --budget 20000 | agent-prompt",
      "  specbundle bundle --changeset origin/main...HEAD --parts --out .specbundle/out"
    ].join("\n")
  )
)
