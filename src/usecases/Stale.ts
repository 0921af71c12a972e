// The `stale` use case: is a written set of parts (its manifest.json) still what the corpus would
// give? It reads the manifest, finds the corpus it was built from (or the one given), reads that
// corpus's files and compares their hashes with those recorded. Whoever cannot tell gets a typed
// failure (StaleFailure, or the read's own); the answer is data, the entrance renders it.
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as nodePath from "node:path"
import type { Manifest } from "../core/manifest.js"
import { MANIFEST, parseManifest } from "../core/manifest.js"
import { byCodeUnits } from "../core/model.js"
import { GraphReader } from "../services/GraphReader.js"

/** What changed since the manifest was written, each list a sorted set of root-relative paths. */
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

/** Why `stale` cannot tell: the manifest is missing or not one, or the corpus root is gone. */
export type StaleTrouble =
  | { readonly _tag: "NoManifest"; readonly path: string; readonly dir: string }
  | { readonly _tag: "NotAManifest"; readonly path: string; readonly problem: string }
  | { readonly _tag: "RootGone"; readonly root: string; readonly given: boolean }

const troubleLine = (t: StaleTrouble): string => {
  switch (t._tag) {
    case "NoManifest":
      return `${t.path}: no manifest here; write one with specbundle bundle ... --out ${t.dir}`
    case "NotAManifest":
      return `${t.path}: not a specbundle manifest (${t.problem})`
    case "RootGone":
      return `${t.root}: the corpus root is gone${t.given ? "" : " (give --root DIR to compare with a corpus elsewhere)"}`
  }
}

/** The answer cannot be told: what is wrong, as fields; `message` says it in one line. */
export class StaleFailure extends Data.TaggedError("StaleFailure")<{ readonly trouble: StaleTrouble }> {
  override get message() {
    return troubleLine(this.trouble)
  }
}

/** A written set: its manifest, and the corpus root to compare with (absolute). */
export interface WrittenSet {
  readonly manifest: Manifest
  readonly root: string
}

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const reader = yield* GraphReader

  /**
   * The manifest in `at` (absolute; `dir`: the folder as the caller named it, for the line), and
   * the root to compare with: `root` when given (absolute), else the one it was built from.
   */
  const open = Effect.fn("Stale.open")(function* (at: string, dir: string, root?: string) {
    const path = nodePath.resolve(at, MANIFEST)
    const text = yield* fs.readFileString(path).pipe(Effect.mapError(() => new StaleFailure({ trouble: { _tag: "NoManifest", path, dir } })))
    // Decoded all the way down: a hand-edited value reaches the reader's excludes and the comparison.
    const manifest = yield* Effect.fromResult(
      Result.mapError(parseManifest(text), (problem) => new StaleFailure({ trouble: { _tag: "NotAManifest", path, problem } }))
    )
    const corpus = root ?? manifest.builtFrom.root
    const info = yield* fs.stat(corpus).pipe(Effect.option)
    if (Option.isNone(info) || info.value.type !== "Directory") {
      return yield* new StaleFailure({ trouble: { _tag: "RootGone", root: corpus, given: root !== undefined } })
    }
    return { manifest, root: corpus } satisfies WrittenSet
  })

  /** The corpus read under the manifest's excludes, its files compared with those recorded. */
  const compare = Effect.fn("Stale.compare")(function* (set: WrittenSet) {
    const { files } = yield* reader.readTree({ root: set.root, exclude: set.manifest.builtFrom.exclude })
    return compareFiles(set.manifest.builtFrom.files, files())
  })

  return { open, compare } as const
})

export class Stale extends Context.Service<Stale, Effect.Success<typeof make>>()("specbundle/Stale") {
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Stale, never, FileSystem.FileSystem | GraphReader> = Layer.effect(this, make)
  /** The live service with the reader under it but a FileSystem and the runtime (src/node/runtime.ts). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(GraphReader.Default))
}
