// What the code files of a corpus gave last time, kept between runs: a hook runs on every commit
// and most code files have not changed, while parsing one with an anchor marker is the costliest
// step of a read. An entry is used only for the same path and the same bytes (SHA-256), under the
// same build of the CLI and the same options, so it can only give what parsing would give.
// The files live in the loader's per-user cache folder, with its trust rules (src/loader.cjs);
// without the loader (tests run the sources) or with SPECBUNDLE_CODE_CACHE=0 there is no cache.
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

/** path -> [SHA-256 of the bytes, what the file gave]. */
export type KnownReads = ReadonlyMap<string, readonly [string, CarrierRead]>

export interface ParseCache {
  readonly known: KnownReads
  /** Keeps exactly these entries (the code files parsed or reused this run); writes only on a change. */
  readonly save: (entries: ReadonlyArray<readonly [string, string, CarrierRead]>) => void
}

const FORMAT = 1

/** The cache of one corpus (its real root and options), or undefined when there is none. */
export const openParseCache = (root: string, selfHosting: boolean): ParseCache | undefined => {
  const current = store
  if (current === undefined) return undefined
  let realRoot: string
  try {
    realRoot = realpathSync(root)
  } catch {
    return undefined
  }
  const name = createHash("sha256").update(JSON.stringify([FORMAT, current.build, realRoot, selfHosting])).digest("hex").slice(0, 40)
  let known = new Map<string, readonly [string, CarrierRead]>()
  try {
    const data = current.read(name)
    if (data !== undefined) {
      const value = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8")) as {
        format?: unknown
        entries?: Array<[string, string, CarrierRead]>
      }
      if (value.format === FORMAT && Array.isArray(value.entries)) known = new Map(value.entries.map(([path, hash, read]) => [path, [hash, read]]))
    }
  } catch {
    // unreadable or not ours: parse everything, then write a new one
  }
  return {
    known,
    save: (entries) => {
      const unchanged = entries.length === known.size && entries.every(([path, hash]) => known.get(path)?.[0] === hash)
      if (unchanged) return
      try {
        current.write(name, Buffer.from(JSON.stringify({ format: FORMAT, entries }), "utf8"))
      } catch {
        // read-only or full: the next run parses again
      }
    }
  }
}
