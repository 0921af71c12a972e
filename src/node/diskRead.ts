// Reading one file of the corpus from disk for the parse (extractAll.ts): into a scratch buffer,
// with its stat data and git object id for the parse cache (parseCache.ts) and the index read.
import { createHash } from "node:crypto"
import { closeSync, constants, lstatSync, openSync, readFileSync, readSync } from "node:fs"
import type { SourceFile } from "../core/read/discover.js"
import { unreadableFile } from "../core/read/discover.js"
import { reasonOf } from "./errno.js"
import type { CarrierRead } from "../core/model.js"

/** What one file gives: its contribution (null: nothing) and the SHA-256 of its bytes (null: unreadable; UNHASHED: not asked for). */
export interface Extracted {
  readonly path: string
  readonly read: CarrierRead | null
  readonly hash: string | null
  /** The stat data the parse cache may trust next time (null: too recent; absent: no cache). */
  readonly stat?: string | null
  /** The git object id of the bytes, when the file was checked against one. */
  readonly oid?: string
  /** The bytes on disk are not the object the caller expected (`FileOnDisk.object`): read it from there. */
  readonly stale?: true
  /** `read` is the known entry's (a worker thread knows entries without their reads: the main thread puts it back). */
  readonly reused?: true
}

/** A file still on disk: whichever thread parses it reads it (`absolute`), so workers share the reading too. */
export interface FileOnDisk {
  readonly path: string
  readonly absolute: string
  /** The git object these bytes should be (the index read): other bytes give a `stale` result. */
  readonly object?: string
  /** The work tree read: the object git vouches these bytes are (gitWorkTree.ts), when it does. */
  readonly unchanged?: string
}

const NOFOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)

/** Git's object id of a blob with these bytes (SHA-1, or SHA-256 in a repository of that format). */
export const gitObjectId = (bytes: Uint8Array, like: string): string =>
  createHash(like.length === 64 ? "sha256" : "sha1")
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest("hex")

/** The bytes with every CRLF turned to LF (what git's check-in makes of a file under core.autocrlf or eol=crlf). */
const crlfToLf = (bytes: Uint8Array): Buffer => {
  const out = Buffer.allocUnsafe(bytes.length)
  let size = 0
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 13 || bytes[i + 1] !== 10) out[size++] = bytes[i]
  return out.subarray(0, size)
}

/**
 * The index object's bytes from a work tree file that should hold them: the file's own bytes when
 * they are that object, else its CRLF-to-LF twin when that is (core.autocrlf, eol=crlf: checkout
 * writes the blob's LF text with CRLF), else undefined. The object id proves either is the blob.
 */
export const asIndexObject = (bytes: Uint8Array, object: string): Uint8Array | undefined => {
  if (gitObjectId(bytes, object) === object) return bytes
  if (bytes.indexOf(13) < 0) return undefined
  const lf = crlfToLf(bytes)
  return lf.length < bytes.length && gitObjectId(lf, object) === object ? lf : undefined
}

/** Stat data strong enough to trust a cache entry by (size, mtime and ctime in fractional milliseconds, inode: ctime too, as git's index keeps). */
export const statOf = (absolute: string): { key: string; newest: number } | undefined => {
  try {
    const s = lstatSync(absolute)
    if (!s.isFile()) return undefined
    return { key: `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`, newest: Math.max(s.mtimeMs, s.ctimeMs) }
  } catch {
    return undefined
  }
}

/**
 * How far before a run's start a file's mtime and ctime must lie for its stat data to be kept:
 * the coarsest timestamp granularity in use (FAT's 2 s) plus room for a file server's clock.
 * A file changed again within its timestamp's granule after it was read keeps its size and mtime.
 */
export const RACY_MS = 3000

/** One per thread: a code file without a marker is hashed and dropped without a buffer of its own. */
const scratch = Buffer.allocUnsafe(256 * 1024)

/** The file's bytes in `scratch` (valid until the next read), or in a buffer of their own when larger. */
const readScratch = (absolute: string, flags: number = constants.O_RDONLY): Buffer => {
  const fd = openSync(absolute, flags)
  let size = 0
  try {
    for (let got = -1; got !== 0 && size < scratch.length; size += got) got = readSync(fd, scratch, size, scratch.length - size, null)
  } finally {
    closeSync(fd)
  }
  return size < scratch.length ? scratch.subarray(0, size) : readFileSync(absolute)
}

/** A file on disk, read: its bytes (in `scratch` when they fit: parse them before the next read), or its finding. */
export const load = (input: FileOnDisk): SourceFile | Extracted => {
  try {
    // Checked against the index: a symbolic link in the work tree is never followed (the index's blob is read instead).
    if (input.object !== undefined) return { path: input.path, bytes: readScratch(input.absolute, NOFOLLOW) }
    return { path: input.path, bytes: readScratch(input.absolute) }
  } catch (e) {
    // The same finding the main thread's FileSystem read gives (GraphReader).
    return { path: input.path, read: unreadableFile(input.path, reasonOf((e as NodeJS.ErrnoException).code)), hash: null }
  }
}
