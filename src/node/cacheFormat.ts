/// <reference types="node" preserve="true" />
// The declarations name Node's types (Buffer, NodeJS.ProcessEnv): the reference keeps them in dist/types,
// so a program whose tsconfig loads no @types by default (TypeScript 7, `"types": []`) finds them.
// The bytes of one parse-cache shard (parseCache.ts). A warm run reads every shard, and what it
// costs is reading, checking and parsing the bytes and the garbage collector's copying of what
// JSON.parse built: most of a corpus's cache is its Specs' prose (narrative, sections, location
// table: 14.6 of 26.9 MB on the 10,000-Spec bench corpus), which a pre-commit hook's impact report
// never reads. So a shard is two files: its entries, each Spec reduced to what the graph is built
// from plus the place of its prose, and its prose, every Spec's as JSON text, named by its own
// SHA-256 (the entries name it), opened with the entries and read only when some Spec's prose is
// first read (a bundle's members, `check`'s floors), each Spec's parsed then. Both are ASCII, read
// as Latin-1 (a plain copy into a one-byte string, where UTF-8 decoding cost ~0.1 s).
import { isAscii } from "node:buffer"
import { createHash } from "node:crypto"
import type { AuthoredRelation, CarrierRead, Sections, SpecNode, SpecProse } from "../core/model.js"
import { SpecWithProseLater } from "../core/model.js"

/** One saved entry: [path, stat, hash, oid, read]. */
export type SavedEntry = readonly [string, string | null, string, string | null, CarrierRead | null]

/** A Spec as the shard keeps it: what the graph is built from, then where its prose lies. */
type StoredSpecFields = readonly [
  id: string,
  kind: SpecNode["kind"],
  altitude: SpecNode["altitude"],
  readiness: SpecNode["readiness"],
  title: string,
  file: string,
  line: number,
  relations: ReadonlyArray<AuthoredRelation>,
  start: number,
  end: number
]

/** A Spec's prose as the shard's prose file keeps it. */
type StoredProse = readonly [narrative: string | null, sections: Sections, locations: Readonly<Record<string, number>>]

/** A Spec read back from a shard: the graph's fields at once, its prose parsed from the shard's bytes when first read. */
class StoredSpec extends SpecWithProseLater {
  readonly #source: ProseFile
  readonly #start: number
  readonly #end: number

  constructor(f: StoredSpecFields, source: ProseFile) {
    super(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7])
    this.#start = f[8]
    this.#end = f[9]
    this.#source = source
  }

  protected loadProse(): SpecProse {
    const [narrative, sections, locations] = JSON.parse(this.#source.bytes().toString("latin1", this.#start, this.#end)) as StoredProse
    return { narrative, sections, locations }
  }
}

/**
 * A shard's prose file, opened with its entries and read at the first Spec's prose. The open file
 * is the one the entries named, of the size they name: a run replacing it meanwhile does not
 * change it (src/loader.cjs).
 */
class ProseFile {
  #bytes: Buffer | undefined
  constructor(
    readonly name: string,
    private readonly file: OpenedFile
  ) {}

  bytes(): Buffer {
    if (this.#bytes === undefined) {
      const data = this.file.read()
      // Its size was checked when it was opened: only a change in place (not ours) or the disk fails here.
      if (data === undefined) throw new Error(`the parse cache's file ${this.name} changed while it was read; run again`)
      this.#bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    }
    return this.#bytes
  }
}

/** A cache file opened, not read yet: the size of its data, and its read (undefined: not whole). */
export interface OpenedFile {
  readonly size: number
  readonly read: () => Uint8Array | undefined
}

/** A read as the shard keeps it: its Specs as StoredSpecFields. */
interface StoredRead extends Omit<CarrierRead, "specs"> {
  readonly specs: ReadonlyArray<StoredSpecFields>
}

/** An entry as the shard keeps it: its read as a place in the shard's reads (-1: none). */
type StoredEntry = readonly [string, string | null, string, string | null, number]

/** JSON with every non-ASCII character escaped: the same value, in bytes that Latin-1 reads back. */
const ascii = (value: unknown): string => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** A shard's two files: the entries, and the prose (null: no Specs) under the name the entries give it. */
export interface EncodedShard {
  readonly entries: Buffer
  readonly prose: { readonly name: string; readonly bytes: Buffer } | null
}

/**
 * The entries file: a first line with what the files gave (`reads`) and the shard's `digest` (of
 * the listing its files were checked against: parseCache.ts), then a line with every entry (path,
 * stat data, hashes, the place of its read), which a run whose listing has the same digest never
 * parses.
 */
export const encodeShard = (format: number, entries: ReadonlyArray<SavedEntry>, digest: string | null): EncodedShard => {
  const prose: string[] = []
  let offset = 0
  const reads: StoredRead[] = []
  const stored = entries.map(([path, stat, hash, oid, read]): StoredEntry => {
    if (read === null) return [path, stat, hash, oid, -1]
    const specs = read.specs.map((s): StoredSpecFields => {
      const text = ascii([s.narrative, s.sections, s.locations] satisfies StoredProse)
      prose.push(text)
      offset += text.length
      return [s.id, s.kind, s.altitude, s.readiness, s.title, s.file, s.line, s.relations, offset - text.length, offset]
    })
    reads.push({ file: read.file, specs, packs: read.packs, anchors: read.anchors, findings: read.findings })
    return [path, stat, hash, oid, reads.length - 1]
  })
  const bytes = prose.length === 0 ? null : Buffer.from(prose.join(""), "latin1")
  const name = bytes === null ? null : createHash("sha256").update(bytes).digest("hex").slice(0, 32)
  const head = ascii({ format, digest, prose: name, size: bytes?.length ?? 0, reads })
  return {
    entries: Buffer.from(`${head}\n${ascii(stored)}`, "latin1"),
    prose: bytes === null || name === null ? null : { name, bytes }
  }
}

/** A shard read back: what its files gave at once, its entries when asked. */
export interface DecodedShard {
  readonly digest: string | null
  readonly prose: string | null
  /** What the shard's files gave, in entry order (files that gave nothing have none). */
  readonly reads: ReadonlyArray<CarrierRead>
  /** Every entry, parsed at the first call; throws on bytes that are not a shard's. */
  readonly entries: () => ReadonlyArray<SavedEntry>
}

/**
 * A shard's content, or undefined when the bytes are not a shard of this format or its prose file
 * cannot be opened (`open`: the file of that name, to read later; undefined when missing or not ours).
 */
export const decodeShard = (format: number, data: Uint8Array, open: (name: string) => OpenedFile | undefined): DecodedShard | undefined => {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  // A file of ours is ASCII; anything else is not ours.
  if (!isAscii(bytes)) return undefined
  const newline = bytes.indexOf(10)
  if (newline < 0) return undefined
  const head = JSON.parse(bytes.toString("latin1", 0, newline)) as { format?: unknown; digest?: unknown; prose?: unknown; size?: unknown; reads?: unknown }
  if (head.format !== format || !Array.isArray(head.reads) || typeof head.size !== "number") return undefined
  if (head.digest !== null && typeof head.digest !== "string") return undefined
  const size = head.size
  let source: ProseFile | null = null
  if (typeof head.prose === "string") {
    const file = open(head.prose)
    // Missing, not ours, or cut short: the shard is not used.
    if (file === undefined || file.size !== size) return undefined
    source = new ProseFile(head.prose, file)
  } else if (head.prose !== null) return undefined
  // Each read is the object JSON.parse built (its keys in CarrierRead's order, as encodeShard
  // wrote them), its Specs replaced in place: no copy of every read and its list of Specs.
  const reads = head.reads as Array<{ readonly specs: Array<StoredSpecFields | StoredSpec> }>
  for (const read of reads) {
    const specs = read.specs
    if (!Array.isArray(specs)) throw new Error("not a read")
    if (specs.length > 0 && source === null) throw new Error("prose missing")
    for (let i = 0; i < specs.length; i++) {
      const s = specs[i] as StoredSpecFields
      if (!(s[8] >= 0 && s[8] <= s[9] && s[9] <= size)) throw new Error("prose out of bounds")
      specs[i] = new StoredSpec(s, source as ProseFile)
    }
  }
  let entries: SavedEntry[] | undefined
  const decoded = reads as unknown as ReadonlyArray<CarrierRead>
  return {
    digest: head.digest,
    prose: source?.name ?? null,
    reads: decoded,
    entries: () => {
      entries ??= (JSON.parse(bytes.toString("latin1", newline + 1)) as StoredEntry[]).map(([path, stat, hash, oid, at]): SavedEntry => {
        if (at !== -1 && decoded[at] === undefined) throw new Error("read out of bounds")
        return [path, stat, hash, oid, at === -1 ? null : decoded[at]]
      })
      return entries
    }
  }
}
