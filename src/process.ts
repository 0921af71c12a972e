// What only a process has, around a CLI run: the process's stdout, stderr, folder, environment and
// stdin, the worker threads, the loader's parse cache, signals and the exit. The CLI's bundle
// (src/bin.ts: the program, src/entrances/cli/program.ts) and the hook's (src/hook.ts) run through
// it alike; how a run ends (its stderr line and exit code) is the End each of them reads
// (src/entrances/cli/exit.ts, end.ts).
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as nodePath from "node:path"
import { isatty } from "node:tty"
import { type End, endOfCause, isEnd } from "./entrances/cli/end.js"
import { Invocation } from "./entrances/cli/invocation.js"
import { Output, processOutput } from "./entrances/cli/output/output.js"
import type { Runtime as RunRuntime } from "./entrances/cli/run.js"
import { afterPoll } from "./node/loopTurn.js"
import type { CacheStore } from "./node/parseCache.js"
import { ParseCache, WorkerPool } from "./node/runtime.js"

declare global {
  namespace NodeJS {
    interface Module {
      /** The parse cache's folder store, set on this bundle's module by the loader (bin/specbundle.js) when the cache is on. */
      specbundleCache?: CacheStore
    }
  }
}

/** The process's stdout and stderr: the Output service, and the drain a signal waits for. */
const stdio = processOutput()

/** The process's own stdout, stderr, folder, environment and stdin: this file is where the process is read. */
const Live = Layer.mergeAll(
  Layer.succeed(Output, stdio.output),
  Layer.sync(Invocation, () => ({
    cwd: process.cwd(),
    env: process.env,
    // isatty(0), not process.stdin.isTTY: reading process.stdin creates the stream (~5 ms).
    stdinIsTTY: () => isatty(0),
    stdin: () => process.stdin,
    node: process.execPath,
    script: nodePath.resolve(process.argv[1] ?? "bin/specbundle.js"),
    // Bundled, every module's __dirname is bin/.
    bin: __dirname
  }))
)

/**
 * What the commands' reads run on, once for the process: worker threads on their own bundle next
 * to this one (scripts/build.mjs, src/worker.ts), the parse cache in the folder the loader
 * (bin/specbundle.js) offers when the cache is on; the program reads the settings (SPECBUNDLE_WORKERS) from the run's environment.
 */
const RuntimeLive = Layer.suspend(() =>
  Layer.mergeAll(WorkerPool.layer(nodePath.join(__dirname, "specbundle-worker.cjs")), ParseCache.layerStore(module.specbundleCache))
)

/**
 * An interrupted run exits 128 + the signal's number (bundle-contract.md section 1), so
 * `bundle > ctx.json && agent` never goes on after a cancel. A signal interrupts the program's
 * fiber, the interruption annotated with that code (`Runtime.InterruptExitCode`, the one place a
 * signal becomes a code), which exit.ts reads back from the end's Cause; `watch` ends on Ctrl-C
 * by design, its interruption carrying 0. What does not yield to the interruption (a worker
 * thread's parse, a long synchronous step) is cut off shortly after. stdout writes are
 * synchronous, so stdout holds nothing or whole values.
 */
const interruptionOf = (signal: NodeJS.Signals): Context.Context<never> =>
  Context.make(Runtime.InterruptExitCode, process.argv[2] === "watch" ? 0 : 128 + process.getBuiltinModule("node:os").constants.signals[signal])
const GRACE_MS = 100
/** The contract's bound: exit within a second of the signal, even with a value still being written to a reader that does not read. */
const LAST_MS = 900

/**
 * The program has ended: exit now when stdout and stderr hold nothing unwritten (always on Linux,
 * where Node writes to pipes and files synchronously). Waiting for the event loop to empty bought
 * nothing but a garbage collection V8 had started, ~25 ms of a 330 ms bundle run (docs/bench.md).
 * Output still queued (an asynchronous pipe elsewhere) drains as before, the loop ending by itself.
 */
const exitWhenFlushed = () => {
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit()
}

/**
 * Runs the program as the process's main fiber (Effect's own runner, as NodeRuntime.runMain is
 * made, with our signals and end): SIGINT and SIGTERM interrupt it with their code; its end is
 * said and exited on as exit.ts reads it.
 */
const runMain = Runtime.makeRunMain(({ fiber }) => {
  /** The interruption the first signal made (a later one changes nothing). */
  let interruption: Cause.Cause<never> | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    if (interruption !== undefined) return
    const annotations = interruptionOf(signal)
    interruption = Cause.annotate(Cause.interrupt(fiber.id), annotations)
    fiber.interruptUnsafe(fiber.id, annotations)
    const { code } = endOfCause(interruption)
    if (code === 0) return
    // A value being written is finished first (a partial one on stdout would read as output), no new one starts.
    stdio.stop()
    stdio.whenIdle(() => setTimeout(() => process.exit(code), GRACE_MS).unref())
    setTimeout(() => process.exit(code), LAST_MS).unref()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  fiber.addObserver(
    (exit) =>
      // A signal that came while the run did not yield (a read parsed in this thread, then on to
      // the end with no I/O) still waits in the event loop: one more poll hands it to the handler
      // above, so the run ends as interrupted, never 0 (loopTurn.ts).
      void afterPoll().then(() => {
        // A signal's interruption ends the run whatever the fiber ended with (it may have ended before the poll).
        const ended = interruption === undefined ? exit : Exit.failCause(interruption)
        // The end's line, unless it was said, and its code (exit.ts).
        const end = Exit.isSuccess(ended) ? (isEnd(ended.value) ? ended.value : { code: 0, line: null }) : endOfCause(ended.cause)
        if (end.line !== null) process.stderr.write(`specbundle: ${end.line}\n`)
        // Setting exitCode (not calling process.exit) lets stdout drain, so a diagnostics value arrives whole.
        process.exitCode = end.code
        // Interrupted with a write under way: it ends first.
        if (interruption === undefined) stdio.whenIdle(exitWhenFlushed)
        else stdio.whenIdle(() => process.exit(end.code))
      })
  )
})

/**
 * Runs a CLI run as the process: `run` given the runtime, ending as `endOf` reads its Exit (the
 * runner sees an Exit of any type). Worker threads run their own bundle (src/worker.ts): this is
 * always the main thread.
 */
export const runProcess = <E>(run: (runtime: RunRuntime) => Effect.Effect<void, E, Output | Invocation>, endOf: (exit: Exit.Exit<void, E>) => End): void => {
  runMain(run(RuntimeLive).pipe(Effect.provide(Live), Effect.exit, Effect.map(endOf)), { disableErrorReporting: true })
}
