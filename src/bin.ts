// Entry point of the bundled CLI. Provides only what the CLI uses (FileSystem, Path, Terminal):
// the full NodeContext also builds a command executor and worker manager that cost start-up time.
// The services (the use cases Bundler, Changes, Corpus and those under them) are provided by each
// command's handler, which loads on first use (src/cli/*-run.ts), so `--help` neither evaluates nor
// builds them; `mcp` requires a bundle of its own (bin/specbundle-mcp.cjs). The Terminal
// opens stdin only when a prompt reads it (src/cli/terminal.ts).
import * as CliConfig from "@effect/cli/CliConfig"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystemSync from "./services/NodeFileSystemSync.js"
import * as NodePath from "@effect/platform-node/NodePath"
import * as nodePath from "node:path"
import { isatty } from "node:tty"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { preflight } from "./cli/argv.js"
import { helpAnswer } from "./cli/help.js"
import { BUILT_INS, EXAMPLES, PROGRAM, VERSION, cli, model } from "./cli/main.js"
import * as LazyTerminal from "./cli/terminal.js"
import { enableWorkers, forcedWorkers } from "./services/extractAll.js"
import { runExtractWorker } from "./services/workerThread.js"
import { failWithDiagnostics } from "./cli/diagnostics.js"
import { stopOutput, whenOutputIdle } from "./cli/output.js"
import type { CacheStore } from "./services/parseCache.js"
import { enableParseCache } from "./services/parseCache.js"

const Platform = Layer.mergeAll(NodeFileSystemSync.layer, NodePath.layer, LazyTerminal.layer)
const MainLive = CliConfig.layer({ showBuiltIns: false }).pipe(Layer.provideMerge(Platform))

const exitCodeOf = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return 0
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "None") {
    if (Cause.isInterruptedOnly(exit.cause)) return 0
    process.stderr.write(`specbundle: internal error: ${Cause.pretty(exit.cause).split("\n")[0]}\n`)
    return 1
  }
  const error = failure.value as { _tag?: string; code?: number; line?: string }
  if (ValidationError.isValidationError(error)) return error._tag === "HelpRequested" ? 0 : 2
  switch (error._tag) {
    case "ExitWith":
      return error.code ?? 1
    case "StdoutClosed":
      return 0
    case "ParameterError":
      process.stderr.write(`specbundle: ${error.line}\n`)
      return 2
    default:
      process.stderr.write(`specbundle: ${(error as Error).message ?? String(error)}\n`)
      return 1
  }
}

// @effect/cli renders help and its errors with ANSI styles through Console; we print no colour, so
// strip them when NO_COLOR is set or the stream is not a terminal.
const ANSI = /\u001b\[[0-9;]*m/g
const noColor = (process.env.NO_COLOR ?? "") !== ""
const plainFor = (tty: boolean | undefined) => (args: ReadonlyArray<unknown>) =>
  noColor || tty !== true ? args.map((a) => (typeof a === "string" ? a.replace(ANSI, "") : a)) : args
const plainOut = plainFor(process.stdout.isTTY)
const plainErr = plainFor(process.stderr.isTTY)
const plainConsole = (c: Console.Console): Console.Console => ({
  ...c,
  log: (...args) => c.log(...plainOut(args)),
  // @effect/cli reports argument errors here as a help document: keep each to one stderr line.
  error: (...args) =>
    Effect.sync(() => {
      const text = plainErr(args)
        .map(String)
        .join(" ")
        .trim()
        .replace(/\s*\n\s*/g, " ")
      if (text !== "") process.stderr.write(`specbundle: ${text}\n`)
    }),
  unsafe: { ...c.unsafe, log: (...args) => c.unsafe.log(...plainOut(args)), error: (...args) => c.unsafe.error(...plainErr(args)) }
})

/**
 * Help, version and the argument mistakes the parser would misname are answered here (argv.ts);
 * everything else goes to @effect/cli.
 */
const answer = () => {
  const root = model()
  // isatty(0), not process.stdin.isTTY: reading process.stdin creates the stream (~5 ms).
  const pre = preflight(PROGRAM, root, process.argv.slice(2), isatty(0))
  if (pre._tag === "Parse") return cli(process.argv)
  if (pre._tag === "Problem") return failWithDiagnostics([{ scope: "arguments", problem: pre.problem }])
  const text = helpAnswer({ program: PROGRAM, version: VERSION, root, examples: EXAMPLES, builtIns: BUILT_INS }, pre)
  return Effect.sync(() => void process.stdout.write(text ?? ""))
}

const program = Console.consoleWith((c) =>
  Effect.withConsole(
    Effect.suspend(() => environmentProblem() ?? answer()),
    plainConsole(c)
  )
).pipe(
  Effect.catchIf(ValidationError.isValidationError, (e) =>
    // @effect/cli has printed its message to stderr; the parameters' diagnostics value goes to stdout.
    Effect.sync(() => {
      if (e._tag !== "HelpRequested") {
        process.stdout.write(JSON.stringify({ diagnostics: [{ scope: "arguments", problem: validationText(e) }] }) + "\n")
      }
    }).pipe(Effect.zipRight(Effect.fail(e)))
  ),
  Effect.provide(MainLive)
)

function validationText(e: ValidationError.ValidationError): string {
  const doc = "error" in e ? (e as { error: unknown }).error : undefined
  const text = JSON.stringify(doc ?? e._tag)
  const words = [...text.matchAll(/"value":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string)
  return words.length > 0 ? words.join("").trim() : e._tag
}

/** A setting in the environment that cannot be used: a parameter problem like a bad flag (exit 2). */
function environmentProblem() {
  const workers = forcedWorkers(process.env.SPECBUNDLE_WORKERS)
  return workers !== null && typeof workers === "object" ? failWithDiagnostics([{ scope: "environment", problem: workers.problem }]) : undefined
}

// Worker threads start on their own bundle next to this one (scripts/build.mjs, src/worker.ts).
const workerEntry = nodePath.join(__dirname, "specbundle-worker.cjs")

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
  enableWorkers(workerEntry)
  // The loader (bin/specbundle.js) offers its cache folder when the cache is on.
  enableParseCache((module as { specbundleCache?: CacheStore }).specbundleCache)
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
