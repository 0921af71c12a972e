// What the tests' reads run on (src/node/runtime.ts) unless a test says otherwise: this thread, no
// parse cache, so each read reads every file (as the CLI with SPECBUNDLE_CODE_CACHE=0).
import * as Layer from "effect/Layer"
import { ParseCache, WorkerPool } from "../../src/node/runtime.js"

export const TestRuntime = Layer.mergeAll(WorkerPool.inThread, ParseCache.none)

/** This thread, over the given caches. */
export const cachedRuntime = (caches: Layer.Layer<ParseCache>) => Layer.mergeAll(WorkerPool.inThread, caches)
