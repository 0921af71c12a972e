// The `stale` handler, loaded when the command runs (stale.ts holds its definition, all `--help`
// needs): the Stale use case's answer rendered, one line per path (a moved changeset's line
// first), and its exit.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Stale } from "../../../usecases/Stale.js"
import { ExitWith } from "../errors.js"
import type { StaleArgs } from "../commands/stale.js"
import { inCwd } from "../invocation.js"
import { writeErr, writeOut } from "../output/output.js"
import { withProgress } from "../output/progress.js"

/** Could not tell (diff(1)'s "trouble"): one stderr line, exit 2. */
const cannotTell = (line: string) => writeErr(`specbundle: stale: ${line}`).pipe(Effect.andThen(Effect.fail(new ExitWith({ code: 2 }))))

export const runStale = (args: StaleArgs) =>
  Effect.gen(function* () {
    const stale = yield* Stale
    const root = Option.isSome(args.root) ? yield* inCwd(args.root.value) : undefined
    const set = yield* stale.open(yield* inCwd(args.dir), args.dir, root)
    const s = yield* withProgress(stale.compare(set), `reading ${set.root}`, false)
    const move = yield* stale.moved(set)
    const lines = [
      ...(move === null ? [] : [move]),
      ...s.added.map((p) => `added ${p}`),
      ...s.removed.map((p) => `removed ${p}`),
      ...s.changed.map((p) => `changed ${p}`)
    ]
    if (lines.length === 0) return
    yield* writeOut(lines.join("\n") + "\n")
    return yield* new ExitWith({ code: 1 })
  }).pipe(
    // Every failure here means the answer is unknown: exit 2, never 1 (which says "stale").
    Effect.catchTags({ StaleFailure: (e) => cannotTell(e.message), ReadError: (e) => cannotTell(e.message) })
  )
