// `specbundle list packs|specs`: the ids a scope can name, so a newcomer and an agent can discover
// them. The handler loads from list-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { ListRequest } from "../../usecases/requests.js"
import { commandFields } from "./common.js"
import type { Args } from "./flags.js"
import { flagsOf } from "./flags.js"

const listFields = commandFields(ListRequest.fields)

export type ListArgs = Args<typeof listFields>

export const listCommand = Command.make("list", flagsOf(listFields), (args) =>
  Effect.promise(() => import("./list-run.js")).pipe(Effect.flatMap((run) => run.runList(args)))
).pipe(
  Command.withDescription(
    "List the Packs or Specs of the corpus in id order: the ids --pack, --members and --specs take. Exit 0 with the list; 2 for wrong parameters; 1 when the corpus cannot be read."
  )
)

export const listExamples = ["specbundle list packs", "specbundle list specs --format json"]
