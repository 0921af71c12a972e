// The `stale` handler, loaded when the command runs (stale.ts holds its definition, all `--help` needs).
import * as FileSystem from "effect/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as nodePath from "node:path"
import { byCodeUnits } from "../../core/model.js"
import { GraphReader } from "../../services/GraphReader.js"
import { CliFailure, ExitWith } from "./errors.js"
import type { StaleArgs } from "./stale.js"
import { inCwd } from "./invocation.js"
import { ServicesLive } from "./live.js"
import { MANIFEST, parseManifest } from "../../core/manifest.js"
import { writeErr, writeOut } from "./output.js"
import { withProgress } from "./progress.js"

export interface Staleness {
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
  readonly changed: ReadonlyArray<string>
}

export const compareFiles = (recorded: ReadonlyArray<{ path: string; hash: string }>, current: ReadonlyArray<{ path: string; hash: string }>): Staleness => {
  const before = new Map(recorded.map((f) => [f.path, f.hash]))
  const now = new Map(current.map((f) => [f.path, f.hash]))
  const added = [...now.keys()].filter((p) => !before.has(p)).sort(byCodeUnits)
  const removed = [...before.keys()].filter((p) => !now.has(p)).sort(byCodeUnits)
  const changed = [...now.keys()].filter((p) => before.has(p) && before.get(p) !== now.get(p)).sort(byCodeUnits)
  return { added, removed, changed }
}

const readManifest = (dir: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = nodePath.resolve(yield* inCwd(dir), MANIFEST)
    const text = yield* fs
      .readFileString(path)
      .pipe(Effect.mapError(() => new CliFailure({ line: `${path}: no manifest here; write one with specbundle bundle ... --out ${dir}` })))
    // Decoded all the way down: a hand-edited value reaches the reader's excludes and the comparison.
    return yield* Effect.fromResult(
      Result.mapError(parseManifest(text), (problem) => new CliFailure({ line: `${path}: not a specbundle manifest (${problem})` }))
    )
  })

/** Could not tell (diff(1)'s "trouble"): one stderr line, exit 2. */
const cannotTell = (line: string) => writeErr(`specbundle: stale: ${line}`).pipe(Effect.andThen(Effect.fail(new ExitWith({ code: 2 }))))

export const runStale = (args: StaleArgs) =>
  Effect.gen(function* () {
    const manifest = yield* readManifest(args.dir)
    const fs = yield* FileSystem.FileSystem
    const root = Option.isSome(args.root) ? yield* inCwd(args.root.value) : manifest.builtFrom.root
    const info = yield* fs.stat(root).pipe(Effect.option)
    if (Option.isNone(info) || info.value.type !== "Directory") {
      return yield* new CliFailure({
        line: `${root}: the corpus root is gone${Option.isSome(args.root) ? "" : " (give --root DIR to compare with a corpus elsewhere)"}`
      })
    }
    const reader = yield* GraphReader
    const read = reader.readTree({ root, exclude: manifest.builtFrom.exclude })
    const { files } = yield* withProgress(read, `reading ${root}`, false).pipe(Effect.mapError((e) => new CliFailure({ line: e.message })))
    const s = compareFiles(manifest.builtFrom.files, files())
    const lines = [...s.added.map((p) => `added ${p}`), ...s.removed.map((p) => `removed ${p}`), ...s.changed.map((p) => `changed ${p}`)]
    if (lines.length === 0) return
    yield* writeOut(lines.join("\n") + "\n")
    return yield* new ExitWith({ code: 1 })
  }).pipe(
    // Every failure here means the answer is unknown: exit 2, never 1 (which says "stale").
    Effect.catchTag("CliFailure", (e) => cannotTell(e.line)),
    Effect.provide(ServicesLive)
  )
