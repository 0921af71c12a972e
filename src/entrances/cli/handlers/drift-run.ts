// The `drift` handler, loaded when the command runs (drift.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import { driftOutput } from "../../../core/render/drift.js"
import { findingsPrefix } from "../../../core/render/outputs.js"
import { Drift, DriftRequest } from "../../../usecases/Drift.js"
import { requestOf } from "../../../usecases/requests.js"
import type { DriftArgs } from "../commands/drift.js"
import { ExitWith } from "../errors.js"
import { warnUnmatched } from "../output/excludes.js"
import { Invocation, located } from "../invocation.js"
import { writeErr, writeFindings, writeOut } from "../output/output.js"

export const runDrift = (args: DriftArgs) =>
  Effect.gen(function* () {
    const drift = yield* Drift
    const request = requestOf(DriftRequest, { ...args, specs: args.ids.length === 0 ? undefined : args.ids })
    const result = yield* drift.run(yield* located(request))
    yield* writeFindings(result.findings, { quiet: args.quiet, all: args.verbose, style: "text", root: args.root })
    yield* warnUnmatched(result.exclude, result.excluded, args.root, args.quiet)
    if (!args.quiet) for (const note of result.notes) yield* writeErr(`specbundle: drift: ${note}`)
    if (result.accepted !== null && result.accepted.ids.length > 0)
      yield* writeErr(
        `specbundle: drift: recorded ${result.accepted.ids.join(", ")} as reviewed at ${result.accepted.commit.slice(0, 12)} in ${result.report.reviews} (commit it to share the review)`
      )
    const { cwd } = yield* Invocation
    yield* writeOut(driftOutput(result.report, args.format, findingsPrefix(args.root, cwd)))
    if (args.strict && result.findings.some((f) => f.severity === "error")) return yield* new ExitWith({ code: 1 })
    if (args.failOnDrift && result.report.drifted.length > 0) {
      yield* writeErr(`specbundle: drift: ${result.report.drifted.length} drifted (--fail-on-drift): exit 3`)
      return yield* new ExitWith({ code: 3 })
    }
  }).pipe(Effect.withSpan("drift"))
