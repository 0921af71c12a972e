// The `perspective` handler, loaded when the command runs. It goes through the bundle's own input
// loading, so the list it prints is exactly the `members` the bundle with --perspective composes.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { hasRefusal } from "../../core/graph.js"
import { perspectiveNames } from "../../core/perspective.js"
import type { BundleArgs } from "./bundle.js"
import { Bundler } from "../../usecases/Bundler.js"
import { requestOf } from "./bundle-run.js"
import { failWithDiagnostics, renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { located } from "./invocation.js"
import { ServicesLive } from "./live.js"
import { writeOut } from "./output.js"
import type { PerspectiveArgs } from "./perspective.js"
import { loadConfig } from "../../usecases/settings.js"

export const runPerspective = (args: PerspectiveArgs) =>
  Effect.gen(function* () {
    if (Option.isNone(args.name)) {
      const loaded = yield* loadConfig(yield* located({ root: args.root, config: Option.getOrUndefined(args.config) }))
      const known = perspectiveNames(loaded.config?.perspectives)
      return yield* failWithDiagnostics([{ scope: "perspective", problem: `Give a perspective name; known: ${known.join(", ")}.` }])
    }
    const none = Option.none<string>()
    const bundleArgs: BundleArgs = {
      ...args,
      members: none,
      perspective: args.name,
      specs: none,
      budget: none,
      profile: none,
      declarations: none,
      part: none,
      parts: false,
      format: "json",
      out: none
    }
    const bundler = yield* Bundler
    const input = yield* renderProblems(bundler.prepare(yield* located(requestOf(bundleArgs))))
    const { pack, members, perspective, changeset } = input.params
    const text =
      args.format === "json"
        ? `${JSON.stringify({ pack, members, perspective, ...(changeset === undefined ? {} : { changeset }) })}\n`
        : (members as ReadonlyArray<string>).map((id) => `${id}\n`).join("")
    yield* writeOut(text)
    if (args.strict && hasRefusal(input.graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("perspective"), Effect.provide(ServicesLive))
