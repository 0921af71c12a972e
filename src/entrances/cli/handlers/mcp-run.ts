// The `mcp` handler: requires the server's own bundle (bin/specbundle-mcp.cjs, beside this one) and
// serves until stdin ends or the process is interrupted (the AbortSignal stops the server's fiber).
// The server runs on the CLI's worker pool and over its parse cache's folder, which it keeps warm
// in memory between calls (src/entrances/mcp/main.ts).
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { type CacheStore, ParseCache, type Pool, WorkerPool } from "../../../node/runtime.js"
import { CommandFailure } from "../errors.js"

interface McpBundle {
  readonly serve: (signal: AbortSignal | undefined, runtime: { readonly pool: Pool; readonly store: CacheStore | undefined }) => Promise<void>
}

export const runMcp = Effect.gen(function* () {
  const pool = yield* WorkerPool
  const { store } = yield* ParseCache
  return yield* Effect.tryPromise({
    try: (signal) => (require(nodePath.join(__dirname, "specbundle-mcp.cjs")) as McpBundle).serve(signal, { pool, store }),
    catch: (e) => CommandFailure.of("mcp", e)
  })
})
