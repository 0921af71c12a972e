// What every CLI run is, around its answer: the settings read once from the run's environment,
// the runtime its reads run on, git's environment, the flags' spelling of request fields, the
// `{ diagnostics }` value of wrong parameters on stdout, and the platform (file system, paths,
// processes, stdio, a terminal only --wizard's prompts read). program.ts answers through effect/cli's
// parser; the hook's own entrance (src/hook.ts) answers the hook's command lines without it.
import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Terminal from "effect/Terminal"
import { FileSystemLive, GitEnvironment, type ParseCache, type RunSettings, Settings, type SettingsProblem, type WorkerPool } from "../../node/runtime.js"
import { problems } from "../../usecases/requests.js"
import { FieldSpelling } from "../../usecases/spelling.js"
import type { ProgramError } from "./exit.js"
import { FLAG_NAMES } from "./flag-names.js"
import { Invocation } from "./invocation.js"
import { Output } from "./output/output.js"

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

/** What the platform layer gives an answer. */
type RunPlatform = Layer.Success<ReturnType<typeof platformFor>>

/** What an answer may use. */
export type RunServices = WorkerPool | ParseCache | Settings | Output | Invocation | RunPlatform

/**
 * The run of `specbundle ...argv` (the words after the program's name), writing through Output,
 * reading its folder, environment and stdin from Invocation (git and the settings get that
 * environment too), its reads on `runtime` (bin.ts: worker threads and the loader's cache folder;
 * tests: this thread). It ends as exit.ts's exitCodeOf reads it.
 */
export const runProgram = (
  argv: ReadonlyArray<string>,
  runtime: Runtime,
  answer: (output: Output["Service"], invocation: Invocation["Service"], settings: RunSettings) => Effect.Effect<void, ProgramError, RunServices>
): Effect.Effect<void, ProgramError, Output | Invocation> =>
  Effect.gen(function* () {
    const output = yield* Output
    const invocation = yield* Invocation
    // The settings, read once from the run's environment (src/node/runtime.ts), for the handlers and the runtime under them.
    const read = Settings.read.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: invocation.env as Record<string, string> }))))
    const run = Effect.flatMap(read, (settings) =>
      answer(output, invocation, settings).pipe(Effect.provide(runtime), Effect.provideService(Settings, settings))
    )
    return yield* run.pipe(
      Effect.catchTag("SettingsProblem", refuseSetting),
      Effect.provideService(GitEnvironment, invocation.env as NodeJS.ProcessEnv),
      Effect.provideService(FieldSpelling, FLAG_NAMES),
      Effect.tapError(writeProblems(output))
    )
  }).pipe(Effect.provide(platformFor(argv)))
