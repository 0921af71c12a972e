// Entry point of the bundled CLI: wiring. The arguments go through argv.ts first (help, version
// and the mistakes we word ourselves), then to effect/cli with our own help pages (help.ts) as its
// presenter; how the run ends (stderr line, exit code) is src/entrances/cli/exit.ts. The services (the use
// cases Bundler, Changes, Corpus and those under them) are provided by each command's handler,
// which loads on first use (src/entrances/cli/*-run.ts), so `--help` neither evaluates nor builds them;
// `mcp` requires a bundle of its own (bin/specbundle-mcp.cjs).
import * as NodeChildProcessSpawner from "@effect/platform-node/NodeChildProcessSpawner"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as nodePath from "node:path"
import { isatty } from "node:tty"
import { type Preflight, preflight } from "./entrances/cli/argv.js"
import { failWithDiagnostics } from "./entrances/cli/diagnostics.js"
import { exitCodeOf, refusalOf } from "./entrances/cli/exit.js"
import { helpAnswer } from "./entrances/cli/help.js"
import { BUILT_INS, EXAMPLES, PROGRAM, VERSION, model, root } from "./entrances/cli/main.js"
import { stopOutput, whenOutputIdle } from "./entrances/cli/output.js"
import * as NodeFileSystemSync from "./node/NodeFileSystemSync.js"
import type { CacheStore } from "./node/parseCache.js"
import { ParseCache, Settings, type SettingsProblem, WorkerPool } from "./node/runtime.js"
import { runExtractWorker } from "./node/workerThread.js"

const helpData = () => ({ program: PROGRAM, version: VERSION, root: model(), examples: EXAMPLES, builtIns: BUILT_INS })
const print = (pre: Preflight) => Effect.sync(() => void process.stdout.write(helpAnswer(helpData(), pre) ?? ""))

/**
 * What effect/cli presents itself (help it was asked for past argv.ts, `--log-level debug
 * --help`; a command line with no command, `--`): our pages. Its errors are exit.ts's.
 */
const presenter: CliOutput.Presenter = {
  present: (event) => {
    if (event._tag === "Version") return print({ _tag: "Version" })
    if (event._tag === "InvalidInvocation") return Effect.void
    const command = model().subcommands.find((c) => c.name === event.commandPath[1])
    return print(command === undefined ? { _tag: "TopHelp" } : { _tag: "CommandHelp", command })
  }
}

// What effect/cli's commands may use: the file system (read synchronously: NodeFileSystemSync),
// paths, a terminal for --wizard (it opens stdin only when a prompt reads it), stdio, processes.
const Platform = Layer.mergeAll(NodeFileSystemSync.layer, NodePath.layer, NodeTerminal.layer, NodeStdio.layer)
const MainLive = Layer.mergeAll(CliOutput.layerPresenter(presenter), NodeChildProcessSpawner.layer).pipe(Layer.provideMerge(Platform))

/** A refusal of the parser's: the `{ diagnostics }` value on stdout, its line on stderr, exit 2. */
const refused = (problem: string) => failWithDiagnostics([{ scope: "arguments", problem }], problem)

const parse = (argv: ReadonlyArray<string>) =>
  // (renderErrors: the presenter is told about a refusal, and says nothing: see `refused`.)
  Command.runWith(root, { version: VERSION })(argv).pipe(
    Effect.catchIf(
      (e): e is CliError.ShowHelp => CliError.isCliError(e) && e._tag === "ShowHelp",
      // No errors: the help page it showed (our presenter's) is the answer.
      (e) => (e.errors.length === 0 ? Effect.void : refused(refusalOf(root, e)))
    )
  )

/** Help, version and the argument mistakes are answered by argv.ts; everything else is parsed. */
const answer = () => {
  // isatty(0), not process.stdin.isTTY: reading process.stdin creates the stream (~5 ms).
  const pre = preflight(PROGRAM, model(), process.argv.slice(2), () => isatty(0))
  switch (pre._tag) {
    case "Parse":
      return parse(pre.argv)
    case "Problem":
      return failWithDiagnostics([{ scope: "arguments", problem: pre.problem }])
    case "Refused":
      return refused(pre.problem)
    default:
      return print(pre)
  }
}

/**
 * What the commands' reads run on, once for the process: worker threads on their own bundle next
 * to this one (scripts/build.mjs, src/worker.ts), the parse cache in the folder the loader
 * (bin/specbundle.js) offers when the cache is on, SPECBUNDLE_WORKERS from the environment.
 */
const RuntimeLive = Layer.suspend(() =>
  Layer.mergeAll(
    WorkerPool.layer(nodePath.join(__dirname, "specbundle-worker.cjs")),
    ParseCache.layerStore((module as { specbundleCache?: CacheStore }).specbundleCache)
  ).pipe(Layer.provide(Settings.layer))
)

/** A setting in the environment that cannot be used: a parameter problem like a bad flag (exit 2), refused before any answer. */
const refuseSetting = (e: SettingsProblem) => failWithDiagnostics([{ scope: "environment", problem: e.problem }])

const program = Effect.suspend(answer).pipe(Effect.provide(RuntimeLive), Effect.catchTag("SettingsProblem", refuseSetting), Effect.provide(MainLive))

/**
 * An interrupted run exits 128 + the signal's number (bundle-contract.md section 1), so
 * `bundle > ctx.json && agent` never goes on after a cancel. runMain's own handler interrupts the
 * program; what does not yield to that (a worker thread's parse, a long synchronous step) is cut
 * off shortly after. stdout writes are synchronous, so stdout holds nothing or whole values.
 * `watch` ends on Ctrl-C by design (exit 0) and keeps runMain's handling alone.
 */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 }
const GRACE_MS = 100
/** The contract's bound: exit within a second of the signal, even with a value still being written to a reader that does not read. */
const LAST_MS = 900
let signalled: number | undefined
const watchSignals = () => {
  if (process.argv[2] === "watch") return
  for (const [name, code] of Object.entries(SIGNAL_EXIT)) {
    process.once(name, () => {
      signalled ??= code
      // A value being written is finished first (a partial one on stdout would read as output), no new one starts.
      stopOutput()
      whenOutputIdle(() => setTimeout(() => process.exit(code), GRACE_MS).unref())
      setTimeout(() => process.exit(code), LAST_MS).unref()
    })
  }
}

/**
 * The program has ended: exit now when stdout and stderr hold nothing unwritten (always on Linux,
 * where Node writes to pipes and files synchronously). Waiting for the event loop to empty bought
 * nothing but a garbage collection V8 had started, ~25 ms of a 330 ms bundle run (docs/bench.md).
 * Output still queued (an asynchronous pipe elsewhere) drains as before, the loop ending by itself.
 */
const exitWhenFlushed = () => {
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit()
}

if (!runExtractWorker()) {
  watchSignals()
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    teardown: (exit, onExit) => {
      // Setting exitCode (not calling process.exit) lets stdout drain, so a diagnostics value arrives whole.
      // After a signal runMain exits at once, with the signal's code.
      process.exitCode = signalled ?? exitCodeOf(exit)
      // Interrupted with a write under way: runMain's exit would cut it short; it ends first.
      if (signalled === undefined) {
        onExit(0)
        whenOutputIdle(exitWhenFlushed)
      } else whenOutputIdle(() => onExit(signalled ?? 0))
    }
  })
}
