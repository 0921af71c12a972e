// The `check` handler, loaded when the command runs (check.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { hasRefusal } from "../core/graph.js"
import { Corpus, summaryOf } from "../services/Corpus.js"
import type { CommonArgs } from "./common.js"
import { renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { ServicesLive } from "./live.js"
import { writeErr, writeFindings } from "./output.js"
import { withProgress } from "./progress.js"

export const runCheck = (args: CommonArgs) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const read = corpus.read({ root: args.root, exclude: args.exclude, config: Option.getOrUndefined(args.config) })
    const { graph } = yield* renderProblems(withProgress(read, `reading ${args.root}`, args.quiet))
    yield* writeFindings(graph.findings, args.quiet)
    if (!args.quiet) yield* writeErr(summaryOf(graph))
    if (hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("check"), Effect.provide(ServicesLive))
