// What a changeset changed, and where the new and old sides of it can be read. Git runs from the
// repository's top; paths are rebased onto the extraction root (which may be a sub-folder).
import * as Effect from "effect/Effect"
import type { SourceFile } from "../core/discover.js"
import type { ChangedFile, Changeset, RepoChange } from "../core/changeset.js"
import { normalizePrefix, parseChangeset, parseLsFilesStageZ, parseLsTreeZ, parseNameStatusZ, rebaseChanges, revisionProblem, splitZ, underRoot } from "../core/changeset.js"
import type { GitError } from "./git.js"
import { GitFailedError, InvalidRevisionError, NotARepositoryError, ShallowCloneError, UnknownRevisionError, readBlobs, runGit } from "./git.js"

export { GitFailedError, GitMissingError, InvalidRevisionError, NotARepositoryError, ShallowCloneError, UnknownRevisionError } from "./git.js"
export type { GitError } from "./git.js"

/** Where the extraction root sits in its repository. */
export interface RepoLocation {
  /** The extraction root, absolute. */
  readonly root: string
  /** The repository's top folder, absolute. */
  readonly top: string
  /** The root relative to the top with a trailing "/", or "" when the root is the top. */
  readonly prefix: string
}

/** Where the new graph comes from. */
export type NewSource =
  | { readonly _tag: "WorkingTree" }
  | { readonly _tag: "Tree"; readonly commit: string }
  | { readonly _tag: "Index" }

export interface DiffResult {
  readonly location: RepoLocation
  /** Root-relative, sorted by path. */
  readonly files: ReadonlyArray<ChangedFile>
  /** Repository-relative paths of changed files outside the root, sorted. */
  readonly outsideRoot: ReadonlyArray<string>
  readonly newSource: NewSource
  /** The commit whose tree is the old side (null: staged changes in a repository with no commit yet). */
  readonly oldCommit: string | null
}

const DIFF = ["diff", "--name-status", "-z", "-M", "--no-color", "--no-ext-diff", "--no-relative"]

/** The revision text with its trailing ~N / ^N / ^{...} steps removed: what exists if only a parent is missing. */
const baseOf = (rev: string): string => rev.replace(/(?:~\d*|\^\d*|\^\{[^}]*\})+$/, "")

/** Parses a changeset text, refusing anything git could take for an option. */
export const decodeChangeset = (text: string): Effect.Effect<Changeset, InvalidRevisionError> => {
  const parsed = parseChangeset(text)
  return parsed._tag === "Ok"
    ? Effect.succeed(parsed.changeset)
    : Effect.fail(new InvalidRevisionError({ revision: parsed.revision, problem: parsed.problem }))
}

const locate = Effect.fn("GitDiff.locate")(function* (root: string) {
  const top = (yield* runGit(root, ["rev-parse", "--show-toplevel"])).replace(/\n$/, "")
  if (top === "") return yield* new NotARepositoryError({ folder: root, reason: "is not inside a git work tree" })
  const prefix = normalizePrefix(yield* runGit(root, ["rev-parse", "--show-prefix"]))
  return { root, top, prefix } satisfies RepoLocation
})

const isShallow = (top: string) =>
  runGit(top, ["rev-parse", "--is-shallow-repository"]).pipe(Effect.map((out) => out.trim() === "true"))

/** Resolves a revision to a commit; the text was checked by parseChangeset, and `--end-of-options` guards anyway. */
const resolve = (top: string, rev: string): Effect.Effect<string, GitError | InvalidRevisionError> =>
  Effect.gen(function* () {
    const problem = revisionProblem(rev)
    if (problem !== null) return yield* new InvalidRevisionError({ revision: rev, problem })
    const sha = (yield* runGit(top, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`])).trim()
    if (sha !== "") return sha
    const base = baseOf(rev)
    if (base !== rev && (yield* isShallow(top))) {
      const exists = (yield* runGit(top, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${base}^{commit}`])).trim()
      if (exists !== "") return yield* new ShallowCloneError({ revision: rev })
    }
    return yield* new UnknownRevisionError({ revision: rev })
  })

const headCommit = (top: string) =>
  runGit(top, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]).pipe(Effect.map((s) => (s.trim() === "" ? null : s.trim())))

/** Tracked or untracked (not ignored) changes under the root, as `git status` sees them. */
const isDirty = (loc: RepoLocation) =>
  runGit(loc.top, ["status", "--porcelain", "-z", "--untracked-files=all", ...(loc.prefix === "" ? [] : ["--", `:(literal)${loc.prefix}`])]).pipe(
    Effect.map((out) => out !== "")
  )

/** Untracked files git does not ignore become "untracked"; a tracked path deleted but still on disk is modified. */
const withUntracked = (changes: ReadonlyArray<RepoChange>, untracked: ReadonlyArray<string>): RepoChange[] => {
  const out = [...changes]
  const index = new Map(out.map((c, i) => [c.path, i]))
  for (const path of untracked) {
    const at = index.get(path)
    if (at === undefined) out.push({ path, status: "untracked" })
    else if (out[at].status === "deleted") out[at] = { path, status: "modified" }
  }
  return out
}

const diff = Effect.fn("GitDiff.diff")(function* (root: string, changeset: Changeset) {
  const location = yield* locate(root)
  const { top } = location
  let changes: RepoChange[]
  let newSource: NewSource
  let oldCommit: string | null
  switch (changeset._tag) {
    case "Rev": {
      const from = yield* resolve(top, changeset.rev)
      changes = parseNameStatusZ(yield* runGit(top, [...DIFF, from, "--"]))
      const untracked = splitZ(yield* runGit(top, ["ls-files", "--others", "--exclude-standard", "-z"]))
      changes = withUntracked(changes, untracked)
      newSource = { _tag: "WorkingTree" }
      oldCommit = from
      break
    }
    case "Range":
    case "MergeBase": {
      const a = yield* resolve(top, changeset.from)
      const b = yield* resolve(top, changeset.to)
      let from = a
      if (changeset._tag === "MergeBase") {
        const base = (yield* runGit(top, ["merge-base", "--end-of-options", a, b]).pipe(
          Effect.catchTag("GitFailedError", () => Effect.succeed(""))
        )).trim()
        if (base === "") {
          if (yield* isShallow(top)) return yield* new ShallowCloneError({ revision: `${changeset.from}...${changeset.to}` })
          return yield* new GitFailedError({ command: "merge-base", detail: `${changeset.from} and ${changeset.to} have no common ancestor` })
        }
        from = base
      }
      changes = parseNameStatusZ(yield* runGit(top, [...DIFF, from, b, "--"]))
      const head = yield* headCommit(top)
      const checkedOut = head === b && !(yield* isDirty(location))
      newSource = checkedOut ? { _tag: "WorkingTree" } : { _tag: "Tree", commit: b }
      oldCommit = from
      break
    }
    case "Staged": {
      // With no commit yet, `diff --cached` compares against the empty tree by itself.
      changes = parseNameStatusZ(yield* runGit(top, [...DIFF, "--cached", "--"]))
      newSource = { _tag: "Index" }
      oldCommit = yield* headCommit(top)
      break
    }
  }
  const rebased = rebaseChanges(location.prefix, changes)
  return { location, files: rebased.files, outsideRoot: rebased.outsideRoot, newSource, oldCommit } satisfies DiffResult
})

/** Blob entries under the root of a commit's tree or of the index, with root-relative paths. */
const listEntries = (loc: RepoLocation, source: { readonly _tag: "Tree"; readonly commit: string } | { readonly _tag: "Index" }) =>
  Effect.gen(function* () {
    const entries =
      source._tag === "Tree"
        ? parseLsTreeZ(yield* runGit(loc.top, ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", source.commit]))
        : parseLsFilesStageZ(yield* runGit(loc.top, ["ls-files", "-s", "-z"]))
    return entries.flatMap((e) => {
      const path = underRoot(loc.prefix, e.path)
      return path === null ? [] : [{ path, object: e.object }]
    })
  })

const readEntries = (loc: RepoLocation, entries: ReadonlyArray<{ path: string; object: string }>) =>
  Effect.map(readBlobs(loc.top, entries.map((e) => e.object)), (blobs) =>
    entries.flatMap((e): SourceFile[] => {
      const bytes = blobs.get(e.object)
      return bytes === undefined ? [] : [{ path: e.path, bytes }]
    })
  )

/** Files under the root of a commit's tree or of the index that `wanted` accepts, with their bytes. */
const readSource = Effect.fn("GitDiff.readSource")(function* (
  loc: RepoLocation,
  source: { readonly _tag: "Tree"; readonly commit: string } | { readonly _tag: "Index" },
  wanted: (path: string) => boolean
) {
  const entries = (yield* listEntries(loc, source)).filter((e) => wanted(e.path))
  return yield* readEntries(loc, entries)
})

/** Entries under the root of a commit's tree or of the index that `wanted` accepts: root-relative path and object id. */
const listSource = Effect.fn("GitDiff.listSource")(function* (
  loc: RepoLocation,
  source: { readonly _tag: "Tree"; readonly commit: string } | { readonly _tag: "Index" },
  wanted: (path: string) => boolean
) {
  return (yield* listEntries(loc, source)).filter((e) => wanted(e.path))
})

/** The bytes of entries listed by listSource (an object git no longer has is left out). */
const readObjects = (loc: RepoLocation, entries: ReadonlyArray<{ readonly path: string; readonly object: string }>) => readEntries(loc, entries)

const OLD_SIDE_PATHSPECS = 200

/** The old side of root-relative paths at a commit; paths the commit lacks are left out. */
const readOld = Effect.fn("GitDiff.readOld")(function* (loc: RepoLocation, commit: string, paths: ReadonlyArray<string>) {
  if (paths.length === 0) return [] as SourceFile[]
  const want = new Set(paths)
  // A few paths (a commit's usual old side): named to ls-tree, not the whole tree listed (30,000 entries, ~0.2 s).
  const entries =
    paths.length <= OLD_SIDE_PATHSPECS
      ? parseLsTreeZ(yield* runGit(loc.top, ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit, "--", ...paths.map((p) => `:(literal)${loc.prefix}${p}`)]))
          .flatMap((e) => {
            const path = underRoot(loc.prefix, e.path)
            return path === null || !want.has(path) ? [] : [{ path, object: e.object }]
          })
      : (yield* listEntries(loc, { _tag: "Tree", commit })).filter((e) => want.has(e.path))
  return yield* readEntries(loc, entries)
})

/** HEAD and whether the root has changes, for a manifest; null outside a repository or without git. */
const repoState = Effect.fn("GitDiff.repoState")(function* (root: string) {
  const state = Effect.gen(function* () {
    const location = yield* locate(root)
    return { commit: yield* headCommit(location.top), dirty: yield* isDirty(location) }
  })
  return yield* state.pipe(Effect.catchAll(() => Effect.succeed(null)))
})

export class GitDiff extends Effect.Service<GitDiff>()("specbundle/GitDiff", {
  succeed: { diff, readSource, listSource, readObjects, readOld, repoState, locate } as const
}) {}
