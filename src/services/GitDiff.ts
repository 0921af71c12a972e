// What a changeset changed, and where the new and old sides of it can be read. Git runs from the
// repository's top; paths are rebased onto the extraction root (which may be a sub-folder).
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { lstatSync } from "node:fs"
import * as nodePath from "node:path"
import type { ChangedFile, Changeset, RepoChange } from "../core/changes/changeset.js"
import type { BlobEntry } from "../core/changes/changeset.js"
import {
  dropSkippedFolders,
  normalizePrefix,
  parseChangeset,
  parseIndexListingZ,
  parseRawZ,
  rebaseChanges,
  revisionProblem,
  splitZ,
  underRoot
} from "../core/changes/changeset.js"
import type { GitError, GitOutput } from "../node/git.js"
import { sidesOf } from "./gitSides.js"
import type { GitSideAnswers } from "../node/gitWorkTree.js"
import { LIST_STAGED, PLACES_OPTIONS, askSides } from "../node/gitWorkTree.js"
import { holdsOwnOutput } from "../node/ownOutput.js"
import { ParseCache } from "../node/runtime.js"
import { StagedIndex } from "../node/stagedIndex.js"
import {
  GitEnvironment,
  GitFailedError,
  Git,
  InvalidRevisionError,
  NotARepositoryError,
  ShallowCloneError,
  UnknownRevisionError,
  UnmergedPathError
} from "../node/git.js"

export {
  GitFailedError,
  GitMissingError,
  InvalidRevisionError,
  NotARepositoryError,
  ShallowCloneError,
  UnknownRevisionError,
  UnmergedPathError
} from "../node/git.js"
export type { GitError } from "../node/git.js"

import type { RepoLocation } from "./gitSides.js"
export type { RepoLocation } from "./gitSides.js"

/**
 * Where the new graph comes from. `sparse`: root-relative paths a sparse checkout left out of the
 * working tree (skip-worktree); they are read at their index version, never taken as removed.
 */
export type NewSource =
  | {
      readonly _tag: "WorkingTree"
      readonly sparse?: ReadonlyArray<string>
      /** git's listing of the work tree (gitWorkTree.ts LIST_STAGED's records, root-relative), when the diff asked for it. */
      readonly listing?: ReadonlyArray<string>
      /** git's other answers about the work tree (gitWorkTree.ts askSides), started with that listing: the read joins them. */
      readonly sides?: Effect.Effect<GitSideAnswers>
    }
  | { readonly _tag: "Tree"; readonly commit: string }
  | {
      readonly _tag: "Index"
      /** The index's merged regular files (repository-relative), as the diff's own listing found them. */
      readonly listed?: ReadonlyArray<BlobEntry>
    }

export interface DiffResult {
  readonly location: RepoLocation
  /** Root-relative, sorted by path. */
  readonly files: ReadonlyArray<ChangedFile>
  /** Repository-relative paths of changed files outside the root, sorted. */
  readonly outsideRoot: ReadonlyArray<string>
  readonly newSource: NewSource
  /** The commit whose tree is the old side (null: staged changes in a repository with no commit yet). */
  readonly oldCommit: string | null
  /** The old side's object id of each changed path that was a regular file there (repository-relative). */
  readonly oldObjects: ReadonlyMap<string, string>
}

const DIFF = ["diff", "--raw", "--no-abbrev", "-z", "-M", "--no-color", "--no-ext-diff", "--no-relative"]

/** The revision text with its trailing ~N / ^N / ^{...} steps removed: what exists if only a parent is missing. */
const baseOf = (rev: string): string => rev.replace(/(?:~\d*|\^\d*|\^\{[^}]*\})+$/, "")

/** Parses a changeset text, refusing anything git could take for an option. */
export const decodeChangeset = (text: string): Effect.Effect<Changeset, InvalidRevisionError> =>
  Result.match(parseChangeset(text), {
    onFailure: (invalid) => Effect.fail(new InvalidRevisionError(invalid)),
    onSuccess: Effect.succeed
  })

export interface RepoState {
  readonly commit: string | null
  readonly dirty: boolean | null
}

/** Whether the folder holds a `.git` (a folder, or a file naming one): the top of a work tree, nearly always. */
const holdsDotGit = (folder: string): boolean => {
  try {
    lstatSync(nodePath.join(folder, ".git"))
    return true
  } catch {
    return false
  }
}

/** Whether the work tree holds something at the path (a symlink counts: git tracks it). */
const present = (path: string): boolean => {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** Everything below runs git through the Git service (its one runner). */
/** Whether the run's reads keep a parse cache (then they ask git to vouch for files); asked of the caller's runtime, not a requirement of this service. */
const cachesOffered = Effect.map(Effect.serviceOption(ParseCache), (caches) => caches._tag === "Some" && caches.value.offered)

const make = Effect.gen(function* () {
  const git = yield* Git
  const sides = sidesOf(git)
  const runGit = git.run

  /**
   * Where the root is: the top line, then the prefix line (empty at the top), and with `withHead`
   * the commit HEAD names on a third (none before the first commit, a silent exit 1 that still
   * printed the first two). One git for all three answers: each git costs a start-up, and the
   * pre-commit hook's HEAD was a third process beside its index listing and diff.
   */
  const locateWith = Effect.fn("GitDiff.locate")(function* (root: string, withHead: boolean, withPlaces = false) {
    // withPlaces: the same git also names the index and the common git folder (the places a work
    // tree's read asks: gitWorkTree.ts askSides), one process fewer for a changeset's read.
    const out = yield* runGit(root, [
      "rev-parse",
      "--show-toplevel",
      "--show-prefix",
      ...(withPlaces ? PLACES_OPTIONS : []),
      ...(withHead ? ["--verify", "--quiet", "HEAD^{commit}"] : [])
    ])
    const lines = out.split("\n")
    const top = lines.length >= 3 ? lines[0] : ""
    if (top === "") return yield* new NotARepositoryError({ folder: root, reason: "is not inside a git work tree" })
    const prefix = normalizePrefix(lines[1])
    // HEAD's line follows the places' lines when both are asked.
    const at = withPlaces ? 4 : 2
    const head = withHead && lines.length >= at + 2 && lines[at].trim() !== "" ? lines[at].trim() : null
    // Absolute both, else (a git before 2.31 echoes the option it does not know) asked as before.
    const places =
      withPlaces && lines.length >= 5 && nodePath.isAbsolute(lines[2]) && nodePath.isAbsolute(lines[3])
        ? ({ code: 0, stdout: Buffer.from(`${lines[2]}\n${lines[3]}\n${top}\n`), stderr: "" } satisfies GitOutput)
        : undefined
    return { location: { root, top, prefix } satisfies RepoLocation, head, places }
  })
  const locate = (root: string) => Effect.map(locateWith(root, false), (found) => found.location)

  const isShallow = (top: string) => runGit(top, ["rev-parse", "--is-shallow-repository"]).pipe(Effect.map((out) => out.trim() === "true"))

  const verify = (top: string, rev: string) => runGit(top, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev]).pipe(Effect.map((out) => out.trim()))

  /**
   * Resolves a revision to a commit; the text was checked by parseChangeset, and `--end-of-options`
   * guards anyway. The revision is resolved as typed first and peeled after: a suffix appended to
   * it would land inside a message search such as `:/fix the parser`.
   */
  const resolve = (top: string, rev: string): Effect.Effect<string, GitError | InvalidRevisionError> =>
    Effect.gen(function* () {
      const problem = revisionProblem(rev)
      if (problem !== null) return yield* new InvalidRevisionError({ revision: rev, problem })
      // Without a colon (no message search, no path) a suffix cannot change what the text names:
      // one git instead of two where it names a commit (HEAD~1, a branch, a tag). Anything else
      // (unknown, not a commit) takes the two steps below, which tell the cases apart.
      if (!rev.includes(":")) {
        const peeled = yield* verify(top, `${rev}^{commit}`).pipe(Effect.catchTag("GitFailedError", () => Effect.succeed("")))
        if (peeled !== "") return peeled
      }
      const object = yield* verify(top, rev)
      const sha = object === "" ? "" : yield* verify(top, `${object}^{commit}`)
      if (sha !== "") return sha
      const base = baseOf(rev)
      if (object === "" && !rev.startsWith(":/")) {
        // The commit it steps back from exists: the history ends first (cut by a shallow clone, or
        // at a first commit, where fetching cannot help).
        const from = base === rev ? "" : yield* verify(top, `${base}^{commit}`)
        if (from !== "") {
          if (yield* isShallow(top)) return yield* new ShallowCloneError({ revision: rev })
          const first = (yield* verify(top, `${from}^`)) === ""
          return yield* new UnknownRevisionError({ revision: rev, before: base, first })
        }
        // HEAD before the first commit (an empty repository, an orphan branch): say so.
        if (base === "HEAD" || base === "@") {
          const branch = (yield* runGit(top, ["symbolic-ref", "--quiet", "--short", "HEAD"]).pipe(Effect.orElseSucceed(() => ""))).trim()
          if (branch !== "" && (yield* verify(top, "HEAD")) === "") return yield* new UnknownRevisionError({ revision: rev, unborn: branch })
        }
      }
      return yield* new UnknownRevisionError({ revision: rev })
    })

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

  /**
   * Skip-worktree entries missing from the disk (a sparse checkout's paths outside its cone),
   * repository-relative, from `ls-files -t` (or `-v`: lower case when also assume-unchanged).
   * Present files keep their disk version (a manual --skip-worktree).
   */
  const absentOf = (top: string, items: ReadonlyArray<string>) =>
    items.flatMap((item) => {
      if (!item.startsWith("S ") && !item.startsWith("s ")) return []
      const tab = item.indexOf("\t")
      const path = tab < 0 ? item.slice(2) : item.slice(tab + 1)
      try {
        lstatSync(nodePath.join(top, path))
        return []
      } catch {
        return [path]
      }
    })
  const sparseAbsent = (top: string) => runGit(top, ["ls-files", "-t", "-z"]).pipe(Effect.map((out) => absentOf(top, splitZ(out))))

  /**
   * The work tree's untracked files (not ignored) and absent skip-worktree entries, with git's
   * whole listing for the read of the new side (GraphReader): at the top (the root is the top),
   * one `ls-files` answers all three, where the read would list the work tree again.
   */
  const workTreeListing = (location: RepoLocation) =>
    location.prefix !== ""
      ? Effect.all([runGit(location.top, ["ls-files", "--others", "--exclude-standard", "-z"]).pipe(Effect.map(splitZ)), sparseAbsent(location.top)], {
          concurrency: "unbounded"
        }).pipe(Effect.map(([untracked, absent]) => ({ untracked, absent, listing: undefined as ReadonlyArray<string> | undefined })))
      : runGit(location.top, LIST_STAGED).pipe(
          Effect.map((out) => {
            const listing = out.split("\0")
            const untracked = listing.flatMap((r) => (r.startsWith("? ") ? [r.slice(2)] : []))
            return { untracked, absent: absentOf(location.top, listing), listing: listing as ReadonlyArray<string> | undefined }
          })
        )

  /** --staged's two listings: the index's (`ls-files -s`: conflicts and the new side) and the diff against HEAD. */
  const stagedListings = (top: string) =>
    Effect.all([runGit(top, ["ls-files", "-s", "-z"]), runGit(top, [...DIFF, "--cached", "--"])], { concurrency: "unbounded" })

  /**
   * `--paths-from`: the given paths (repository-relative; the root's own folder when it is in no
   * repository) as a change of the work tree, with no old side: a path the work tree holds is
   * modified, one it lacks deleted. No revision is asked: a review bot knows the paths, not the base.
   */
  const pathsDiff = Effect.fnUntraced(function* (root: string, paths: ReadonlyArray<string>) {
    const location = yield* locate(root).pipe(Effect.catchTag("NotARepositoryError", () => Effect.succeed<RepoLocation>({ root, top: root, prefix: "" })))
    const changes = paths.map((path): RepoChange => ({ path, status: present(nodePath.join(location.top, path)) ? "modified" : "deleted" }))
    const rebased = rebaseChanges(location.prefix, changes)
    const newSource: NewSource = { _tag: "WorkingTree" }
    return {
      location,
      files: dropSkippedFolders(rebased.files),
      outsideRoot: rebased.outsideRoot,
      newSource,
      oldCommit: null,
      oldObjects: new Map()
    } satisfies DiffResult
  })

  const diff = Effect.fn("GitDiff.diff")(function* (root: string, changeset: Changeset) {
    if (changeset._tag === "Paths") return yield* pathsDiff(root, changeset.paths)
    // A long-lived entrance's staged answers (src/node/stagedIndex.ts): from the index file and the
    // last answer where they tell it, else git's answers below, kept for the next call.
    const memo = changeset._tag === "Staged" ? Option.getOrUndefined(yield* Effect.serviceOption(StagedIndex)) : undefined
    const env = memo === undefined ? undefined : yield* GitEnvironment
    const remembered = memo === undefined || env === undefined ? undefined : memo.answer(root, env)
    if (remembered !== undefined) {
      const rebased = rebaseChanges(remembered.location.prefix, remembered.changes)
      return {
        location: remembered.location,
        files: dropSkippedFolders(rebased.files),
        outsideRoot: rebased.outsideRoot,
        newSource: { _tag: "Index", listed: remembered.merged },
        oldCommit: remembered.head,
        oldObjects: remembered.oldObjects
      } satisfies DiffResult
    }
    const before = memo === undefined || env === undefined ? undefined : memo.before(root, env)
    // HEAD is asked with the location where the changeset reads it (--staged, A..B, A...B).
    // --staged where the root holds a `.git` (a work tree's top, where a pre-commit hook runs):
    // its listings start beside the rev-parse instead of after it, one git round trip fewer. They
    // are used only when rev-parse says the root is the top (else asked again there), and a
    // failed rev-parse fails the run with its own error, as when they ran after it.
    const early = changeset._tag === "Staged" && holdsDotGit(root) ? Effect.result(stagedListings(root)) : Effect.succeed(undefined)
    const [found, listings] = yield* Effect.all([locateWith(root, changeset._tag !== "Rev", changeset._tag === "Rev"), early], { concurrency: "unbounded" })
    const { location } = found
    const { top } = location
    let changes: RepoChange[]
    let oldObjects: ReadonlyMap<string, string>
    let newSource: NewSource
    let oldCommit: string | null
    switch (changeset._tag) {
      case "Rev": {
        const from = yield* resolve(top, changeset.rev)
        // The read of the new side asks git which tracked files changed (diff-files, ~70 ms on 30,000
        // files) when it vouches for files (a parse cache) and the root is the top: started now, they
        // have answered by the time its walk is done. Detached: the read joins them after this returns
        // (a read that never comes leaves three short-lived read-only git processes to finish alone).
        const sides = location.prefix === "" && (yield* cachesOffered) ? yield* Effect.forkDetach(askSides(git, top, found.places)) : undefined
        // Questions that do not depend on each other: asked at once (each git costs a start-up).
        const [diffOut, tree] = yield* Effect.all([runGit(top, [...DIFF, from, "--"]), workTreeListing(location)], { concurrency: "unbounded" })
        const raw = parseRawZ(diffOut)
        // What specbundle itself wrote into the work tree (`bundle -o ctx.json`, `--out DIR`): not a change.
        changes = withUntracked(raw.changes, tree.untracked).filter((c) => c.status !== "untracked" || !holdsOwnOutput(nodePath.join(top, c.path)))
        oldObjects = raw.oldObjects
        const sparse = tree.absent.flatMap((p) => underRoot(location.prefix, p) ?? [])
        newSource = {
          _tag: "WorkingTree",
          ...(sparse.length === 0 ? {} : { sparse }),
          ...(tree.listing === undefined ? {} : { listing: tree.listing }),
          ...(sides === undefined ? {} : { sides: Fiber.join(sides) })
        }
        oldCommit = from
        break
      }
      case "Range":
      case "MergeBase": {
        const a = yield* resolve(top, changeset.from)
        const b = yield* resolve(top, changeset.to)
        let from = a
        if (changeset._tag === "MergeBase") {
          const base = (yield* runGit(top, ["merge-base", "--end-of-options", a, b]).pipe(Effect.catchTag("GitFailedError", () => Effect.succeed("")))).trim()
          if (base === "") {
            if (yield* isShallow(top)) return yield* new ShallowCloneError({ revision: `${changeset.from}...${changeset.to}` })
            return yield* new GitFailedError({ command: "merge-base", detail: `${changeset.from} and ${changeset.to} have no common ancestor` })
          }
          from = base
        }
        ;({ changes, oldObjects } = parseRawZ(yield* runGit(top, [...DIFF, from, b, "--"])))
        const head = found.head
        // A sparse working tree lacks the paths outside its cone: B's tree is read from git objects.
        // With a parse cache, B's tree is always read by object id (Impact.newSide): a cache's
        // entries then carry the ids their bytes were hashed to, which a fresh checkout of the
        // same files (a CI job's, with the last job's cache restored) takes unread; the work
        // tree's read keeps stat data only, which no other checkout matches (issue 50).
        const checkedOut = !(yield* cachesOffered) && head === b && !(yield* isDirty(location)) && (yield* sparseAbsent(top)).length === 0
        newSource = checkedOut ? { _tag: "WorkingTree" } : { _tag: "Tree", commit: b }
        oldCommit = from
        break
      }
      case "Staged": {
        // With no commit yet, `diff --cached` compares against the empty tree by itself. The index's
        // listing answers both whether a conflict is open and what the new side holds: one git for both.
        const [listing, diffOut] = yield* listings !== undefined && location.prefix === "" ? Effect.fromResult(listings) : stagedListings(top)
        const index = parseIndexListingZ(listing)
        if (index.unmerged.length > 0) return yield* new UnmergedPathError({ paths: index.unmerged.map((p) => underRoot(location.prefix, p) ?? p) })
        ;({ changes, oldObjects } = parseRawZ(diffOut))
        newSource = { _tag: "Index", listed: yield* sides.stagedEntries(top, index.merged) }
        oldCommit = found.head
        if (before !== undefined && env !== undefined) memo?.keep(before, env, { location, head: found.head, listing: index, raw: diffOut })
        break
      }
    }
    const rebased = rebaseChanges(location.prefix, changes)
    return { location, files: dropSkippedFolders(rebased.files), outsideRoot: rebased.outsideRoot, newSource, oldCommit, oldObjects } satisfies DiffResult
  })

  /**
   * HEAD and whether anything under the root changed, for a manifest. Outside a repository, without
   * git or before the first commit both are null: a manifest never requires git.
   */
  const repoState = Effect.fn("GitDiff.repoState")(function* (root: string) {
    const head = yield* git.attempt(root, ["rev-parse", "--verify", "--quiet", "HEAD"])
    if (head === null) return { commit: null, dirty: null } as RepoState
    const status = yield* git.attempt(root, ["status", "--porcelain", "-z", "--", "."])
    return { commit: head.trim(), dirty: status === null ? null : status.length > 0 } as RepoState
  })

  return { diff, ...sides, repoState, locate } as const
})

export class GitDiff extends Context.Service<GitDiff, Effect.Success<typeof make>>()("specbundle/GitDiff") {
  /** The service from its parts, for a double in a test or a program (what `Layer.succeed(GitDiff, …)` takes). */
  static readonly make = (service: GitDiff["Service"]): GitDiff["Service"] => service
  /** The live service; the Git service still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<GitDiff, never, Git> = Layer.effect(this, make)
  /** The live service over the real git. */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Git.Default))
}
