// Entry of bin/specbundle-mcp.cjs: the MCP server alone. The CLI's `mcp` handler requires this
// bundle and calls `serve` with what its own commands run on: the worker pool (a large corpus is
// parsed on every core, as in the CLI) and the parse cache's folder store, which the server keeps
// warm in memory between calls (ParseCache.layerWarm: a call re-reads only what changed), with
// its last staged answers (StagedIndex: a call after a staged edit reads the index file, no git).
import * as Layer from "effect/Layer"
import { type CacheStore, ParseCache, type Pool, StagedIndex, WorkerPool } from "../../node/runtime.js"
import { serve as serveStdio } from "./server.js"

export const serve = (
  signal: AbortSignal | undefined,
  runtime: { readonly pool: Pool; readonly store: CacheStore | undefined },
  http?: number
): Promise<void> => serveStdio(signal, Layer.mergeAll(Layer.succeed(WorkerPool, runtime.pool), ParseCache.layerWarm(runtime.store), StagedIndex.layer), http)
