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
// (tests run the sources) or with SPECBUNDLE_CODE_CACHE=0 there is no such store. A long-lived
// entrance (the MCP server, `watch`) and the library keep the same entries in memory between reads
// (`warmCaches`), with the graph last built from them: the same rules, none of the decoding.
import { createHash } from "node:crypto"
import { realpathSync } from "node:fs"
import type { CarrierRead, Graph } from "../core/model.js"
import { patchGraph } from "../core/graph/graph-patch.js"
import { type DecodedShard, type OpenedFile, type SavedEntry, decodeShard, encodeShard } from "./cacheFormat.js"

export type { SavedEntry }

/** The loader's store: files in its cache folder, read only when trusted and whole. */
export interface CacheStore {
  /** The bundle's SHA-1 (the loader's): results of another build are never read. */
  readonly build: string
  readonly read: (name: string) => Uint8Array | undefined
  /** Opens the file now, to read when called (src/loader.cjs openCache): the size of its data; undefined when missing or not ours. */
  readonly open: (name: string) => OpenedFile | undefined
  readonly write: (name: string, data: Uint8Array) => void
  readonly remove: (name: string) => void
  /** Whether a file of that name is there (neither opened nor checked: a hint only). */
  readonly has: (name: string) => boolean
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
  /**
   * The graph of these reads: the one built last time when the reads are the very same objects in
   * the same order (nothing was read again), else `build`'s, kept for next time. Only a cache kept
   * in memory has one.
   */
  readonly graphOf?: (reads: ReadonlyArray<CarrierRead>, build: () => Graph) => Graph
  /** shardListing's answer, told from the last read's listing where that is cheaper (a cache kept in memory). */
  readonly listingOf?: (entries: Listed) => ShardListing
}

/** Where each read's cache comes from (the ParseCache service, src/node/runtime.ts). */
export interface ParseCaches {
  /** The folder's store the caches keep their files in (the loader's), if any. */
  readonly store: CacheStore | undefined
  /** The cache of one corpus (its root and options) and source, or undefined: none. */
  readonly open: (root: string, selfHosting: boolean, source: CacheSource) => ParseCache | undefined
  /** Whether `open` gives caches at all: a read then asks git to vouch for files (GitDiff starts those questions early). */
  readonly offered: boolean
  /**
   * Whether no earlier read of this corpus (either option) left anything for `open` to give, so a
   * read of it parses every file: worker threads are then worth starting before it (extractAll.ts startAhead).
   */
  readonly cold: (root: string, source: CacheSource) => boolean
}

/**
 * What a read lists per shard: each shard's digest of its paths with the object ids git names for
 * them (null: a path git vouches for no object, so the shard is never whole), those ids, and how
 * many paths each shard holds.
 */
export interface ShardListing {
  readonly digests: ReadonlyArray<string | null>
  /** The shard of each listed path, in the listing's order (so a reader need not hash a path again). */
  readonly shards: Uint8Array
  /**
   * A shard's paths -> the object ids the listing names: built when first asked, as only a save
   * of a shard not whole asks (a map of every path cost ~10 ms on 30,000 paths).
   */
  readonly objects: (shard: number) => ReadonlyMap<string, string>
  /** How many listed paths each shard holds. */
  readonly counts: ReadonlyArray<number>
}

/**
 * Each shard's digest of a listing (root-relative paths with the object ids git names for them, in
 * the listing's order: the index's entries, or the work tree's files git vouches are those
 * objects): equal digests, equal lists, so a shard saved from one is whole for the other.
 */
export const shardListing = (entries: Listed): ShardListing => listingOf(entries, shardsOf(entries))

/** Root-relative paths with the object ids git names for them (null: none it vouches for). */
type Listed = ReadonlyArray<{ readonly path: string; readonly object: string | null }>

const shardsOf = (entries: Listed): Uint8Array => {
  const shards = new Uint8Array(entries.length)
  for (let i = 0; i < entries.length; i++) shards[i] = shardOf(entries[i].path)
  return shards
}

const digestOf = (list: ReadonlyArray<string>): string => createHash("sha1").update(list.join("\0")).digest("hex")

/** Each shard's paths -> object ids of `entries`, built per shard when first asked. */
const objectsOf = (entries: Listed, shards: Uint8Array): ((shard: number) => ReadonlyMap<string, string>) => {
  const built = new Array<Map<string, string> | undefined>(SHARDS)
  return (shard) => {
    let map = built[shard]
    if (map === undefined) {
      map = new Map()
      for (let i = 0; i < entries.length; i++) {
        const object = entries[i].object
        if (shards[i] === shard && object !== null) map.set(entries[i].path, object)
      }
      built[shard] = map
    }
    return map
  }
}

/**
 * The listing of `entries`, each in the shard `shards` names; only the shards `only` names are
 * digested again (the others' digests are `was`'s).
 */
const listingOf = (
  entries: Listed,
  shards: Uint8Array,
  was?: { readonly digests: ReadonlyArray<string | null>; readonly only: ReadonlySet<number> }
): ShardListing => {
  const parts: string[][] = Array.from({ length: SHARDS }, () => [])
  const eligible = new Array<boolean>(SHARDS).fill(true)
  const counts = new Array<number>(SHARDS).fill(0)
  for (let i = 0; i < entries.length; i++) {
    const shard = shards[i]
    counts[shard]++
    if (was !== undefined && !was.only.has(shard)) continue
    const e = entries[i]
    if (e.object === null) eligible[shard] = false
    parts[shard].push(e.path, e.object ?? "")
  }
  return {
    digests: parts.map((list, shard) => (was !== undefined && !was.only.has(shard) ? was.digests[shard] : eligible[shard] ? digestOf(list) : null)),
    shards,
    objects: objectsOf(entries, shards),
    counts
  }
}

/** A listing kept with its entries, to tell the next one from. */
interface KeptListing {
  readonly entries: Listed
  readonly listing: ShardListing
}

/**
 * The listing of `entries` from the one `kept` when the paths are the same, in the same order (a
 * corpus read again with a few files edited and staged): only the shards whose object ids changed
 * are digested again (~1 ms instead of ~20 on 30,000 paths); else the whole listing.
 */
const nextListing = (kept: KeptListing | undefined, entries: Listed): KeptListing => {
  if (kept !== undefined && kept.entries.length === entries.length) {
    const shards = kept.listing.shards
    const changed = new Set<number>()
    let same = true
    for (let i = 0; i < entries.length && same; i++) {
      const [now, was] = [entries[i], kept.entries[i]]
      if (now.path !== was.path) same = false
      else if (now.object !== was.object) changed.add(shards[i])
    }
    if (same && changed.size === 0) return kept
    if (same) return { entries, listing: listingOf(entries, shards, { digests: kept.listing.digests, only: changed }) }
  }
  return { entries, listing: listingOf(entries, shardsOf(entries)) }
}

/**
 * Which read a cache serves: the work tree's, the index's (`--staged`), or a changeset's old side
 * (blobs by object id), one for a hook's (`--staged`) and one for the others (a PR's); or a
 * changeset's new side that is a commit not checked out as it is (`commit`: a work tree with an
 * untracked file, as a CI job's output folder, or another commit than HEAD, by object id); or
 * drift's: a range's new end (`drift-tip`), its old end (`drift-base`), the index a staged change
 * would commit (`drift-index`). Each keeps its own: their file sets differ, and alternating runs
 * (a bundle's read of B, then drift's of A and B) would otherwise rewrite one every time.
 */
export type CacheSource = "tree" | "index" | "old-index" | "old-tree" | "commit" | "drift-tip" | "drift-base" | "drift-index"

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

/**
 * The listing digest a shard's entries are saved with: its listing's, when every file the listing
 * names in that shard was checked against its object id (then the shard is whole for a listing of
 * the same digest); else null.
 */
const digestFor = (list: ReadonlyArray<SavedEntry>, shard: number, saved: ShardListing | undefined): string | null =>
  saved !== undefined && list.length === saved.counts[shard] && list.every((e) => e[3] !== null && saved.objects(shard).get(e[0]) === e[3])
    ? saved.digests[shard]
    : null

const byShard = (entries: ReadonlyArray<SavedEntry>): SavedEntry[][] => {
  const lists: SavedEntry[][] = Array.from({ length: SHARDS }, () => [])
  for (const e of entries) lists[shardOf(e[0])].push(e)
  return lists
}

const sameEntry = (e: SavedEntry, k: CacheEntry | undefined): boolean =>
  k !== undefined && k.hash === e[2] && k.oid === e[3] && k.stat === e[1] && (k.read === null) === (e[4] === null)

/**
 * The cache of one corpus (its real root and options), or undefined when there is none. The work
 * tree's read and the index's (`--staged`) keep one each: their file sets differ (untracked
 * files), and alternating runs would otherwise rewrite them every time.
 */
/** The file name of each shard of one corpus's cache (its real root, options and source) under this build. */
const shardName = (current: CacheStore, realRoot: string, selfHosting: boolean, source: CacheSource): ((shard: number) => string) => {
  const base = createHash("sha256")
    .update(JSON.stringify([FORMAT, current.build, realRoot, selfHosting, source]))
    .digest("hex")
    .slice(0, 40)
  return (shard) => `${base}-${shard.toString(16).padStart(2, "0")}`
}

/** The root's real path (caches are keyed by it), or undefined when it cannot be had. */
const realRootOf = (root: string): string | undefined => {
  try {
    return realpathSync(root)
  } catch {
    return undefined
  }
}

/** Whether the store holds no shard of this corpus's cache, under either option (by name only). */
const storeCold = (current: CacheStore, root: string, source: CacheSource): boolean => {
  const realRoot = realRootOf(root)
  if (realRoot === undefined) return true
  for (const selfHosting of [false, true]) {
    const nameOf = shardName(current, realRoot, selfHosting, source)
    for (let shard = 0; shard < SHARDS; shard++) if (current.has(nameOf(shard))) return false
  }
  return true
}

export const openParseCache = (current: CacheStore, root: string, selfHosting: boolean, source: CacheSource): ParseCache | undefined => {
  const realRoot = realRootOf(root)
  if (realRoot === undefined) return undefined
  const nameOf = shardName(current, realRoot, selfHosting, source)
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
      byShard(entries).forEach((list, shard) => {
        // A whole shard's files were not read this run: it stays as it is.
        if (whole[shard] !== undefined) return
        // Whole next time only when every file the listing names was checked against its object id.
        const digest = digestFor(list, shard, saved)
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

/** The caches of a store (the loader's folder), or none without one. */
export const storeCaches = (store: CacheStore | undefined): ParseCaches => ({
  store,
  offered: store !== undefined,
  open: (root, selfHosting, source) => (store === undefined ? undefined : openParseCache(store, root, selfHosting, source)),
  cold: (root, source) => store === undefined || storeCold(store, root, source)
})

/** One shard as kept in memory: its entries, what they gave (in entry order), and its listing digest. */
interface WarmShard {
  readonly digest: string | null
  /** Its entries (a shard the store's cache gave: parsed when first asked). */
  readonly entries: () => ReadonlyArray<SavedEntry>
  readonly reads: ReadonlyArray<CarrierRead>
}

/** What one corpus's reads left in memory: each shard, the graph last built, the last listing. */
interface Warm {
  readonly shards: Array<WarmShard | undefined>
  built: { readonly reads: ReadonlyArray<CarrierRead>; readonly graph: Graph } | undefined
  listed: KeptListing | undefined
}

const warmShard = (entries: ReadonlyArray<SavedEntry>, digest: string | null): WarmShard => ({
  digest,
  entries: () => entries,
  reads: entries.flatMap((e) => (e[4] === null ? [] : [e[4]]))
})

const sameReads = (a: ReadonlyArray<CarrierRead>, b: ReadonlyArray<CarrierRead>): boolean => a.length === b.length && a.every((r, i) => r === b[i])

/**
 * Caches kept in memory for as long as this value lives (a long-lived entrance's, the library's
 * layer's): each read's entries as the disk cache keeps them, under the same rules (the stat data
 * of files safely older than the read, object ids, hashes), but never encoded, written or decoded,
 * with the graph last built from them. With a store, a corpus's first read starts from the store's
 * cache and saves to it as a CLI run does; later reads keep their entries in memory only (writing
 * a shard costs a call more than the rest of it; the store's cache is checked as ever when next used).
 */
export const warmCaches = (store?: CacheStore): ParseCaches => {
  const kept = new Map<string, Warm>()
  /** One corpus's caches in memory: its real root, options and source. */
  const keyOf = (realRoot: string, selfHosting: boolean, source: CacheSource) => JSON.stringify([realRoot, selfHosting, source])
  const open = (root: string, selfHosting: boolean, source: CacheSource): ParseCache | undefined => {
    const realRoot = realRootOf(root)
    if (realRoot === undefined) return undefined
    const key = keyOf(realRoot, selfHosting, source)
    const first = !kept.has(key)
    const warm: Warm = kept.get(key) ?? { shards: new Array<WarmShard | undefined>(SHARDS).fill(undefined), built: undefined, listed: undefined }
    const graphOf = (reads: ReadonlyArray<CarrierRead>, build: () => Graph): Graph => {
      const built = warm.built
      if (built !== undefined && sameReads(built.reads, reads)) return built.graph
      // A few files edited in place (their ids, relations and findings as they were): the nodes swapped.
      const graph = (built === undefined ? undefined : patchGraph(built.graph, built.reads, reads)) ?? build()
      warm.built = { reads, graph }
      return graph
    }
    const listingOf = (entries: Listed): ShardListing => {
      warm.listed = nextListing(warm.listed, entries)
      return warm.listed.listing
    }
    if (first) {
      const disk = store === undefined ? undefined : openParseCache(store, root, selfHosting, source)
      if (disk !== undefined) {
        // The first read: what the store kept, saved back to it; memory keeps what the read ends with.
        return {
          ...disk,
          graphOf,
          listingOf,
          save: (entries, listing) => {
            disk.save(entries, listing)
            byShard(entries).forEach((list, shard) => {
              const reads = disk.whole[shard]
              warm.shards[shard] =
                reads === undefined
                  ? warmShard(list, digestFor(list, shard, listing))
                  : { digest: listing?.digests[shard] ?? null, entries: () => disk.wholeEntries(shard), reads }
            })
            kept.set(key, warm)
          }
        }
      }
    }
    // The shards as this read found them: a read running beside it replaces shards, not their content.
    const shards = [...warm.shards]
    const known = new Map<string, CacheEntry>()
    const whole = new Array<ReadonlyArray<CarrierRead> | undefined>(SHARDS).fill(undefined)
    let settled = false
    return {
      warm: shards.some((s) => s !== undefined),
      settle: (listing) => {
        if (settled) return
        settled = true
        shards.forEach((held, shard) => {
          if (held === undefined) return
          const digest = listing?.digests[shard] ?? null
          if (digest !== null && held.digest === digest) whole[shard] = held.reads
          else for (const e of held.entries()) known.set(e[0], { stat: e[1], hash: e[2], oid: e[3], read: e[4] })
        })
        // A staged change's old side names objects the index held before (a file edited and
        // staged was HEAD's object in the last read of the index), and an edit unstaged again
        // puts HEAD's object back in the index: what the other one's cache in memory recorded
        // for the same path and object id is what those bytes gave, as it would be here, so git
        // is not asked for the blob (the MCP server's calls after staged edits).
        const other = source === "old-index" ? "index" : source === "index" ? "old-index" : undefined
        const index = other !== undefined && listing !== undefined ? kept.get(keyOf(realRoot, selfHosting, other)) : undefined
        if (index !== undefined && listing !== undefined)
          listing.counts.forEach((count, shard) => {
            if (count === 0 || whole[shard] !== undefined) return
            const wanted = listing.objects(shard)
            for (const e of index.shards[shard]?.entries() ?? [])
              if (e[3] !== null && wanted.get(e[0]) === e[3] && known.get(e[0])?.oid !== e[3])
                known.set(e[0], { stat: null, hash: e[2], oid: e[3], read: e[4] })
          })
      },
      known,
      whole,
      wholeEntries: (shard) => (whole[shard] === undefined ? [] : (shards[shard]?.entries() ?? [])),
      save: (entries, listing) => {
        byShard(entries).forEach((list, shard) => {
          // A whole shard's files were not read: it stays as it is.
          if (whole[shard] === undefined) warm.shards[shard] = warmShard(list, digestFor(list, shard, listing))
        })
        kept.set(key, warm)
      },
      graphOf,
      listingOf
    }
  }
  const cold = (root: string, source: CacheSource): boolean => {
    const realRoot = realRootOf(root)
    if (realRoot === undefined) return true
    if ([false, true].some((selfHosting) => kept.has(keyOf(realRoot, selfHosting, source)))) return false
    return store === undefined || storeCold(store, root, source)
  }
  return { store, open, offered: true, cold }
}
