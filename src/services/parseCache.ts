// What the files of a corpus gave last time, kept between runs, the way git's index keeps stat
// data: a hook runs on every commit and most files have not changed, while reading, hashing and
// parsing them is most of a run. Each entry holds the file's stat data (when the file was safely
// older than the run that saw it), the SHA-256 and git object id of its bytes, and for code files
// what parsing gave. An entry is used only for the same path, under the same build of the CLI
// and the same options; its stat data only when they match the file's now, else only for the
// same bytes; so it can only give what reading and parsing would give (docs/decisions.md, "The
// read cache"). The files live in the loader's per-user cache folder, with its trust rules
// (src/loader.cjs); without the loader (tests run the sources) or with SPECBUNDLE_CODE_CACHE=0
// there is no cache.
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
  /** What a code file gave (null: nothing); undefined for carriers, which are parsed every run. */
  readonly read?: CarrierRead | null
}

/** path -> what the file gave last time. */
export type KnownReads = ReadonlyMap<string, CacheEntry>

/** One saved entry: [path, stat, hash, oid] for carriers, [path, stat, hash, oid, read] for code files. */
export type SavedEntry = readonly [string, string | null, string, string | null] | readonly [string, string | null, string, string | null, CarrierRead | null]

export interface ParseCache {
  readonly known: KnownReads
  /** Keeps exactly these entries (the files read this run); writes only on a change. */
  readonly save: (entries: ReadonlyArray<SavedEntry>) => void
}

const FORMAT = 2

const sameEntry = (e: SavedEntry, k: CacheEntry | undefined): boolean =>
  k !== undefined && k.hash === e[2] && k.oid === e[3] && k.stat === e[1] && (e.length === 5) === (k.read !== undefined)

/**
 * The cache of one corpus (its real root and options), or undefined when there is none. The work
 * tree's read and the index's (`--staged`) keep a file each: their file sets differ (untracked
 * files), and alternating runs would otherwise rewrite one file every time.
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
  const name = createHash("sha256")
    .update(JSON.stringify([FORMAT, current.build, realRoot, selfHosting, source]))
    .digest("hex")
    .slice(0, 40)
  const known = new Map<string, CacheEntry>()
  try {
    const data = current.read(name)
    if (data !== undefined) {
      const value = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8")) as { format?: unknown; entries?: unknown }
      if (value.format === FORMAT && Array.isArray(value.entries)) {
        for (const e of value.entries as SavedEntry[]) {
          known.set(e[0], e.length === 5 ? { stat: e[1], hash: e[2], oid: e[3], read: e[4] } : { stat: e[1], hash: e[2], oid: e[3] })
        }
      }
    }
  } catch {
    // unreadable or not ours: read everything, then write a new one
    known.clear()
  }
  return {
    known,
    save: (entries) => {
      if (entries.length === known.size && entries.every((e) => sameEntry(e, known.get(e[0])))) return
      try {
        current.write(name, Buffer.from(JSON.stringify({ format: FORMAT, entries }), "utf8"))
      } catch {
        // read-only or full: the next run reads again
      }
    }
  }
}
