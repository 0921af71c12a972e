// The drift pass over git (issue 51): one `git log --topo-order --name-status` from the tip (the one
// pass over history), the graph at the tip (the work tree, or a commit's tree), the reviews file,
// and the substance checks (the stood-on Specs' carriers before and after each commit that touched
// them, read through one `git cat-file --batch`). The pure part is src/core/changes/drift.ts.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import { createHash } from "node:crypto"
import * as nodePath from "node:path"
import { underRoot } from "../core/changes/changeset.js"
import { classifyPath, shouldRead } from "../core/read/discover.js"
import type { DriftRow, HistoryCommit, SubstanceQuestion } from "../core/changes/drift.js"
import { LOG_FORMAT, REVIEWS_FILE, parseLogZ, parseReviews, planDrift, substanceKey, substanceOf } from "../core/changes/drift.js"
import { extractFile } from "../core/read/extract.js"
import type { Graph } from "../core/model.js"
import { isProtocolPackageJson } from "../core/protocol-package.js"
import type { GitError } from "../node/git.js"
import { Git, GitFailedError, InvalidRevisionError, ShallowCloneError, UnknownRevisionError, classify } from "../node/git.js"
import { revisionProblem } from "../core/changes/changeset.js"
import type { RepoLocation } from "./GitDiff.js"
import { GitDiff } from "./GitDiff.js"
import { GraphReader } from "./GraphReader.js"
import type { CacheStore } from "../node/parseCache.js"
import { ParseCache } from "../node/runtime.js"

/**
 * Where a pass reads the graph and the reviews file: the work tree (history up to HEAD), a commit's
 * tree (`side`: a range's new end or its old end, each under a parse cache of its own), or the
 * index (the staged change as the commit it would make: STAGED).
 */
export type DriftTip =
  | { readonly _tag: "WorkTree" }
  | { readonly _tag: "Commit"; readonly commit: string; readonly side?: "tip" | "base" }
  | { readonly _tag: "Index" }

/** The id the staged change goes by as the commit it would make: no commit id is this; `:path` names its blobs. */
export const STAGED = "staged"

/** `rev:path` for cat-file: the index's blob (`:path`) for the staged change. */
const blobName = (rev: string, path: string) => `${rev === STAGED ? "" : rev}:${path}`

export interface PassResult {
  readonly rows: ReadonlyArray<DriftRow>
  readonly graph: Graph
  /** The commit the history ends at. */
  readonly commit: string
  /** Specs the pass looked at (a committed carrier). */
  readonly specs: number
  /** Their ids, sorted. */
  readonly watched: ReadonlyArray<string>
  /** Specs whose only watermark is a shallow clone's boundary commit. */
  readonly atBoundary: ReadonlyArray<string>
  /** How many commits the history held. */
  readonly commits: number
  readonly unknownReviews: ReadonlyArray<{ readonly id: string; readonly commit: string }>
  /** Lines of the reviews file that are no record. */
  readonly reviewProblems: ReadonlyArray<{ readonly line: number; readonly problem: string }>
  /** The reviews as read (id -> commits). */
  readonly reviews: ReadonlyMap<string, ReadonlyArray<string>>
  readonly excluded: ReadonlySet<string>
  /** The reviews file's text as read. */
  readonly reviewsText: string
}

/** The blobs of `rev:path` names through one `cat-file --batch`, in the order asked (null: missing). */
export const parseBatchInOrder = (buffer: Buffer, count: number): Array<Uint8Array | null> => {
  const out: Array<Uint8Array | null> = []
  let at = 0
  while (out.length < count && at < buffer.length) {
    const eol = buffer.indexOf(10, at)
    if (eol < 0) break
    const header = buffer.subarray(at, eol).toString("utf8")
    at = eol + 1
    if (header.endsWith(" missing") || header.endsWith(" ambiguous")) {
      out.push(null)
      continue
    }
    const parts = header.split(" ")
    const size = Number(parts[parts.length - 1])
    out.push(parts[1] === "blob" ? new Uint8Array(buffer.subarray(at, at + size)) : null)
    at += size + 1
  }
  while (out.length < count) out.push(null)
  return out
}

/** What the drift cache keeps per repository and root: the log up to a tip, and substance answers by (Spec, commit). */
interface Kept {
  readonly tip: string
  readonly shallow: ReadonlyArray<string>
  readonly log: ReadonlyArray<HistoryCommit>
  readonly substance: Readonly<Record<string, boolean>>
}

const CACHE_FORMAT = 1

/**
 * The drift cache in the parse cache's folder store (the loader's; none with SPECBUNDLE_CODE_CACHE=0):
 * one file per repository and root. It only changes speed: a file that cannot be read, parsed or
 * written is as none.
 */
const driftCache = (store: CacheStore | undefined, location: RepoLocation) => {
  if (store === undefined) return undefined
  const name = `${createHash("sha256")
    .update(JSON.stringify(["drift", CACHE_FORMAT, store.build, location.top, location.prefix]))
    .digest("hex")
    .slice(0, 40)}-drift`
  let kept: Kept | null | undefined
  const load = (): Kept | null => {
    if (kept !== undefined) return kept
    try {
      const bytes = store.read(name)
      kept = bytes === undefined ? null : (JSON.parse(Buffer.from(bytes).toString("utf8")) as Kept)
    } catch {
      kept = null
    }
    return kept
  }
  const save = (next: Kept) => {
    kept = next
    try {
      store.write(name, Buffer.from(JSON.stringify(next), "utf8"))
    } catch {
      // a cache that cannot be written is no cache
    }
  }
  return { load, save }
}

/** Results a range's pass gave, newest last, at most this many per repository and root. */
const RESULTS_KEPT = 16

/**
 * The results of range passes (`drift --changeset A..B`: both ends commits, so the answer is fixed
 * by the key the caller gives, which names the build), in one file per repository and root of the
 * loader's store: a hit is read and nothing written; a miss adds its result (the oldest dropped).
 * Like the other caches it only changes speed: a file that cannot be read or written is as none.
 */
const resultCache = (store: CacheStore | undefined, location: RepoLocation) => {
  if (store === undefined) return undefined
  const name = `${createHash("sha256")
    .update(JSON.stringify(["drift-results", CACHE_FORMAT, store.build, location.top, location.prefix]))
    .digest("hex")
    .slice(0, 40)}-drift-results`
  const load = (): Array<{ readonly key: string; readonly value: unknown }> => {
    try {
      const bytes = store.read(name)
      const parsed = bytes === undefined ? [] : JSON.parse(Buffer.from(bytes).toString("utf8"))
      return Array.isArray(parsed) ? parsed : []
    } catch {
      return []
    }
  }
  return {
    get: (key: string): unknown => load().find((e) => e.key === key)?.value,
    put: (key: string, value: unknown) => {
      try {
        const kept = load().filter((e) => e.key !== key)
        store.write(name, Buffer.from(JSON.stringify([...kept, { key, value }].slice(-RESULTS_KEPT)), "utf8"))
      } catch {
        // a cache that cannot be written is no cache
      }
    }
  }
}

const make = Effect.gen(function* () {
  const git = yield* Git
  const gitDiff = yield* GitDiff
  const reader = yield* GraphReader
  const fs = yield* FileSystem.FileSystem
  const caches = yield* Effect.serviceOption(ParseCache)
  const store = caches._tag === "Some" ? caches.value.store : undefined
  const cacheFor = new Map<string, ReturnType<typeof driftCache>>()
  const cacheOf = (location: RepoLocation) => {
    const key = `${location.top}\0${location.prefix}`
    if (!cacheFor.has(key)) cacheFor.set(key, driftCache(store, location))
    return cacheFor.get(key)
  }

  /** A revision as the commit it names; a malformed one refused before git sees it. */
  const resolve = (top: string, rev: string): Effect.Effect<string, GitError | InvalidRevisionError> =>
    Effect.gen(function* () {
      const problem = revisionProblem(rev)
      if (problem !== null) return yield* new InvalidRevisionError({ revision: rev, problem })
      const sha = (yield* git
        .run(top, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`])
        .pipe(Effect.catchTag("GitFailedError", () => Effect.succeed("")))).trim()
      if (sha !== "") return sha
      const shallow = (yield* git.run(top, ["rev-parse", "--is-shallow-repository"])).trim() === "true"
      return yield* shallow ? new ShallowCloneError({ revision: rev }) : new UnknownRevisionError({ revision: rev })
    })

  const mergeBase = (top: string, a: string, b: string, label: string) =>
    Effect.gen(function* () {
      const base = (yield* git.run(top, ["merge-base", "--end-of-options", a, b]).pipe(Effect.catchTag("GitFailedError", () => Effect.succeed("")))).trim()
      if (base !== "") return base
      const shallow = (yield* git.run(top, ["rev-parse", "--is-shallow-repository"])).trim() === "true"
      return yield* shallow ? new ShallowCloneError({ revision: label }) : new GitFailedError({ command: "merge-base", detail: `${label}: no common ancestor` })
    })

  const logOf = (location: RepoLocation, revisions: ReadonlyArray<string>) =>
    Effect.map(
      git.run(location.top, [
        "log",
        "--topo-order",
        "-z",
        "--name-status",
        "-M",
        "--no-color",
        "--no-ext-diff",
        "--no-abbrev",
        LOG_FORMAT,
        "--end-of-options",
        ...revisions,
        "--"
      ]),
      (out) => parseLogZ(out, (p) => underRoot(location.prefix, p))
    )

  /**
   * The one pass over history: every commit the tip reaches, newest first, root-relative paths. With
   * a cache, only the commits since the tip it kept (`git log TIP ^KEPT`), put before the kept ones
   * (still a topological order: no kept commit has a parent among them) and cut to the tip's
   * ancestors; the pass's answers do not depend on which topological order the log came in.
   */
  const history = Effect.fn("DriftPass.history")(function* (location: RepoLocation, tip: string, shallow: ReadonlySet<string> = new Set()) {
    const cache = cacheOf(location)
    const kept = cache?.load() ?? null
    const shallowList = [...shallow].sort()
    const usable = kept !== null && JSON.stringify(kept.shallow) === JSON.stringify(shallowList)
    if (usable && kept.tip === tip) return kept.log
    const log = usable
      ? below(
          [
            ...((yield* logOf(location, [tip, `^${kept.tip}`]).pipe(Effect.catchTag("GitFailedError", () => Effect.succeed(null as HistoryCommit[] | null)))) ??
              (yield* logOf(location, [tip]))),
            ...kept.log
          ],
          tip
        )
      : yield* logOf(location, [tip])
    cache?.save({ tip, shallow: shallowList, log, substance: usable ? kept.substance : {} })
    return log
  })

  /** The boundary commits of a shallow clone (none in a full one). */
  const shallowOf = (top: string) =>
    Effect.gen(function* () {
      const lines = (yield* git.run(top, ["rev-parse", "--is-shallow-repository", "--git-path", "shallow"])).split("\n")
      if (lines[0]?.trim() !== "true") return new Set<string>()
      const text = yield* fs.readFileString(nodePath.resolve(top, lines[1]?.trim() ?? "")).pipe(Effect.orElseSucceed(() => ""))
      return new Set(
        text
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l !== "")
      )
    })

  /** Bytes of `rev:path` names, in order (null: absent there). */
  const readNamed = (top: string, names: ReadonlyArray<string>) =>
    names.length === 0
      ? Effect.succeed([] as Array<Uint8Array | null>)
      : git
          .exec(top, ["cat-file", "--batch"], names.join("\n") + "\n")
          .pipe(
            Effect.flatMap((o) =>
              o.code !== 0
                ? Effect.fail(classify(top, "cat-file", o.stderr || `exit code ${o.code}`))
                : Effect.succeed(parseBatchInOrder(o.stdout, names.length))
            )
          )

  /**
   * Which questions' Specs changed in substance: each carrier before and after the commit, parsed
   * (Markdown and Gherkin carriers need no TypeScript parser) and compared by substanceOf. A blob
   * read once however many questions name it; a carrier the reader cannot parse counts as changed.
   */
  const substance = Effect.fn("DriftPass.substance")(function* (location: RepoLocation, questions: ReadonlyArray<SubstanceQuestion>) {
    const names: string[] = []
    const at = new Map<string, number>()
    const name = (rev: string | null, path: string | null): number => {
      if (rev === null || path === null) return -1
      const key = blobName(rev, location.prefix + path)
      let i = at.get(key)
      if (i === undefined) {
        at.set(key, (i = names.length))
        names.push(key)
      }
      return i
    }
    // Answers kept from earlier runs: a commit's substance never changes.
    const cache = cacheOf(location)
    const known = cache?.load()?.substance ?? {}
    const changed = new Set<string>()
    const open = questions.filter((q) => {
      // The staged change is no commit: its answers are never kept, never taken.
      const answer = q.commit === STAGED ? undefined : known[substanceKey(q.spec, q.commit)]
      if (answer === true) changed.add(substanceKey(q.spec, q.commit))
      return answer === undefined
    })
    const asked = open.map((q) => ({ q, after: name(q.commit, q.path), before: name(q.parent, q.oldPath) }))
    const blobs = yield* readNamed(location.top, names)
    const values = new Map<string, string | null | undefined>()
    const substanceAt = (i: number, path: string | null, spec: string): string | null | undefined => {
      if (i < 0 || path === null) return null
      const key = `${i}\0${spec}`
      if (values.has(key)) return values.get(key)
      const bytes = blobs[i]
      let value: string | null | undefined = null
      if (bytes !== null) {
        const role = classifyPath(path)
        if (role === "markdown" || role === "gherkin") {
          const read = extractFile({ path, bytes }, { selfHosting: false })
          value = substanceOf(read?.specs.find((s) => s.id === spec))
        } else value = undefined
      }
      values.set(key, value)
      return value
    }
    const answers: Record<string, boolean> = { ...known }
    for (const { q, after, before } of asked) {
      const a = substanceAt(after, q.path, q.spec)
      const b = substanceAt(before, q.oldPath, q.spec)
      const key = substanceKey(q.spec, q.commit)
      const moved = a === undefined || b === undefined || a !== b
      if (q.commit !== STAGED) answers[key] = moved
      if (moved) changed.add(key)
    }
    const kept = cache?.load()
    if (asked.some(({ q }) => q.commit !== STAGED) && kept !== null && kept !== undefined) cache?.save({ ...kept, substance: answers })
    return changed
  })

  /** The graph at the tip: the work tree's read, or a commit's tree from git's objects. */
  const graphAt = (location: RepoLocation, tip: DriftTip, exclude: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      if (tip._tag === "WorkTree") {
        const read = yield* reader.readTree({ root: location.root, exclude, hashes: false })
        return { graph: read.graph, excluded: read.excluded }
      }
      // A commit's tree by object id: read from the work tree where its bytes are that object (most
      // files, at either end of a change), else from git, through the parse cache kept for commits.
      const matched = new Set<string>()
      const listed = yield* gitDiff.listSource(
        location,
        tip._tag === "Index" ? { _tag: "Index" } : { _tag: "Tree", commit: tip.commit },
        (p) => p === "package.json" || shouldRead(p, exclude, matched) !== null
      )
      const fetch = (stale: ReadonlyArray<{ readonly path: string; readonly object: string }>) => gitDiff.readObjects(location, stale)
      const pkg = listed.filter((e) => e.path === "package.json")
      const pkgFiles = pkg.length === 0 ? [] : yield* reader.readIndexedFiles(location.root, pkg, fetch)
      const selfHosting = pkgFiles.length > 0 && isProtocolPackageJson(Buffer.from(pkgFiles[0].bytes).toString("utf8"))
      const entries = listed.filter((e) => e.path !== "package.json" && shouldRead(e.path, exclude) !== null)
      // Drift's own caches: a bundle's read of the same commit (`commit`, with hashes) and drift's
      // reads of a range's two ends would otherwise rewrite each other's shards on every run.
      const cache = tip._tag === "Index" ? "drift-index" : tip.side === "base" ? "drift-base" : "drift-tip"
      const read = yield* reader.readIndexed({ root: location.root, entries, selfHosting, cache, hashes: false }, fetch)
      return { graph: read.graph, excluded: matched as ReadonlySet<string> }
    })

  /** The reviews file at the tip: the work tree's (an accept counts before it is committed), or the commit's. */
  const reviewsAt = (location: RepoLocation, tip: DriftTip) =>
    tip._tag === "WorkTree"
      ? fs.readFileString(nodePath.join(location.root, REVIEWS_FILE)).pipe(Effect.orElseSucceed(() => ""))
      : Effect.map(readNamed(location.top, [blobName(tip._tag === "Index" ? STAGED : tip.commit, location.prefix + REVIEWS_FILE)]), ([b]) =>
          b === null ? "" : Buffer.from(b).toString("utf8")
        )

  /** Drift over a history already read (the tip's ancestors, newest first), a graph and the reviews file's text. */
  const evaluate = Effect.fn("DriftPass.evaluate")(function* (
    location: RepoLocation,
    graph: Graph,
    log: ReadonlyArray<HistoryCommit>,
    reviewsText: string,
    shallow: ReadonlySet<string>
  ) {
    const read = parseReviews(reviewsText)
    const plan = planDrift({ history: log, graph, reviews: read.reviews, shallow })
    const substantive = yield* substance(location, plan.questions)
    return {
      rows: plan.finish(substantive),
      specs: plan.specs,
      watched: plan.watched,
      atBoundary: plan.atBoundary,
      commits: log.length,
      unknownReviews: plan.unknownReviews,
      reviewProblems: read.problems,
      reviews: read.reviews
    }
  })

  /** Drift at one tip: its graph and reviews file read, then evaluated over `log` (the ancestors of `commit`). */
  const passAt = Effect.fn("DriftPass.passAt")(function* (
    location: RepoLocation,
    tip: DriftTip,
    commit: string,
    log: ReadonlyArray<HistoryCommit>,
    exclude: ReadonlyArray<string>,
    shallow: ReadonlySet<string>
  ) {
    const { graph, excluded } = yield* graphAt(location, tip, exclude)
    const reviewsText = yield* reviewsAt(location, tip)
    const result = yield* evaluate(location, graph, log, reviewsText, shallow)
    return { ...result, graph, commit, excluded, reviewsText } satisfies PassResult
  })

  /**
   * The staged change as the commit it would make on `head`: STAGED, `head` its parent, the
   * index's changes against HEAD (root-relative, renames found as git log finds them).
   */
  const stagedCommit = (location: RepoLocation, head: string) =>
    Effect.map(
      git.run(location.top, ["diff", "--cached", "-z", "--name-status", "-M", "--no-color", "--no-ext-diff", "--end-of-options", head, "--"]),
      (out): HistoryCommit => parseLogZ(`\x1e${STAGED} ${head}\0${out}`, (p) => underRoot(location.prefix, p))[0]
    )

  /** The kept result of a range pass under `key` (undefined: none, or no cache). */
  const keptResult = (location: RepoLocation, key: string): unknown => resultCache(store, location)?.get(key)
  /** Keeps a range pass's result under `key`. */
  const keepResult = (location: RepoLocation, key: string, value: unknown): void => resultCache(store, location)?.put(key, value)

  /** Where the root sits in its repository. */
  const locate = (root: string) => gitDiff.locate(nodePath.resolve(root))

  /** The ancestors of `commit` in a history (newest first), in the same order. */
  const below = (log: ReadonlyArray<HistoryCommit>, commit: string): HistoryCommit[] => {
    const index = new Map(log.map((c, i) => [c.commit, i]))
    const start = index.get(commit)
    if (start === undefined) return []
    const marks = new Uint8Array(log.length)
    marks[start] = 1
    const out: HistoryCommit[] = []
    for (let i = start; i < log.length; i++) {
      if (marks[i] === 0) continue
      out.push(log[i])
      for (const p of log[i].parents) {
        const at = index.get(p)
        if (at !== undefined) marks[at] = 1
      }
    }
    return out
  }

  return { locate, resolve, mergeBase, history, shallowOf, passAt, evaluate, below, stagedCommit, keptResult, keepResult } as const
})

export class DriftPass extends Context.Service<DriftPass, Effect.Success<typeof make>>()("specbundle/DriftPass") {
  static readonly make = (service: DriftPass["Service"]): DriftPass["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<DriftPass, never, FileSystem.FileSystem | Git | GitDiff | GraphReader> = Layer.effect(this, make)
  /** The live service with git and the reader under it; a FileSystem and the runtime still to provide. */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Layer.mergeAll(GitDiff.Default, GraphReader.Default, Git.Default)))
}
