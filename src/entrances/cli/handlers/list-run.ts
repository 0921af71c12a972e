// The `list` handler, loaded when the command runs (list.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { hasRefusal } from "../../../core/graph/graph.js"
import { noSpecFileWarning } from "../../../core/render/corpus-lines.js"
import { listOutput } from "../../../core/render/outputs.js"
import { CorpusRequest, requestOf } from "../../../usecases/requests.js"
import { Corpus } from "../../../usecases/Corpus.js"
import { ExitWith } from "../errors.js"
import { warnUnmatched } from "../output/excludes.js"
import type { ListArgs } from "../commands/list.js"
import { Invocation, located } from "../invocation.js"
import { writeErr, writeFindings, writeOut } from "../output/output.js"
import { withProgress } from "../output/progress.js"
import { FLAG_NAMES } from "../flags.js"

export const runList = (args: ListArgs) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { cwd } = yield* Invocation
    const read = corpus.read(yield* located(requestOf(CorpusRequest, args)))
    const { graph, exclude, excluded } = yield* withProgress(read, `reading ${args.root}`, args.quiet)
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose })
    yield* warnUnmatched(exclude, excluded, args.root, args.quiet)
    const empty = noSpecFileWarning(graph, nodePath.resolve(cwd, args.root), exclude.length > 0, FLAG_NAMES)
    if (!args.quiet && empty !== null) yield* writeErr(empty)
    yield* writeOut(listOutput(graph, args.what, args.format))
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("list"))
