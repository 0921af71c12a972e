// `specbundle example DIR`: writes the example corpus (examples/bike-dock) into DIR as a git
// repository with two commits, so a user who installed the package has something to run the
// --help examples on. The handler loads from example-run.ts when the command runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { flag } from "./common.js"

export interface ExampleArgs {
  readonly dir: string
  readonly quiet: boolean
}

const options = {
  dir: Argument.String("DIR").pipe(Argument.withDescription("A new or empty folder to write the example repository into.")),
  quiet: flag("quiet", "Print only the folder (on stdout), not what to try next (on stderr).")
}

/**
 * The `example` command given its handler: main.ts passes the handler, loaded when the command runs
 * (example-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const exampleCommand = <E, R>(handler: (args: ExampleArgs) => Effect.Effect<void, E, R>) =>
  Command.make("example", options, handler).pipe(
    Command.withDescription(
      "Write the example corpus (a bike-dock system: Specs, Packs, anchored code, tests) into DIR as a git repository with two commits, to try the --help examples on. The second commit changes one Spec and its code; every --help example runs as written there. Prints the folder on stdout. Exit 0 when written; 2 when DIR is a file or a folder that is not empty; 1 when git fails."
    )
  )

export const exampleExamples = ["specbundle example bike-dock-example"]
