// `specbundle list packs|specs`: the ids a scope can name, so a newcomer and an agent can discover
// them. The handler loads from list-run.ts when the command runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import type { CommonArgs } from "./common.js"
import { choiceOption, common } from "./common.js"

export interface ListArgs extends CommonArgs {
  readonly what: "packs" | "specs"
  readonly format: "json" | "text"
}

const options = {
  what: Argument.Literals("WHAT", ["packs", "specs"]).pipe(
    Argument.withDescription("packs: every Pack with its title and member count; specs: every Spec with its kind and title.")
  ),
  ...common,
  format: choiceOption("format", ["json", "text"], "text", "text: one id a line with what it is; json: one compact JSON value.")
} as const

export const listCommand = Command.make("list", options, (args) =>
  Effect.promise(() => import("./list-run.js")).pipe(Effect.flatMap((run) => run.runList(args)))
).pipe(
  Command.withDescription(
    "List the Packs or Specs of the corpus in id order: the ids --pack, --members and --specs take. Exit 0 with the list; 2 for wrong parameters; 1 when the corpus cannot be read."
  )
)

export const listExamples = ["specbundle list packs", "specbundle list specs --format json"]
