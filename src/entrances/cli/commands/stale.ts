// `specbundle stale DIR`: is a saved bundle still what the corpus would give? Re-reads the corpus
// with the recorded root (or --root) and excludes and compares every file's hash; a changeset
// bundle's changeset is resolved again and compared with builtFrom. Works from any
// folder; exit codes follow diff(1). The handler loads from stale-run.ts when the command runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import { valueOption } from "./common.js"

export interface StaleArgs {
  readonly dir: string
  readonly root: Option.Option<string>
}

const options = {
  dir: Argument.String("DIR").pipe(Argument.withDescription("The folder a bundle was written to with --out (it holds manifest.json).")),
  root: valueOption("root", "DIR", "Compare with the corpus in this folder instead of the root the manifest records (a manifest made elsewhere, in CI).")
}

/**
 * The `stale` command given its handler: main.ts passes the handler, loaded when the command runs
 * (stale-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const staleCommand = <E, R>(handler: (args: StaleArgs) => Effect.Effect<void, E, R>) =>
  Command.make("stale", options, handler).pipe(
    Command.withDescription(
      "Tell whether a bundle written with --out is stale. Exit 0 when every file it was built from is unchanged (and a changeset bundle's changeset still names the commits it was built from, with the work tree as clean or dirty as it was); 1 when it is stale, printing one line when the changeset moved, then each added, removed or changed path (root-relative, one a line); 2 when it cannot tell (no readable manifest, the root is gone), with one line on stderr."
    )
  )

export const staleExamples = ["specbundle stale .specbundle/out", "specbundle stale .specbundle/out --root ."]
