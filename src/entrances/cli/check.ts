// `specbundle check`: reads the corpus and prints every finding; exit 1 when a carrier was refused.
// The handler loads from check-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import type { CommonArgs } from "./common.js"
import { choiceOption, common } from "./common.js"

const options = {
  ...common,
  format: choiceOption(
    "format",
    ["text", "json", "github", "sarif", "gitlab"],
    "text",
    "text: file:line: code: message lines on stderr; json, github (workflow commands), sarif (SARIF 2.1.0) or gitlab (a GitLab Code Quality report): every finding on stdout."
  )
} as const

export interface CheckArgs extends CommonArgs {
  readonly format: "text" | "json" | "github" | "sarif" | "gitlab"
}

export const checkCommand = Command.make("check", options, (args) =>
  Effect.promise(() => import("./check-run.js")).pipe(Effect.flatMap((run) => run.runCheck(args)))
).pipe(
  Command.withDescription(
    "Read the corpus and print every finding: as file:line: code: message on stderr, then a count line (--format text), or on stdout as a JSON list, GitHub workflow commands, SARIF 2.1.0 or a GitLab Code Quality report. Exit 1 when a carrier was refused, 0 otherwise."
  )
)

export const checkExamples = ["specbundle check", "specbundle check --exclude specs/decisions/ --quiet", "specbundle check --format sarif"]
