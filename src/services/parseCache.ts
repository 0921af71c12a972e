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
import { createHash } from "node:crypto"
import { realpathSync } from "node:fs"
import type { CarrierRead } from "../core/model.js"
import { type DecodedShard, type OpenedFile, type SavedEntry, decodeShard, encodeShard } from "./cacheFormat.js"

export type { SavedEntry }

/** The loader's store: files in its cache folder, read only when trusted and whole. */
export interface CacheStore {
  /** SHA-256 of the bundle: results of another build are never read. */
  readonly build: string
  readonly read: (name: string) => Uint8Array | undefined
  /** Opens the file now, to read when called (src/loader.cjs openCache): the size of its data; undefined when missing or not ours. */
  readonly open: (name: string) => OpenedFile | undefined
  readonly write: (name: string, data: Uint8Array) => void
  readonly remove: (name: string) => void
}

let store: CacheStore | undefined
/** Called by the bundled entry with what the loader offers (nothing when the cache is off). */
export const enableParseCache = (offered: CacheStore | undefined): void => {
  store = offered
}

/** Whether a cache is offered at all (the loader's store): a read will then ask git to vouch for files. */
export const parseCacheOffered = (): boolean => store !== undefined

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

export interface ParseCache {
  /** Whether an earlier run's shards were read back (then a run needs no worker threads). */
  readonly warm: boolean
  /**
   * Decides, once, which shards are whole for this listing (the files a run reads, with the object
   * ids git names for them); `known` and `whole` are empty until then.
   */
  readonly settle: (listing: ShardListing | undefined) => void
  /** The entries of every shard not whole. */
  readonly known: KnownReads
  /**
   * Per shard, what its files gave when the shard is whole: saved from a listing of the same digest
   * (the index's paths and object ids), so every file it lists is one these entries were checked
   * against, and no entry needs looking up (undefined: not whole).
   */
  readonly whole: ReadonlyArray<ReadonlyArray<CarrierRead> | undefined>
  /** Every entry of a whole shard (parsed when asked: the files' hashes for a bundle's manifest). */
  readonly wholeEntries: (shard: number) => ReadonlyArray<SavedEntry>
  /**
   * Keeps exactly these entries (the files of the shards not whole, read this run); rewrites only
   * the shards that changed. `digests`: each shard's listing digest, kept with a shard whose every
   * listed file was checked against that listing (`complete`).
   */
  readonly save: (entries: ReadonlyArray<SavedEntry>, listing?: ShardListing) => void
}

/**
 * What a read lists per shard: each shard's digest of its paths with the object ids git names for
 * them (null: a path git vouches for no object, so the shard is never whole), those ids, and how
 * many paths each shard holds.
 */
export interface ShardListing {
  readonly digests: ReadonlyArray<string | null>
  /** path -> the object id the listing names. */
  readonly objects: ReadonlyMap<string, string>
  /** How many listed paths each shard holds. */
  readonly counts: ReadonlyArray<number>
}

/**
 * Each shard's digest of a listing (root-relative paths with the object ids git names for them, in
 * the listing's order: the index's entries, or the work tree's files git vouches are those
 * objects): equal digests, equal lists, so a shard saved from one is whole for the other.
 */
export const shardListing = (entries: ReadonlyArray<{ readonly path: string; readonly object: string | null }>): ShardListing => {
  const parts: string[][] = Array.from({ length: SHARDS }, () => [])
  const eligible = new Array<boolean>(SHARDS).fill(true)
  const objects = new Map<string, string>()
  for (const e of entries) {
    const shard = shardOf(e.path)
    if (e.object === null) eligible[shard] = false
    else objects.set(e.path, e.object)
    parts[shard].push(e.path, e.object ?? "")
  }
  return {
    digests: parts.map((list, shard) => (eligible[shard] ? createHash("sha1").update(list.join("\0")).digest("hex") : null)),
    objects,
    counts: parts.map((list) => list.length / 2)
  }
}

/**
 * Which read a cache serves: the work tree's, the index's (`--staged`), or a changeset's old side
 * (blobs by object id), one for a hook's (`--staged`) and one for the others (a PR's). Each keeps
 * its own: their file sets differ, and alternating runs would otherwise rewrite one every time.
 */
export type CacheSource = "tree" | "index" | "old-index" | "old-tree"

/** 5: Specs' prose apart, parsed when read; a shard's reads before its entries (cacheFormat.ts). */
const FORMAT = 5
/** Files per cache: a Spec's result is about as large as the Spec, so a corpus's cache is about its size. */
const SHARDS = 16

/** The shard of a path: FNV-1a over its code units. */
export const shardOf = (path: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193)
  return (h >>> 0) % SHARDS
}

const sameEntry = (e: SavedEntry, k: CacheEntry | undefined): boolean =>
  k !== undefined && k.hash === e[2] && k.oid === e[3] && k.stat === e[1] && (k.read === null) === (e[4] === null)

/**
 * The cache of one corpus (its real root and options), or undefined when there is none. The work
 * tree's read and the index's (`--staged`) keep one each: their file sets differ (untracked
 * files), and alternating runs would otherwise rewrite them every time.
 */
export const openParseCache = (root: string, selfHosting: boolean, source: CacheSource): ParseCache | undefined => {
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
  const proseName = (shard: number, name: string) => `${nameOf(shard)}-${name}`
  const known = new Map<string, CacheEntry>()
  /** Entries per shard as read, to tell which shards a save must rewrite. */
  const counts = new Array<number>(SHARDS).fill(0)
  /** The prose file each shard's entries named, to remove once a save names another. */
  const proseOf = new Array<string | null>(SHARDS).fill(null)
  const whole = new Array<ReadonlyArray<CarrierRead> | undefined>(SHARDS).fill(undefined)
  const decodedOf = new Array<DecodedShard | undefined>(SHARDS).fill(undefined)
  const forget = () => {
    // unreadable or not ours: read everything, then write new ones
    known.clear()
    counts.fill(0)
    proseOf.fill(null)
    whole.fill(undefined)
    decodedOf.fill(undefined)
  }
  for (let shard = 0; shard < SHARDS; shard++) {
    try {
      const data = current.read(nameOf(shard))
      if (data === undefined) continue
      const decoded = decodeShard(FORMAT, data, (name) => current.open(proseName(shard, name)))
      if (decoded === undefined) continue
      proseOf[shard] = decoded.prose
      decodedOf[shard] = decoded
    } catch {
      forget()
      break
    }
  }
  const warm = decodedOf.some((d) => d !== undefined)
  let settled = false
  const settle = (listing: ShardListing | undefined) => {
    if (settled) return
    settled = true
    try {
      decodedOf.forEach((decoded, shard) => {
        if (decoded === undefined) return
        const digest = listing?.digests[shard] ?? null
        if (digest !== null && decoded.digest === digest) {
          whole[shard] = decoded.reads
          return
        }
        for (const e of decoded.entries()) {
          // A path in the wrong shard would never be rewritten: such a file is not ours.
          if (shardOf(e[0]) !== shard) throw new Error("foreign entry")
          known.set(e[0], { stat: e[1], hash: e[2], oid: e[3], read: e[4] })
          counts[shard]++
        }
      })
    } catch {
      forget()
    }
  }
  return {
    warm,
    settle,
    known,
    whole,
    wholeEntries: (shard) => (whole[shard] === undefined ? [] : (decodedOf[shard]?.entries() ?? [])),
    save: (entries, saved) => {
      const byShard: SavedEntry[][] = Array.from({ length: SHARDS }, () => [])
      for (const e of entries) byShard[shardOf(e[0])].push(e)
      byShard.forEach((list, shard) => {
        // A whole shard's files were not read this run: it stays as it is.
        if (whole[shard] !== undefined) return
        // Whole next time only when every file the listing names was checked against its object id.
        const digest =
          saved === undefined
            ? null
            : list.length === saved.counts[shard] && list.every((e) => e[3] !== null && saved.objects.get(e[0]) === e[3])
              ? saved.digests[shard]
              : null
        const same = list.length === counts[shard] && list.every((e) => sameEntry(e, known.get(e[0])))
        if (same && digest === (decodedOf[shard]?.digest ?? null)) return
        try {
          const encoded = encodeShard(FORMAT, list, digest)
          // The prose first: entries never name a file not written yet. Named by its content, so
          // an unchanged one is not written again, and a run still reading the old one reads it
          // through the file it opened (removing a name does not take an open file away).
          if (encoded.prose !== null && encoded.prose.name !== proseOf[shard]) current.write(proseName(shard, encoded.prose.name), encoded.prose.bytes)
          current.write(nameOf(shard), encoded.entries)
          const old = proseOf[shard]
          if (old !== null && old !== encoded.prose?.name) current.remove(proseName(shard, old))
        } catch {
          // read-only or full: the next run reads again
        }
      })
    }
  }
}
