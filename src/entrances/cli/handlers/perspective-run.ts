// The `perspective` handler, loaded when the command runs. The Bundler's `members` goes through the
// bundle's own preparation, so the list it prints is exactly the `members` the bundle with
// --perspective composes.
import * as Effect from "effect/Effect"
import { hasRefusal } from "../../../core/graph/graph.js"
import { Bundler } from "../../../usecases/Bundler.js"
import { MembersRequest, requestOf } from "../../../usecases/requests.js"
import { ExitWith } from "../errors.js"
import { located } from "../invocation.js"
import { writeOut } from "../output/output.js"
import type { PerspectiveArgs } from "../commands/perspective.js"

export const runPerspective = (args: PerspectiveArgs) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const { graph, selection } = yield* bundler.members(yield* located(requestOf(MembersRequest, args)))
    const text = args.format === "json" ? `${JSON.stringify(selection)}\n` : selection.members.map((id) => `${id}\n`).join("")
    yield* writeOut(text)
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("perspective"))
