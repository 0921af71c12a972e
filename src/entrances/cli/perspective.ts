// `specbundle perspective --pack ID NAME`: the ordered member ids a perspective selects, the very
// list `bundle --pack ID --perspective NAME` composes (src/core/perspective.ts). The handler loads
// from perspective-run.ts when the command runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { CommonArgs } from "./common.js"
import { changesetOptions, choiceOption, common, valueOption } from "./common.js"

const options = {
  ...common,
  pack: valueOption("pack", "ID", "The Pack whose members the perspective filters (specbundle list packs names them)."),
  ...changesetOptions,
  format: choiceOption(
    "format",
    ["lines", "json"],
    "lines",
    "lines: one member id per line; json: { pack, members, perspective } (and changeset) on one line."
  ),
  name: Argument.String("NAME").pipe(Argument.withDescription("The perspective: a built-in or one the configuration names."), Argument.optional)
} as const

export interface PerspectiveArgs extends CommonArgs {
  readonly pack: Option.Option<string>
  readonly changeset: Option.Option<string>
  readonly staged: boolean
  readonly format: "lines" | "json"
  readonly name: Option.Option<string>
}

export const perspectiveCommand = Command.make("perspective", options, (args) =>
  Effect.promise(() => import("./perspective-run.js")).pipe(Effect.flatMap((run) => run.runPerspective(args)))
).pipe(
  Command.withDescription(
    [
      "Print the ids of a Pack's members that a perspective selects, in its order: the members `bundle --pack ID --perspective NAME` composes.",
      "Built-in: blocked, changed (needs --changeset or --staged), not-ready, unimplemented, unverified; more in the configuration's perspectives.",
      "Exit 0 with the list (possibly empty); 2 for wrong parameters ({ diagnostics } on stdout, an unknown name lists the known ones); 1 for any other failure."
    ].join("\n")
  )
)

export const perspectiveExamples = [
  "specbundle perspective --pack pack:docks-v1 blocked",
  "specbundle perspective --pack pack:rides-v1 changed --changeset HEAD~1 --format json"
]
