// The excludes of a run: the flags' (a refused one is a parameter problem, exit 2) and the
// configuration file's (a refused one is the file's problem, exit 1), normalized by the one rule
// in core/discover.ts; after the read, an exclude that matched nothing is said on stderr.
import * as Effect from "effect/Effect"
import { unmatchedExcludes } from "../../core/discover.js"
import { splitExcludes as split } from "../../usecases/excludes.js"
import type { Diagnostic } from "./diagnostics.js"
import { CliFailure } from "./errors.js"
import { type Output, writeErr } from "./output.js"

/** The --exclude values normalized, or their problems as diagnostics rows. */
export const flagExcludes = (values: ReadonlyArray<string>): { paths: string[]; diagnostics: Diagnostic[] } => {
  const { paths, problems } = split(values)
  return { paths, diagnostics: problems.map((problem) => ({ scope: "exclude", problem })) }
}

/** The merged excludes (configuration, profile, flags) normalized; a refused one names the file. */
export const settledExcludes = (values: ReadonlyArray<string>, configPath: string | null): Effect.Effect<string[], CliFailure> => {
  const { paths, problems } = split(values)
  return problems.length > 0 ? Effect.fail(new CliFailure({ line: `${configPath ?? "configuration"}: exclude: ${problems[0]}` })) : Effect.succeed(paths)
}

/** One warning line per exclude that left nothing out: never ignore an exclude silently. */
export const warnUnmatched = (excludes: ReadonlyArray<string>, root: string, quiet: boolean): Effect.Effect<void, never, Output> =>
  quiet
    ? Effect.void
    : Effect.forEach(unmatchedExcludes(excludes), (e) => writeErr(`specbundle: warning: exclude "${e}" matches nothing under ${root}`), { discard: true })
