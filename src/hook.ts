// The pre-commit hook's own entrance (issue 50): `impact --staged [--strict] [--quiet] [--root DIR]`,
// the bike-dock hook's command line, and `hook run pre-commit [--root DIR]`, what an installed
// pre-commit hook runs, without effect/cli. The loader (src/loader.cjs) compiles
// this bundle (bin/specbundle-hook.cjs, with a code cache of its own) instead of the CLI's when the
// words have that shape; `answerHook` reads them (entrances/cli/hook-argv.ts) and runs the `impact`
// handler through the same run (entrances/cli/run.ts: settings, runtime, `{ diagnostics }`), the
// same process wiring (process.ts: signals, exit) and the same end (entrances/cli/end.ts), so the
// bytes, the stderr and the exit code are the CLI's (test/cli/hook-path.test.ts). Any other words:
// false, nothing done, and the loader runs the CLI's bundle.
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import { type RunError, endOfRun } from "./entrances/cli/end.js"
import { runImpactCommand } from "./entrances/cli/handlers/impact-run.js"
import { hookArgs, preCommitRoot } from "./entrances/cli/hook-argv.js"
import { runPreCommit } from "./entrances/cli/hooks/pre-commit.js"
import { runProgram } from "./entrances/cli/run.js"
import { runProcess } from "./process.js"
import { Changes } from "./usecases/Changes.js"

/** Runs the hook's command line and returns true; false (nothing done) for any other words. */
export const answerHook = (argv: ReadonlyArray<string>): boolean => {
  const args = hookArgs(argv)
  const root = args === undefined ? preCommitRoot(argv) : undefined
  if (args === undefined && root === undefined) return false
  // No parser runs here, so no failure of effect/cli's can end the run: ours alone (end.ts).
  runProcess(
    (runtime) =>
      runProgram(argv, runtime, () =>
        // The use case the two answers ask for (the CLI's program provides every use case: usecases/layer.ts).
        (args !== undefined ? runImpactCommand(args) : runPreCommit(root ?? ".")).pipe(Effect.provide(Changes.Default))
      ),
    (exit) => endOfRun(exit as Exit.Exit<void, RunError>)
  )
  return true
}
