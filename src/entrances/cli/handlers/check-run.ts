// The `check` handler, loaded when the command runs (check.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { hasRefusal } from "../../../core/graph/graph.js"
import { noSpecFileWarning } from "../../../core/render/corpus-lines.js"
import { checkOutput, findingsPrefix } from "../../../core/render/outputs.js"
import { CorpusRequest, requestOf } from "../../../usecases/requests.js"
import { Corpus, summaryOf } from "../../../usecases/Corpus.js"
import type { CheckArgs } from "../commands/check.js"
import { ExitWith } from "../errors.js"
import { warnUnmatched } from "../output/excludes.js"
import { Invocation, located } from "../invocation.js"
import { writeErr, writeFindings, writeOut } from "../output/output.js"
import { withProgress } from "../output/progress.js"
import { FLAG_NAMES } from "../flags.js"

export const runCheck = (args: CheckArgs) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { cwd } = yield* Invocation
    const read = corpus.read(yield* located(requestOf(CorpusRequest, args)))
    const { graph, exclude, excluded } = yield* withProgress(read, `reading ${args.root}`, args.quiet)
    // check is where every finding is listed: no cap. The machine formats are the result (stdout).
    if (args.format === "text") yield* writeFindings(graph.findings, { quiet: args.quiet, all: true })
    // GitHub resolves paths from the working folder, GitLab from the repository's top.
    else if (args.format === "gitlab") yield* writeOut(checkOutput(graph, args.format, yield* corpus.repositoryPrefix(nodePath.resolve(cwd, args.root))))
    else yield* writeOut(checkOutput(graph, args.format, findingsPrefix(args.root, cwd)))
    yield* warnUnmatched(exclude, excluded, args.root, args.quiet)
    const empty = noSpecFileWarning(graph, nodePath.resolve(cwd, args.root), exclude.length > 0, FLAG_NAMES)
    if (!args.quiet && empty !== null) yield* writeErr(empty)
    if (!args.quiet) yield* writeErr(summaryOf(graph))
    if (hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("check"))
