// `specbundle mcp`: the MCP server over stdio, built on effect/ai's McpServer. It is its own
// bundle (bin/specbundle-mcp.cjs, scripts/build.mjs), loaded by the `mcp` command's handler, so
// the CLI's bundle and its `--help` start-up carry none of it. stdout carries only the protocol:
// the use cases print nothing, the loggers are removed, and console output goes to stderr.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpServer from "effect/ai/McpServer"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import * as Latch from "effect/Latch"
import * as Layer from "effect/Layer"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { VERSION } from "../../core/version.js"
import { FileSystemLive, type ParseCache, type WorkerPool } from "../../node/runtime.js"
import { UseCasesLive } from "../../usecases/layer.js"
import { OutputCap } from "./cap.js"
import { screened } from "./lines.js"
import { StagedAnswers, type ToolServices, tools } from "./tools.js"

/** Tool calls still running, and a wait until there are none: when stdin ends, the server waits for them to answer before it stops. */
class Calls extends Context.Service<
  Calls,
  { readonly track: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>; readonly idle: Effect.Effect<void> }
>()("specbundle/mcp/Calls") {
  static readonly layer: Layer.Layer<Calls> = Layer.effect(
    this,
    Effect.gen(function* () {
      let running = 0
      // Open while no call runs.
      const none = yield* Latch.make(true)
      return {
        track: <A, E, R>(self: Effect.Effect<A, E, R>) =>
          Effect.acquireUseRelease(
            Effect.andThen(
              Effect.sync(() => ++running),
              none.close
            ),
            () => self,
            () => Effect.suspend(() => (--running === 0 ? Effect.asVoid(none.open) : Effect.void))
          ),
        idle: none.await
      }
    })
  )
}

const registerTools = Effect.gen(function* () {
  const server = yield* McpServer.McpServer
  const context = yield* Effect.context<ToolServices>()
  const calls = yield* Calls
  for (const spec of tools) {
    // Each call runs its use case afresh (the corpus may change between calls), over the parse
    // cache the server keeps in memory: only what changed is read again (serve's `runtime`).
    yield* server.addTool({
      tool: spec.tool,
      annotations: Context.empty(),
      handle: (payload) => calls.track(Effect.provide(spec.handle(payload), context))
    })
  }
})

const UseCases = UseCasesLive.pipe(Layer.provide(FileSystemLive))

// A line that is not JSON, or not a request, is answered with a JSON-RPC error and left out
// (lines.ts), as JSON-RPC 2.0 asks; the protocol's own decoder would answer it as a defect.
// A client that writes its requests and closes stdin still gets every answer: the protocol stops
// the server when its stdin stream ends, so the stream ends only once the calls in flight have
// answered (and a moment more for their lines to be written).
const ScreenedStdio = Layer.effect(
  Stdio.Stdio,
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    const { idle } = yield* Calls
    return Stdio.make({
      ...stdio,
      stdin: Stream.concat(
        screened(stdio.stdin, (answer) => Effect.sync(() => void process.stdout.write(answer))),
        Stream.drain(Stream.fromEffect(Effect.sleep(Duration.millis(50)).pipe(Effect.andThen(idle), Effect.andThen(Effect.sleep(Duration.millis(50))))))
      )
    })
  })
).pipe(Layer.provide(NodeStdio.layer))

/** The server as the client sees it, over either transport. */
const SERVER = {
  name: "specbundle",
  version: VERSION,
  // 2026-07-28 (stateless: no initialize, each request's _meta carries its revision; server/discover),
  // 2025-11-25 (the official SDK's), and the revisions earlier releases answered: an older client gets its own.
  protocols: [McpProtocol.v2026_07_28, McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05]
} as const

export const ServerLive = Layer.effectDiscard(registerTools).pipe(
  Layer.provide(McpServer.layerStdio(SERVER)),
  Layer.provide(Layer.mergeAll(UseCases, ScreenedStdio, OutputCap.layer, StagedAnswers.layer)),
  Layer.provide(Calls.layer)
)

/** A port free on 127.0.0.1 now: the one the system gives a listener on port 0, closed again. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no free port on 127.0.0.1"))))
    })
  })

/** The HTTP endpoint's path. */
export const HTTP_PATH = "/mcp"

/**
 * `mcp --http PORT`: effect's Streamable HTTP endpoint at /mcp (McpServer.layerHttp: stateless for
 * 2026-07-28, sessions for the older revisions), listening on 127.0.0.1 only. A request whose Host
 * is not this address (DNS rebinding) is refused with 403 before the endpoint sees it; one with an
 * Origin other than this address is refused by the endpoint (its allowedOrigins). The address
 * listened on is one line on stderr.
 */
export const httpServer = (port: number): Layer.Layer<never, unknown, WorkerPool | ParseCache> => {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  const endpoint = Layer.effectDiscard(registerTools).pipe(
    Layer.provide(
      McpServer.layerHttp({
        ...SERVER,
        path: HTTP_PATH,
        allowedOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`]
      })
    ),
    Layer.provide(Calls.layer)
  )
  const announce = Layer.effectDiscard(
    Effect.gen(function* () {
      yield* HttpServer.HttpServer
      process.stderr.write(`specbundle mcp: serving MCP over HTTP at http://127.0.0.1:${port}${HTTP_PATH} (127.0.0.1 only)\n`)
    })
  )
  return Layer.mergeAll(
    HttpRouter.serve(endpoint, {
      disableLogger: true,
      disableListenLog: true,
      middleware: (app) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request: HttpServerRequest.HttpServerRequest) =>
          hosts.has(request.headers.host ?? "")
            ? app
            : Effect.succeed(HttpServerResponse.text("Forbidden: Host must be 127.0.0.1 or localhost\n", { status: 403 }))
        )
    }),
    announce
  ).pipe(
    Layer.provide(NodeHttpServer.layer(() => createServer(), { port, host: "127.0.0.1" })),
    Layer.provide(Layer.mergeAll(UseCases, OutputCap.layer, StagedAnswers.layer))
  )
}

/**
 * Serves until stdin ends (or, with `http`, until interrupted) or the signal aborts (the CLI's
 * fiber is interrupted), its reads on `runtime`.
 */
export const serve = (signal: AbortSignal | undefined, runtime: Layer.Layer<WorkerPool | ParseCache>, http?: number): Promise<void> => {
  // Anything that still reaches console.log must not corrupt the protocol.
  console.log = console.error
  console.info = console.error
  // The protocol ends the server by interrupting it when stdin ends: that is a clean stop.
  // PORT 0: a free port, chosen first, since the Host and Origin checks name the port.
  const port = http === 0 ? freePort() : Promise.resolve(http)
  return port
    .then((at) =>
      Effect.runPromiseExit(
        Layer.launch((at === undefined ? ServerLive : httpServer(at)).pipe(Layer.provide(runtime))),
        signal === undefined ? undefined : { signal }
      )
    )
    .then((exit) => {
      if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) {
        // A setting the server cannot start with (cap.ts) says its own line; anything else its first.
        const error = Cause.squash(exit.cause)
        throw new Error(error instanceof Error ? error.message : Cause.pretty(exit.cause).split("\n")[0])
      }
    })
}
