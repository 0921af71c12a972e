// How a run ends without effect/cli's failures (exit.ts adds those): every failure of ours becomes
// one stderr line (none when it was already said) and an exit code. The hook's own entrance
// (src/hook.ts), which never loads the parser, ends its runs here, as the CLI does through exit.ts.
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import type { UseCaseError } from "../../usecases/requests.js"
import type { CliFailure } from "./errors.js"

/** Every failure a run can end with besides effect/cli's: the use cases' and the CLI's own. */
export type RunError = UseCaseError | CliFailure

/** What ends a run: its exit code, and the stderr line (without `specbundle: `) unless it was said. */
export interface End {
  readonly code: number
  readonly line: string | null
}

const absurd = (never: never): End => never

/**
 * How each of our failures ends, by tag. The switch lists every tag of ProgramError (effect/cli's
 * aside), so a new failure is a compile error until it says how the run ends here, and a case
 * whose failure no longer exists is one too. The code is the one the error carries
 * (`Runtime.errorExitCode`: ParameterProblems 2, ExitWith its own, StdoutClosed 0, else 1).
 */
const endOf = (error: RunError): End => {
  switch (error._tag) {
    // Wrong parameters: the `{ diagnostics }` value is on stdout; the line says them too.
    case "ParameterProblems":
    case "ArgumentsRefused":
      return { code: Runtime.getErrorExitCode(error), line: error.message }
    // A value was written (or stdout went away): the end says nothing more.
    case "ExitWith":
    case "StdoutClosed":
      return { code: Runtime.getErrorExitCode(error), line: null }
    // The use cases' failures and the CLI's own: their message, exit 1.
    case "ConfigError":
    case "ReadError":
    case "NotARepositoryError":
    case "UnknownRevisionError":
    case "ShallowCloneError":
    case "GitMissingError":
    case "GitFailedError":
    case "UnmergedPathError":
    case "GitRefusedError":
    case "TokenizerUnavailable":
    case "DriftFailure":
    case "FileFailure":
    case "OutputFolderFailure":
    case "CommandFailure":
    case "HookFailure":
      return { code: Runtime.getErrorExitCode(error), line: error.message }
    default:
      return absurd(error)
  }
}

/** An interruption's code: the largest a reason carries (`Runtime.InterruptExitCode`: a signal's, process.ts; watch's Ctrl-C carries 0), else 0. */
const interruptedCode = (cause: Cause.Cause<unknown>): number =>
  cause.reasons.reduce((code, reason) => Math.max(code, Context.getOrUndefined(Cause.reasonAnnotations(reason), Runtime.InterruptExitCode) ?? 0), 0)

/** An end with no failure of ours in it: an interruption (with the code it carries) or a defect, one line. */
export const endOfCause = (cause: Cause.Cause<unknown>): End =>
  Cause.hasInterruptsOnly(cause) ? { code: interruptedCode(cause), line: null } : { code: 1, line: `internal error: ${Cause.pretty(cause).split("\n")[0]}` }

/** Whether a value is an End (what bin.ts's run succeeds with, read back from runMain's untyped Exit). */
export const isEnd = (u: unknown): u is End => typeof u === "object" && u !== null && typeof (u as { code?: unknown }).code === "number" && "line" in u

/** How a run's end ends it; `other` says how a failure that is none of ours ends (effect/cli's, exit.ts). */
export const endOfRun = (exit: Exit.Exit<unknown, RunError>, other: (error: unknown) => End | undefined = () => undefined): End => {
  if (Exit.isSuccess(exit)) return { code: 0, line: null }
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isNone(failure)) return endOfCause(exit.cause)
  return other(failure.value) ?? endOf(failure.value)
}
