// The `check` handler, loaded when the command runs (check.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import { hasRefusal } from "../core/graph.js"
import { GraphReader } from "../services/GraphReader.js"
import type { CommonArgs } from "./common.js"
import { excludeProblems } from "./common.js"
import { failWithDiagnostics } from "./diagnostics.js"
import { CliFailure, ExitWith } from "./errors.js"
import { ServicesLive } from "./live.js"
import { writeErr, writeFindings } from "./output.js"
import { withProgress } from "./progress.js"
import { loadConfig, settingsOf } from "./settings.js"

export const runCheck = (args: CommonArgs) =>
  Effect.gen(function* () {
    const problems = excludeProblems(args)
    if (problems.length > 0) return yield* failWithDiagnostics(problems.map((problem) => ({ scope: "exclude", problem })))
    // The configuration's excludes apply to check as to bundle and impact.
    const settings = yield* settingsOf(yield* loadConfig(args), undefined, { exclude: args.exclude })
    const reader = yield* GraphReader
    const { graph } = yield* withProgress(reader.readTree({ root: args.root, exclude: settings.exclude }), `reading ${args.root}`, args.quiet).pipe(
      Effect.mapError((e) => new CliFailure({ line: e.message }))
    )
    yield* writeFindings(graph.findings, args.quiet)
    if (!args.quiet) {
      yield* writeErr(`${graph.specs.size} specs, ${graph.packs.size} packs, ${graph.anchors.size} anchors, ${graph.findings.length} findings`)
    }
    if (hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("check"), Effect.provide(ServicesLive))
