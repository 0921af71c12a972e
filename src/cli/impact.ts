// `specbundle impact`: which Specs a changeset impacts (bundle-contract.md section 5). The handler
// loads from impact-run.ts when the command runs.
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { CommonArgs } from "./common.js"
import { common } from "./common.js"

const options = {
  ...common,
  changeset: Options.text("changeset").pipe(
    Options.withDescription("REV (against the working tree: committed, staged, unstaged, untracked), A..B, or A...B (from the merge base)."),
    Options.optional
  ),
  staged: Options.boolean("staged").pipe(Options.withDescription("The index against HEAD (for a pre-commit hook).")),
  format: Options.choice("format", ["json", "text"]).pipe(
    Options.withDescription("json: compact JSON on one line; text: a report for people."),
    Options.withDefault("json" as const)
  )
} as const

export interface ImpactArgs extends CommonArgs {
  readonly changeset: Option.Option<string>
  readonly staged: boolean
  readonly format: "json" | "text"
}

export const impactCommand = Command.make("impact", options, (args) =>
  Effect.promise(() => import("./impact-run.js")).pipe(Effect.flatMap((run) => run.runImpactCommand(args)))
).pipe(
  Command.withDescription(
    [
      "Report which Specs a changeset impacts: impactedSpecs with reasons, impactedPacks, removedSpecs, removedPacks, lostBindings, atRisk (one hop), coverageUnknown, unlinked code units, and changed files outside the root.",
      "Exit 0 with the report; 2 for wrong parameters; 1 when git fails (not a repository, unknown revision, shallow clone); with --strict, 1 after the report when a carrier was refused.",
      "",
      "Examples:",
      "  specbundle impact --changeset HEAD~1 --format text",
      "  specbundle impact --staged --strict      # a pre-commit check"
    ].join("\n")
  )
)
