// Reads a corpus into the graph. Discovery walks the working tree (or takes files another source
// already holds: git objects, the index); file contents come through Effect's FileSystem,
// so a test can put faults under it. Parsing is the pure core (src/core/read/extract.ts).
import * as Data from "effect/Data"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Fiber from "effect/Fiber"
import * as nodePath from "node:path"
import type { SourceFile } from "../core/read/discover.js"
import { classifyPath, unreadableFile } from "../core/read/discover.js"
import { walk } from "../node/walk.js"
import { TurnBudget, afterPoll } from "../node/loopTurn.js"
import type { Extracted } from "../node/extractInThread.js"
import { UNHASHED } from "../node/extractInThread.js"
import { ExtractSession, extractAll, startAhead } from "../node/extractAll.js"
import { Git } from "../node/git.js"
import type { GitSideAnswers, GitView } from "../node/gitWorkTree.js"
import { askGit, convertsNothing, repositoryPrefix } from "../node/gitWorkTree.js"
import { asIndexObject, load } from "../node/diskRead.js"
import type { CacheSource, ParseCache as OpenCache, SavedEntry } from "../node/parseCache.js"
import { shardListing } from "../node/parseCache.js"
import { ParseCache, WorkerPool } from "../node/runtime.js"
import { buildGraph } from "../core/graph/graph.js"
import { isProtocolPackageJson } from "../core/protocol-package.js"
import type { CarrierRead, Graph } from "../core/model.js"
import { byCodeUnits } from "../core/model.js"

export class ReadError extends Data.TaggedError("ReadError")<{ readonly path: string; readonly reason: string }> {
  override get message() {
    return `${this.path}: ${this.reason}`
  }
}

/**
 * The extraction root is a folder, or the ReadError every use case fails with (one tag for one
 * cause: a changeset's run checks it before git is asked, so a missing root is never git's error).
 */
export const rootFolder = (fs: FileSystem.FileSystem, root: string): Effect.Effect<void, ReadError> =>
  fs.stat(root).pipe(
    Effect.mapError(() => new ReadError({ path: root, reason: "the root folder does not exist" })),
    Effect.flatMap((info) => (info.type === "Directory" ? Effect.void : Effect.fail(new ReadError({ path: root, reason: "the root is not a folder" }))))
  )

export interface FileHash {
  readonly path: string
  readonly hash: string
}

export interface ReadResult {
  readonly graph: Graph
  /**
   * Every file the reader used (carriers and anchor candidates), root-relative, sorted, with
   * SHA-256: listed when first asked (a bundle's manifest; an impact report never asks). A read
   * asked with `hashes: false` has none to list: asking is a defect.
   */
  readonly files: () => ReadonlyArray<FileHash>
  /** The excludes that left some path of the walk out (none for files the caller listed and filtered). */
  readonly excluded: ReadonlySet<string>
}

const NONE_EXCLUDED: ReadonlySet<string> = new Set()

/** Whether a read's files are hashed: false when nothing will ask for `files` (no manifest); a parse cache hashes them anyway. */
export interface HashOption {
  readonly hashes?: boolean
}

/** A file of the index: root-relative path and the object id its entry names. */
export interface IndexedFile {
  readonly path: string
  readonly object: string
}

export interface TreeOptions extends HashOption {
  readonly root: string
  readonly exclude: ReadonlyArray<string>
  /** Files absent from the disk but part of the tree (a sparse checkout's, from the index): read with the rest. */
  readonly extra?: ReadonlyArray<SourceFile>
  /** git's listing of the work tree under the root, when a changeset's diff already asked for it (gitWorkTree.ts LIST_STAGED). */
  readonly gitListing?: ReadonlyArray<string>
  /** git's other answers about the work tree, when the diff started asking them with that listing (gitWorkTree.ts askSides): joined here. */
  readonly gitSides?: Effect.Effect<GitSideAnswers>
}

const NOTHING_KEPT = { reads: [], entries: () => [] } as const

/** What the whole shards of a cache gave, and their entries when asked (files not read this run). */
const keptOf = (cache: OpenCache | undefined, shards: ReadonlyArray<number>) =>
  cache === undefined || shards.length === 0
    ? NOTHING_KEPT
    : {
        reads: shards.flatMap((shard) => cache.whole[shard] ?? []),
        entries: () => shards.flatMap((shard) => cache.wholeEntries(shard))
      }

/** The items of a listing (`shards`: each one's shard, in order) whose shard is not whole. */
const notWhole = <A>(items: ReadonlyArray<A>, shards: Uint8Array, whole: ReadonlyArray<unknown>): A[] => {
  const out: A[] = []
  for (let i = 0; i < items.length; i++) if (whole[shards[i]] === undefined) out.push(items[i])
  return out
}

/**
 * The tracked files git vouches hold their index object's bytes (gitWorkTree.ts), or none where an
 * attribute file met by the walk or listed by git could make git's answer differ from the bytes.
 */
const vouched = (view: GitView | null, walked: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  if (view === null || view.unchanged.size === 0) return NONE
  const own = new Set([...walked, ...view.listedAttributeFiles])
  return convertsNothing([...view.attributeFiles, ...own], own) ? view.unchanged : NONE
}
const NONE: ReadonlyMap<string, string> = new Map()

/** What the parse cache keeps: every file read, with its stat data, its hashes and what it gave. */
const reusable = (extracted: ReadonlyArray<Extracted>): SavedEntry[] =>
  extracted.flatMap((e): SavedEntry[] => (e.hash === null || e.stat === undefined ? [] : [[e.path, e.stat, e.hash, e.oid ?? null, e.read]]))

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const git = yield* Git
  const pool = yield* WorkerPool
  const caches = yield* ParseCache
  const openParseCache = caches.open

  const isSelfHosting = (root: string) =>
    fs.readFileString(nodePath.join(root, "package.json")).pipe(
      Effect.map(isProtocolPackageJson),
      Effect.orElseSucceed(() => false)
    )

  /**
   * Results of the parse into the graph, with the hash list of every file read; `kept`: what the
   * parse cache's whole shards gave, with their entries (files not read this run).
   */
  const assemble = (
    extracted: ReadonlyArray<Extracted>,
    extra: ReadonlyArray<CarrierRead>,
    kept: { readonly reads: ReadonlyArray<CarrierRead>; readonly entries: () => ReadonlyArray<SavedEntry> } = NOTHING_KEPT,
    cache?: OpenCache,
    excluded: ReadonlySet<string> = NONE_EXCLUDED
  ): ReadResult => {
    const reads: CarrierRead[] = [...extra, ...kept.reads]
    for (const e of extracted) if (e.read !== null) reads.push(e.read)
    let files: FileHash[] | undefined
    const list = () => {
      if (files !== undefined) return files
      files = kept.entries().map((e) => ({ path: e[0], hash: e[2] }))
      for (const e of extracted) {
        if (e.hash === UNHASHED) throw new Error(`GraphReader: the files of a read without hashes were asked for (${e.path})`)
        if (e.hash !== null) files.push({ path: e.path, hash: e.hash })
      }
      return files.sort((a, b) => byCodeUnits(a.path, b.path))
    }
    // A cache kept in memory gives back the graph it built last when nothing was read again.
    const graph = cache?.graphOf === undefined ? buildGraph(reads) : cache.graphOf(reads, () => buildGraph(reads))
    return { graph, files: list, excluded }
  }

  /** Turns files held in memory into the graph: the one place parsing happens. */
  const readFiles = (files: ReadonlyArray<SourceFile>, options: { readonly selfHosting: boolean } & HashOption, extra: ReadonlyArray<CarrierRead> = []) =>
    Effect.promise(async () => assemble(await extractAll(files, options, pool), extra))

  /** Reads the working tree under `root`. */
  const readTree = (options: TreeOptions) =>
    Effect.gen(function* () {
      const root = nodePath.resolve(options.root)
      yield* rootFolder(fs, root)
      const selfHosting = yield* isSelfHosting(root)
      const since = Date.now()
      const hashes = options.hashes
      const cache = openParseCache(root, selfHosting, "tree")
      // git lists its files while the walk runs (the two meet below); worker threads (a large
      // corpus) start loading while the walk is still counting. A warm cache needs no workers:
      // its session starts once the listing has told which shards are whole.
      let session = cache?.warm === true ? undefined : new ExtractSession(0, { selfHosting, known: cache?.known, since, hashes }, pool)
      // Threads may start during the walk: a read that fails or is interrupted before its session
      // finishes (git refused, Ctrl-C in `watch`) ends them.
      const abandonOnFailure = <A, E2>(step: Effect.Effect<A, E2>) =>
        step.pipe(Effect.onExit((exit) => (Exit.isFailure(exit) && session !== undefined ? Effect.promise(() => session!.abandon()) : Effect.void)))
      const askedGit = yield* Effect.forkChild(askGit(git, root, cache !== undefined, options.gitListing, options.gitSides))
      const listing = yield* abandonOnFailure(walk(root, options.exclude, (count) => session?.expect(count)))
      const view = yield* abandonOnFailure(Fiber.join(askedGit))
      const listed = view?.listed ?? null
      // Code files first, then the carriers (see below), each group in path order; one pass.
      const code: string[] = []
      const carriers: string[] = []
      const extra = new Map((options.extra ?? []).map((f) => [f.path, f.bytes]))
      // A file held in memory (extra: outside a sparse checkout's cone) or read from the disk.
      const readBytes = (path: string) => {
        const held = extra.get(path)
        return held !== undefined ? Effect.succeed(held) : fs.readFile(prefix + path)
      }
      const paths = extra.size === 0 ? listing.files : [...new Set([...listing.files, ...extra.keys()])].sort(byCodeUnits)
      for (const path of paths)
        if (extra.has(path) || listed === null || listed.has(path)) (classifyPath(path) === "anchor-candidate" ? code : carriers).push(path)
      const problems = [...listing.problems]
      // Concatenated, not nodePath.join: join normalizes each path (~2 us, 60 ms on 30,000 files),
      // and walk's paths are already normal, relative, with "/" (which every platform's fs takes).
      const prefix = root.endsWith(nodePath.sep) ? root : root + nodePath.sep
      const unchanged =
        cache === undefined
          ? NONE
          : vouched(
              view,
              listing.attributes.map((p) => prefix + p)
            )
      // A shard whose files git all vouches for, as the objects a shard of the cache was saved
      // from, is whole: none of its files is looked up, stat'ed or read.
      const treeListing =
        cache === undefined
          ? undefined
          : (cache.listingOf ?? shardListing)([...code, ...carriers].map((path) => ({ path, object: extra.has(path) ? null : (unchanged.get(path) ?? null) })))
      cache?.settle(treeListing)
      const wholeShards = cache === undefined ? [] : cache.whole.flatMap((reads, shard) => (reads === undefined ? [] : [shard]))
      const all = [...code, ...carriers]
      // The listing holds each path's shard, in this order: no path is hashed again.
      const ordered = wholeShards.length === 0 || cache === undefined || treeListing === undefined ? all : notWhole(all, treeListing.shards, cache.whole)
      session ??= new ExtractSession(ordered.length, { selfHosting, known: cache?.known, since, hashes }, pool)
      // With worker threads, every file is queued unread, code files first: the workers read and
      // parse from the front, this thread from the back (the Specs, whose results are the costly
      // ones to send between threads), and both read as they go (extractAll.ts). With a parse
      // cache, files are queued unread too: a file whose stat data match is not read at all.
      if (session.parallel || cache !== undefined) {
        for (const path of ordered) {
          const bytes = extra.get(path)
          const object = unchanged.get(path)
          session.add(
            bytes !== undefined
              ? { path, bytes }
              : object === undefined
                ? { path, absolute: prefix + path }
                : { path, absolute: prefix + path, unchanged: object }
          )
        }
      } else {
        // In one thread, through the FileSystem service, one file after another: reads are
        // synchronous (NodeFileSystemSync), so concurrency would only add fibers. The event loop
        // turns every so often, so a signal ends the read (loopTurn.ts).
        const turns = new TurnBudget()
        yield* Effect.forEach(
          ordered,
          (path) =>
            readBytes(path).pipe(
              Effect.map((bytes) => {
                session.add({ path, bytes })
                turns.spend(bytes.length)
              }),
              Effect.catch((e) =>
                Effect.sync(() => {
                  // A file that vanished between listing and reading, or one we may not read.
                  problems.push(unreadableFile(path, e.reason._tag === "BadArgument" ? "error" : e.reason._tag))
                })
              ),
              Effect.andThen(() => (turns.due() ? Effect.promise(afterPoll) : Effect.void))
            ),
          { discard: true }
        )
      }
      const started = session
      const extracted = yield* Effect.promise(() => started.finish())
      cache?.save(reusable(extracted), treeListing)
      const read = assemble(extracted, problems, keptOf(cache, wholeShards), cache, listing.excluded)
      // The threads ended while the graph was built: none holds its parser's memory when git is asked again.
      yield* Effect.promise(() => started.ended())
      return read
    })

  /**
   * Reads the index's files under `root` (root-relative paths, with their object ids) from the
   * working tree wherever the bytes there are the index's (checked by object id, or by the parse
   * cache's stat data for an id checked before), and the rest through `fetch` (git's object
   * store): the same bytes as reading every blob from git, at the cost of reading the tree.
   */
  const readIndexed = <E>(
    options: {
      readonly root: string
      readonly entries: ReadonlyArray<IndexedFile>
      readonly selfHosting: boolean
      /** The cache to use: the index's (default), or an old side's (a changeset's old blobs). */
      readonly cache?: Exclude<CacheSource, "tree">
    } & HashOption,
    fetch: (entries: ReadonlyArray<IndexedFile>) => Effect.Effect<ReadonlyArray<SourceFile>, E>
  ) =>
    Effect.gen(function* () {
      const root = nodePath.resolve(options.root)
      const { selfHosting, hashes } = options
      // Each shard of the cache saved from a listing with the same paths and object ids is whole:
      // its files are what they were, and none of them is looked up, read or parsed.
      const cache = openParseCache(root, selfHosting, options.cache ?? "index")
      // Only a cache asks for the listing's digests (~15 ms on 30,000 files).
      const listing = cache === undefined ? undefined : (cache.listingOf ?? shardListing)(options.entries)
      cache?.settle(listing)
      const wholeShards = cache === undefined ? [] : cache.whole.flatMap((reads, shard) => (reads === undefined ? [] : [shard]))
      const entries =
        wholeShards.length === 0 || cache === undefined || listing === undefined ? options.entries : notWhole(options.entries, listing.shards, cache.whole)
      const session = new ExtractSession(entries.length, { selfHosting, known: cache?.known, since: Date.now(), hashes }, pool)
      const prefix = root.endsWith(nodePath.sep) ? root : root + nodePath.sep
      // Code files first, then the carriers (see readTree), each classified once.
      const carriers: IndexedFile[] = []
      for (const e of entries) {
        if (classifyPath(e.path) === "anchor-candidate") session.add({ path: e.path, absolute: prefix + e.path, object: e.object })
        else carriers.push(e)
      }
      for (const e of carriers) session.add({ path: e.path, absolute: prefix + e.path, object: e.object })
      const extracted = yield* Effect.promise(() => session.finish())
      const stale = new Map<string, number>()
      extracted.forEach((e, i) => e.stale === true && stale.set(e.path, i))
      if (stale.size > 0) {
        // git is asked for the blobs: the threads first end (extractAll.ts, `ended`).
        yield* Effect.promise(() => session.ended())
        const wanted = options.entries.filter((e) => stale.has(e.path))
        const files = yield* fetch(wanted)
        const fromIndex = yield* Effect.promise(() => extractAll(files, { selfHosting, known: cache?.known, hashes }, pool))
        // A blob's bytes are its object id's by definition: kept under that id, so the next run
        // trusts the entry without fetching it again (a work tree whose bytes never match the
        // index's, as with core.autocrlf, would otherwise fetch every blob on every run).
        const objects = new Map(wanted.map((e) => [e.path, e.object]))
        for (const e of fromIndex) extracted[stale.get(e.path)!] = e.hash === null ? e : { ...e, stat: null, oid: objects.get(e.path) }
        // A blob git could not give (gone meanwhile) contributes nothing, as when every blob came from git.
        const given = new Set(files.map((f) => f.path))
        for (const [path, i] of stale) if (!given.has(path)) extracted[i] = { path, read: null, hash: null }
      }
      cache?.save(reusable(extracted), listing)
      const read = assemble(extracted, [], keptOf(cache, wholeShards), cache)
      yield* Effect.promise(() => session.ended())
      return read
    })

  /**
   * A few of the index's files whole (package.json): the work tree's bytes where they are the
   * index's object, else git's (`fetch`), which saves a git process on every `--staged` run.
   */
  const readIndexedFiles = <E>(
    root: string,
    entries: ReadonlyArray<IndexedFile>,
    fetch: (entries: ReadonlyArray<IndexedFile>) => Effect.Effect<ReadonlyArray<SourceFile>, E>
  ) =>
    Effect.gen(function* () {
      const prefix = nodePath.resolve(root) + nodePath.sep
      const held: SourceFile[] = []
      const missing: IndexedFile[] = []
      for (const e of entries) {
        const file = load({ path: e.path, absolute: prefix + e.path, object: e.object })
        // load's bytes live in a scratch buffer until the next read: copied.
        const blob = "bytes" in file ? asIndexObject(file.bytes, e.object) : undefined
        if (blob !== undefined) held.push({ path: e.path, bytes: Buffer.from(blob) })
        else missing.push(e)
      }
      return missing.length === 0 ? held : [...held, ...(yield* fetch(missing))]
    })

  /**
   * Starts the worker threads a read of about `files` files under `root` will use, before it,
   * when no earlier read left a cache to give (extractAll.ts startAhead); `releaseThreadsAhead`
   * ends the ones no read adopted.
   */
  const startThreadsAhead = (root: string, source: "tree" | "index", files: number) =>
    Effect.sync(() => {
      startAhead(pool, files, () => !caches.cold(nodePath.resolve(root), source))
    })
  // Not awaited: a thread ends between its tasks, and nothing waits on it (it is unreferenced).
  const releaseThreadsAhead = Effect.sync(() => void pool.ahead?.release())

  /** The root's path from its repository's top, "/"-ended ("" at the top, or with no repository): where GitLab's report names files from. */
  const repositoryPrefixOf = (root: string) => repositoryPrefix(git, nodePath.resolve(root))

  return {
    readTree,
    readFiles,
    readIndexed,
    readIndexedFiles,
    isSelfHosting,
    startThreadsAhead,
    releaseThreadsAhead,
    repositoryPrefix: repositoryPrefixOf
  } as const
})

export class GraphReader extends Context.Service<GraphReader, Effect.Success<typeof make>>()("specbundle/GraphReader") {
  /** The service from its parts, for a double in a test or a program (what `Layer.succeed(GraphReader, …)` takes). */
  static readonly make = (service: GraphReader["Service"]): GraphReader["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<GraphReader, never, FileSystem.FileSystem | Git | WorkerPool | ParseCache> = Layer.effect(this, make)
  /** The live service with git under it; a FileSystem and the runtime (WorkerPool, ParseCache: src/node/runtime.ts) still to provide. */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Git.Default))
}
