// The `check` handler, loaded when the command runs (check.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import { hasRefusal } from "../core/graph.js"
import { GraphReader } from "../services/GraphReader.js"
import { findingsGithub, findingsJson, findingsSarif } from "../core/render/findings.js"
import type { CheckArgs } from "./check.js"
import { failWithDiagnostics } from "./diagnostics.js"
import { CliFailure, ExitWith } from "./errors.js"
import { flagExcludes, settledExcludes, warnUnmatched } from "./excludes.js"
import { ServicesLive } from "./live.js"
import { VERSION } from "./main.js"
import { findingsPrefix, writeErr, writeFindings, writeOut } from "./output.js"
import { withProgress } from "./progress.js"
import { loadConfig, settingsOf } from "./settings.js"

export const runCheck = (args: CheckArgs) =>
  Effect.gen(function* () {
    const flags = flagExcludes(args.exclude)
    if (flags.diagnostics.length > 0) return yield* failWithDiagnostics(flags.diagnostics)
    // The configuration's excludes apply to check as to bundle and impact.
    const loaded = yield* loadConfig(args)
    const settings = yield* settingsOf(loaded, undefined, { exclude: flags.paths })
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const reader = yield* GraphReader
    const { graph } = yield* withProgress(reader.readTree({ root: args.root, exclude }), `reading ${args.root}`, args.quiet).pipe(
      Effect.mapError((e) => new CliFailure({ line: e.message }))
    )
    // check is where every finding is listed: no cap. The machine formats are the result (stdout).
    const prefix = findingsPrefix(args.root)
    if (args.format === "text") yield* writeFindings(graph.findings, { quiet: args.quiet, all: true })
    else if (args.format === "json") yield* writeOut(findingsJson(graph.findings) + "\n")
    else if (args.format === "github") yield* writeOut(findingsGithub(graph.findings, prefix))
    else yield* writeOut(JSON.stringify(findingsSarif(graph.findings, { version: VERSION }, prefix), null, 2) + "\n")
    yield* warnUnmatched(exclude, args.root, args.quiet)
    if (!args.quiet) {
      yield* writeErr(`${graph.specs.size} specs, ${graph.packs.size} packs, ${graph.anchors.size} anchors, ${graph.findings.length} findings`)
    }
    if (hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("check"), Effect.provide(ServicesLive))
