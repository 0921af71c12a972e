// What the files of a corpus gave last time, kept between runs, the way git's index keeps stat
// data: a hook runs on every commit and most files have not changed, while reading, hashing and
// parsing them is most of a run. Each entry holds the file's stat data (when the file was safely
// older than the run that saw it), the SHA-256 and git object id of its bytes, and what parsing
// gave. An entry is used only for the same path, under the same build of the CLI and the same
// options; its stat data only when they match the file's now, its object id only for the index's
// entry of that id, else only for the same bytes; so it can only give what reading and parsing
// would give (docs/decisions.md, "The parse cache"). It is kept in SHARDS files by path, so a
// commit that changes a few files rewrites a few of them, not the whole cache. The files live in
// the loader's per-user cache folder, with its trust rules (src/loader.cjs); without the loader
// (tests run the sources) or with SPECBUNDLE_CODE_CACHE=0 there is no cache.
import { isAscii } from "node:buffer"
import { createHash } from "node:crypto"
import { realpathSync } from "node:fs"
import type { CarrierRead } from "../core/model.js"

/** The loader's store: files in its cache folder, read only when trusted and whole. */
export interface CacheStore {
  /** SHA-256 of the bundle: results of another build are never read. */
  readonly build: string
  readonly read: (name: string) => Uint8Array | undefined
  readonly write: (name: string, data: Uint8Array) => void
}

let store: CacheStore | undefined
/** Called by the bundled entry with what the loader offers (nothing when the cache is off). */
export const enableParseCache = (offered: CacheStore | undefined): void => {
  store = offered
}

/** What one file gave in an earlier run. */
export interface CacheEntry {
  /** `size:mtime:ctime:inode` (fractional milliseconds) when the file was safely older than that run; null: hash before trusting. */
  readonly stat: string | null
  /** SHA-256 of the bytes. */
  readonly hash: string
  /** Git object id of the bytes, when a run needed it (the index read); null otherwise. */
  readonly oid: string | null
  /** What the file gave (null: nothing). */
  readonly read: CarrierRead | null
}

/** path -> what the file gave last time. */
export type KnownReads = ReadonlyMap<string, CacheEntry>

/** One saved entry: [path, stat, hash, oid, read]. */
export type SavedEntry = readonly [string, string | null, string, string | null, CarrierRead | null]

export interface ParseCache {
  readonly known: KnownReads
  /** Keeps exactly these entries (the files read this run); rewrites only the shards that changed. */
  readonly save: (entries: ReadonlyArray<SavedEntry>) => void
}

const FORMAT = 3
/** Files per cache: a Spec's result is about as large as the Spec, so a corpus's cache is about its size. */
const SHARDS = 16

/** The shard of a path: FNV-1a over its code units. */
export const shardOf = (path: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193)
  return (h >>> 0) % SHARDS
}

/**
 * A shard's bytes: JSON with every non-ASCII character escaped, so that reading it back can take
 * the bytes as Latin-1, a plain copy into a one-byte string, where decoding 28 MB of UTF-8 took
 * ~0.1 s (and two-byte strings would double the heap the garbage collector copies).
 */
const encode = (value: unknown): Buffer =>
  Buffer.from(
    JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    "latin1"
  )

const decode = (data: Uint8Array): string => {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  // A file of ours is ASCII; anything else is read as UTF-8 (and then most likely refused as not ours).
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8")
}

const sameEntry = (e: SavedEntry, k: CacheEntry | undefined): boolean =>
  k !== undefined && k.hash === e[2] && k.oid === e[3] && k.stat === e[1] && (k.read === null) === (e[4] === null)

/**
 * The cache of one corpus (its real root and options), or undefined when there is none. The work
 * tree's read and the index's (`--staged`) keep one each: their file sets differ (untracked
 * files), and alternating runs would otherwise rewrite them every time.
 */
export const openParseCache = (root: string, selfHosting: boolean, source: "tree" | "index"): ParseCache | undefined => {
  const current = store
  if (current === undefined) return undefined
  let realRoot: string
  try {
    realRoot = realpathSync(root)
  } catch {
    return undefined
  }
  const base = createHash("sha256")
    .update(JSON.stringify([FORMAT, current.build, realRoot, selfHosting, source]))
    .digest("hex")
    .slice(0, 40)
  const nameOf = (shard: number) => `${base}-${shard.toString(16).padStart(2, "0")}`
  const known = new Map<string, CacheEntry>()
  /** Entries per shard as read, to tell which shards a save must rewrite. */
  const counts = new Array<number>(SHARDS).fill(0)
  for (let shard = 0; shard < SHARDS; shard++) {
    try {
      const data = current.read(nameOf(shard))
      if (data === undefined) continue
      const value = JSON.parse(decode(data)) as { format?: unknown; entries?: unknown }
      if (value.format !== FORMAT || !Array.isArray(value.entries)) continue
      for (const e of value.entries as SavedEntry[]) {
        // A path in the wrong shard would never be rewritten: such a file is not ours.
        if (shardOf(e[0]) !== shard) throw new Error("foreign entry")
        known.set(e[0], { stat: e[1], hash: e[2], oid: e[3], read: e[4] })
        counts[shard]++
      }
    } catch {
      // unreadable or not ours: read everything, then write new ones
      known.clear()
      counts.fill(0)
      break
    }
  }
  return {
    known,
    save: (entries) => {
      // The usual warm run: nothing changed, nothing to sort into shards.
      if (entries.length === known.size && entries.every((e) => sameEntry(e, known.get(e[0])))) return
      const byShard: SavedEntry[][] = Array.from({ length: SHARDS }, () => [])
      for (const e of entries) byShard[shardOf(e[0])].push(e)
      byShard.forEach((list, shard) => {
        if (list.length === counts[shard] && list.every((e) => sameEntry(e, known.get(e[0])))) return
        try {
          current.write(nameOf(shard), encode({ format: FORMAT, entries: list }))
        } catch {
          // read-only or full: the next run reads again
        }
      })
    }
  }
}
