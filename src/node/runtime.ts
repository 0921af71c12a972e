// What a run of the readers runs on, as services every entrance provides (issue 38): the worker
// pool a large corpus is parsed on, the parse cache each read starts from, and the settings read
// from the environment through Effect's Config (a test gives a map: ConfigProvider.fromUnknown).
// The CLI provides the real pool (its worker bundle's path) and the loader's folder store; the MCP
// server the same pool and its files kept warm in memory between calls; the library parses in
// this thread with a cache in memory for as long as its layer lives (README, "Library").
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { IN_THREAD, type Pool, SILENT_MS, ThreadsAhead, forcedWorkers } from "./extractAll.js"
import { type CacheStore, type ParseCaches, storeCaches, warmCaches } from "./parseCache.js"
import * as NodeFileSystemSync from "./NodeFileSystemSync.js"

// What the entrances take from this storey, all through this module: they import use cases, core
// and the runtime only (test/scripts/layout.test.ts).
export type { CacheStore, Pool }
export { GitEnvironment } from "./git.js"
export { watchFolders } from "./watchFolders.js"
export { stagedStamp } from "./stagedStamp.js"
export { type KeptAnswer, keepAnswer, keptAnswer } from "./savedAnswer.js"
export { StagedIndex } from "./stagedIndex.js"

/** The file system every entrance gives the use cases: Node's, its reads synchronous (NodeFileSystemSync.ts). */
export const FileSystemLive = NodeFileSystemSync.layer

/** A setting in the environment that cannot be used: `problem` says which and why, in one line. */
export class SettingsProblem extends Data.TaggedError("SettingsProblem")<{ readonly problem: string }> {
  override get message() {
    return this.problem
  }
}

/**
 * What a run reads from its environment, in one record, read in one place (below) through
 * Effect's Config: our own settings, and the variables of the tools around us that we follow.
 */
export interface RunSettings {
  /** SPECBUNDLE_WORKERS: this many worker threads; null when unset. */
  readonly workers: number | null
  /** NO_COLOR (no-color.org): the help pages print no bold headings when it is set and not empty. */
  readonly noColor: string | undefined
  /**
   * The pre-commit framework's pre-push variables (it reads git's stdin itself and hands the
   * range over here): PRE_COMMIT_REMOTE_NAME, _FROM_REF, _TO_REF, _LOCAL_BRANCH.
   */
  readonly preCommit: {
    readonly remoteName: string | undefined
    readonly fromRef: string | undefined
    readonly toRef: string | undefined
    readonly localBranch: string | undefined
  }
  /** A GitLab CI job's variables the impact report's link base is read from (core/render/gitlab.ts). */
  readonly gitlab: Readonly<Record<"GITLAB_CI" | "CI_SERVER_URL" | "CI_PROJECT_URL" | "CI_PROJECT_PATH" | "CI_COMMIT_SHA", string | undefined>>
}

/** A variable's value as given (undefined when unset); one that cannot be read is a settings problem. */
const variable = (name: string): Effect.Effect<string | undefined, SettingsProblem> =>
  Config.option(Config.String(name)).pipe(
    Effect.map(Option.getOrUndefined),
    Effect.mapError((e) => new SettingsProblem({ problem: `${name} could not be read (${e.message})` }))
  )

/**
 * The settings, read through the ConfigProvider in context (the environment unless a test gives
 * another); a value that cannot be used (SPECBUNDLE_WORKERS not a worker count) fails with its one line.
 */
const readSettings: Effect.Effect<RunSettings, SettingsProblem> = Effect.gen(function* () {
  const workers = forcedWorkers(yield* variable("SPECBUNDLE_WORKERS"))
  if (workers !== null && typeof workers === "object") return yield* new SettingsProblem({ problem: workers.problem })
  return {
    workers,
    noColor: yield* variable("NO_COLOR"),
    preCommit: {
      remoteName: yield* variable("PRE_COMMIT_REMOTE_NAME"),
      fromRef: yield* variable("PRE_COMMIT_FROM_REF"),
      toRef: yield* variable("PRE_COMMIT_TO_REF"),
      localBranch: yield* variable("PRE_COMMIT_LOCAL_BRANCH")
    },
    gitlab: {
      GITLAB_CI: yield* variable("GITLAB_CI"),
      CI_SERVER_URL: yield* variable("CI_SERVER_URL"),
      CI_PROJECT_URL: yield* variable("CI_PROJECT_URL"),
      CI_PROJECT_PATH: yield* variable("CI_PROJECT_PATH"),
      CI_COMMIT_SHA: yield* variable("CI_COMMIT_SHA")
    }
  }
})

export class Settings extends Context.Service<Settings, RunSettings>()("specbundle/Settings") {
  /** The settings read now, or the refusal of the first that cannot be used. */
  static readonly read = readSettings
  /** The settings from the ConfigProvider in context (the environment by default). */
  static readonly layer: Layer.Layer<Settings, SettingsProblem> = Layer.effect(this, readSettings)
}

export class WorkerPool extends Context.Service<WorkerPool, Pool>()("specbundle/WorkerPool") {
  /** Every file parsed in the calling thread (the library, tests). */
  static readonly inThread: Layer.Layer<WorkerPool> = Layer.succeed(this, IN_THREAD)
  /**
   * Worker threads started on `script` (the CLI's bin/specbundle-worker.cjs) when a corpus is large
   * or SPECBUNDLE_WORKERS asks; `silentMs`: how long a silent worker is waited for.
   */
  static readonly layer = (script: string, options: { readonly silentMs?: number } = {}): Layer.Layer<WorkerPool, never, Settings> =>
    Layer.effect(
      this,
      Effect.map(Settings, (settings: RunSettings) => ({
        script,
        silentMs: options.silentMs ?? SILENT_MS,
        forced: settings.workers,
        ahead: new ThreadsAhead()
      }))
    )
}

export class ParseCache extends Context.Service<ParseCache, ParseCaches>()("specbundle/ParseCache") {
  /** No cache: every read reads and parses every file. */
  static readonly none: Layer.Layer<ParseCache> = Layer.succeed(this, storeCaches(undefined))
  /** The caches of a folder store (the loader's `module.specbundleCache`; none when undefined, as with SPECBUNDLE_CODE_CACHE=0). */
  static readonly layerStore = (store: CacheStore | undefined): Layer.Layer<ParseCache> => Layer.succeed(this, storeCaches(store))
  /**
   * Caches kept in memory for the layer's lifetime, with the graph last built (a long-lived
   * entrance's warm corpus); over a folder store when given, which a corpus's first read starts from.
   */
  static readonly layerWarm = (store?: CacheStore): Layer.Layer<ParseCache> => Layer.sync(this, () => warmCaches(store))
  /** The caches in context (their folder store) kept warm in memory for this layer's lifetime: `watch`'s rebuilds. */
  static readonly keptWarm: Layer.Layer<ParseCache, never, ParseCache> = Layer.effect(
    this,
    Effect.map(ParseCache, (caches: ParseCaches) => warmCaches(caches.store))
  )
}

/** What a run needs under the readers, for an entrance that parses in its own thread (the library, tests). */
export const InThread: Layer.Layer<WorkerPool | ParseCache> = Layer.mergeAll(WorkerPool.inThread, ParseCache.layerWarm())
