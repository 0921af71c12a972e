// The `{ diagnostics: [{ scope, problem }] }` value: the one shape for wrong parameters (exit 2).
import * as Effect from "effect/Effect"
import type { Diagnostic } from "../core/diagnostic.js"
import { ParameterError } from "./errors.js"
import { writeOut } from "./output.js"

export type { Diagnostic }

/** Prints the value on stdout and one line on stderr, then fails with exit 2. */
export const failWithDiagnostics = (diagnostics: ReadonlyArray<Diagnostic>) =>
  writeOut(JSON.stringify({ diagnostics }) + "\n").pipe(
    Effect.catchAll(() => Effect.void),
    Effect.zipRight(Effect.fail(new ParameterError({ line: diagnostics.map((d) => `${d.scope}: ${d.problem}`).join("; ") })))
  )
