// Changesets and git's NUL-separated listings, as plain data. Pure: GitDiff runs git and hands the
// raw text here, so parsing and path rebasing test without a repository.
import { isSkippedDirectory } from "../read/discover.js"
import * as Result from "effect/Result"
import { byCodeUnits } from "../model.js"

/** What `--changeset` / `--staged` name (bundle-contract.md section 1). */
export type Changeset =
  | { readonly _tag: "Rev"; readonly rev: string }
  | { readonly _tag: "Range"; readonly from: string; readonly to: string }
  | { readonly _tag: "MergeBase"; readonly from: string; readonly to: string }
  | { readonly _tag: "Staged" }
  /** Changed paths as a review bot knows them (`impact --paths-from`): repository-relative, the work tree their new side. */
  | { readonly _tag: "Paths"; readonly paths: ReadonlyArray<string> }

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed" | "untracked"

export interface ChangedFile {
  /** Root-relative, `/` separators. For a rename, the new path. */
  readonly path: string
  readonly status: ChangeStatus
  /** Only on renames: the path the file had before. */
  readonly oldPath?: string
}

/** Why a revision may not reach git, or null when it may (checked before git ever sees it). */
export const revisionProblem = (rev: string): string | null => {
  if (rev === "") return "a revision must not be empty"
  if (rev.startsWith("-")) return `revision "${rev}" starts with "-": it is refused so that it can never reach git as an option`
  if (/[\0\n\r]/.test(rev)) return "a revision must not hold NUL or line breaks"
  return null
}

/** A changeset text refused: the revision named and why. */
export interface InvalidRevision {
  readonly revision: string
  readonly problem: string
}

/**
 * "REV", "A..B" or "A...B". An empty side means HEAD, as in git. The value is checked whole first,
 * so "--output=x" is refused even though it holds no "..".
 */
export const parseChangeset = (text: string): Result.Result<Changeset, InvalidRevision> => {
  const whole = revisionProblem(text)
  if (whole !== null) return Result.fail({ revision: text, problem: whole })
  const three = text.indexOf("...")
  const two = text.indexOf("..")
  const split = three >= 0 ? { at: three, width: 3 } : two >= 0 ? { at: two, width: 2 } : null
  if (split === null) return Result.succeed({ _tag: "Rev", rev: text })
  const from = text.slice(0, split.at) || "HEAD"
  const to = text.slice(split.at + split.width) || "HEAD"
  for (const side of [from, to]) {
    const problem = revisionProblem(side)
    if (problem !== null) return Result.fail({ revision: side, problem })
    if (side.includes("..")) return Result.fail({ revision: text, problem: `"${text}" is not REV, A..B or A...B` })
  }
  return Result.succeed(split.width === 3 ? { _tag: "MergeBase", from, to } : { _tag: "Range", from, to })
}

/** The changeset written back as a user would type it. */
export const changesetText = (cs: Changeset): string => {
  switch (cs._tag) {
    case "Rev":
      return cs.rev
    case "Range":
      return `${cs.from}..${cs.to}`
    case "MergeBase":
      return `${cs.from}...${cs.to}`
    case "Staged":
      return "--staged"
    case "Paths":
      return "--paths-from"
  }
}

/** The lines of a `--paths-from` file: one path a line (CRLF too), blank lines left out. */
export const pathLines = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "")

/**
 * Changed paths as given (repository-relative, `/`-separated; a leading `./` is fine), each once
 * in the order given, or the first one refused and why: absolute, reaching out with `..`, empty,
 * or holding NUL.
 */
export const changedPaths = (paths: ReadonlyArray<string>): { readonly paths: string[] } | { readonly problem: string } => {
  const out = new Set<string>()
  for (const given of paths) {
    const path = given.replace(/^(\.\/)+/, "")
    if (path === "" || path === ".") return { problem: `an empty path (${JSON.stringify(given)}); give one repository-relative file path a line` }
    if (path.includes("\0")) return { problem: `a path must not hold NUL: ${JSON.stringify(given)}` }
    if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path))
      return { problem: `${JSON.stringify(given)} is absolute; paths are relative to the repository's top` }
    if (path.split(/[\\/]/).includes("..")) return { problem: `${JSON.stringify(given)} leaves the repository (..); paths are relative to its top` }
    out.add(path.replace(/\/+$/, ""))
  }
  return { paths: [...out] }
}

// ---------------------------------------------------------------------------------------------
// NUL-separated git output

/** Splits `-z` output; the trailing empty item after the last NUL is dropped. */
export const splitZ = (text: string): string[] => {
  const items = text.split("\0")
  if (items.length > 0 && items[items.length - 1] === "") items.pop()
  return items
}

/** A change with repository-relative paths, before rebasing onto the root. */
export interface RepoChange {
  readonly path: string
  readonly status: ChangeStatus
  readonly oldPath?: string
}

/** A diff's changes, and the old side's object id of each old path that was a regular file (repository-relative). */
export interface RawDiff {
  readonly changes: RepoChange[]
  readonly oldObjects: ReadonlyMap<string, string>
}

/**
 * `git diff --raw --no-abbrev -z -M`: ":<old mode> <new mode> <old id> <new id> <status>\0<path>\0",
 * renames and copies with "<old>\0<new>\0". Type changes and unmerged entries count as modified; a
 * copy is a new file. The old ids let the old side be read without listing its tree.
 */
export const parseRawZ = (text: string): RawDiff => {
  const items = splitZ(text)
  const changes: RepoChange[] = []
  const oldObjects = new Map<string, string>()
  for (let i = 0; i < items.length; ) {
    const [oldMode, , oldObject, , status] = items[i++].slice(1).split(" ")
    const code = status.charAt(0)
    const first = items[i++]
    if (isRegular(oldMode) && !/^0+$/.test(oldObject)) oldObjects.set(first, oldObject)
    if (code === "R" || code === "C") {
      const path = items[i++]
      changes.push(code === "R" ? { path, status: "renamed", oldPath: first } : { path, status: "added" })
    } else changes.push({ path: first, status: code === "A" ? "added" : code === "D" ? "deleted" : "modified" })
  }
  return { changes, oldObjects }
}

/** One blob entry of `ls-tree -r -z` or `ls-files -s -z`. */
export interface BlobEntry {
  readonly mode: string
  readonly object: string
  /** Repository-relative. */
  readonly path: string
}

/** Regular files only: symlinks (120000) and submodules (160000) are never read as carriers. */
const isRegular = (mode: string): boolean => mode === "100644" || mode === "100755"

/** `ls-tree -r -z`: "<mode> SP <type> SP <object> TAB <path>\0". */
export const parseLsTreeZ = (text: string): BlobEntry[] =>
  splitZ(text).flatMap((item) => {
    const tab = item.indexOf("\t")
    const [mode, type, object] = item.slice(0, tab).split(" ")
    return type === "blob" && isRegular(mode) ? [{ mode, object, path: item.slice(tab + 1) }] : []
  })

/** The index as `ls-files -s -z` lists it: its merged (stage 0) regular files, and the paths of unmerged entries. */
export interface IndexListing {
  readonly merged: BlobEntry[]
  /** Repository-relative, unique, in the listing's order. */
  readonly unmerged: string[]
}

/** `ls-files -s -z`: "<mode> SP <object> SP <stage> TAB <path>\0". */
export const parseIndexListingZ = (text: string): IndexListing => {
  // By offsets rather than split: the whole index passes through here on every `--staged` run.
  const merged: BlobEntry[] = []
  const unmerged: string[] = []
  for (const item of splitZ(text)) {
    const tab = item.indexOf("\t")
    const first = item.indexOf(" ")
    const second = item.indexOf(" ", first + 1)
    if (first < 0 || second < 0 || tab < second) continue
    const path = item.slice(tab + 1)
    if (item.slice(second + 1, tab) !== "0") {
      // Stages 1-3 of one path come one after the other.
      if (unmerged[unmerged.length - 1] !== path) unmerged.push(path)
      continue
    }
    const mode = item.slice(0, first)
    if (isRegular(mode)) merged.push({ mode, object: item.slice(first + 1, second), path })
  }
  return { merged, unmerged }
}

/** `ls-files -s -z`: only stage 0 (merged) entries. */
export const parseLsFilesStageZ = (text: string): BlobEntry[] => parseIndexListingZ(text).merged

// ---------------------------------------------------------------------------------------------
// Rebasing repository paths onto the extraction root

/** The root's path inside the repository with a trailing "/", or "" at the top. */
export const normalizePrefix = (showPrefix: string): string => {
  const p = showPrefix.replace(/\n$/, "")
  return p === "" || p.endsWith("/") ? p : p + "/"
}

/** Root-relative path, or null when the repository path lies outside the root. */
export const underRoot = (prefix: string, repoPath: string): string | null =>
  prefix === "" ? repoPath : repoPath.startsWith(prefix) ? repoPath.slice(prefix.length) : null

export interface RebasedChanges {
  /** Root-relative, sorted by path then status. */
  readonly files: ReadonlyArray<ChangedFile>
  /** Repository-relative paths of changes outside the root, unique and sorted. */
  readonly outsideRoot: ReadonlyArray<string>
}

/**
 * Moves repository paths under the root. A rename across the root's edge becomes an add (moved in)
 * or a delete (moved out) as seen from the root, with the far path listed as outside. A path
 * outside the root in a folder the reader skips (`.github/`, `node_modules/`, `dist/`, ...) is not
 * listed: it would be no corpus file under any root, as dropSkippedFolders drops it inside.
 */
export const rebaseChanges = (prefix: string, changes: ReadonlyArray<RepoChange>): RebasedChanges => {
  const files: ChangedFile[] = []
  const outside = new Set<string>()
  for (const c of changes) {
    const path = underRoot(prefix, c.path)
    const old = c.oldPath === undefined ? null : underRoot(prefix, c.oldPath)
    if (path === null && !inSkippedFolder(c.path)) outside.add(c.path)
    if (c.oldPath !== undefined && old === null && !inSkippedFolder(c.oldPath)) outside.add(c.oldPath)
    if (c.status === "renamed") {
      if (path !== null && old !== null) files.push({ path, status: "renamed", oldPath: old })
      else if (path !== null) files.push({ path, status: "added" })
      else if (old !== null) files.push({ path: old, status: "deleted" })
    } else if (path !== null) {
      files.push({ path, status: c.status })
    }
  }
  files.sort((a, b) => byCodeUnits(a.path, b.path) || byCodeUnits(a.status, b.status))
  return { files, outsideRoot: [...outside].sort(byCodeUnits) }
}

/** Whether a root-relative path lies in a folder the reader skips (dot-folders, node_modules, dist, ...). */
export const inSkippedFolder = (path: string): boolean => {
  const segments = path.split("/")
  for (let i = 0; i < segments.length - 1; i++) if (isSkippedDirectory(segments[i])) return true
  return false
}

/**
 * Changes without files in folders the reader skips: they are not corpus files (specbundle's own
 * `.specbundle/out`, node_modules). A rename across such a folder's edge keeps its corpus side.
 */
export const dropSkippedFolders = (files: ReadonlyArray<ChangedFile>): ChangedFile[] =>
  files
    .flatMap((f): ChangedFile[] => {
      const skipped = inSkippedFolder(f.path)
      if (f.oldPath === undefined || inSkippedFolder(f.oldPath) === skipped) return skipped ? [] : [f]
      return skipped ? [{ path: f.oldPath, status: "deleted" }] : [{ path: f.path, status: "added" }]
    })
    .sort((a, b) => byCodeUnits(a.path, b.path) || byCodeUnits(a.status, b.status))
