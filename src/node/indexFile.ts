// git's index file read in this process (its version 2 and 3 layout, SHA-1 object ids): the entries
// `git ls-files -s` lists, each with its stage and its intent-to-add mark. The MCP server reads
// it on each `--staged` call instead of starting git for the listing (src/node/stagedIndex.ts),
// and tells what changed since its last read by comparing each entry's bytes, the stat data left
// out: an entry whose bytes are the same is the same object, not decoded again.
//
// Undefined wherever the file is anything else, or anything this reader does not know could change
// what git lists: another version (4's compressed paths), a split index (`link`), a sparse index
// (`sdir`), any other extension git requires, a checksum that does not hold, an unknown mode. The
// caller then asks git, as ever. Layout: Documentation/gitformat-index.txt in git's sources.
import { createHash } from "node:crypto"
import type { BlobEntry } from "../core/changes/changeset.js"

/** One entry of the index. */
export interface IndexEntry extends BlobEntry {
  /** 0 merged; 1-3 a conflict's sides. */
  readonly stage: number
  /** `git add -N`: a placeholder with no content staged. */
  readonly intentToAdd: boolean
}

export interface IndexFile {
  readonly bytes: Buffer
  readonly entries: ReadonlyArray<IndexEntry>
  /** Where each entry starts, and where its path ends (the NUL after it). */
  readonly starts: Uint32Array
  readonly ends: Uint32Array
}

const MODES = new Set([0o100644, 0o100755, 0o120000, 0o160000])
const HEADER = 12
/** ctime, mtime, dev, ino (the stat data), mode at 24, uid, gid, size, object id at 40, flags at 60. */
const MODE_AT = 24
const OBJECT_AT = 40
const FLAGS_AT = 60
const NAME_AT = 62
const OBJECT_BYTES = 20
const EXTENDED = 0x4000
const INTENT_TO_ADD = 0x2000

/** Whether entry `i` of `a` and entry `j` of `b` hold the same mode, object id, flags and path (their stat data aside). */
const sameEntry = (a: IndexFile | Partial<IndexFile>, i: number, b: Buffer, start: number, end: number): boolean => {
  const was = a.bytes!
  const s = a.starts![i]
  const e = a.ends![i]
  return (
    e - s === end - start && was.readUInt32BE(s + MODE_AT) === b.readUInt32BE(start + MODE_AT) && was.compare(b, start + OBJECT_AT, end, s + OBJECT_AT, e) === 0
  )
}

/**
 * The index file's entries, or undefined where this reader cannot vouch for them (above). `was`:
 * the same file read before; entries whose bytes are the same there are its very objects.
 */
export const readIndexFile = (bytes: Buffer, was?: IndexFile): IndexFile | undefined => {
  if (bytes.length < HEADER + OBJECT_BYTES || bytes.toString("latin1", 0, 4) !== "DIRC") return undefined
  const version = bytes.readUInt32BE(4)
  if (version !== 2 && version !== 3) return undefined
  const count = bytes.readUInt32BE(8)
  const body = bytes.length - OBJECT_BYTES
  // The trailing SHA-1 of everything before it (all zero with index.skipHash).
  const trailer = bytes.subarray(body)
  if (trailer.some((b) => b !== 0) && !createHash("sha1").update(bytes.subarray(0, body)).digest().equals(trailer)) return undefined
  const starts = new Uint32Array(count)
  const ends = new Uint32Array(count)
  const entries = new Array<IndexEntry>(count)
  const same = was !== undefined && was.entries.length === count
  let at = HEADER
  for (let i = 0; i < count; i++) {
    if (at + NAME_AT > body) return undefined
    const flags = bytes.readUInt16BE(at + FLAGS_AT)
    const extended = (flags & EXTENDED) !== 0
    if (extended && version < 3) return undefined
    const name = at + NAME_AT + (extended ? 2 : 0)
    const length = flags & 0xfff
    const end = length < 0xfff ? name + length : bytes.indexOf(0, name)
    if (end < 0 || end >= body || bytes[end] !== 0) return undefined
    starts[i] = at
    ends[i] = end
    if (same && sameEntry(was, i, bytes, at, end)) entries[i] = was.entries[i]
    else {
      const mode = bytes.readUInt32BE(at + MODE_AT)
      if (!MODES.has(mode)) return undefined
      entries[i] = {
        mode: mode.toString(8),
        object: bytes.toString("hex", at + OBJECT_AT, at + OBJECT_AT + OBJECT_BYTES),
        path: bytes.toString("utf8", name, end),
        stage: (flags >> 12) & 3,
        intentToAdd: extended && (bytes.readUInt16BE(at + NAME_AT) & INTENT_TO_ADD) !== 0
      }
    }
    // Each entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
    at += (end - at + 8) & ~7
  }
  // The extensions: an optional one (its signature begins with a capital) changes nothing listed; any other, a split or sparse index's, is not read here.
  while (at < body) {
    if (at + 8 > body) return undefined
    const first = bytes[at]
    const size = bytes.readUInt32BE(at + 4)
    if (first < 0x41 || first > 0x5a || at + 8 + size > body) return undefined
    at += 8 + size
  }
  return { bytes, entries, starts, ends }
}
