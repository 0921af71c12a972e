// The Terminal @effect/cli requires, built without touching process.stdin: NodeTerminal's layer
// reads process.stdin when it is built, which creates the stdin stream (a few ms at start-up) that
// only a prompt ever uses. Here the Node terminal is made on the first read, in the layer's scope.
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Terminal from "@effect/platform/Terminal"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"

export const layer: Layer.Layer<Terminal.Terminal> = Layer.scoped(
  Terminal.Terminal,
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const node = yield* Effect.cached(Scope.extend(NodeTerminal.make(), scope))
    return Terminal.Terminal.of({
      columns: Effect.sync(() => process.stdout.columns ?? 0),
      rows: Effect.sync(() => process.stdout.rows ?? 0),
      isTTY: Effect.sync(() => Boolean(process.stdout.isTTY)),
      readInput: Effect.flatMap(node, (t) => t.readInput),
      readLine: Effect.flatMap(node, (t) => t.readLine),
      display: (text) => Effect.flatMap(node, (t) => t.display(text))
    })
  })
)
