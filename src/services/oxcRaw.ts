// oxc's raw transfer: the parser leaves its AST in a buffer shared with JS, read in place, instead
// of handing every file's AST over as JSON text (about 18 bytes a source byte) to be parsed back.
// The outline (errors, comments, module records, statement spans) is read through oxc's lazy
// views, touching only those fields; the kept statements come from a second, small parse of a
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
import type * as Lazy from "oxc-parser/src-js/generated/lazy/constructors"
import type * as LazyCommon from "oxc-parser/src-js/raw-transfer/lazy-common"
import type { Outline, OutlineParser } from "../core/read/anchors-slice.js"

export interface OxcRawModules {
  readonly bindings: typeof Bindings
  readonly constants: typeof Constants
  readonly lazy: typeof Lazy
  readonly lazyCommon: typeof LazyCommon
  readonly deserialize: typeof Deserialize
}

/** The oxc modules raw transfer needs (native binding included). */
export const loadOxcRaw = (): Promise<OxcRawModules> =>
  Promise.all([
    import("oxc-parser/src-js/bindings"),
    import("oxc-parser/src-js/generated/constants"),
    import("oxc-parser/src-js/generated/lazy/constructors"),
    import("oxc-parser/src-js/raw-transfer/lazy-common"),
    import("oxc-parser/src-js/generated/deserialize/ts")
  ]).then(([bindings, constants, lazy, lazyCommon, deserialize]) => ({ bindings, constants, lazy, lazyCommon, deserialize }))

type TransferBuffer = Uint8Array & { int32: Int32Array; float64: Float64Array; block: Uint8Array }

/** Node 20 has both (ES2024); this project's lib is ES2022. */
interface WellFormed {
  isWellFormed(): boolean
  toWellFormed(): string
}

/**
 * The text oxc parses: lone surrogates become U+FFFD (one UTF-16 unit, so offsets stay), as the
 * JSON route's trip through UTF-8 makes them. Texts decoded from bytes never hold one.
 */
const wellFormed = (text: string): string => {
  const t = text as unknown as WellFormed
  return t.isWellFormed() ? text : t.toWellFormed()
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
 * a thread first needs oxc-parser). Everything an outline holds is copied out before returning:
 * the lazy views read the buffer, which the next parse overwrites. `bytes` is the buffer size to
 * reserve (tests force a failure with it).
 */
export const rawParser = (m: OxcRawModules, bytes = m.constants.BLOCK_SIZE + m.constants.BLOCK_ALIGN): OutlineParser | null => {
  const c = m.constants
  const buffer = allocate(c, m.bindings.getBufferOffset, bytes)
  if (buffer === null) return null
  const encoder = new TextEncoder()

  /** Writes the text at the end of the active area and parses it; null when it does not fit. */
  const parse = (file: string, text: string): { readonly start: number; readonly length: number } | null => {
    // Room for the worst case of UTF-8 (3 bytes a UTF-16 unit), capped at 1 GiB as oxc caps it.
    const room = text.length * 3
    if (room > 2 ** 30) return null
    const start = c.ACTIVE_SIZE - room
    const { read, written } = encoder.encodeInto(text, new Uint8Array(buffer.buffer, buffer.byteOffset + start, room))
    if (read !== text.length) return null
    m.bindings.parseRawSync(file, buffer.block, start, written, {})
    return { start, length: written }
  }

  const outline = (file: string, original: string): Outline | null => {
    const text = wellFormed(original)
    const at = parse(file, text)
    if (at === null) return null
    const ast = { buffer, sourceText: text, sourceStartPos: at.start, sourceByteLen: at.length, sourceIsAscii: text.length === at.length, nodes: new Map(), token: m.lazyCommon.TOKEN }
    const data = new m.lazy.RawTransferData(buffer.int32[c.DATA_POINTER_POS_32], ast)
    const errors = [...data.errors].map((e) => ({ severity: e.severity, message: e.message, labels: [...e.labels].map((l) => ({ start: l.start, end: l.end })) }))
    const comments = [...data.comments].map(({ type, start, end }) => ({ type, value: text.slice(start + 2, type === "Block" ? end - 2 : end), start, end }))
    const imports = [...data.module.staticImports].map((i) => ({
      start: i.start,
      end: i.end,
      source: i.moduleRequest.value,
      entries: [...i.entries].map((e) => ({ local: e.localName.value, isType: e.isType }))
    }))
    const exports = [...data.module.staticExports].map(({ start, end }) => ({ start, end }))
    const statements = [...data.program.body].map(({ start, end }) => ({ start, end }))
    return { errors, comments, imports, exports, statements }
  }

  const parseKept = (file: string, original: string) => {
    const text = wellFormed(original)
    const at = parse(file, text)
    if (at === null) throw new Error("the kept statements do not fit the parser's buffer")
    return m.deserialize.deserialize(buffer, text, at.start, at.length)
  }

  return { outline, parseKept }
}
