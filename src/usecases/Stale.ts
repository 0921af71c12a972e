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
import type { Changeset } from "../core/changes/changeset.js"
import { decodeChangeset, GitDiff } from "../services/GitDiff.js"
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

/**
 * Why `stale` cannot tell: the manifest is missing or not one, the corpus root is gone, the
 * manifest's changeset cannot be read, or git cannot resolve it (other than not knowing it).
 */
export type StaleTrouble =
  | { readonly _tag: "NoManifest"; readonly path: string; readonly dir: string }
  | { readonly _tag: "NotAManifest"; readonly path: string; readonly problem: string }
  | { readonly _tag: "RootGone"; readonly root: string; readonly given: boolean }
  | { readonly _tag: "BadChangeset"; readonly problem: string }
  | { readonly _tag: "Unresolved"; readonly label: string; readonly root: string; readonly problem: string }

const troubleLine = (t: StaleTrouble): string => {
  switch (t._tag) {
    case "NoManifest":
      return `${t.path}: no manifest here; write one with specbundle bundle ... --out ${t.dir}`
    case "NotAManifest":
      return `${t.path}: not a specbundle manifest (${t.problem})`
    case "RootGone":
      return `${t.root}: the corpus root is gone${t.given ? "" : " (give --root DIR to compare with a corpus elsewhere)"}`
    case "BadChangeset":
      return `the manifest's changeset: ${t.problem}`
    case "Unresolved":
      return `cannot resolve changeset ${t.label} at ${t.root}: ${t.problem}`
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

/** The changeset a manifest's scope names ("--staged" for the staged changes), or null: a Pack or Specs bundle. */
const changesetOf = (manifest: Manifest): string | null => {
  const scope = manifest.scope as { readonly changeset?: string }
  return scope.changeset ?? null
}

const short = (commit: string | null): string => (commit === null ? "no commit" : commit.slice(0, 12))

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const reader = yield* GraphReader
  const git = yield* GitDiff

  /**
   * Whether a changeset bundle's changeset still names what it was built from (bundle-contract.md
   * section 3): resolved again at `root` as the bundle resolved it, its old side against
   * `builtFrom.base`, its new side (B, or HEAD for the work tree and --staged) against
   * `builtFrom.commit`, and a work tree's dirtiness against `builtFrom.dirty`. One line when it
   * moved, else null. A revision git no longer knows is a move; git failing otherwise cannot tell.
   */
  const changesetMove = (root: string, label: string, builtFrom: Manifest["builtFrom"]) =>
    Effect.gen(function* () {
      const changeset: Changeset =
        label === "--staged"
          ? { _tag: "Staged" }
          : yield* decodeChangeset(label).pipe(Effect.mapError((e) => new StaleFailure({ trouble: { _tag: "BadChangeset", problem: e.message } })))
      const diff = yield* git.diff(root, changeset).pipe(
        Effect.map((d) => ({ moved: false as const, diff: d })),
        Effect.catchTag("UnknownRevisionError", (e) => Effect.succeed({ moved: true as const, line: `changeset ${label} no longer resolves: ${e.message}` })),
        Effect.mapError((e) => new StaleFailure({ trouble: { _tag: "Unresolved", label, root, problem: e.message } }))
      )
      if (diff.moved) return diff.line
      const { oldCommit, newSource } = diff.diff
      if (builtFrom.base !== undefined && oldCommit !== builtFrom.base) {
        return `changeset ${label} now resolves to ${short(oldCommit)}; the bundle was built from ${short(builtFrom.base)}`
      }
      const state = newSource._tag === "Tree" ? { commit: newSource.commit, dirty: false } : yield* git.repoState(root)
      if (state.commit !== builtFrom.commit) {
        return changeset._tag === "Range" || changeset._tag === "MergeBase"
          ? `changeset ${label} now ends at ${short(state.commit)}; the bundle was built from ${short(builtFrom.commit)}`
          : `HEAD is now ${short(state.commit)}; the bundle of changeset ${label} was built at ${short(builtFrom.commit)}`
      }
      if (state.dirty !== null && builtFrom.dirty !== null && state.dirty !== builtFrom.dirty) {
        return state.dirty
          ? `the work tree now has changes; the bundle of changeset ${label} was built from a clean one`
          : `the work tree is now clean; the bundle of changeset ${label} was built from one with changes`
      }
      return null
    })

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

  /** A changeset bundle's changeset resolved again: the line that says it moved, or null (also for a Pack or Specs bundle). */
  const moved = Effect.fn("Stale.moved")(function* (set: WrittenSet) {
    const label = changesetOf(set.manifest)
    return label === null ? null : yield* changesetMove(set.root, label, set.manifest.builtFrom)
  })

  return { open, compare, moved } as const
})

export class Stale extends Context.Service<Stale, Effect.Success<typeof make>>()("specbundle/Stale") {
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Stale, never, FileSystem.FileSystem | GraphReader | GitDiff> = Layer.effect(this, make)
  /** The live service with the reader and git under it but a FileSystem and the runtime (src/node/runtime.ts). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Layer.mergeAll(GraphReader.Default, GitDiff.Default)))
}
