// The `mcp` handler: requires the server's own bundle (bin/specbundle-mcp.cjs, beside this one) and
// serves until stdin ends or the process is interrupted (the AbortSignal stops the server's fiber).
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { CliFailure } from "./errors.js"

interface McpBundle {
  readonly serve: (signal?: AbortSignal) => Promise<void>
}

export const runMcp = Effect.tryPromise({
  try: (signal) => (require(nodePath.join(__dirname, "specbundle-mcp.cjs")) as McpBundle).serve(signal),
  catch: (e) => new CliFailure({ line: `mcp: ${String((e as Error)?.message ?? e).split("\n")[0]}` })
})
