// Loads the configuration file and merges it with the flags (bundle-contract.md section 4).
import * as FileSystem from "effect/FileSystem"
import type { PlatformError } from "effect/PlatformError"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as nodePath from "node:path"
import type { Config, Settings } from "../core/config.js"
import { CONFIG_FILE, configFolderProblem, parseConfig, settingsFor } from "../core/config.js"
import type { CorpusRequest } from "./requests.js"
import { ConfigError } from "./requests.js"
import { FieldSpelling } from "./spelling.js"

export interface LoadedConfig {
  /** Absolute path of the file read, or null when none was. */
  readonly path: string | null
  readonly config: Config | undefined
}

/** The error as one line with Node's own words (Effect 4's file system leaves them in the cause). */
const readProblem = (e: PlatformError): string =>
  e.reason._tag !== "BadArgument" && e.reason.description === undefined && e.reason.cause instanceof Error
    ? `${e.message}: ${e.reason.cause.message}`
    : e.message

/** `--config FILE` (relative to the current folder) or `<root>/specbundle.config.json` when present; no upward search. */
export const loadConfig = (request: CorpusRequest) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const named = request.config
    const path = named !== undefined ? nodePath.resolve(named) : nodePath.resolve(request.root, CONFIG_FILE)
    const exists = yield* fs.exists(path).pipe(Effect.orElseSucceed(() => false))
    if (!exists) {
      if (named !== undefined) return yield* new ConfigError({ path, reason: "missing", problem: "configuration file not found" })
      return { path: null, config: undefined } satisfies LoadedConfig
    }
    // A folder gets a line of its own: the read's own error is a raw EISDIR.
    const info = yield* fs.stat(path).pipe(Effect.option)
    if (info._tag === "Some" && info.value.type === "Directory")
      return yield* new ConfigError({
        path,
        reason: "folder",
        problem: configFolderProblem(named !== undefined ? (yield* FieldSpelling).cite("config") : null)
      })
    const text = yield* fs
      .readFileString(path)
      .pipe(Effect.mapError((e) => new ConfigError({ path, reason: "unreadable", problem: `could not read (${readProblem(e)})` })))
    const parsed = parseConfig(text)
    if (Result.isFailure(parsed)) return yield* new ConfigError({ path, reason: "invalid", problem: parsed.failure })
    return { path, config: parsed.success } satisfies LoadedConfig
  })

export const settingsOf = (
  loaded: LoadedConfig,
  profile: string | undefined,
  flags: { readonly exclude: ReadonlyArray<string>; readonly budget?: string | number; readonly declarations?: string; readonly perspective?: string }
): Effect.Effect<Settings, ConfigError> => {
  const merged = settingsFor(loaded.config, profile, flags)
  return Result.isFailure(merged)
    ? Effect.fail(new ConfigError({ path: loaded.path, reason: "unknown-profile", problem: merged.failure }))
    : Effect.succeed(merged.success)
}
