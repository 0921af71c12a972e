// From file bytes to what each file contributes: the file envelope every carrier must pass, and
// dispatch to the carrier parsers (discovery rules are in discover.ts, re-exported here). Pure: sources (working tree, git objects, the
// index) hand in bytes; nothing here touches the disk.
import * as Result from "effect/Result"
import type { AnchorOptions, AnchorParser } from "./anchors.js"
import { mayHoldAnchorBytes, parseAnchors } from "./anchors.js"
import { parseGherkinCarrier } from "./gherkin.js"
import { parseMarkdownCarrier } from "./markdown.js"
import type { CarrierRead } from "../model.js"
import type { SourceFile } from "./discover.js"
import { classifyPath } from "./discover.js"

export * from "./discover.js"
export { mayHoldAnchorBytes }

// ---------------------------------------------------------------------------------------------
// The file envelope (sdp-format.md section 2): checked once here for every carrier kind.

export const MAX_CARRIER_BYTES = 256 * 1024
/** Code files are not carriers; a generous cap still keeps a stray bundle file from stalling a hook. */
export const MAX_CODE_BYTES = 4 * 1024 * 1024

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

const refuse = (file: string, line: number, code: string, message: string): CarrierRead => ({
  file,
  specs: [],
  packs: [],
  anchors: [],
  findings: [{ file, line, code, message, severity: "error" }]
})

const lineOfOffset = (text: string, offset: number): number => {
  let line = 1
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/**
 * Decodes and checks the envelope; returns LF text (a CRLF file reads exactly like its LF twin,
 * line numbers unchanged) or, on the left, the refusal.
 */
export const openText = (file: string, bytes: Uint8Array, maxBytes: number): Result.Result<string, CarrierRead> => {
  if (bytes.length > maxBytes) {
    return Result.fail(refuse(file, 0, "read/too-large", `file is ${bytes.length} bytes; the limit is ${maxBytes} bytes`))
  }
  const nul = bytes.indexOf(0)
  if (nul >= 0) {
    const line = lineOfOffset(Buffer.from(bytes.subarray(0, nul)).toString("latin1"), nul)
    return Result.fail(refuse(file, line, "read/binary", "file holds a NUL byte: binary content is not a carrier"))
  }
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    const bad = Buffer.from(bytes).toString("utf8").indexOf("\uFFFD")
    const line = bad < 0 ? 1 : lineOfOffset(Buffer.from(bytes).toString("utf8"), bad)
    return Result.fail(refuse(file, line, "read/invalid-utf8", "file is not valid UTF-8"))
  }
  if (text.charCodeAt(0) === 0xfeff) return Result.fail(refuse(file, 1, "read/bom", "file starts with a byte-order mark; save it as UTF-8 without BOM"))
  const crlf = text.includes("\r\n")
  const cr = text.indexOf("\r")
  if (cr >= 0) {
    const lone = text.replace(/\r\n/g, "").includes("\r")
    const lfOnly = /(^|[^\r])\n/.test(text)
    if (lone || (crlf && lfOnly)) {
      return Result.fail(refuse(file, lineOfOffset(text, cr), "read/mixed-newlines", "file mixes LF and CR/CRLF newlines; use one kind"))
    }
    return Result.succeed(text.replace(/\r\n/g, "\n"))
  }
  return Result.succeed(text)
}

export interface ExtractOptions extends AnchorOptions {
  /** oxc-parser; required only when some candidate passes the anchor pre-check. */
  readonly parser?: AnchorParser
  /** Markdown Specs parse their prose again when it is read instead of keeping it (read/markdown.ts). */
  readonly proseOnDemand?: boolean
}

/** Text of an anchor candidate that passes the pre-check, or null (the cheap filter before parsing). */
export const anchorText = (file: SourceFile, options: AnchorOptions): Result.Result<string, CarrierRead> | null =>
  mayHoldAnchorBytes(file.bytes, options) ? openText(file.path, file.bytes, MAX_CODE_BYTES) : null

/** What one file contributes; null when it is not a carrier and holds no anchor. */
export const extractFile = (file: SourceFile, options: ExtractOptions): CarrierRead | null => {
  const role = classifyPath(file.path)
  if (role === null) return null
  if (role === "anchor-candidate") {
    const text = anchorText(file, options)
    if (text === null) return null
    if (Result.isFailure(text)) return text.failure
    if (options.parser === undefined) throw new Error("extractFile: an anchor candidate needs the TypeScript parser")
    return parseAnchors(file.path, text.success, options, options.parser)
  }
  const text = openText(file.path, file.bytes, MAX_CARRIER_BYTES)
  if (Result.isFailure(text)) return text.failure
  return role === "markdown" ? parseMarkdownCarrier(file.path, text.success, options.proseOnDemand === true) : parseGherkinCarrier(file.path, text.success)
}
