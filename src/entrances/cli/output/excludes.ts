// After a read, an exclude that matched nothing is said on stderr. The excludes themselves are the
// use cases' (src/usecases/excludes.ts: normalized by the one rule in core/read/discover.ts).
import * as Effect from "effect/Effect"
import { unmatchedExcludeLines } from "../../../core/render/corpus-lines.js"
import { type Output, writeErr } from "./output.js"

/**
 * One warning line per exclude that left nothing out (`excluded`: those the read says did): never
 * ignore an exclude silently.
 */
export const warnUnmatched = (
  excludes: ReadonlyArray<string>,
  excluded: ReadonlySet<string>,
  root: string,
  quiet: boolean
): Effect.Effect<void, never, Output> => (quiet ? Effect.void : Effect.forEach(unmatchedExcludeLines(excludes, excluded, root), writeErr, { discard: true }))
