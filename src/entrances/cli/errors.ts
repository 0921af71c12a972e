// How a run ends. Handlers fail with these; exit.ts turns them into one stderr line and an exit code
// (0 a value was produced, 2 wrong parameters, 1 anything else), never a stack trace.
import * as Data from "effect/Data"

/** Wrong parameters: the `{ diagnostics }` value has already been written to stdout. */
export class ParameterError extends Data.TaggedError("ParameterError")<{ readonly line: string }> {
  override get message() {
    return this.line
  }
}

/** A failure with one line for stderr (git, the file system, a configuration file). */
export class CliFailure extends Data.TaggedError("CliFailure")<{ readonly line: string }> {
  override get message() {
    return this.line
  }
}

/** The value was written; the run still ends non-zero (`check` with a refusal, `--strict`, `stale`). */
export class ExitWith extends Data.TaggedError("ExitWith")<{ readonly code: number }> {}

/** stdout was closed by the reader (`| head`): end quietly. */
export class StdoutClosed extends Data.TaggedError("StdoutClosed")<{}> {}
