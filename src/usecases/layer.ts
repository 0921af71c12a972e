// The use cases as one layer, for every entrance: the CLI's handlers (src/entrances/cli/handlers/live.ts),
// the MCP server (src/entrances/mcp/server.ts) and the library (src/index.ts `layer`). Under them
// the services and git; what they still need is a FileSystem and the runtime the entrance runs on
// (WorkerPool, ParseCache: src/node/runtime.ts).
import * as Layer from "effect/Layer"
import { Bundler } from "./Bundler.js"
import { Changes } from "./Changes.js"
import { Corpus } from "./Corpus.js"
import { Drift } from "./Drift.js"
import { Repository } from "./Repository.js"
import { Stale } from "./Stale.js"

export const UseCasesLive = Layer.mergeAll(Bundler.Default, Changes.Default, Corpus.Default, Drift.Default, Stale.Default, Repository.Default)
