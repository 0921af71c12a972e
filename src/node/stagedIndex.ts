// The staged changes of a long-lived entrance's repository, answered from memory (issue 50): the
// MCP server's `impact {staged}` after a staged edit asked git three questions (where the root is
// and HEAD, the index's listing, the index against HEAD) whose answers follow from the last ones
// and the index file's new content. The staged changes are the index against HEAD's tree; while
// HEAD, the refs and git's settings keep their stat data (headStamp, src/node/stagedStamp.ts),
// HEAD's tree is the one git compared last time, so a path's HEAD side is the one the last diff
// named for it, or else its last index entry (a path the diff did not name was the same in both).
// The index file is read here (indexFile.ts) and compared entry by entry with the last one: only
// the paths whose entries changed are compared with HEAD again.
//
// Only what git's answer is known to be: git is asked as ever (and its answer kept, once the index
// file read here lists what git listed and nothing moved meanwhile) when there is no earlier
// answer, when HEAD, a ref or a setting changed (or changed within the racy window), when the
// index holds a conflict or an intent-to-add entry, when a changed path is not a regular file on
// either side (a submodule's changes follow settings this does not read), and when the changes
// hold both an added and a deleted file (git's rename detection pairs them by content).
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { readFileSync } from "node:fs"
import type { BlobEntry, IndexListing, RepoChange } from "../core/changes/changeset.js"
import { splitZ } from "../core/changes/changeset.js"
import { type IndexEntry, type IndexFile, readIndexFile } from "./indexFile.js"
import { headStamp } from "./stagedStamp.js"

/** A path's side: its mode and object id, or null where the side has no such path. */
type Side = { readonly mode: string; readonly object: string } | null

/** Where the root is in its repository (GitDiff's RepoLocation). */
export interface StagedLocation {
  readonly root: string
  readonly top: string
  readonly prefix: string
}

/** What git's three answers give a `--staged` diff. */
export interface StagedAnswer {
  readonly location: StagedLocation
  /** The commit HEAD names (null before the first commit). */
  readonly head: string | null
  /** The index's merged regular files, in its order (repository-relative). */
  readonly merged: ReadonlyArray<BlobEntry>
  /** The index against HEAD (repository-relative), as `git diff --cached -M --raw` gives them. */
  readonly changes: ReadonlyArray<RepoChange>
  /** HEAD's object id of each changed path that is a regular file there. */
  readonly oldObjects: ReadonlyMap<string, string>
}

/** The state of one root as last answered. */
interface Kept {
  readonly stamp: string
  readonly location: StagedLocation
  readonly head: string | null
  readonly index: IndexFile
  /** Each path where the index differs from HEAD: HEAD's side, and the index's. */
  readonly heads: ReadonlyMap<string, Side>
  readonly staged: ReadonlyMap<string, Side>
  readonly answer: StagedAnswer
}

/** What the repository was before git was asked: kept with git's answer if nothing moved meanwhile. */
export interface StagedBefore {
  readonly root: string
  readonly stamp: string
  readonly indexPath: string
  readonly bytes: Buffer
}

const isRegular = (mode: string): boolean => mode === "100644" || mode === "100755"
const sideOf = (e: IndexEntry | undefined): Side => (e === undefined ? null : { mode: e.mode, object: e.object })
const sameSide = (a: Side, b: Side): boolean => (a === null ? b === null : b !== null && a.mode === b.mode && a.object === b.object)
/** Whether every entry is merged and none is an intent-to-add placeholder. */
const plain = (entries: ReadonlyArray<IndexEntry>): boolean => entries.every((e) => e.stage === 0 && !e.intentToAdd)

/**
 * The changes and HEAD's object ids from the sides of each differing path, or undefined where git
 * could answer otherwise (a side not a regular file; an added and a deleted file, which -M may pair).
 */
const changesOf = (heads: ReadonlyMap<string, Side>, staged: ReadonlyMap<string, Side>) => {
  const changes: RepoChange[] = []
  const oldObjects = new Map<string, string>()
  let added = false
  let deleted = false
  for (const [path, head] of heads) {
    const now = staged.get(path) ?? null
    if ((head !== null && !isRegular(head.mode)) || (now !== null && !isRegular(now.mode))) return undefined
    if (head !== null) oldObjects.set(path, head.object)
    if (head === null) added = true
    else if (now === null) deleted = true
    changes.push({ path, status: head === null ? "added" : now === null ? "deleted" : "modified" })
  }
  return added && deleted ? undefined : { changes, oldObjects }
}

const mergedOf = (entries: ReadonlyArray<IndexEntry>): BlobEntry[] => entries.filter((e) => isRegular(e.mode))

/** The index file's bytes, or undefined when it cannot be read. */
const bytesOf = (path: string): Buffer | undefined => {
  try {
    return readFileSync(path)
  } catch {
    return undefined
  }
}

/** The paths whose entries differ between two reads of the index, with each one's entry in either (undefined: none). */
const changedEntries = (was: IndexFile, now: IndexFile): Map<string, { was: IndexEntry | undefined; now: IndexEntry | undefined }> => {
  const changed = new Map<string, { was: IndexEntry | undefined; now: IndexEntry | undefined }>()
  if (was.entries.length === now.entries.length) {
    let samePaths = true
    for (let i = 0; i < now.entries.length && samePaths; i++) {
      const [a, b] = [was.entries[i], now.entries[i]]
      if (a === b) continue
      if (a.path !== b.path) samePaths = false
      else changed.set(a.path, { was: a, now: b })
    }
    if (samePaths) return changed
    changed.clear()
  }
  // Entries added or removed: by path (merged entries only, so one per path).
  const before = new Map(was.entries.map((e) => [e.path, e]))
  for (const e of now.entries) {
    const old = before.get(e.path)
    before.delete(e.path)
    if (old !== e) changed.set(e.path, { was: old, now: e })
  }
  for (const [path, e] of before) changed.set(path, { was: e, now: undefined })
  return changed
}

/** The `--staged` answers of each root, kept for as long as this value lives (a long-lived entrance's). */
export const stagedIndex = () => {
  const kept = new Map<string, Kept>()

  /** The answer for `root` from memory, or undefined: ask git. */
  const answer = (root: string, env: NodeJS.ProcessEnv): StagedAnswer | undefined => {
    const last = kept.get(root)
    if (last === undefined) return undefined
    const stamp = headStamp(root, env)
    if (stamp === undefined || stamp.stamp !== last.stamp) return undefined
    const bytes = bytesOf(stamp.index)
    // HEAD read before the index and after it the same: the index read belongs with it.
    if (bytes === undefined || headStamp(root, env)?.stamp !== last.stamp) return undefined
    if (bytes.equals(last.index.bytes)) return last.answer
    const index = readIndexFile(bytes, last.index)
    if (index === undefined || !plain(index.entries)) return undefined
    const heads = new Map(last.heads)
    const staged = new Map(last.staged)
    for (const [path, { was, now }] of changedEntries(last.index, index)) {
      const head = last.heads.has(path) ? last.heads.get(path)! : sideOf(was)
      const side = sideOf(now)
      if (sameSide(head, side)) {
        heads.delete(path)
        staged.delete(path)
      } else {
        heads.set(path, head)
        staged.set(path, side)
      }
    }
    const diff = changesOf(heads, staged)
    if (diff === undefined) return undefined
    const next: StagedAnswer = { location: last.location, head: last.head, merged: mergedOf(index.entries), ...diff }
    kept.set(root, { ...last, index, heads, staged, answer: next })
    return next
  }

  /** The repository before git is asked for `root`'s staged changes (undefined: nothing git says will be kept). */
  const before = (root: string, env: NodeJS.ProcessEnv): StagedBefore | undefined => {
    kept.delete(root)
    const stamp = headStamp(root, env)
    const bytes = stamp === undefined ? undefined : bytesOf(stamp.index)
    return stamp === undefined || bytes === undefined ? undefined : { root, stamp: stamp.stamp, indexPath: stamp.index, bytes }
  }

  /**
   * Keeps git's answers (the index's listing, `diff --cached -M --raw -z`'s text, HEAD, the
   * location) when nothing moved since `was` and the index file read here lists what git listed.
   */
  const keep = (
    was: StagedBefore,
    env: NodeJS.ProcessEnv,
    given: { readonly location: StagedLocation; readonly head: string | null; readonly listing: IndexListing; readonly raw: string }
  ): void => {
    const stamp = headStamp(was.root, env)
    const bytes = stamp === undefined ? undefined : bytesOf(stamp.index)
    if (stamp?.stamp !== was.stamp || bytes === undefined || !bytes.equals(was.bytes)) return
    const index = readIndexFile(bytes)
    if (index === undefined || !plain(index.entries) || given.listing.unmerged.length > 0) return
    const merged = mergedOf(index.entries)
    const listed = given.listing.merged
    if (merged.length !== listed.length || merged.some((e, i) => e.path !== listed[i].path || e.object !== listed[i].object || e.mode !== listed[i].mode))
      return
    const byPath = new Map(index.entries.map((e) => [e.path, e]))
    const heads = new Map<string, Side>()
    const staged = new Map<string, Side>()
    const items = splitZ(given.raw)
    for (let i = 0; i < items.length; ) {
      const [oldMode, newMode, oldObject, newObject, status] = items[i++].slice(1).split(" ")
      const code = status?.charAt(0)
      const old: Side = /^0+$/.test(oldObject ?? "0") ? null : { mode: oldMode, object: oldObject }
      const now: Side = /^0+$/.test(newObject ?? "0") ? null : { mode: newMode, object: newObject }
      const first = items[i++]
      if (code === "R") {
        const second = items[i++]
        heads.set(first, old).set(second, null)
        staged.set(first, null).set(second, now)
      } else if (code === "A" || code === "D" || code === "M" || code === "T") {
        heads.set(first, old)
        staged.set(first, now)
      } else return
    }
    // What git compared is the index read here: each changed path's index side is its entry.
    for (const [path, side] of staged) if (!sameSide(side, sideOf(byPath.get(path)))) return
    // A rename, a file not regular: git's answer is not one this could give again.
    const diff = changesOf(heads, staged)
    if (diff === undefined) return
    const answer: StagedAnswer = { location: given.location, head: given.head, merged, ...diff }
    kept.set(was.root, { stamp: stamp.stamp, location: given.location, head: given.head, index, heads, staged, answer })
  }

  return { answer, before, keep } as const
}

/**
 * The `--staged` answers a long-lived entrance keeps between calls (the MCP server); absent, as in
 * the CLI, git is asked on every run. GitDiff uses it when its context holds one.
 */
export class StagedIndex extends Context.Service<StagedIndex, ReturnType<typeof stagedIndex>>()("specbundle/StagedIndex") {
  /** A fresh one, for as long as the layer lives. */
  static readonly layer: Layer.Layer<StagedIndex> = Layer.sync(this, stagedIndex)
}
