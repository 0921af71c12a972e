// The `check` handler, loaded when the command runs (check.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { hasRefusal } from "../core/graph.js"
import type { Graph } from "../core/model.js"
import { findingsGithub, findingsJson, findingsSarif } from "../core/render/findings.js"
import { Corpus, summaryOf } from "../services/Corpus.js"
import type { CheckArgs } from "./check.js"
import { renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { warnUnmatched } from "./excludes.js"
import { ServicesLive } from "./live.js"
import { VERSION } from "./main.js"
import { findingsPrefix, writeErr, writeFindings, writeOut } from "./output.js"
import { withProgress } from "./progress.js"

/** What `check --format json|github|sarif` prints on stdout (the MCP check tool returns the same text). */
export const checkOutput = (graph: Graph, format: "json" | "github" | "sarif", root: string): string => {
  const prefix = findingsPrefix(root)
  if (format === "json") return findingsJson(graph.findings) + "\n"
  if (format === "github") return findingsGithub(graph.findings, prefix)
  return JSON.stringify(findingsSarif(graph.findings, { version: VERSION }, prefix), null, 2) + "\n"
}

export const runCheck = (args: CheckArgs) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const read = corpus.read({ root: args.root, exclude: args.exclude, config: Option.getOrUndefined(args.config) })
    const { graph, exclude } = yield* renderProblems(withProgress(read, `reading ${args.root}`, args.quiet))
    // check is where every finding is listed: no cap. The machine formats are the result (stdout).
    if (args.format === "text") yield* writeFindings(graph.findings, { quiet: args.quiet, all: true })
    else yield* writeOut(checkOutput(graph, args.format, args.root))
    yield* warnUnmatched(exclude, args.root, args.quiet)
    if (!args.quiet) yield* writeErr(summaryOf(graph))
    if (hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("check"), Effect.provide(ServicesLive))
