// `specbundle list packs|specs`: the ids a scope can name, so a newcomer and an agent can discover
// them. The handler loads from list-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { ListRequest } from "../../../usecases/requests.js"
import { commandFields } from "./common.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

const listFields = commandFields(ListRequest.fields)

export type ListArgs = Args<typeof listFields>

/**
 * The `list` command given its handler: main.ts passes the handler, loaded when the command runs
 * (list-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const listCommand = <E, R>(handler: (args: ListArgs) => Effect.Effect<void, E, R>) =>
  Command.make("list", flagsOf(listFields), handler).pipe(
    Command.withDescription(
      "List the Packs or Specs of the corpus in id order: the ids --pack, --members and --specs take. Exit 0 with the list; 2 for wrong parameters; 1 when the corpus cannot be read."
    )
  )

export const listExamples = ["specbundle list packs", "specbundle list specs --format json"]
