// A progress line on stderr for slow reads: only on a terminal, only after ~1 s, never with --quiet,
// and cleared when the read ends so the findings and results that follow start on a clean line.
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { Output } from "./output.js"

const DELAY_MS = 1000

export const withProgress = <A, E, R>(self: Effect.Effect<A, E, R>, label: string, quiet: boolean): Effect.Effect<A, E, R | Output> =>
  Output.use((output) =>
    quiet || !output.stderrIsTTY
      ? self
      : Effect.gen(function* () {
          let shown = false
          const fiber = yield* Effect.forkChild(
            Effect.sleep(DELAY_MS).pipe(
              Effect.andThen(
                Effect.sync(() => {
                  shown = true
                  output.err(`${label}\u2026`)
                })
              )
            )
          )
          const clear = Fiber.interrupt(fiber).pipe(
            // Carriage return and erase-line (not a colour): the line disappears.
            Effect.andThen(Effect.sync(() => void (shown && output.err("\r\x1b[K"))))
          )
          return yield* self.pipe(Effect.ensuring(clear))
        })
  )
