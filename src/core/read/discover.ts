// Discovery rules and small helpers every source shares (working tree, git objects, the index).
// Light on purpose: the parsers live in extract.ts, which the reader loads only when it parses.
import { hash } from "node:crypto"
import type { CarrierRead, Finding } from "../model.js"

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
const SKIPPED_LENGTHS = new Set([...SKIPPED].map((name) => name.length))

export const isSkippedDirectory = (name: string): boolean => name.startsWith(".") || SKIPPED.has(name)

// Excludes: root-relative paths matched at segment boundaries (the path itself or anything under
// it), or globs (picomatch, loaded on the first glob only) matched against the path and each of its
// ancestors, so `drafts/**`, `drafts/*` and `**/drafts` all leave the folder out.
const GLOB = /[*?[{]/

export const isGlob = (exclude: string): boolean => GLOB.test(exclude)

type Matcher = (path: string) => boolean
const globs = new Map<string, Matcher>()
const globMatcher = (glob: string): Matcher => {
  let m = globs.get(glob)
  if (m === undefined) {
    // Lazily required: the matcher costs nothing at start-up when no glob is given.
    const picomatch = require("picomatch") as (g: string, o: { dot: boolean }) => Matcher
    const test = picomatch(glob, { dot: true })
    m = (path) => {
      for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) if (test(path.slice(0, i))) return true
      return test(path)
    }
    globs.set(glob, m)
  }
  return m
}

/**
 * Whether an exclude leaves the path out; `matched`, when given, collects the exclude that did (a
 * read's caller tells from it which excludes matched nothing).
 */
export const isExcluded = (path: string, excludes: ReadonlyArray<string>, matched?: Set<string>): boolean => {
  for (const e of excludes) {
    if (isGlob(e) ? globMatcher(e)(path) : path === e || path.startsWith(e + "/")) {
      matched?.add(e)
      return true
    }
  }
  return false
}

/** The excludes that left nothing out (in the order given): `matched` is what the reads collected. */
export const unmatchedExcludes = (excludes: ReadonlyArray<string>, matched: ReadonlySet<string>): string[] => excludes.filter((e) => !matched.has(e))

/**
 * An exclude as matching uses it, or why it is refused: the one home of exclude validation (flags,
 * the configuration file, profiles). A leading `./` and a trailing `/` are dropped.
 */
export const normalizeExclude = (value: string): { readonly path: string } | { readonly problem: string } => {
  let path = value
  while (path.startsWith("./")) path = path.slice(2)
  while (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1)
  if (path === "" || path === ".") return { problem: `exclude "${value}" must name a root-relative path` }
  if (path.startsWith("/")) return { problem: `exclude "${value}" must be root-relative (no leading /)` }
  if (path.includes("\\")) return { problem: `exclude "${value}" must use / separators` }
  if (/^[A-Za-z]:/.test(path)) return { problem: `exclude "${value}" names a drive; give a root-relative path` }
  if (path.startsWith("!")) return { problem: `exclude "${value}": negated globs are not supported; name what to leave out` }
  if (path.split("/").some((s) => s === "" || s === ".." || s === ".")) return { problem: `exclude "${value}" has an empty, . or .. segment` }
  return { path }
}

/** Why an exclude is refused, or null when it is usable (see normalizeExclude). */
export const excludeProblem = (value: string): string | null => {
  const n = normalizeExclude(value)
  return "problem" in n ? n.problem : null
}

/** The role a whole root-relative path would be read in, or null when discovery skips it. */
export const shouldRead = (path: string, excludes: ReadonlyArray<string>, matched?: Set<string>): FileRole | null => {
  // Each folder segment (indexOf, not split: called for every path of the index, 30,000 in a large repository).
  // No substring for a segment that cannot be skipped: not a dot-folder, not as long as a SKIPPED name.
  for (let start = 0, end = path.indexOf("/"); end >= 0; start = end + 1, end = path.indexOf("/", start)) {
    if (path.charCodeAt(start) === 46 || (SKIPPED_LENGTHS.has(end - start) && SKIPPED.has(path.slice(start, end)))) return null
  }
  if (isExcluded(path, excludes, matched)) return null
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
export const unreadableFile = (path: string, reason: string): CarrierRead => fileFinding(path, "read/unreadable", `file could not be read (${reason})`)
