// How a CLI run ends, in one place: every failure the program can end with (ProgramError) becomes
// one stderr line (none when it was already said) and an exit code: 0 a value was produced, 2 wrong
// parameters (the `{ diagnostics }` value is on stdout: program.ts writes it), 1 any other failure;
// an interruption ends with the code it carries (a signal's: 130, 143); never a stack trace.
import type * as Command from "effect/cli/Command"
import * as CliError from "effect/cli/CliError"
import * as CommandSpec from "effect/cli/CommandSpec"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import type { UseCaseError } from "../../usecases/requests.js"
import type { CliFailure } from "./errors.js"

/** Every failure a CLI run can end with: the use cases', the CLI's own, and effect/cli's. */
export type ProgramError = UseCaseError | CliFailure | CliError.CliError

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
const endOf = (error: Exclude<ProgramError, CliError.CliError>): End => {
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

/** An interruption's code: the largest a reason carries (`Runtime.InterruptExitCode`: a signal's, bin.ts; watch's Ctrl-C carries 0), else 0. */
const interruptedCode = (cause: Cause.Cause<unknown>): number =>
  cause.reasons.reduce((code, reason) => Math.max(code, Context.getOrUndefined(Cause.reasonAnnotations(reason), Runtime.InterruptExitCode) ?? 0), 0)

/** An end with no failure of ours in it: an interruption (with the code it carries) or a defect, one line. */
export const endOfCause = (cause: Cause.Cause<unknown>): End =>
  Cause.hasInterruptsOnly(cause) ? { code: interruptedCode(cause), line: null } : { code: 1, line: `internal error: ${Cause.pretty(cause).split("\n")[0]}` }

/** Whether a value is an End (what bin.ts's run succeeds with, read back from runMain's untyped Exit). */
export const isEnd = (u: unknown): u is End => typeof u === "object" && u !== null && typeof (u as { code?: unknown }).code === "number" && "line" in u

/** How the program's end ends the run. */
export const endOfExit = (exit: Exit.Exit<unknown, ProgramError>): End => {
  if (Exit.isSuccess(exit)) return { code: 0, line: null }
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isNone(failure)) return endOfCause(exit.cause)
  const error = failure.value
  // effect/cli's own (what its parse did not turn into a refusal): its first line.
  return CliError.isCliError(error) ? { code: 1, line: error.message } : endOf(error)
}

/**
 * The exit code of the program's end; writes its stderr line when nothing has said it yet (to
 * `stderr`: the process's, or a test's collector).
 */
export const exitCodeOf = (exit: Exit.Exit<unknown, ProgramError>, stderr: (text: string) => void = (text) => void process.stderr.write(text)): number => {
  const end = endOfExit(exit)
  if (end.line !== null) stderr(`specbundle: ${end.line}\n`)
  return end.code
}

/**
 * A failure's one line (without the `specbundle: ` prefix), its message: what the git hooks that
 * never fail a push or a prompt say instead of failing (hooks/pre-push.ts, hooks/agent-run.ts).
 */
export const lineOf = (failure: unknown): string => (failure instanceof Error ? failure.message : String(failure))

/**
 * What the parser refused, of what argv.ts left to it (a missing argument, words after `--`, a
 * top-level option's value), in the words specbundle has always printed for it.
 */
export const refusalOf = (root: Command.Command.Any, refusal: CliError.ShowHelp): string => {
  const [path, error] = [refusal.commandPath, refusal.errors[0]]
  const spec = path.length > 1 ? CommandSpec.resolve(root, path) : Option.none()
  if (Option.isNone(spec) || error === undefined) {
    const names = CommandSpec.resolve(root, [root.name]).pipe(Option.match({ onNone: () => [], onSome: (s) => s.subcommands.map((c) => `'${c.name}'`) }))
    return `Invalid subcommand for ${root.name} - use one of ${names.join(", ")}`
  }
  switch (error._tag) {
    case "MissingArgument": {
      const type = spec.value.arguments.find((a) => a.name === error.argument)?.type
      return `Missing argument <${error.argument}>${type?._tag === "Choice" ? ` with choices ${type.values.join(" | ")}` : ""}`
    }
    case "UnexpectedArgument":
      return `Received unknown argument: '${error.arguments[0]}'`
    case "UnrecognizedOption":
      return `Received unknown argument: '${error.option}'`
    default:
      return error.message.split("\n")[0]
  }
}
