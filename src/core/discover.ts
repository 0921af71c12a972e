// Discovery rules and small helpers every source shares (working tree, git objects, the index).
// Light on purpose: the parsers live in extract.ts, which the reader loads only when it parses.
import { hash } from "node:crypto"
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

/** One-shot hash (Node >= 20.12): about half the cost of a createHash object per small file. */
export const sha256 = (bytes: Uint8Array | string): string => hash("sha256", bytes, "hex")


/** A finding that concerns a file the reader could not take in at all (unreadable, symlink, ...). */
export const fileFinding = (file: string, code: string, message: string, severity: Finding["severity"] = "error"): CarrierRead => ({
  file,
  specs: [],
  packs: [],
  anchors: [],
  findings: [{ file, line: 0, code, message, severity }]
})

/** The finding for a listed file that could not be read (vanished, not permitted, ...). */
export const unreadableFile = (path: string, reason: string): CarrierRead =>
  fileFinding(path, "read/unreadable", `file could not be read (${reason})`)
