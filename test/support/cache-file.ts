// How the loader (src/loader.cjs) seals a cache file: its data, then the CRC-32 of the data (4
// bytes, big-endian). Tests that write a well-formed file of the wrong content seal it this way;
// tests that look at what a run recorded read the parse cache's entries back here.
import * as fs from "node:fs"
import * as path from "node:path"
import { crc32 } from "node:zlib"

export const SEAL_BYTES = 4

export const sealed = (data: Buffer | string): Buffer => {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data
  const seal = Buffer.alloc(SEAL_BYTES)
  seal.writeUInt32BE(crc32(bytes))
  return Buffer.concat([bytes, seal])
}

/** A cache file's data, without its seal. */
export const unsealed = (bytes: Buffer): Buffer => bytes.subarray(0, -SEAL_BYTES)

/** One entry of a parse cache shard as saved (src/node/cacheFormat.ts): its stat data, SHA-256 and git object id. */
export interface SavedRow {
  readonly stat: string | null
  readonly hash: string
  readonly oid: string | null
}

/**
 * The entries of the one parse cache in folder `dir` that holds `file` (a corpus's work tree read;
 * other reads keep caches of their own), by path: each shard file's second line, read as JSON.
 */
export const parseCacheEntries = (dir: string, file: string): Map<string, SavedRow> => {
  const caches = new Map<string, Map<string, SavedRow>>()
  for (const name of fs.readdirSync(dir)) {
    const shard = /^specbundle-parse-(.+)-[0-9a-f]{2}\.json$/.exec(name)
    if (shard === null) continue
    const rows = JSON.parse(
      unsealed(fs.readFileSync(path.join(dir, name)))
        .toString("latin1")
        .split("\n")[1]
    ) as unknown[][]
    const cache = caches.get(shard[1]) ?? new Map<string, SavedRow>()
    caches.set(shard[1], cache)
    for (const [p, stat, hash, oid] of rows) cache.set(p as string, { stat: stat as string | null, hash: hash as string, oid: oid as string | null })
  }
  const holding = [...caches.values()].filter((cache) => cache.has(file))
  if (holding.length !== 1) throw new Error(`${holding.length} parse caches in ${dir} hold ${file} (of ${caches.size})`)
  return holding[0]
}

/** The cache folder's parse cache files: name -> inode and mtime (a write renames a new file into place, so a rewrite shows a new inode). */
export const parseCacheFiles = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => f.startsWith("specbundle-parse-"))
      .map((f) => {
        const s = fs.statSync(path.join(dir, f))
        return [f, `${s.ino}:${s.mtimeMs}`]
      })
  )
