// `specbundle check`: reads the corpus and prints every finding; exit 1 when a carrier was refused.
// The handler loads from check-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { CheckRequest } from "../../../usecases/requests.js"
import { commandFields } from "./common.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

const checkFields = commandFields(CheckRequest.fields)

export type CheckArgs = Args<typeof checkFields>

/**
 * The `check` command given its handler: main.ts passes the handler, loaded when the command runs
 * (check-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const checkCommand = <E, R>(handler: (args: CheckArgs) => Effect.Effect<void, E, R>) =>
  Command.make("check", flagsOf(checkFields), handler).pipe(
    Command.withDescription(
      "Read the corpus and print every finding: as file:line: code: message on stderr, then a count line (--format text), or on stdout as a JSON list, GitHub workflow commands, SARIF 2.1.0 or a GitLab Code Quality report. Exit 1 when a carrier was refused, 0 otherwise."
    )
  )

export const checkExamples = ["specbundle check", "specbundle check --exclude specs/decisions/ --quiet", "specbundle check --format sarif"]
