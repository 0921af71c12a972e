// oxc's raw transfer: the parser leaves its AST in a buffer shared with JS, read in place, instead
// of handing every file's AST over as JSON text (about 18 bytes a source byte) to be parsed back.
// The outline (errors, comments, module records, statement spans) is read straight from the
// buffer, touching only those fields; the kept statements come from a second, small parse of a
// blanked copy, turned into objects by oxc's own deserializer. About four times cheaper than the
// JSON route on a marker-heavy corpus.
//
// oxc-parser enables raw transfer from Node 22, for the 6 GiB buffer it needs (virtual memory; the
// parser uses what a file needs). Node 20 allocates that buffer too, but cannot view more than
// 4 GiB of it at once, which oxc's setup does once to align it: done here with a 4 GiB view
// instead. When the buffer cannot be had (a virtual memory limit), `rawParser` gives null and every
// file takes the whole-AST route: slower, the same result.
import type * as Bindings from "oxc-parser/src-js/bindings"
import type * as Constants from "oxc-parser/src-js/generated/constants"
import type * as Deserialize from "oxc-parser/src-js/generated/deserialize/ts"
import type { Outline, OutlineParser } from "../core/read/anchors-slice.js"

export interface OxcRawModules {
  readonly bindings: typeof Bindings
  readonly constants: typeof Constants
  readonly deserialize: typeof Deserialize
}

/** The oxc modules raw transfer needs (native binding included). */
export const loadOxcRaw = (): Promise<OxcRawModules> =>
  Promise.all([
    import("oxc-parser/src-js/bindings"),
    import("oxc-parser/src-js/generated/constants"),
    import("oxc-parser/src-js/generated/deserialize/ts")
  ]).then(([bindings, constants, deserialize]) => ({ bindings, constants, deserialize }))

type TransferBuffer = Uint8Array & { int32: Int32Array; float64: Float64Array; block: Uint8Array }

declare global {
  /** ES2024's well-formed string methods: Node 20 has both; tsconfig.json's library (ES2022) does not declare them. */
  interface String {
    isWellFormed(): boolean
    toWellFormed(): string
  }
}

/**
 * The text oxc parses: lone surrogates become U+FFFD (one UTF-16 unit, so offsets stay), as the
 * JSON route's trip through UTF-8 makes them. Texts decoded from bytes never hold one.
 */
const wellFormed = (text: string): string => {
  return text.isWellFormed() ? text : text.toWellFormed()
}

// Where oxc-parser 0.159 lays out what the outline reads (its generated deserializer,
// src-js/generated/deserialize/ts.js, reads the same fields at the same offsets). A Vec is a
// pointer (i32) and a length (i32 at +8); a string is a pointer to UTF-8 bytes and a byte length;
// spans are UTF-16 offsets (i32 start, i32 end at +4). read-anchors-slice.test.ts checks the
// outline against oxc's JSON route on every run, so a layout that moved cannot pass unseen.
const DATA = { program: 0, comments: 144, module: 168, errors: 272 } as const
const PROGRAM = { directives: 88, statements: 112 } as const
const MODULE = { imports: 0, exports: 24 } as const
const STRIDE = { directive: 80, statement: 16, comment: 24, error: 80, label: 24, import: 56, entry: 96, export: 32 } as const
/** A Statement is a one-byte tag and a pointer (at +8) to the node, whose span comes first. */
const STATEMENT_BOX = 8
const COMMENT_KIND = 17
const IMPORT = { source: 16, entries: 32 } as const
const ENTRY = { local: 72, isType: 88 } as const
const ERROR = { message: 0, labels: 16, severity: 72 } as const
const SEVERITIES = ["Error", "Warning", "Advice"] as const

/**
 * The outline of the AST the last parse left in `buffer`, read in place: no objects but the
 * outline's own. `bytes` views the same memory (for UTF-8 strings).
 */
const readOutline = (buffer: TransferBuffer, bytes: Buffer, text: string, dataPointer: number): Outline => {
  const int32 = buffer.int32
  const i32 = (pos: number) => int32[pos >> 2]
  const vec = <T>(pos: number, stride: number, read: (at: number) => T): T[] => {
    const out: T[] = []
    for (let at = i32(pos), end = at + i32(pos + 8) * stride; at !== end; at += stride) out.push(read(at))
    return out
  }
  const str = (pos: number): string => {
    const at = i32(pos)
    return bytes.toString("utf8", at, at + i32(pos + 8))
  }
  const span = (at: number) => ({ start: i32(at), end: i32(at + 4) })
  const data = int32[dataPointer]
  const program = data + DATA.program
  const module = data + DATA.module
  return {
    errors: vec(data + DATA.errors, STRIDE.error, (at) => ({
      severity: SEVERITIES[buffer[at + ERROR.severity]],
      message: str(at + ERROR.message),
      labels: vec(at + ERROR.labels, STRIDE.label, span)
    })),
    comments: vec(data + DATA.comments, STRIDE.comment, (at) => {
      const start = i32(at)
      const end = i32(at + 4)
      // Kinds 1 and 2 are block comments (plain and JSDoc); the others line comments.
      const kind = buffer[at + COMMENT_KIND]
      return kind === 1 || kind === 2
        ? { type: "Block" as const, value: text.slice(start + 2, end - 2), start, end }
        : { type: "Line" as const, value: text.slice(start + 2, end), start, end }
    }),
    imports: vec(module + MODULE.imports, STRIDE.import, (at) => ({
      ...span(at),
      source: str(at + IMPORT.source),
      entries: vec(at + IMPORT.entries, STRIDE.entry, (e) => ({ local: str(e + ENTRY.local), isType: buffer[e + ENTRY.isType] === 1 }))
    })),
    exports: vec(module + MODULE.exports, STRIDE.export, span),
    statements: [
      ...vec(program + PROGRAM.directives, STRIDE.directive, span),
      ...vec(program + PROGRAM.statements, STRIDE.statement, (at) => span(i32(at + STATEMENT_BOX)))
    ]
  }
}

/** oxc's transfer buffer, laid out as its raw-transfer code lays it out; null when it cannot be allocated. */
const allocate = (c: typeof Constants, getBufferOffset: typeof Bindings.getBufferOffset, bytes: number): TransferBuffer | null => {
  let arrayBuffer: ArrayBuffer
  try {
    arrayBuffer = new ArrayBuffer(bytes)
  } catch {
    return null
  }
  // A view of the first 4 GiB is enough to find the 4 GiB-aligned start (Node 20 views no more).
  const offset = getBufferOffset(new Uint8Array(arrayBuffer, 0, Math.min(arrayBuffer.byteLength, 2 ** 32 - 1)))
  const buffer = new Uint8Array(arrayBuffer, offset, c.BUFFER_SIZE) as TransferBuffer
  buffer.int32 = new Int32Array(arrayBuffer, offset, c.BUFFER_SIZE / 4)
  buffer.float64 = new Float64Array(arrayBuffer, offset, c.BUFFER_SIZE / 8)
  buffer.block = new Uint8Array(arrayBuffer, offset, c.BLOCK_SIZE)
  return buffer
}

/**
 * The cheap route's two parses over one buffer (one per thread: extractAll.ts calls this once, when
 * a thread first needs oxc-parser). Everything an outline holds is copied out before returning,
 * since the next parse overwrites the buffer. `reserve` is the buffer size to reserve (tests force
 * a failure with it).
 */
export const rawParser = (m: OxcRawModules, reserve = m.constants.BLOCK_SIZE + m.constants.BLOCK_ALIGN): OutlineParser | null => {
  const c = m.constants
  const buffer = allocate(c, m.bindings.getBufferOffset, reserve)
  if (buffer === null) return null
  const encoder = new TextEncoder()
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  // Read once: the bundle reaches oxc's modules through namespace objects whose every property is
  // a getter, which two parses a file would otherwise call on each use.
  const { ACTIVE_SIZE, DATA_POINTER_POS_32 } = c
  const { parseRawSync } = m.bindings
  const { deserialize } = m.deserialize

  /** Writes the text at the end of the active area and parses it; null when it does not fit. */
  const parse = (file: string, text: string): { readonly start: number; readonly length: number } | null => {
    // Room for the worst case of UTF-8 (3 bytes a UTF-16 unit), capped at 1 GiB as oxc caps it.
    const room = text.length * 3
    if (room > 2 ** 30) return null
    const start = ACTIVE_SIZE - room
    const { read, written } = encoder.encodeInto(text, new Uint8Array(buffer.buffer, buffer.byteOffset + start, room))
    if (read !== text.length) return null
    parseRawSync(file, buffer.block, start, written, {})
    return { start, length: written }
  }

  const outline = (file: string, original: string): Outline | null => {
    const text = wellFormed(original)
    return parse(file, text) === null ? null : readOutline(buffer, bytes, text, DATA_POINTER_POS_32)
  }

  const parseKept = (file: string, original: string) => {
    const text = wellFormed(original)
    const at = parse(file, text)
    if (at === null) throw new Error("the kept statements do not fit the parser's buffer")
    return deserialize(buffer, text, at.start, at.length)
  }

  return { outline, parseKept }
}
