// The `list` tool: the corpus's Packs or Specs in id order, as `list` prints them.
import * as Effect from "effect/Effect"
import { listOutput } from "../../../core/render/outputs.js"
import { Corpus } from "../../../usecases/Corpus.js"
import { CorpusRequest, ListRequest, requestOf } from "../../../usecases/requests.js"
import type { Arguments } from "../parameters.js"
import { parametersOf } from "../parameters.js"
import { define, ok, readWarnings } from "../tool.js"

export const ListParameters = parametersOf(ListRequest.fields)

const runList = (p: Arguments<typeof ListRequest.fields>) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { graph, exclude, excluded } = yield* corpus.read(requestOf(CorpusRequest, p))
    return ok(listOutput(graph, p.what, p.format), ...readWarnings(graph, exclude, excluded, p.root))
  })

export const listTool = define("list", "The corpus's Packs or Specs in id order: the ids a bundle scope names.", ListParameters, runList)
