// A request's excludes: the caller's (a refused one is a parameter problem) and the configuration
// file's (a refused one is the file's problem), normalized by the one rule in core/discover.ts.
import * as Effect from "effect/Effect"
import { normalizeExclude } from "../core/discover.js"
import type { Diagnostic } from "./requests.js"
import { ConfigError } from "./requests.js"

/** The values normalized (duplicates once), and the problems of those refused. */
export const splitExcludes = (values: ReadonlyArray<string>): { paths: string[]; problems: string[] } => {
  const paths: string[] = []
  const problems: string[] = []
  for (const v of values) {
    const n = normalizeExclude(v)
    if ("problem" in n) problems.push(n.problem)
    else if (!paths.includes(n.path)) paths.push(n.path)
  }
  return { paths, problems }
}

/** The request's excludes normalized, or their problems as diagnostics rows. */
export const requestExcludes = (values: ReadonlyArray<string>): { paths: string[]; diagnostics: Diagnostic[] } => {
  const { paths, problems } = splitExcludes(values)
  return { paths, diagnostics: problems.map((problem) => ({ scope: "exclude", problem })) }
}

/** The merged excludes (configuration, profile, request) normalized; a refused one names the file. */
export const settledExcludes = (values: ReadonlyArray<string>, configPath: string | null): Effect.Effect<string[], ConfigError> => {
  const { paths, problems } = splitExcludes(values)
  return problems.length > 0 ? Effect.fail(new ConfigError({ line: `${configPath ?? "configuration"}: exclude: ${problems[0]}` })) : Effect.succeed(paths)
}
