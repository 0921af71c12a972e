// A changeset's impact: GitDiff names the changed files and the sources, GraphReader reads the new
// graph (working tree, a commit's tree, or the index) and the old side of files that went away.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as nodePath from "node:path"
import type { Changeset } from "../core/changes/changeset.js"
import { changesetText } from "../core/changes/changeset.js"
import type { SourceFile } from "../core/read/discover.js"
import { classifyPath, shouldRead } from "../core/read/discover.js"
import type { ImpactReport } from "../core/changes/impact.js"
import { carrierReadsOf, impactReport } from "../core/changes/impact.js"
import type { CarrierRead, Graph } from "../core/model.js"
import { isProtocolPackageJson } from "../core/protocol-package.js"
import type { DiffResult, RepoLocation } from "./GitDiff.js"
import { GitDiff } from "./GitDiff.js"
import type { FileHash } from "./GraphReader.js"
import { GraphReader } from "./GraphReader.js"

export interface ImpactOptions {
  /** The extraction root (relative paths resolve against the current folder). */
  readonly root: string
  readonly changeset: Changeset
  /** Root-relative excludes, already validated. */
  readonly exclude: ReadonlyArray<string>
  /** The changeset as the user typed it; defaults to changesetText(changeset). */
  readonly label?: string
  /** false: nothing will ask for the result's `files` (no manifest), so the files are not hashed (GraphReader's HashOption). */
  readonly hashes?: boolean
}

export interface ImpactResult {
  readonly report: ImpactReport
  /** The new graph: what `bundle --changeset` composes from. */
  readonly graph: Graph
  /** Every file the reader used for the new graph (root-relative path, SHA-256), listed when first called. */
  readonly files: () => ReadonlyArray<FileHash>
  readonly diff: DiffResult
  /** The excludes that left out some path of either side. */
  readonly excluded: ReadonlySet<string>
}

const selfHostingOf = (files: ReadonlyArray<SourceFile>): boolean => {
  const pkg = files.find((f) => f.path === "package.json")
  return pkg !== undefined && isProtocolPackageJson(Buffer.from(pkg.bytes).toString("utf8"))
}

/** The root as the report names it: relative to the repository, "." at the top. */
export const rootLabel = (location: RepoLocation): string => (location.prefix === "" ? "." : location.prefix.replace(/\/$/, ""))

/**
 * Old-side paths: deleted files, the old path of renames, modified carriers (so a Spec whose id
 * changed shows as removed) and modified code files (the bindings they lost). Only paths the
 * reader would read at all.
 */
export const oldSidePaths = (diff: DiffResult, exclude: ReadonlyArray<string>, matched?: Set<string>): string[] =>
  diff.files
    .flatMap((f) => {
      if (f.status === "deleted") return [f.path]
      if (f.status === "renamed" && f.oldPath !== undefined) return [f.oldPath]
      if (f.status === "modified" && classifyPath(f.path) !== null) return [f.path]
      return []
    })
    .filter((p) => shouldRead(p, exclude, matched) !== null)

/** The old side: what its files gave, or its files still to parse (the new side's options unknown yet). */
type OldSide = { readonly reads: ReadonlyArray<CarrierRead> } | { readonly files: ReadonlyArray<SourceFile> }

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const git = yield* GitDiff
  const reader = yield* GraphReader

  /**
   * Whether the new side is the protocol package itself (its package.json), known before anything
   * is parsed where that costs no git process: the work tree's file, or the index's entry (listed
   * by the diff). null for a commit's tree: known once its files are read.
   */
  const selfHostingFirst = Effect.fn("Impact.selfHosting")(function* (diff: DiffResult) {
    const source = diff.newSource
    if (source._tag === "WorkingTree") return yield* reader.isSelfHosting(diff.location.root)
    if (source._tag === "Tree") return null
    const pkg = (yield* git.listSource(diff.location, source, (p) => p === "package.json")).filter((e) => e.path === "package.json")
    return selfHostingOf(pkg.length === 0 ? [] : yield* reader.readIndexedFiles(diff.location.root, pkg, (stale) => git.readObjects(diff.location, stale)))
  })

  const newSide = Effect.fn("Impact.newSide")(function* (
    diff: DiffResult,
    exclude: ReadonlyArray<string>,
    known: boolean | null,
    hashes: boolean | undefined,
    matched: Set<string>
  ) {
    const source = diff.newSource
    if (source._tag === "WorkingTree") {
      // A sparse checkout's paths outside its cone are part of the tree at their index version.
      const sparse = new Set(source.sparse ?? [])
      const extra =
        sparse.size === 0 ? [] : yield* git.readSource(diff.location, { _tag: "Index" }, (p) => sparse.has(p) && shouldRead(p, exclude, matched) !== null)
      const read = yield* reader.readTree({ root: diff.location.root, exclude, extra, gitListing: source.listing, gitSides: source.sides, hashes })
      return { read, selfHosting: known ?? (yield* reader.isSelfHosting(diff.location.root)) }
    }
    if (source._tag === "Index") {
      // The index's files are read from the working tree where they hold the same bytes (most of them).
      const entries = yield* git.listSource(diff.location, source, (p) => p !== "package.json" && shouldRead(p, exclude, matched) !== null)
      const selfHosting = known ?? (yield* selfHostingFirst(diff)) ?? false
      const read = yield* reader.readIndexed({ root: diff.location.root, entries, selfHosting, hashes }, (stale) => git.readObjects(diff.location, stale))
      return { read, selfHosting }
    }
    // A commit's tree (not checked out as it is: an untracked file in the work tree, as a CI job's
    // output folder, or another commit than HEAD): its entries by object id, read as the index's
    // are, from the work tree wherever the bytes there are the object's and from git for the rest,
    // under a parse cache of its own. package.json only tells whether the corpus is the protocol
    // package itself.
    const listed = yield* git.listSource(diff.location, source, (p) => p === "package.json" || shouldRead(p, exclude, matched) !== null)
    const pkg = listed.filter((e) => e.path === "package.json")
    const selfHosting =
      known ?? selfHostingOf(pkg.length === 0 ? [] : yield* reader.readIndexedFiles(diff.location.root, pkg, (stale) => git.readObjects(diff.location, stale)))
    const entries = listed.filter((e) => shouldRead(e.path, exclude, matched) !== null)
    const read = yield* reader.readIndexed({ root: diff.location.root, entries, selfHosting, hashes, cache: "commit" }, (stale) =>
      git.readObjects(diff.location, stale)
    )
    return { read, selfHosting }
  })

  /**
   * The old side: the old commit's objects of the paths a change removed or modified. With the
   * new side's options known, their results come from the old side's parse cache by object id
   * (the diff names them: no tree listed, no blob read for a cached one); else the blobs are read
   * now and parsed once the new side tells its options. Git's work is done before the new side is
   * read (see run).
   */
  const oldSide = Effect.fn("Impact.oldSide")(function* (diff: DiffResult, exclude: ReadonlyArray<string>, selfHosting: boolean | null, matched: Set<string>) {
    const paths = oldSidePaths(diff, exclude, matched)
    if (diff.oldCommit === null || paths.length === 0) return { reads: [] } as OldSide
    if (selfHosting === null) return { files: yield* git.readOld(diff.location, diff.oldCommit, paths, diff.oldObjects) } as OldSide
    const entries = yield* git.listOld(diff.location, diff.oldCommit, paths, diff.oldObjects)
    const cache = diff.newSource._tag === "Index" ? "old-index" : "old-tree"
    const read = yield* reader.readIndexed({ root: diff.location.root, entries, selfHosting, cache, hashes: false }, (stale) =>
      git.readObjects(diff.location, stale)
    )
    return { reads: carrierReadsOf(read.graph) } as OldSide
  })

  /**
   * How many files the new side's read will parse, when git's listing already tells (the index's
   * entries under the root, the work tree's listing); 0 when not known yet.
   */
  const newSideSize = (diff: DiffResult): number => {
    const source = diff.newSource
    if (source._tag === "WorkingTree") return source.listing?.length ?? 0
    if (source._tag !== "Index" || source.listed === undefined) return 0
    const prefix = diff.location.prefix
    if (prefix === "") return source.listed.length
    let n = 0
    for (const e of source.listed) if (e.path.startsWith(prefix)) n++
    return n
  }

  const run = Effect.fn("Impact.run")(function* (options: ImpactOptions) {
    const diff = yield* git.diff(nodePath.resolve(options.root), options.changeset)
    // The new side's worker threads start loading now, while its old side is read (git's work).
    yield* reader.startThreadsAhead(diff.location.root, diff.newSource._tag === "Index" ? "index" : "tree", newSideSize(diff))
    return yield* sides(diff, options).pipe(Effect.ensuring(reader.releaseThreadsAhead))
  })

  const sides = Effect.fnUntraced(function* (diff: DiffResult, options: ImpactOptions) {
    const known = yield* selfHostingFirst(diff)
    // The old side's git first: once the new side's worker threads load oxc-parser (a large corpus,
    // SPECBUNDLE_WORKERS), each reserves ~6 GiB of address space and Linux may refuse to fork git
    // (spawn ENOMEM: issue 29, docs/decisions.md).
    // The excludes that left out some path of either side (the new side's walk tells its own).
    const matched = new Set<string>()
    const old = yield* oldSide(diff, options.exclude, known, matched)
    const { read: fresh, selfHosting } = yield* newSide(diff, options.exclude, known, options.hashes, matched)
    for (const e of fresh.excluded) matched.add(e)
    const oldReads =
      "reads" in old ? old.reads : old.files.length === 0 ? [] : carrierReadsOf((yield* reader.readFiles(old.files, { selfHosting, hashes: false })).graph)
    const report = impactReport({
      changeset: options.label ?? changesetText(options.changeset),
      root: rootLabel(diff.location),
      changedFiles: diff.files,
      graph: fresh.graph,
      oldReads,
      outsideRoot: diff.outsideRoot
    })
    return { report, graph: fresh.graph, files: fresh.files, diff, excluded: matched } satisfies ImpactResult
  })

  return { run } as const
})

export class Impact extends Context.Service<Impact, Effect.Success<typeof make>>()("specbundle/Impact") {
  /** The service from its parts, for a double in a test or a program (what `Layer.succeed(Impact, …)` takes). */
  static readonly make = (service: Impact["Service"]): Impact["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Impact, never, GitDiff | GraphReader> = Layer.effect(this, make)
  /** The live service with everything under it but a FileSystem and the runtime (WorkerPool, ParseCache: src/node/runtime.ts). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Layer.mergeAll(GitDiff.Default, GraphReader.Default)))
}
