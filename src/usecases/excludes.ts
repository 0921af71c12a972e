// A request's excludes: the caller's (a refused one is a parameter problem) and the configuration
// file's (a refused one is the file's problem), normalized by the one rule in core/read/discover.ts.
import * as Effect from "effect/Effect"
import { normalizeExclude } from "../core/read/discover.js"
import type { Diagnostic } from "./requests.js"
import { ConfigError } from "./requests.js"
import { FIELD_NAMES, type Spelling } from "./spelling.js"

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

/** The request's excludes normalized, or their problems as diagnostics rows (under the field's name as `spell` names it). */
export const requestExcludes = (values: ReadonlyArray<string>, spell: Spelling = FIELD_NAMES): { paths: string[]; diagnostics: Diagnostic[] } => {
  const { paths, problems } = splitExcludes(values)
  return { paths, diagnostics: problems.map((problem) => ({ scope: spell.name("exclude"), problem })) }
}

/** The merged excludes (configuration, profile, request) normalized; a refused one names the file. */
export const settledExcludes = (values: ReadonlyArray<string>, configPath: string | null): Effect.Effect<string[], ConfigError> => {
  const { paths, problems } = splitExcludes(values)
  return problems.length > 0 ? Effect.fail(new ConfigError({ path: configPath, reason: "exclude", problem: problems[0] ?? "" })) : Effect.succeed(paths)
}
