// The CLI as one program value, for bin.ts (the process: its live output and invocation, signals,
// exit) and for tests that run a command in process (test/support/run.ts, a collecting output and
// an invocation of their own). The arguments go through argv.ts first (help, version and the
// mistakes we word ourselves), then to effect/cli with our own help pages (help.ts) as its
// presenter; how the run ends (stderr line, exit code) is exit.ts. The use cases (Bundler,
// Changes, Corpus, ... and the services under them) are provided here, one layer for every
// command, loaded and built only once a command line is parsed: help, version and argv.ts's
// answers neither evaluate nor build them; the handlers (*-run.ts, loaded on first use) only
// require them.
import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as Command from "effect/cli/Command"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Terminal from "effect/Terminal"
import { FileSystemLive, GitEnvironment, ParseCache, type RunSettings, Settings, type SettingsProblem, type WorkerPool } from "../../node/runtime.js"
import { type Preflight, preflight } from "./argv.js"
import { ArgumentsRefused } from "./errors.js"
import { type ProgramError, refusalOf } from "./exit.js"
import { helpAnswer } from "./help.js"
import { Invocation } from "./invocation.js"
import { BUILT_INS, EXAMPLES, PROGRAM, VERSION, model, root } from "./main.js"
import { Output } from "./output/output.js"
import { FLAG_NAMES } from "./flags.js"
import { problems } from "../../usecases/requests.js"
import { FieldSpelling } from "../../usecases/spelling.js"

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

/** The terminal of every run but `--wizard`'s: it dies if a prompt ever asks for it. */
const noTerminal = Effect.die(new Error("specbundle: a prompt asked for a terminal outside --wizard"))
const NO_TERMINAL = Terminal.make({
  columns: noTerminal,
  rows: noTerminal,
  size: noTerminal,
  readInput: noTerminal,
  readLine: noTerminal,
  display: () => noTerminal
})

/**
 * The terminal effect/cli's prompts read, which only `--wizard` asks for: Node's (it opens stdin
 * only when a prompt reads it), loaded for that run alone, so no other run loads node:readline
 * (~0.5 ms). Any other run gets one that dies if ever asked: no prompt is reachable without the flag.
 */
const terminalFor = (argv: ReadonlyArray<string>): Layer.Layer<Terminal.Terminal> =>
  argv.includes("--wizard")
    ? Layer.unwrap(
        Effect.map(
          Effect.promise(() => import("@effect/platform-node/NodeTerminal")),
          (m) => m.layer
        )
      )
    : Layer.succeed(Terminal.Terminal, NO_TERMINAL)

// What effect/cli's commands may use: the file system (read synchronously: NodeFileSystemSync),
// paths, a terminal for --wizard, stdio, processes.
const platformFor = (argv: ReadonlyArray<string>) =>
  NodeChildProcessSpawner.layer.pipe(Layer.provideMerge(Layer.mergeAll(FileSystemLive, NodePath.layer, terminalFor(argv), NodeStdio.layer)))

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

/** A setting in the environment that cannot be used: a parameter problem like a bad flag (exit 2), refused before any answer. */
const refuseSetting = (e: SettingsProblem) => Effect.fail(problems([{ scope: "environment", problem: e.problem }]))

/**
 * Wrong parameters, whoever found them (argv.ts, the parser, a handler, a use case), are written
 * here, once: the `{ diagnostics }` value on stdout (exit.ts says the line and exits 2).
 */
const writeProblems = (output: Output["Service"]) => (error: ProgramError) =>
  error._tag === "ParameterProblems" || error._tag === "ArgumentsRefused"
    ? output.out(JSON.stringify({ diagnostics: error.diagnostics }) + "\n").pipe(Effect.ignore)
    : Effect.void

/** What the commands' reads run on (src/node/runtime.ts), over the run's settings. */
export type Runtime = Layer.Layer<WorkerPool | ParseCache, never, Settings>

/**
 * The run of `specbundle ...argv` (the words after the program's name), writing through Output,
 * reading its folder, environment and stdin from Invocation (git and the settings get that
 * environment too), its reads on `runtime` (bin.ts: worker threads and the loader's cache folder;
 * tests: this thread). It ends as exit.ts's exitCodeOf reads it.
 */
export const program = (argv: ReadonlyArray<string>, runtime: Runtime): Effect.Effect<void, ProgramError, Output | Invocation> =>
  Effect.gen(function* () {
    const output = yield* Output
    const invocation = yield* Invocation
    // The settings, read once from the run's environment (src/node/runtime.ts), for the handlers and the runtime under them.
    const read = Settings.read.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: invocation.env as Record<string, string> }))))
    const run = Effect.flatMap(read, (settings) =>
      answer(argv, output, invocation, settings).pipe(Effect.provide(runtime), Effect.provideService(Settings, settings))
    )
    return yield* run.pipe(
      Effect.catchTag("SettingsProblem", refuseSetting),
      Effect.provideService(GitEnvironment, invocation.env as NodeJS.ProcessEnv),
      Effect.provideService(FieldSpelling, FLAG_NAMES),
      Effect.tapError(writeProblems(output))
    )
  }).pipe(Effect.provide(platformFor(argv)))
