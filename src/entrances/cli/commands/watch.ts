// `specbundle watch`: compose once into --out DIR, then recompose whenever files under the root
// settle. Events within the quiet window coalesce into one rebuild; a running rebuild finishes and
// is followed by at most one more (a sliding queue of one). Each rebuild writes through
// composeAndWrite, so the part files and the manifest are replaced atomically.
// The handler loads from watch-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { text } from "../../../usecases/fields.js"
import { bundleFields } from "./bundle.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

export const DEFAULT_QUIET_MS = 300

const watchFields = {
  ...bundleFields,
  quietMs: text({ description: `Wait N milliseconds without file events before a rebuild starts (default ${DEFAULT_QUIET_MS}).`, value: "N" })
}

export type WatchArgs = Args<typeof watchFields>

/**
 * The `watch` command given its handler: main.ts passes the handler, loaded when the command runs
 * (watch-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const watchCommand = <E, R>(handler: (args: WatchArgs) => Effect.Effect<void, E, R>) =>
  Command.make("watch", flagsOf(watchFields), handler).pipe(
    Command.withDescription(
      [
        `Compose the bundle into --out DIR, then recompose whenever files under the root change and stay quiet for --quiet-ms (default ${DEFAULT_QUIET_MS}). Events within the quiet window make one rebuild; a running rebuild finishes first and is followed by one more. Files are replaced atomically; a save is heard however it is written (in place, or a file renamed over it by git or an editor); events inside DIR and in skipped folders (.git, node_modules, ...) are ignored. With --changeset or --staged, a commit, reset, rebase or checkout (and, with --staged, the index) rebuilds too.`,
        "Prints one line on stderr per build: watch: rebuilt <n> parts into DIR (<k> changed paths: <the first ten>; <what moved in git> moved). A failing rebuild prints its reason and keeps watching. Ctrl-C ends it with exit 0."
      ].join("\n")
    )
  )

export const watchExamples = ["specbundle watch --pack pack:rides-v1 --parts --budget M --out .specbundle/out"]
