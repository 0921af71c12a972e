// From file bytes to what each file contributes: discovery rules, the file envelope every carrier
// must pass, and dispatch to the carrier parsers. Pure: sources (working tree, git objects, the
// index) hand in bytes; nothing here touches the disk.
import { createHash } from "node:crypto"
import type { AnchorOptions, ParseSync } from "./read/anchors.js"
import { mayHoldAnchor, parseAnchors } from "./read/anchors.js"
import { parseGherkinCarrier } from "./read/gherkin.js"
import { parseMarkdownCarrier } from "./read/markdown.js"
import type { CarrierRead, Finding } from "./model.js"

export interface SourceFile {
  /** Root-relative, `/` separators, no leading `./`. */
  readonly path: string
  readonly bytes: Uint8Array
}

export type FileRole = "markdown" | "gherkin" | "anchor-candidate"

/** Carriers by suffix alone; every other .ts/.tsx file (not .d.ts, not .sdp.ts) may hold anchors. */
export const classifyPath = (path: string): FileRole | null => {
  if (path.endsWith(".sdp.md")) return "markdown"
  if (path.endsWith(".sdp.gherkin")) return "gherkin"
  if (path.endsWith(".sdp.ts") || path.endsWith(".d.ts")) return null
  if (path.endsWith(".ts") || path.endsWith(".tsx")) return "anchor-candidate"
  return null
}

const SKIPPED = new Set(["node_modules", "dist", "generated", "coverage"])

export const isSkippedDirectory = (name: string): boolean => name.startsWith(".") || SKIPPED.has(name)

/** Excludes match at segment boundaries: the path itself or anything under it. */
export const isExcluded = (path: string, excludes: ReadonlyArray<string>): boolean =>
  excludes.some((e) => path === e || path.startsWith(e + "/"))

/** Why an --exclude value is refused (sdp-format.md section 1), or null when it is usable. */
export const excludeProblem = (value: string): string | null => {
  if (value === "" || value === ".") return "an exclude must name a root-relative path"
  if (value.startsWith("./") || value.startsWith("/")) return `exclude "${value}" must be root-relative without ./ or /`
  if (value.endsWith("/")) return `exclude "${value}" must not end with /`
  if (value.includes("\\")) return `exclude "${value}" must use / separators`
  if (/^[A-Za-z]:/.test(value)) return `exclude "${value}" names a drive; give a root-relative path`
  if (value.split("/").some((s) => s === "" || s === "..")) return `exclude "${value}" has an empty or .. segment`
  return null
}

/** The role a whole root-relative path would be read in, or null when discovery skips it. */
export const shouldRead = (path: string, excludes: ReadonlyArray<string>): FileRole | null => {
  const segments = path.split("/")
  for (let i = 0; i < segments.length - 1; i++) if (isSkippedDirectory(segments[i])) return null
  if (isExcluded(path, excludes)) return null
  return classifyPath(path)
}

export const sha256 = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex")

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
 * line numbers unchanged) or the refusal.
 */
export const openText = (file: string, bytes: Uint8Array, maxBytes: number): string | CarrierRead => {
  if (bytes.length > maxBytes) {
    return refuse(file, 0, "read/too-large", `file is ${bytes.length} bytes; the limit is ${maxBytes} bytes`)
  }
  const nul = bytes.indexOf(0)
  if (nul >= 0) {
    const line = lineOfOffset(Buffer.from(bytes.subarray(0, nul)).toString("latin1"), nul)
    return refuse(file, line, "read/binary", "file holds a NUL byte: binary content is not a carrier")
  }
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    const bad = Buffer.from(bytes).toString("utf8").indexOf("\uFFFD")
    const line = bad < 0 ? 1 : lineOfOffset(Buffer.from(bytes).toString("utf8"), bad)
    return refuse(file, line, "read/invalid-utf8", "file is not valid UTF-8")
  }
  if (text.charCodeAt(0) === 0xfeff) return refuse(file, 1, "read/bom", "file starts with a byte-order mark; save it as UTF-8 without BOM")
  const crlf = text.includes("\r\n")
  const cr = text.indexOf("\r")
  if (cr >= 0) {
    const lone = text.replace(/\r\n/g, "").includes("\r")
    const lfOnly = /(^|[^\r])\n/.test(text)
    if (lone || (crlf && lfOnly)) {
      return refuse(file, lineOfOffset(text, cr), "read/mixed-newlines", "file mixes LF and CR/CRLF newlines; use one kind")
    }
    return text.replace(/\r\n/g, "\n")
  }
  return text
}

export interface ExtractOptions extends AnchorOptions {
  /** oxc-parser's parseSync; required only when some candidate passes the anchor pre-check. */
  readonly parse?: ParseSync
}

/** Text of an anchor candidate that passes the pre-check, or null (the cheap filter before parsing). */
export const anchorText = (file: SourceFile, options: AnchorOptions): string | CarrierRead | null => {
  const text = openText(file.path, file.bytes, MAX_CODE_BYTES)
  if (typeof text !== "string") return text
  return mayHoldAnchor(text, options) ? text : null
}

/** What one file contributes; null when it is not a carrier and holds no anchor. */
export const extractFile = (file: SourceFile, options: ExtractOptions): CarrierRead | null => {
  const role = classifyPath(file.path)
  if (role === null) return null
  if (role === "anchor-candidate") {
    const text = anchorText(file, options)
    if (text === null || typeof text !== "string") return text
    if (options.parse === undefined) throw new Error("extractFile: an anchor candidate needs the TypeScript parser")
    return parseAnchors(file.path, text, options, options.parse)
  }
  const text = openText(file.path, file.bytes, MAX_CARRIER_BYTES)
  if (typeof text !== "string") return text
  return role === "markdown" ? parseMarkdownCarrier(file.path, text) : parseGherkinCarrier(file.path, text)
}

/** A finding that concerns a file the reader could not take in at all (unreadable, symlink, ...). */
export const fileFinding = (file: string, code: string, message: string, severity: Finding["severity"] = "error"): CarrierRead => ({
  file,
  specs: [],
  packs: [],
  anchors: [],
  findings: [{ file, line: 0, code, message, severity }]
})
