// The `example` handler, loaded when the command runs (example.ts holds its definition).
import * as Effect from "effect/Effect"
import { problems } from "../../../usecases/requests.js"
import { CommandFailure } from "../errors.js"
import type { ExampleArgs } from "../commands/example.js"
import { exampleDirProblem, exampleNextSteps, historyScript, writeExample } from "./example-dir.js"
import { Invocation, inCwd } from "../invocation.js"
import { writeErr, writeOut } from "../output/output.js"

export const runExample = (args: ExampleArgs) =>
  Effect.gen(function* () {
    const dir = yield* inCwd(args.dir)
    const { bin } = yield* Invocation
    const problem = exampleDirProblem(dir)
    if (problem !== null) return yield* problems([{ scope: "dir", problem }])
    yield* Effect.try({
      try: () => writeExample(dir, historyScript(bin)),
      catch: (e) => CommandFailure.of("example", e)
    })
    yield* writeOut(`${dir}\n`)
    if (!args.quiet) yield* Effect.forEach(exampleNextSteps(dir), writeErr, { discard: true })
  })
