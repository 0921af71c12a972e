// The `watch` handler, loaded when the command runs (watch.ts holds its definition, all `--help` needs).
import * as FileSystem from "effect/FileSystem"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import { CONFIG_FILE } from "../../core/config.js"
import { classifyPath, isExcluded, isSkippedDirectory } from "../../core/extract.js"
import { counted } from "../../core/plural.js"
import type { BundleArgs } from "./bundle.js"
import { composeAndWrite, prepareBundle } from "./bundle-run.js"
import type { Diagnostic } from "../../core/diagnostic.js"
import { problems } from "../../usecases/requests.js"
import { requestExcludes } from "../../usecases/excludes.js"
import { ParseCache } from "../../node/runtime.js"
import { ServicesLive } from "./live.js"
import { writeErr, writeOut } from "./output.js"
import { Invocation } from "./invocation.js"
import { outDirProblem } from "./out.js"
import type { WatchArgs } from "./watch.js"
import { DEFAULT_QUIET_MS } from "./watch.js"

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
    const build = prepareBundle(args).pipe(
      Effect.flatMap((input) => composeAndWrite(writeArgs, input)),
      Effect.uninterruptible
    )

    const fs = yield* FileSystem.FileSystem
    const pending = new Set<string>()
    const ticks = yield* Queue.sliding<void>(1)
    const events = fs.watch(root, { recursive: true }).pipe(
      Stream.map((event) => (nodePath.isAbsolute(event.path) ? nodePath.relative(root, event.path) : event.path)),
      Stream.filter((path) => isRelevantEvent(path, filter)),
      Stream.tap((path) => Effect.sync(() => pending.add(path.split(nodePath.sep).join("/")))),
      Stream.debounce(Duration.millis(quietMs)),
      Stream.runForEach(() => Queue.offer(ticks, undefined)),
      // The watcher may fail (the root removed, too many watches): say so and try again.
      Effect.tapError((e) => writeErr(`watch: watching ${root} failed (${e.message.split("\n")[0]}); retrying`)),
      Effect.retry(Schedule.spaced(Duration.seconds(1)))
    )
    // Watch before the first build, so a save made while it runs is not lost (it makes a rebuild).
    yield* Effect.forkScoped(events)
    yield* Effect.yieldNow

    // The first build fails the command like `bundle` would: wrong parameters show at once.
    const first = yield* build
    yield* writeErr(`watch: built ${counted(first, "part")} into ${dir} (0 changed paths)`)

    const rebuild = Effect.gen(function* () {
      const changed = pending.size
      pending.clear()
      const outcome = yield* Effect.exit(build)
      if (outcome._tag === "Success") {
        return yield* writeErr(`watch: rebuilt ${counted(outcome.value, "part")} into ${dir} (${counted(changed, "changed path")})`)
      }
      // Wrong parameters (a profile the edited configuration lost) show their value, as the first build's would.
      const failure = Cause.findErrorOption(outcome.cause)
      if (Option.isSome(failure) && failure.value._tag === "ParameterProblems") yield* writeOut(failure.value.value + "\n").pipe(Effect.ignore)
      yield* writeErr(`watch: rebuild failed (${counted(changed, "changed path")}): ${messageOf(outcome.cause)}; previous files kept, still watching`)
    })
    return yield* Queue.take(ticks).pipe(Effect.andThen(rebuild), Effect.forever)
  }).pipe(
    Effect.scoped,
    Effect.provide(ServicesLive),
    // The corpus stays read between builds: a rebuild re-reads only the files that changed.
    Effect.provide(ParseCache.keptWarm)
  )
