// `specbundle stale DIR`: is a saved bundle still what the corpus would give? Re-reads the corpus
// with the recorded root and excludes and compares every file's hash. Works from any folder. The
// handler loads from stale-run.ts when the command runs.
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"

export const staleCommand = Command.make("stale", { dir: Args.text({ name: "DIR" }) }, ({ dir }) =>
  Effect.promise(() => import("./stale-run.js")).pipe(Effect.flatMap((run) => run.runStale(dir)))
).pipe(
  Command.withDescription(
    "Tell whether a bundle written with --out is stale. Exit 0 when every file the bundle was built from is unchanged; otherwise print each added, removed or changed path (root-relative, one a line) and exit 1.\n\nExample: specbundle stale .specbundle/out"
  )
)
