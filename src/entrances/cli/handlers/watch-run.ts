// The `watch` handler, loaded when the command runs (watch.ts holds its definition, all `--help` needs).
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import { CONFIG_FILE } from "../../../core/config.js"
import { classifyPath, isExcluded, isSkippedDirectory } from "../../../core/read/extract.js"
import { byCodeUnits } from "../../../core/model.js"
import { counted } from "../../../core/plural.js"
import type { BundleArgs } from "../commands/bundle.js"
import { composeAndWrite, prepareBundle } from "./bundle-run.js"
import type { Diagnostic } from "../../../core/diagnostic.js"
import { problems } from "../../../usecases/requests.js"
import { requestExcludes } from "../../../usecases/excludes.js"
import { GitEnvironment, watchFolders } from "../../../node/runtime.js"
import { Repository } from "../../../usecases/Repository.js"
import { writeErr, writeOut } from "../output/output.js"
import { Invocation } from "../invocation.js"
import { outDirProblem } from "../output/out.js"
import type { WatchArgs } from "../commands/watch.js"
import { DEFAULT_QUIET_MS } from "../commands/watch.js"

export interface EventFilter {
  /** DIR relative to the root with `/`, or null when DIR is outside the root. */
  readonly outRel: string | null
  readonly exclude: ReadonlyArray<string>
}

/**
 * Whether a root-relative event path may change the bundle. Our own output folder, skipped folders
 * (.git, node_modules, ...), hidden files (editor swap files) and files the reader never reads stay
 * quiet; a name without a dot may be a folder moved in or out, so it counts.
 */
export const isRelevantEvent = (path: string, filter: EventFilter): boolean => {
  const rel = path.split(nodePath.sep).join("/")
  if (rel === "") return false
  if (filter.outRel !== null && (rel === filter.outRel || rel.startsWith(filter.outRel + "/"))) return false
  const segments = rel.split("/")
  if (segments.some((s) => isSkippedDirectory(s) || s === "..")) return false
  if (isExcluded(rel, filter.exclude)) return false
  const name = segments[segments.length - 1]
  return classifyPath(rel) !== null || name === CONFIG_FILE || !name.includes(".")
}

/** The quiet window from its text, or null when it is not a non-negative integer. */
export const parseQuietMs = (text: string | undefined): number | null => {
  if (text === undefined) return DEFAULT_QUIET_MS
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : null
}

const problemsOf = (args: WatchArgs, cwd: string, root: string): Diagnostic[] => {
  const problems: Diagnostic[] = []
  const out = args.out
  if (out === undefined) problems.push({ scope: "out", problem: "watch writes files: give --out DIR (the folder for part-NNN.json and manifest.json)." })
  else if (nodePath.resolve(cwd, out) === root)
    problems.push({ scope: "out", problem: "--out must not be the root itself; name a folder inside or outside it." })
  if (parseQuietMs(args.quietMs) === null) {
    problems.push({
      scope: "quiet-ms",
      problem: `--quiet-ms must be a non-negative integer of milliseconds, got "${args.quietMs ?? ""}".`
    })
  }
  return problems
}

/**
 * Events under `dir` (paths relative to it, with `/`) from a watch on each of its folders that `skip`
 * leaves in (src/node/watchFolders.ts); `armed` completes once the watches are set.
 */
const folderEvents = (dir: string, skip: (rel: string) => boolean, armed: Deferred.Deferred<void>): Stream.Stream<string, Error> =>
  Stream.callback<string, Error>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() =>
        watchFolders(dir, {
          skip,
          onEvent: (rel) => void Queue.offerUnsafe(queue, rel),
          onError: (error) => void Queue.failCauseUnsafe(queue, Cause.fail(error))
        })
      ),
      (watch) => Effect.sync(() => watch.close())
    ).pipe(Effect.andThen(Deferred.succeed(armed, undefined)))
  )

/** The git folder and the common git folder (they differ in a linked work tree), or null outside a repository. */
const gitFolders = (root: string) => Repository.use((r) => r.gitFolders(root))

/**
 * What a changeset names in the git folders: HEAD, the refs (loose, under refs/, and packed-refs)
 * and, for --staged, the index. git writes each through a lock file renamed over it: the rename is
 * the event, the lock files are not.
 */
export const isGitMove = (rel: string, staged: boolean): boolean =>
  rel === "HEAD" || (staged && rel === "index") || rel === "packed-refs" || (rel.startsWith("refs/") && !rel.endsWith(".lock"))

/** In a git folder only refs/ and the folders under it are watched. */
const refsOnly = (rel: string): boolean => !(rel === "refs" || rel.startsWith("refs/"))

/** Paths a rebuild line names before it counts the rest. */
export const NAMED_PATHS = 10

/**
 * What a rebuild saw: the changed paths, counted and named (the first NAMED_PATHS in code-unit
 * order), and what moved in git: `2 changed paths: a.sdp.md, b.ts; refs/heads/main moved`.
 */
export const changedText = (paths: ReadonlySet<string>, moved: ReadonlySet<string>): string => {
  const sorted = [...paths].sort(byCodeUnits)
  const named = sorted.slice(0, NAMED_PATHS).join(", ")
  const more = sorted.length > NAMED_PATHS ? ` and ${sorted.length - NAMED_PATHS} more` : ""
  const git = moved.size === 0 ? "" : `; ${[...moved].sort(byCodeUnits).join(", ")} moved`
  return `${counted(sorted.length, "changed path")}${sorted.length === 0 ? "" : `: ${named}${more}`}${git}`
}

const messageOf = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause) as { message?: unknown; _tag?: unknown }
  const text = typeof error?.message === "string" && error.message !== "" ? error.message : String(error?._tag ?? error)
  return text.split("\n")[0]
}

export const runWatch = (args: WatchArgs) =>
  Effect.gen(function* () {
    const { cwd } = yield* Invocation
    const root = nodePath.resolve(cwd, args.root)
    const found = problemsOf(args, cwd, root)
    const outProblem = args.out !== undefined ? yield* outDirProblem(args.out) : null
    if (outProblem !== null) found.push(outProblem)
    if (found.length > 0) return yield* problems(found)
    const quietMs = parseQuietMs(args.quietMs) ?? DEFAULT_QUIET_MS
    const dir = args.out ?? ""
    const outRel = nodePath.relative(root, nodePath.resolve(cwd, dir)).split(nodePath.sep).join("/")
    const filter: EventFilter = {
      outRel: outRel.startsWith("..") || nodePath.isAbsolute(outRel) ? null : outRel,
      exclude: requestExcludes(args.exclude ?? []).paths
    }

    // The per-build "wrote ..." line is replaced by watch's own; --strict cannot end a watch.
    const writeArgs: BundleArgs = { ...args, quiet: true, strict: false }
    // Uninterruptible: Ctrl-C waits for the files of a running build to be renamed into place.
    // git's optional locks off (GIT_OPTIONAL_LOCKS=0): a build's `git status` would otherwise
    // refresh and rewrite the index, which --staged watches, and make one more rebuild each time.
    const gitEnv = yield* GitEnvironment
    const build = prepareBundle(args).pipe(
      Effect.flatMap((input) => composeAndWrite(writeArgs, input)),
      Effect.provideService(GitEnvironment, { ...gitEnv, GIT_OPTIONAL_LOCKS: "0" }),
      Effect.uninterruptible
    )

    const pending = new Set<string>()
    /** What moved in the git folders since the last build (HEAD, refs/heads/main, index). */
    const moved = new Set<string>()
    const ticks = yield* Queue.sliding<void>(1)
    const skipFolder = (rel: string) => isSkippedDirectory(nodePath.posix.basename(rel)) || isExcluded(rel, filter.exclude) || rel === filter.outRel
    const sources: Array<{ readonly events: (armed: Deferred.Deferred<void>) => Stream.Stream<string, Error>; readonly into: Set<string> }> = [
      { events: (armed) => folderEvents(root, skipFolder, armed).pipe(Stream.filter((path) => isRelevantEvent(path, filter))), into: pending }
    ]
    // A changeset follows git: a commit, a reset, a rebase, a checkout (and the index under --staged) rebuild.
    if (args.changeset !== undefined || args.staged === true) {
      const folders = yield* gitFolders(root)
      if (folders !== null) {
        const staged = args.staged === true
        const named = (dir: string, skip: (rel: string) => boolean, keep: (rel: string) => boolean) => ({
          events: (armed: Deferred.Deferred<void>) => folderEvents(dir, skip, armed).pipe(Stream.filter(keep)),
          into: moved
        })
        if (folders.gitDir === folders.commonDir) sources.push(named(folders.gitDir, refsOnly, (rel) => isGitMove(rel, staged)))
        else {
          // A linked work tree: its own HEAD and index, the refs in the common folder.
          sources.push(
            named(
              folders.gitDir,
              () => true,
              (rel) => (rel === "HEAD" || rel === "index") && isGitMove(rel, staged)
            ),
            named(folders.commonDir, refsOnly, (rel) => rel !== "HEAD" && rel !== "index" && isGitMove(rel, staged))
          )
        }
      }
    }
    const armed = yield* Effect.forEach(sources, () => Deferred.make<void>())
    const events = Stream.mergeAll(
      sources.map((source, i) =>
        source.events(armed[i]).pipe(
          Stream.tap((path) => Effect.sync(() => source.into.add(path))),
          // The watcher may fail (the root removed, too many watches): say so and try again.
          Stream.tapError((e) =>
            Deferred.succeed(armed[i], undefined).pipe(Effect.andThen(writeErr(`watch: watching ${root} failed (${e.message.split("\n")[0]}); retrying`)))
          ),
          Stream.retry(Schedule.spaced(Duration.seconds(1)))
        )
      ),
      { concurrency: "unbounded" }
    ).pipe(
      Stream.debounce(Duration.millis(quietMs)),
      Stream.runForEach(() => Queue.offer(ticks, undefined))
    )
    // Watch before the first build, so a save made while it runs is not lost (it makes a rebuild).
    yield* Effect.forkScoped(events)
    yield* Effect.forEach(armed, Deferred.await)

    // The first build fails the command like `bundle` would: wrong parameters show at once.
    const first = yield* build
    yield* writeErr(`watch: built ${counted(first, "part")} into ${dir} (0 changed paths)`)

    const rebuild = Effect.gen(function* () {
      const changed = changedText(pending, moved)
      pending.clear()
      moved.clear()
      const outcome = yield* Effect.exit(build)
      if (outcome._tag === "Success") {
        return yield* writeErr(`watch: rebuilt ${counted(outcome.value, "part")} into ${dir} (${changed})`)
      }
      // Wrong parameters (a profile the edited configuration lost) show their value, as the first build's would.
      const failure = Cause.findErrorOption(outcome.cause)
      if (Option.isSome(failure) && failure.value._tag === "ParameterProblems") yield* writeOut(failure.value.value + "\n").pipe(Effect.ignore)
      yield* writeErr(`watch: rebuild failed (${changed}): ${messageOf(outcome.cause)}; previous files kept, still watching`)
    })
    return yield* Queue.take(ticks).pipe(Effect.andThen(rebuild), Effect.forever)
  }).pipe(
    // The corpus stays read between builds (program.ts gives watch's use cases a warm parse cache): a rebuild re-reads only the files that changed.
    Effect.scoped
  )
