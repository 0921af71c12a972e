// The CLI as one program value, for bin.ts (the process: its live output and invocation, signals,
// exit) and for tests that run a command in process (test/support/run.ts, a collecting output and
// an invocation of their own). The arguments go through argv.ts first (help, version and the
// mistakes we word ourselves), then to effect/cli with our own help pages (help.ts) as its
// presenter; how the run ends (stderr line, exit code) is exit.ts. The use cases (Bundler,
// Changes, Corpus, ... and the services under them) are provided here, one layer for every
// command, loaded and built only once a command line is parsed: help, version and argv.ts's
// answers neither evaluate nor build them; the handlers (*-run.ts, loaded on first use) only
// require them.
import * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ParseCache, type RunSettings } from "../../node/runtime.js"
import { type Preflight, preflight } from "./argv.js"
import { ArgumentsRefused } from "./errors.js"
import { type ProgramError, refusalOf } from "./exit.js"
import { helpAnswer } from "./help.js"
import type { Invocation } from "./invocation.js"
import { BUILT_INS, EXAMPLES, PROGRAM, VERSION, model, root } from "./main.js"
import type { Output } from "./output/output.js"
import { type Runtime, runProgram } from "./run.js"
import { problems } from "../../usecases/requests.js"

const helpData = () => ({ program: PROGRAM, version: VERSION, root: model(), examples: EXAMPLES, builtIns: BUILT_INS })

/**
 * What effect/cli presents itself (help it was asked for past argv.ts, `--log-level debug
 * --help`; a command line with no command, `--`): our pages. Its errors are exit.ts's.
 */
const presenterOf = (output: Output["Service"], noColor: string | undefined): CliOutput.Presenter => ({
  present: (event) => {
    const show = (pre: Preflight) => writeHelp(output, noColor, pre)
    if (event._tag === "Version") return show({ _tag: "Version" })
    if (event._tag === "InvalidInvocation") return Effect.void
    const command = model().subcommands.find((c) => c.name === event.commandPath[1])
    return show(command === undefined ? { _tag: "TopHelp" } : { _tag: "CommandHelp", command })
  }
})

/** A help page or the version (NO_COLOR: the settings'): a write that cannot fail (a closed stdout ends the run quietly anyway). */
const writeHelp = (output: Output["Service"], noColor: string | undefined, pre: Preflight): Effect.Effect<void> =>
  output
    .out(helpAnswer(helpData(), pre, () => ({ isTTY: output.stdoutColumns !== undefined, columns: output.stdoutColumns, noColor })) ?? "")
    .pipe(Effect.ignore)

/** A refusal of the parser's: the `{ diagnostics }` value on stdout, its line on stderr, exit 2. */
const refused = (problem: string) => Effect.fail(new ArgumentsRefused({ problem }))

const parse = (argv: ReadonlyArray<string>) =>
  // (renderErrors: the presenter is told about a refusal, and says nothing: see `refused`.)
  Command.runWith(root, { version: VERSION })(argv).pipe(
    Effect.catchIf(
      (e): e is CliError.ShowHelp => CliError.isCliError(e) && e._tag === "ShowHelp",
      // No errors: the help page it showed (our presenter's) is the answer.
      (e) => (e.errors.length === 0 ? Effect.void : refused(refusalOf(root, e)))
    )
  )

/**
 * The use cases, as every entrance has them (usecases/layer.ts), for the commands' handlers: the
 * module loads when a command line is parsed, never for help or version. Building them starts no
 * git and no thread (git runs when a use case asks it something). `watch` keeps its corpus read
 * between builds: its use cases read through a parse cache kept warm in memory for the run.
 */
const useCasesFor = (argv: ReadonlyArray<string>) => {
  const useCases = Layer.unwrap(
    Effect.map(
      Effect.promise(() => import("../../usecases/layer.js")),
      (m) => m.UseCasesLive
    )
  )
  return argv[0] === "watch" ? useCases.pipe(Layer.provide(ParseCache.keptWarm)) : useCases
}

/** Help, version and the argument mistakes are answered by argv.ts; everything else is parsed. */
const answer = (argv: ReadonlyArray<string>, output: Output["Service"], invocation: Invocation["Service"], settings: RunSettings) => {
  const pre = preflight(PROGRAM, model(), argv, invocation.stdinIsTTY)
  switch (pre._tag) {
    case "Parse":
      return parse(pre.argv).pipe(Effect.provide(CliOutput.layerPresenter(presenterOf(output, settings.noColor))), Effect.provide(useCasesFor(pre.argv)))
    case "Problem":
      return Effect.fail(problems([{ scope: "arguments", problem: pre.problem }]))
    case "Refused":
      return refused(pre.problem)
    default:
      return writeHelp(output, settings.noColor, pre)
  }
}

/**
 * The run of `specbundle ...argv` (the words after the program's name), writing through Output,
 * reading its folder, environment and stdin from Invocation (git and the settings get that
 * environment too), its reads on `runtime` (bin.ts: worker threads and the loader's cache folder;
 * tests: this thread). It ends as exit.ts's exitCodeOf reads it.
 */
export const program = (argv: ReadonlyArray<string>, runtime: Runtime): Effect.Effect<void, ProgramError, Output | Invocation> =>
  runProgram(argv, runtime, (output, invocation, settings) => answer(argv, output, invocation, settings))

export type { Runtime }
