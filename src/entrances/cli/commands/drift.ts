// `specbundle drift`: which Specs drifted from the code and Specs they are bound to since they were
// last changed or reviewed (issue 51), or which a range makes drift (--changeset A...B); --accept
// records a review. The handler loads from drift-run.ts when the command runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { toggle } from "../../../usecases/fields.js"
import { DriftRequest } from "../../../usecases/Drift.js"
import { commandFields } from "./common.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

const { specs: _specs, ...requestFields } = DriftRequest.fields

const driftFields = {
  ...commandFields(requestFields),
  failOnDrift: toggle({
    description: "Exit 3 after printing the report when it lists a drifted Spec, for a CI gate (with --changeset: drift the range introduces)."
  })
}

export type DriftArgs = Args<typeof driftFields> & { readonly ids: ReadonlyArray<string> }

const ids = Argument.String("ID").pipe(Argument.withDescription("With --accept: the Specs to record as reviewed at HEAD."), Argument.variadic())

/** The `drift` command given its handler (main.ts passes it, loaded when the command runs: handlers/drift-run.ts). */
export const driftCommand = <E, R>(handler: (args: DriftArgs) => Effect.Effect<void, E, R>) =>
  Command.make("drift", { ...flagsOf(driftFields), ids }, handler).pipe(
    Command.withDescription(
      [
        "Report the Specs that drifted: an anchored code file or verifier changed, or a Spec they stand on changed in substance, in a commit after the Spec was last changed or reviewed (specbundle.reviews at the root; --accept records a review at HEAD).",
        "Exit 0 with the report; 2 for wrong parameters; 1 when git fails; with --fail-on-drift, 3 after the report when it lists a Spec."
      ].join("\n")
    )
  )

export const driftExamples = [
  "specbundle drift --format text",
  "specbundle drift --changeset HEAD~1...HEAD --format markdown",
  "specbundle drift --accept spec:decisions.per-minute-fares"
]
