// `specbundle mcp`: the MCP server over stdio, built on @effect/ai's McpServer. It is its own
// bundle (bin/specbundle-mcp.cjs, scripts/build.mjs), loaded by the `mcp` command's handler, so
// the CLI's bundle and its `--help` start-up carry none of it. stdout carries only the protocol:
// the use cases print nothing, the loggers are removed, and console output goes to stderr.
import * as McpServer from "@effect/ai/McpServer"
import * as NodeSink from "@effect/platform-node/NodeSink"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NodeFileSystemSync from "../services/NodeFileSystemSync.js"
import { Bundler } from "../services/Bundler.js"
import { Changes } from "../services/Changes.js"
import { Corpus } from "../services/Corpus.js"
import { tools } from "./tools.js"

export const VERSION = "0.1.0"

const registerTools = Effect.gen(function* () {
  const server = yield* McpServer.McpServer
  const context = yield* Effect.context<Bundler | Changes | Corpus>()
  for (const spec of tools) {
    // Each call runs its use case afresh: the graph is read per call (the corpus may change between calls).
    yield* server.addTool({ tool: spec.tool, handle: (payload) => Effect.provide(spec.handle(payload), context) })
  }
})

const UseCases = Layer.mergeAll(Bundler.Default, Changes.Default, Corpus.Default).pipe(Layer.provide(NodeFileSystemSync.layer))

export const ServerLive = Layer.effectDiscard(registerTools).pipe(
  Layer.provide(McpServer.layerStdio({ name: "specbundle", version: VERSION, stdin: NodeStream.stdin, stdout: NodeSink.stdout })),
  Layer.provide(UseCases)
)

/** Serves until the signal aborts (the CLI's fiber is interrupted) or stdin ends. */
export const serve = (signal?: AbortSignal): Promise<void> => {
  // Anything that still reaches console.log must not corrupt the protocol.
  console.log = console.error
  console.info = console.error
  const untilStdinEnds = Effect.async<void>((resume) => {
    const done = () => resume(Effect.void)
    process.stdin.once("end", done)
    process.stdin.once("close", done)
  })
  const program = Layer.launch(ServerLive).pipe(Effect.raceFirst(untilStdinEnds))
  return Effect.runPromise(program, signal === undefined ? undefined : { signal })
}
