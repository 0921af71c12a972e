// What only a process has, around a CLI run: the process's stdout, stderr, folder, environment and
// stdin, the worker threads, the loader's parse cache, signals and the exit. The CLI's bundle
// (src/bin.ts: the program, src/entrances/cli/program.ts) and the hook's (src/hook.ts) run through
// it alike; how a run ends (its stderr line and exit code) is the End each of them reads
// (src/entrances/cli/exit.ts, end.ts).
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as nodePath from "node:path"
import { isatty } from "node:tty"
import { type End, endOfCause, isEnd } from "./entrances/cli/end.js"
import { Invocation } from "./entrances/cli/invocation.js"
import { Output, processOutput } from "./entrances/cli/output/output.js"
import type { Runtime } from "./entrances/cli/run.js"
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
 * `bundle > ctx.json && agent` never goes on after a cancel. runMain's own handler interrupts the
 * program; what does not yield to that (a worker thread's parse, a long synchronous step) is cut
 * off shortly after. stdout writes are synchronous, so stdout holds nothing or whole values.
 * `watch` ends on Ctrl-C by design (exit 0) and keeps runMain's handling alone.
 */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 }
const GRACE_MS = 100
/** The contract's bound: exit within a second of the signal, even with a value still being written to a reader that does not read. */
const LAST_MS = 900
/** Installs the handlers; the code of the first signal that came, if one did. */
const watchSignals = (): (() => number | undefined) => {
  let signalled: number | undefined
  if (process.argv[2] === "watch") return () => signalled
  for (const [name, code] of Object.entries(SIGNAL_EXIT)) {
    process.once(name, () => {
      signalled ??= code
      // A value being written is finished first (a partial one on stdout would read as output), no new one starts.
      stdio.stop()
      stdio.whenIdle(() => setTimeout(() => process.exit(code), GRACE_MS).unref())
      setTimeout(() => process.exit(code), LAST_MS).unref()
    })
  }
  return () => signalled
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

/**
 * Runs a CLI run as the process: `run` given the runtime, ending as `endOf` reads its Exit.
 * Worker threads run their own bundle (src/worker.ts): this is always the main thread.
 */
export const runProcess = <E>(run: (runtime: Runtime) => Effect.Effect<void, E, Output | Invocation>, endOf: (exit: Exit.Exit<void, E>) => End): void => {
  const signalled = watchSignals()
  /** The run, ending in how it ends (exit.ts reads the program's typed Exit): runMain's teardown sees an Exit of any type. */
  const main = run(RuntimeLive).pipe(Effect.provide(Live), Effect.exit, Effect.map(endOf))
  NodeRuntime.runMain(main, {
    disableErrorReporting: true,
    teardown: (exit, onExit) =>
      // A signal that came while the run did not yield (a read parsed in this thread, then on to
      // the end with no I/O) still waits in the event loop: one more poll hands it to the handlers
      // above, so the run ends as interrupted, never 0 (loopTurn.ts).
      void afterPoll().then(() => {
        // Setting exitCode (not calling process.exit) lets stdout drain, so a diagnostics value arrives whole.
        // After a signal runMain exits at once, with the signal's code.
        const signal = signalled()
        if (signal === undefined) {
          // The end's line, unless it was said; the code exit.ts gives it (an interruption not ours: runMain's, watch's Ctrl-C).
          const end = Exit.isSuccess(exit) ? (isEnd(exit.value) ? exit.value : { code: 0, line: null }) : endOfCause(exit.cause)
          if (end.line !== null) process.stderr.write(`specbundle: ${end.line}\n`)
          process.exitCode = end.code
          onExit(0)
          stdio.whenIdle(exitWhenFlushed)
        } else {
          process.exitCode = signal
          // Interrupted with a write under way: runMain's exit would cut it short; it ends first.
          stdio.whenIdle(() => onExit(signal))
        }
      })
  })
}
