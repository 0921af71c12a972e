// The `impact` handler, loaded when the command runs (impact.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import { hasRefusal } from "../../core/graph.js"
import { gitlabLinkBase } from "../../core/render/gitlab.js"
import { impactOutput } from "../../core/render/outputs.js"
import { Changes, impactProblems } from "../../usecases/Changes.js"
import { ImpactRequest, requestOf } from "../../usecases/requests.js"
import { failWithDiagnostics, renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { warnUnmatched } from "./excludes.js"
import type { ImpactArgs } from "./impact.js"
import { Invocation, located } from "./invocation.js"
import { ServicesLive } from "./live.js"
import { writeFindings, writeOut } from "./output.js"

export const runImpactCommand = (args: ImpactArgs) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const { env } = yield* Invocation
    const request = requestOf(ImpactRequest, args)
    if (args.noDiagram && args.format !== "markdown") {
      return yield* failWithDiagnostics([...impactProblems(request), { scope: "no-diagram", problem: "--no-diagram goes with --format markdown." }])
    }
    const { report, graph, exclude, excluded } = yield* renderProblems(changes.report(yield* located(request), { hashes: false }))
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(exclude, excluded, args.root, args.quiet)
    yield* writeOut(impactOutput(report, graph, args.format, args.linkBase ?? (args.format === "markdown" ? gitlabLinkBase(env) : ""), !args.noDiagram))
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("impact"), Effect.provide(ServicesLive))
