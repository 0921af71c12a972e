// Where the sides of a changeset are read from git: a commit's tree or the index, listed under the
// extraction root and read through one `git cat-file --batch`, and the old side of a few paths.
// GitDiff (what changed) hands these on as part of its service.
import * as Effect from "effect/Effect"
import type { SourceFile } from "../core/read/discover.js"
import type { BlobEntry } from "../core/changes/changeset.js"
import { parseLsFilesStageZ, parseLsTreeZ, splitZ, underRoot } from "../core/changes/changeset.js"
import type { GitError } from "../node/git.js"
import { type Git, classify, parseBatch } from "../node/git.js"

/** Where the extraction root sits in its repository. */
export interface RepoLocation {
  /** The extraction root, absolute. */
  readonly root: string
  /** The repository's top folder, absolute. */
  readonly top: string
  /** The root relative to the top with a trailing "/", or "" when the root is the top. */
  readonly prefix: string
}

/** The empty blob's object id, in SHA-1 and SHA-256 repositories. */
const EMPTY_BLOB_SHA1 = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
const EMPTY_BLOB_SHA256 = "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"
/** A commit's tree, or the index. */
export type SideSource =
  | { readonly _tag: "Tree"; readonly commit: string }
  /**
   * `listed`: the index's merged regular files, intent-to-add placeholders left out (stagedEntries),
   * when the caller already listed them (GitDiff's diff): taken as they are, no git asked again.
   */
  | { readonly _tag: "Index"; readonly listed?: ReadonlyArray<BlobEntry> }

const OLD_SIDE_PATHSPECS = 200

/** The side readers over the one Git service. */
export const sidesOf = (git: Git["Service"]) => {
  /** Reads many objects with one `git cat-file --batch` process: object name -> bytes; a missing object is absent. */
  const readBlobs = (cwd: string, objects: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, Uint8Array>, GitError> => {
    const unique = [...new Set(objects)]
    if (unique.length === 0) return Effect.succeed(new Map())
    return git
      .exec(cwd, ["cat-file", "--batch"], unique.join("\n") + "\n")
      .pipe(
        Effect.flatMap((o) =>
          o.code !== 0
            ? Effect.fail(classify(cwd, "cat-file", o.stderr || `exit code ${o.code}`))
            : Effect.try({ try: () => parseBatch(o.stdout), catch: (e) => classify(cwd, "cat-file", String(e)) })
        )
      )
  }

  /** Intent-to-add entries (`git add -N`): the index names them with no content staged. */
  const intentToAdd = (top: string) =>
    git.run(top, ["diff", "--name-only", "-z", "--diff-filter=A", "--no-relative", "--no-ext-diff"]).pipe(Effect.map((out) => new Set(splitZ(out))))

  /** The index's merged (stage 0) entries without intent-to-add placeholders. */
  const stagedEntries = (top: string, entries: ReadonlyArray<BlobEntry>) =>
    Effect.gen(function* () {
      // An intent-to-add entry names the empty blob: without one, asking git (a diff that stats
      // the whole work tree, ~0.1 s on 30,000 files) can be skipped. With one (any empty file
      // committed: a .gitkeep, an __init__.py) it is asked once a run, by whoever lists the index.
      if (!entries.some((e) => e.object === EMPTY_BLOB_SHA1 || e.object === EMPTY_BLOB_SHA256)) return entries
      const placeholders = yield* intentToAdd(top)
      return placeholders.size === 0 ? entries : entries.filter((e) => !placeholders.has(e.path))
    })

  /** The index's staged blobs: as listed by the caller, or listed now. */
  const indexEntries = (top: string, listed: ReadonlyArray<BlobEntry> | undefined) =>
    listed !== undefined ? Effect.succeed(listed) : Effect.flatMap(git.run(top, ["ls-files", "-s", "-z"]), (out) => stagedEntries(top, parseLsFilesStageZ(out)))

  /**
   * Blob entries under the root of a commit's tree or of the index that `wanted` accepts, with
   * root-relative paths. One loop, an object only for an entry kept: the whole index passes
   * through here (twice on a `--staged` run: package.json, then the corpus).
   */
  const listEntries = (loc: RepoLocation, source: SideSource, wanted: (path: string) => boolean) =>
    Effect.gen(function* () {
      const entries =
        source._tag === "Tree"
          ? parseLsTreeZ(yield* git.run(loc.top, ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", source.commit]))
          : yield* indexEntries(loc.top, source.listed)
      const kept: Array<{ readonly path: string; readonly object: string }> = []
      for (const e of entries) {
        const path = underRoot(loc.prefix, e.path)
        // At the top an entry is its own root-relative entry (30,000 objects fewer a read).
        if (path !== null && wanted(path)) kept.push(loc.prefix === "" ? e : { path, object: e.object })
      }
      return kept
    })

  const readEntries = (loc: RepoLocation, entries: ReadonlyArray<{ path: string; object: string }>) =>
    Effect.map(
      readBlobs(
        loc.top,
        entries.map((e) => e.object)
      ),
      (blobs) =>
        entries.flatMap((e): SourceFile[] => {
          const bytes = blobs.get(e.object)
          return bytes === undefined ? [] : [{ path: e.path, bytes }]
        })
    )

  /** Files under the root of a commit's tree or of the index that `wanted` accepts, with their bytes. */
  const readSource = Effect.fn("GitDiff.readSource")(function* (loc: RepoLocation, source: SideSource, wanted: (path: string) => boolean) {
    return yield* readEntries(loc, yield* listEntries(loc, source, wanted))
  })

  /** Entries under the root of a commit's tree or of the index that `wanted` accepts: root-relative path and object id. */
  const listSource = Effect.fn("GitDiff.listSource")(function* (loc: RepoLocation, source: SideSource, wanted: (path: string) => boolean) {
    return yield* listEntries(loc, source, wanted)
  })

  /** The bytes of entries listed by listSource (an object git no longer has is left out). */
  const readObjects = (loc: RepoLocation, entries: ReadonlyArray<{ readonly path: string; readonly object: string }>) => readEntries(loc, entries)

  /**
   * The old side's entries of root-relative paths at a commit (paths the commit lacks are left out):
   * from the diff's own old object ids (`known`, repository-relative) when it names every path.
   */
  const listOld = Effect.fn("GitDiff.listOld")(function* (
    loc: RepoLocation,
    commit: string,
    paths: ReadonlyArray<string>,
    known: ReadonlyMap<string, string> = new Map()
  ) {
    if (paths.length === 0) return [] as Array<{ path: string; object: string }>
    const named = paths.map((path) => ({ path, object: known.get(`${loc.prefix}${path}`) ?? "" }))
    if (named.every((e) => e.object !== "")) return named
    const want = new Set(paths)
    // A few paths (a commit's usual old side): named to ls-tree, not the whole tree listed (30,000 entries, ~0.2 s).
    const entries =
      paths.length <= OLD_SIDE_PATHSPECS
        ? parseLsTreeZ(
            yield* git.run(loc.top, [
              "ls-tree",
              "-r",
              "-z",
              "--full-tree",
              "--end-of-options",
              commit,
              "--",
              ...paths.map((p) => `:(literal)${loc.prefix}${p}`)
            ])
          ).flatMap((e) => {
            const path = underRoot(loc.prefix, e.path)
            return path === null || !want.has(path) ? [] : [{ path, object: e.object }]
          })
        : yield* listEntries(loc, { _tag: "Tree", commit }, (p) => want.has(p))
    return entries
  })

  /** The old side of root-relative paths at a commit; paths the commit lacks are left out. */
  const readOld = Effect.fn("GitDiff.readOld")(function* (
    loc: RepoLocation,
    commit: string,
    paths: ReadonlyArray<string>,
    known?: ReadonlyMap<string, string>
  ) {
    return yield* readEntries(loc, yield* listOld(loc, commit, paths, known))
  })

  return { readSource, listSource, readObjects, readOld, listOld, stagedEntries } as const
}
