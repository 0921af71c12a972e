// The `check` tool: every finding of the corpus, as `check` prints it.
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { formatFinding } from "../../../core/render/finding-text.js"
import { checkOutput, findingsPrefix } from "../../../core/render/outputs.js"
import { Corpus, summaryOf } from "../../../usecases/Corpus.js"
import { CheckRequest, CorpusRequest, requestOf } from "../../../usecases/requests.js"
import type { Arguments } from "../parameters.js"
import { parametersOf } from "../parameters.js"
import { define, ok, readWarnings } from "../tool.js"

export const CheckParameters = parametersOf(CheckRequest.fields)

const runCheck = (p: Arguments<typeof CheckRequest.fields>) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { format, root } = p
    const { graph, exclude, excluded } = yield* corpus.read(requestOf(CorpusRequest, p))
    const warnings = readWarnings(graph, exclude, excluded, root)
    // text: what `check` prints on stderr (every finding, the warnings, then the counts); else its stdout, the warnings after it.
    if (format === "text") return ok([...graph.findings.map(formatFinding), ...warnings, summaryOf(graph)].join("\n") + "\n")
    // GitHub resolves paths from the working folder, GitLab from the repository's top.
    const prefix = format === "gitlab" ? yield* corpus.repositoryPrefix(nodePath.resolve(root)) : findingsPrefix(root, process.cwd())
    return ok(checkOutput(graph, format, prefix), ...warnings)
  })

export const checkTool = define("check", "Every finding of the corpus, as check prints it.", CheckParameters, runCheck)
