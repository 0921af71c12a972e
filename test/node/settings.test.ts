// The settings of ours the environment holds (src/node/runtime.ts), read through Effect's Config:
// a map stands in for the environment here. The CLI refuses what Settings refuses with the same
// line (test/cli/extract-workers.test.ts runs it).
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { Settings, WorkerPool } from "../../src/node/runtime.js"

const withEnv = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromUnknown(env))

const settingsOf = (env: Record<string, string>) => Effect.runPromise(Effect.result(Settings.read.pipe(Effect.provide(withEnv(env)))))

describe("Settings", () => {
  it("reads SPECBUNDLE_WORKERS from the map it is given: a count, or null when unset or empty", async () => {
    expect(await settingsOf({ SPECBUNDLE_WORKERS: "3" })).toMatchObject({ _tag: "Success", success: { workers: 3 } })
    expect(await settingsOf({ SPECBUNDLE_WORKERS: "0" })).toMatchObject({ _tag: "Success", success: { workers: 0 } })
    expect(await settingsOf({})).toMatchObject({ _tag: "Success", success: { workers: null } })
    expect(await settingsOf({ SPECBUNDLE_WORKERS: "" })).toMatchObject({ _tag: "Success", success: { workers: null } })
  })

  it("reads the other variables a run follows into the same record: NO_COLOR, the pre-commit framework's, GitLab CI's", async () => {
    const env = {
      NO_COLOR: "1",
      PRE_COMMIT_REMOTE_NAME: "fork",
      PRE_COMMIT_FROM_REF: "a1",
      PRE_COMMIT_TO_REF: "b2",
      PRE_COMMIT_LOCAL_BRANCH: "topic",
      GITLAB_CI: "true",
      CI_PROJECT_URL: "https://gitlab.example/g/p",
      CI_COMMIT_SHA: "0123abc"
    }
    expect(await settingsOf(env)).toMatchObject({
      _tag: "Success",
      success: {
        workers: null,
        noColor: "1",
        preCommit: { remoteName: "fork", fromRef: "a1", toRef: "b2", localBranch: "topic" },
        gitlab: { GITLAB_CI: "true", CI_PROJECT_URL: "https://gitlab.example/g/p", CI_COMMIT_SHA: "0123abc", CI_SERVER_URL: undefined }
      }
    })
    expect(await settingsOf({})).toMatchObject({ _tag: "Success", success: { noColor: undefined, preCommit: { remoteName: undefined } } })
  })

  it("refuses a value that is no worker count with the CLI's line", async () => {
    for (const value of ["abc", "-1", "1.5", "17"]) {
      const r = await settingsOf({ SPECBUNDLE_WORKERS: value })
      expect(r).toMatchObject({ _tag: "Failure", failure: { _tag: "SettingsProblem" } })
      expect(r._tag === "Failure" ? r.failure.problem : "").toBe(`SPECBUNDLE_WORKERS must be a whole number from 0 to 16 (got "${value}")`)
    }
  })

  it("gives the worker pool its forced count; the in-thread pool has no script", async () => {
    const pool = (env: Record<string, string>) =>
      Effect.runPromise(
        Effect.provide(
          Effect.map(WorkerPool, (p) => p),
          WorkerPool.layer("/w.cjs", { silentMs: 5 }).pipe(Layer.provide(Settings.layer), Layer.provide(withEnv(env)))
        )
      )
    expect(await pool({ SPECBUNDLE_WORKERS: "2" })).toMatchObject({ script: "/w.cjs", silentMs: 5, forced: 2 })
    expect(await pool({})).toMatchObject({ script: "/w.cjs", silentMs: 5, forced: null })
    // Each pool its own threads started ahead (a CLI run's, an MCP server's).
    const [a, b] = [await pool({}), await pool({})]
    expect(a.ahead).toBeDefined()
    expect(a.ahead).not.toBe(b.ahead)
    const inThread = await Effect.runPromise(
      Effect.provide(
        Effect.map(WorkerPool, (p) => p),
        WorkerPool.inThread
      )
    )
    expect(inThread.script).toBeUndefined()
  })
})
