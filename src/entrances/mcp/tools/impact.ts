// The `impact` tool: which Specs a changeset impacts and why, the report as the CLI prints it; a
// staged request answered again from memory while the staged state is the same.
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { unmatchedExcludeLines } from "../../../core/render/corpus-lines.js"
import { impactOutput } from "../../../core/render/outputs.js"
import { GitEnvironment, stagedStamp } from "../../../node/runtime.js"
import { Changes } from "../../../usecases/Changes.js"
import { ImpactRequest, requestOf } from "../../../usecases/requests.js"
import type { Arguments } from "../parameters.js"
import { parametersOf } from "../parameters.js"
import { StagedAnswers } from "../staged-answers.js"
import { define, ok } from "../tool.js"

export const ImpactParameters = parametersOf(ImpactRequest.fields)

const runImpact = (p: Arguments<typeof ImpactRequest.fields>) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const stagedAnswers = yield* StagedAnswers
    const { linkBase, format } = p
    // The use case checks the link base (impactProblems): a problem is its { diagnostics } value.
    const request = requestOf(ImpactRequest, p)
    const root = nodePath.resolve(p.root ?? ".")
    const key = p.staged === true && p.changeset === undefined ? JSON.stringify([root, p]) : undefined
    const stamp =
      key === undefined
        ? undefined
        : stagedStamp(root, p.config !== undefined ? nodePath.resolve(p.config) : nodePath.join(root, "specbundle.config.json"), yield* GitEnvironment)
    const kept = key === undefined ? undefined : stagedAnswers.get(key)
    if (stamp !== undefined && kept !== undefined && kept.stamp === stamp) return kept.result
    const { report, graph, exclude, excluded, driftNotes } = yield* changes.report(request)
    const notes = driftNotes.map((note) => `specbundle: drift: ${note}`)
    const result = ok(impactOutput(report, graph, format, linkBase ?? ""), ...unmatchedExcludeLines(exclude, excluded, p.root), ...notes)
    if (key !== undefined) {
      if (stamp === undefined) stagedAnswers.delete(key)
      else stagedAnswers.set(key, { stamp, result })
    }
    return result
  })

export const impactTool = define(
  "impact",
  "Which Specs a changeset impacts and why, with Packs, removals, lost bindings, risks and unlinked code.",
  ImpactParameters,
  runImpact
)
