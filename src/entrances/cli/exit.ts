// How a CLI run ends, in one place: every failure the program can end with becomes one stderr line
// (none when it was already said) and an exit code: 0 a value was produced, 2 wrong parameters
// (the `{ diagnostics }` value is on stdout), 1 any other failure; never a stack trace.
import type * as Command from "effect/cli/Command"
import type * as CliError from "effect/cli/CliError"
import * as CommandSpec from "effect/cli/CommandSpec"
import * as Cause from "effect/Cause"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type { ParameterProblems, RunFailure, UseCaseError } from "../../usecases/requests.js"

/**
 * The use cases' failures that end a run with their `message` as the line and exit 1 (their
 * ParameterProblems the commands render first, diagnostics.ts, as a ParameterError). Listing every
 * tag of UseCaseError here makes a new one a compile error until this module says how it ends.
 */
const RUN_FAILURES: Readonly<Record<Exclude<UseCaseError, ParameterProblems>["_tag"] | RunFailure["_tag"], true>> = {
  ConfigError: true,
  ReadError: true,
  NotARepositoryError: true,
  UnknownRevisionError: true,
  ShallowCloneError: true,
  GitMissingError: true,
  GitFailedError: true,
  UnmergedPathError: true,
  GitRefusedError: true,
  RunFailure: true
}

/**
 * A failure's one line (without the `specbundle: ` prefix): the request's problems as
 * `scope: problem` joined by "; ", else its line or message. What the exit below says, and what the
 * git hooks that never fail a push or a prompt say instead (hook-push.ts, hook-agent-run.ts).
 */
export const lineOf = (failure: unknown): string => {
  const e = failure as { diagnostics?: ReadonlyArray<{ scope: string; problem: string }>; line?: string; message?: string }
  return e.diagnostics?.map((d) => `${d.scope}: ${d.problem}`).join("; ") ?? e.line ?? e.message ?? String(failure)
}

/**
 * The exit code of the program's end; writes its stderr line when nothing has said it yet (to
 * `stderr`: the process's, or a test's collector).
 */
export const exitCodeOf = (exit: Exit.Exit<unknown, unknown>, stderr: (text: string) => void = (text) => void process.stderr.write(text)): number => {
  const say = (line: string) => stderr(`specbundle: ${line}\n`)
  if (Exit.isSuccess(exit)) return 0
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isNone(failure)) {
    if (Cause.hasInterruptsOnly(exit.cause)) return 0
    say(`internal error: ${Cause.pretty(exit.cause).split("\n")[0]}`)
    return 1
  }
  const error = failure.value as { _tag?: string; code?: number; line?: string; message?: string }
  switch (error._tag) {
    case "ExitWith":
      return error.code ?? 1
    case "StdoutClosed":
      return 0
    case "ParameterError":
      say(error.line ?? "")
      return 2
    default:
      // The use cases' failures (their message) and the CLI's own (CliFailure and the like: their line).
      say(error._tag !== undefined && Object.hasOwn(RUN_FAILURES, error._tag) ? (error.message ?? "") : lineOf(error))
      return 1
  }
}

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
