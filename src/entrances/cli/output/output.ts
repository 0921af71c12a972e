// Writing results and findings. stdout carries only the result; everything else goes to stderr.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { formatFinding } from "../../../core/render/finding-text.js"
import { capFindings, countedFinding, tallyLine } from "../../../core/render/findings-cap.js"
import type { Finding } from "../../../core/model.js"
import { escapeCommandData, findingsGithub } from "../../../core/render/findings.js"
import { findingsPrefix } from "../../../core/render/outputs.js"
import { StdoutClosed } from "../errors.js"
import { Invocation } from "../invocation.js"

/**
 * Where a run's text goes: values on stdout, lines on stderr. The handlers write only through
 * this service, so a test can run a command in process and read both streams (`Output.collect`);
 * bin.ts provides the process's own stdout and stderr (`processOutput`).
 */
export class Output extends Context.Service<
  Output,
  {
    /** Writes to stdout and waits until the text is handed on (backpressure for streamed parts). */
    readonly out: (text: string) => Effect.Effect<void, StdoutClosed>
    /** Writes text to stderr as given. */
    readonly err: (text: string) => void
    /** stderr is a terminal (the progress line shows only there). */
    readonly stderrIsTTY: boolean
    /** stdout's width when it is a terminal (help pages wrap to it), else undefined. */
    readonly stdoutColumns: number | undefined
  }
>()("specbundle/cli/Output") {
  /** Collects stdout and stderr as text (the in-process runner's): the layer and what was written. */
  static readonly collect = (): {
    readonly layer: Layer.Layer<Output>
    readonly stdout: () => string
    readonly stderr: () => string
    /** Adds text written past the service (a Console's, the exit line) in the order it came. */
    readonly append: (stream: "stdout" | "stderr", text: string) => void
  } => {
    let stdout = ""
    let stderr = ""
    const service: Output["Service"] = {
      out: (text) =>
        Effect.sync(() => {
          stdout += text
        }),
      err: (text) => void (stderr += text),
      stderrIsTTY: false,
      stdoutColumns: undefined
    }
    return {
      layer: Layer.succeed(Output, service),
      stdout: () => stdout,
      stderr: () => stderr,
      append: (stream, text) => {
        if (stream === "stdout") stdout += text
        else stderr += text
      }
    }
  }
}

/**
 * The process's stdout and stderr as the Output service, with what bin.ts needs after a signal:
 * `stop` (no new value starts; one under way is written whole) and `whenIdle` (called once no
 * stdout write is under way, at once when none is). The writes' state lives here, one per process.
 */
export const processOutput = (): {
  readonly output: Output["Service"]
  readonly stop: () => void
  readonly whenIdle: (f: () => void) => void
} => {
  /** stdout writes under way, and who waits for there to be none. */
  let writing = 0
  let waiting: Array<() => void> = []
  let stopped = false
  let stdoutClosed = false
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    // A reader that went away (`| head`) is not an error of ours.
    if (e.code === "EPIPE") stdoutClosed = true
  })
  const output: Output["Service"] = {
    out: (text) =>
      Effect.callback<void, StdoutClosed>((resume) => {
        if (stdoutClosed) return resume(Effect.fail(new StdoutClosed()))
        if (stopped) return resume(Effect.interrupt)
        writing++
        process.stdout.write(text, (err) => {
          writing--
          if (writing === 0) {
            const ready = waiting
            waiting = []
            for (const f of ready) f()
          }
          resume(err ? Effect.fail(new StdoutClosed()) : Effect.void)
        })
      }),
    err: (text) => void process.stderr.write(text),
    stderrIsTTY: process.stderr.isTTY === true,
    stdoutColumns: process.stdout.isTTY === true ? (process.stdout.columns ?? 80) : undefined
  }
  return {
    output,
    stop: () => {
      stopped = true
    },
    whenIdle: (f) => {
      if (writing === 0) f()
      else waiting.push(f)
    }
  }
}

/** Writes to stdout and waits until the text is handed on (backpressure for streamed parts). */
export const writeOut = (text: string): Effect.Effect<void, StdoutClosed, Output> => Output.use((o) => o.out(text))

/** One line on stderr (a newline added when missing). */
export const writeErr = (line: string): Effect.Effect<void, never, Output> => Output.useSync((o) => o.err(line.endsWith("\n") ? line : line + "\n"))

export { formatFinding }

/** How many lines a bundle, impact or list run shows before the tally line (core/render/findings-cap.ts). */
export const FINDINGS_SHOWN = 10

/** How findings are written: `file:line: code: message` lines, or GitHub workflow commands (annotations). */
export type FindingsStyle = "text" | "github"

export interface FindingsMode {
  /** Errors only (refusals); warnings are counted in the tally. */
  readonly quiet: boolean
  /** Every finding, no cap: `check` and `--verbose`. */
  readonly all: boolean
  /** `github` (`--findings github`): workflow commands, paths from the working folder; default text. */
  readonly style?: FindingsStyle
  /** The root the findings' paths are relative to (for the github style). */
  readonly root?: string
}

/**
 * The one sink for corpus findings, on stderr, and its cap rule (core/render/findings-cap.ts): a capped
 * run shows at most FINDINGS_SHOWN lines, one per file and rule (with a count): each refused
 * file's first refusal before any file gets a second line or any other file a line, then one
 * tally line naming how many more files and findings there are and where to see them all.
 * `check` and `--verbose` list every finding. `--quiet` shows only errors, under the same cap (the
 * tally counts errors only then). The github style keeps the cap (a step shows few annotations
 * anyway) and makes the tally a notice.
 */
export const writeFindings = (findings: ReadonlyArray<Finding>, mode: FindingsMode): Effect.Effect<void, never, Output | Invocation> =>
  Effect.gen(function* () {
    const output = yield* Output
    const { cwd } = yield* Invocation
    const shown = mode.quiet ? findings.filter((f) => f.severity === "error") : findings
    const capped = mode.all ? null : capFindings(shown, FINDINGS_SHOWN)
    const kept = capped === null ? shown : capped.shown.map(countedFinding)
    const tally = capped === null ? null : tallyLine(capped)
    if (mode.style === "github") {
      const text =
        findingsGithub(kept, findingsPrefix(mode.root ?? ".", cwd)) + (tally !== null ? `::notice title=specbundle::${escapeCommandData(tally)}\n` : "")
      if (text !== "") output.err(text)
      return
    }
    const lines = kept.map(formatFinding)
    if (tally !== null) lines.push(tally)
    if (lines.length > 0) output.err(lines.join("\n") + "\n")
  })
