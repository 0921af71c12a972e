// `specbundle impact`: which Specs a changeset impacts (bundle-contract.md section 5). The handler
// loads from impact-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { flagsOf } from "../flags.js"
import { type ImpactArgs, impactFields } from "./fields.js"

export type { ImpactArgs }

/**
 * The `impact` command given its handler: main.ts passes the handler, loaded when the command runs
 * (impact-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const impactCommand = <E, R>(handler: (args: ImpactArgs) => Effect.Effect<void, E, R>) =>
  Command.make("impact", flagsOf(impactFields), handler).pipe(
    Command.withDescription(
      [
        "Report which Specs a change impacts: impactedSpecs with reasons, impactedPacks, removedSpecs, removedPacks, lostBindings, atRisk (one hop), coverageUnknown, unlinked code units, and changed files outside the root.",
        "Exit 0 with the report; 2 for wrong parameters; 1 when git fails (not a repository, unknown revision, shallow clone); with --strict, 1 after the report when a carrier was refused."
      ].join("\n")
    )
  )

export const impactExamples = [
  "specbundle impact --changeset HEAD~1 --format text",
  "specbundle impact --staged --strict",
  "specbundle impact --changeset HEAD~1 --format markdown --findings github"
]
