// How a CLI run ends, in one place: every failure the program can end with (ProgramError) becomes
// one stderr line (none when it was already said) and an exit code: 0 a value was produced, 2 wrong
// parameters (the `{ diagnostics }` value is on stdout: program.ts writes it), 1 any other failure;
// an interruption ends with the code it carries (a signal's: 130, 143); never a stack trace.
import type * as Command from "effect/cli/Command"
import * as CliError from "effect/cli/CliError"
import * as CommandSpec from "effect/cli/CommandSpec"
import type * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { type End, type RunError, endOfRun } from "./end.js"

/** Every failure a CLI run can end with: the use cases', the CLI's own, and effect/cli's. */
export type ProgramError = RunError | CliError.CliError

export { type End, endOfCause, isEnd } from "./end.js"

/** How the program's end ends the run: effect/cli's own failures (what its parse did not turn into a refusal) say their first line. */
export const endOfExit = (exit: Exit.Exit<unknown, ProgramError>): End =>
  endOfRun(exit as Exit.Exit<unknown, RunError>, (error) => (CliError.isCliError(error) ? { code: 1, line: error.message } : undefined))

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
