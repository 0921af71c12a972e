// `specbundle check`: reads the corpus and prints every finding; exit 1 when a carrier was refused.
// The handler loads from check-run.ts when the command runs.
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import { common } from "./common.js"

export const checkCommand = Command.make("check", common, (args) =>
  Effect.promise(() => import("./check-run.js")).pipe(Effect.flatMap((run) => run.runCheck(args)))
).pipe(
  Command.withDescription(
    "Read the corpus and print every finding as file:line: code: message on stderr, then a count line. Exit 1 when a carrier was refused, 0 otherwise."
  )
)

export const checkExamples = ["specbundle check", "specbundle check --exclude specs/decisions/ --quiet"]
