// Writing results and findings. stdout carries only the result; everything else goes to stderr.
import * as Effect from "effect/Effect"
import { formatFinding } from "../core/finding-text.js"
import type { Finding } from "../core/model.js"
import { StdoutClosed } from "./errors.js"

let stdoutClosed = false
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  // A reader that went away (`| head`) is not an error of ours.
  if (e.code === "EPIPE") stdoutClosed = true
})

/** Writes to stdout and waits until the text is handed to the OS (backpressure for streamed parts). */
export const writeOut = (text: string): Effect.Effect<void, StdoutClosed> =>
  Effect.async<void, StdoutClosed>((resume) => {
    if (stdoutClosed) return resume(Effect.fail(new StdoutClosed()))
    process.stdout.write(text, (err) => resume(err ? Effect.fail(new StdoutClosed()) : Effect.void))
  })

export const writeErr = (line: string): Effect.Effect<void> => Effect.sync(() => void process.stderr.write(line.endsWith("\n") ? line : line + "\n"))

export { formatFinding }

export const writeFindings = (findings: ReadonlyArray<Finding>, quiet: boolean): Effect.Effect<void> =>
  Effect.sync(() => {
    const shown = quiet ? findings.filter((f) => f.severity === "error") : findings
    if (shown.length > 0) process.stderr.write(shown.map(formatFinding).join("\n") + "\n")
  })
