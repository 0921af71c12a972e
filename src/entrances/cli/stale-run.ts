// The `stale` handler, loaded when the command runs (stale.ts holds its definition, all `--help` needs).
import * as FileSystem from "effect/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as nodePath from "node:path"
import type { Changeset } from "../../core/changeset.js"
import type { Manifest } from "../../core/manifest.js"
import { byCodeUnits } from "../../core/model.js"
import { decodeChangeset, GitDiff } from "../../services/GitDiff.js"
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

/** The changeset a manifest's scope names ("--staged" for the staged changes), or null: a Pack or Specs bundle. */
const changesetOf = (manifest: Manifest): string | null => {
  const scope = manifest.scope as { readonly changeset?: string }
  return scope.changeset ?? null
}

const short = (commit: string | null): string => (commit === null ? "no commit" : commit.slice(0, 12))

/**
 * Whether a changeset bundle's changeset still names what it was built from (bundle-contract.md
 * section 3): resolved again at `root` as the bundle resolved it, its old side against
 * `builtFrom.base`, its new side (B, or HEAD for the work tree and --staged) against
 * `builtFrom.commit`, and a work tree's dirtiness against `builtFrom.dirty`. One line when it
 * moved, else null. A revision git no longer knows is a move; git failing otherwise cannot tell.
 */
const changesetMove = (root: string, label: string, builtFrom: Manifest["builtFrom"]) =>
  Effect.gen(function* () {
    const git = yield* GitDiff
    const changeset: Changeset =
      label === "--staged"
        ? { _tag: "Staged" }
        : yield* decodeChangeset(label).pipe(Effect.mapError((e) => new CliFailure({ line: `the manifest's changeset: ${e.message}` })))
    const diff = yield* git.diff(root, changeset).pipe(
      Effect.map((d) => ({ moved: false as const, diff: d })),
      Effect.catchTag("UnknownRevisionError", (e) => Effect.succeed({ moved: true as const, line: `changeset ${label} no longer resolves: ${e.message}` })),
      Effect.mapError((e) => new CliFailure({ line: `cannot resolve changeset ${label} at ${root}: ${e.message}` }))
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
    const label = changesetOf(manifest)
    const move = label === null ? null : yield* changesetMove(root, label, manifest.builtFrom)
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
    Effect.catchTag("CliFailure", (e) => cannotTell(e.line)),
    Effect.provide(ServicesLive)
  )
