// The `{ diagnostics: [{ scope, problem }] }` value: the one shape for wrong parameters (exit 2).
import * as Effect from "effect/Effect"
import type { Diagnostic } from "../../core/diagnostic.js"
import type { ParameterProblems } from "../../usecases/requests.js"
import { ParameterError } from "./errors.js"
import { writeOut } from "./output.js"

export type { Diagnostic }

/**
 * Prints the value on stdout and one line on stderr (`scope: problem; ...` unless `line` is given),
 * then fails with exit 2.
 */
export const failWithDiagnostics = (diagnostics: ReadonlyArray<Diagnostic>, line?: string) =>
  writeOut(JSON.stringify({ diagnostics }) + "\n").pipe(
    Effect.catch(() => Effect.void),
    Effect.andThen(Effect.fail(new ParameterError({ line: line ?? diagnostics.map((d) => `${d.scope}: ${d.problem}`).join("; ") })))
  )

/**
 * Renders a use case's parameter problems as the CLI does (a RunFailure needs nothing: its message
 * is the stderr line, exit 1, as bin.ts prints any failure).
 */
export const renderProblems = <A, E, R>(self: Effect.Effect<A, E | ParameterProblems, R>) =>
  Effect.catchIf(
    self,
    (e): e is ParameterProblems => (e as { _tag?: unknown })?._tag === "ParameterProblems",
    (e) => failWithDiagnostics(e.diagnostics)
  )
