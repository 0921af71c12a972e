// The `perspective` handler, loaded when the command runs. It goes through the bundle's own input
// loading, so the list it prints is exactly the `members` the bundle with --perspective composes.
import * as Effect from "effect/Effect"
import { hasRefusal } from "../../core/graph.js"
import { perspectiveNames } from "../../core/perspective.js"
import { Bundler } from "../../usecases/Bundler.js"
import { BundleRequest, requestOf } from "../../usecases/requests.js"
import { failWithDiagnostics, renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { located } from "./invocation.js"
import { ServicesLive } from "./live.js"
import { writeOut } from "./output.js"
import type { PerspectiveArgs } from "./perspective.js"
import { loadConfig } from "../../usecases/settings.js"

export const runPerspective = (args: PerspectiveArgs) =>
  Effect.gen(function* () {
    if (args.name === undefined) {
      const loaded = yield* loadConfig(yield* located(args))
      const known = perspectiveNames(loaded.config?.perspectives)
      return yield* failWithDiagnostics([{ scope: "perspective", problem: `Give a perspective name; known: ${known.join(", ")}.` }])
    }
    const bundler = yield* Bundler
    const input = yield* renderProblems(bundler.prepare(yield* located({ ...requestOf(BundleRequest, args), perspective: args.name })))
    const { pack, members, perspective, changeset } = input.params
    const text =
      args.format === "json"
        ? `${JSON.stringify({ pack, members, perspective, ...(changeset === undefined ? {} : { changeset }) })}\n`
        : (members as ReadonlyArray<string>).map((id) => `${id}\n`).join("")
    yield* writeOut(text)
    if (args.strict && hasRefusal(input.graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("perspective"), Effect.provide(ServicesLive))
