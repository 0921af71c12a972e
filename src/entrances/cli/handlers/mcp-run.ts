// The `mcp` handler: requires the server's own bundle (bin/specbundle-mcp.cjs, beside this one) and
// serves until stdin ends or the process is interrupted (the AbortSignal stops the server's fiber).
// The server runs on the CLI's worker pool and over its parse cache's folder, which it keeps warm
// in memory between calls (src/entrances/mcp/main.ts).
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { type CacheStore, ParseCache, type Pool, WorkerPool } from "../../../node/runtime.js"
import { problems } from "../../../usecases/requests.js"
import type { McpArgs } from "../commands/mcp.js"
import { CommandFailure } from "../errors.js"

interface McpBundle {
  readonly serve: (signal: AbortSignal | undefined, runtime: { readonly pool: Pool; readonly store: CacheStore | undefined }, http?: number) => Promise<void>
}

/** --http's port: a whole number 0 to 65535, or null. */
const portOf = (text: string): number | null => (/^[0-9]{1,5}$/.test(text) && Number(text) <= 65535 ? Number(text) : null)

export const runMcp = (args: McpArgs) =>
  Effect.gen(function* () {
    let http: number | undefined
    if (args.http !== undefined) {
      const port = portOf(args.http)
      if (port === null) return yield* problems([{ scope: "http", problem: `--http takes a port, a whole number from 0 to 65535, got "${args.http}".` }])
      http = port
    }
    const pool = yield* WorkerPool
    const { store } = yield* ParseCache
    return yield* Effect.tryPromise({
      try: (signal) => (require(nodePath.join(__dirname, "specbundle-mcp.cjs")) as McpBundle).serve(signal, { pool, store }, http),
      catch: (e) => CommandFailure.of("mcp", e)
    })
  })
