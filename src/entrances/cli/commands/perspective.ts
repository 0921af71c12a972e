// `specbundle perspective --pack ID NAME`: the ordered member ids a perspective selects, the very
// list `bundle --pack ID --perspective NAME` composes (src/core/graph/perspective.ts). The handler loads
// from perspective-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { MembersRequest } from "../../../usecases/requests.js"
import { commandFields } from "./common.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

const perspectiveFields = commandFields(MembersRequest.fields)

export type PerspectiveArgs = Args<typeof perspectiveFields>

/**
 * The `perspective` command given its handler: main.ts passes the handler, loaded when the command runs
 * (perspective-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const perspectiveCommand = <E, R>(handler: (args: PerspectiveArgs) => Effect.Effect<void, E, R>) =>
  Command.make("perspective", flagsOf(perspectiveFields), handler).pipe(
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
