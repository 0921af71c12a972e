// The `drift` tool: the Specs that drifted from the code and Specs they are bound to, absolutely or
// as a changeset introduces it, in the bytes `specbundle drift` prints, then what it says on stderr
// (excludes that matched nothing, its notes). Read-only, as the server is: recording a review
// (`drift --accept`) is the CLI's. A report over the tool-result cap (cap.ts) carries the drifted
// Specs that fit, in id order, and one sentence saying how many it leaves out.
import { CallToolResult } from "effect/ai/McpSchema"
import * as Effect from "effect/Effect"
import type { DriftReport } from "../../../core/changes/drift.js"
import { unmatchedExcludeLines } from "../../../core/render/corpus-lines.js"
import { driftOutput } from "../../../core/render/drift.js"
import { findingsPrefix } from "../../../core/render/outputs.js"
import type { CountTokens } from "../../../core/tokens.js"
import { Bundler } from "../../../usecases/Bundler.js"
import { Drift, DriftRequest } from "../../../usecases/Drift.js"
import { requestOf } from "../../../usecases/requests.js"
import { OutputCap } from "../cap.js"
import type { Arguments } from "../parameters.js"
import { parametersOf } from "../parameters.js"
import { capCounter, define, diagnosticsResult, ok } from "../tool.js"

export const DriftParameters = parametersOf(DriftRequest.fields)

/** The result's text items as the client joins them, counted against the cap. */
const size = (result: CallToolResult, count: CountTokens, cap: number) => count(result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"), cap)

/**
 * The answer for a report over the cap: the most drifted Specs (in the report's id order) whose
 * answer, with the sentence that says what it leaves out, fits. Bounded: a binary search over the
 * count, each step one render and one count.
 */
const within = (
  report: DriftReport,
  answer: (report: DriftReport, sentence: string | undefined) => CallToolResult,
  count: CountTokens,
  cap: number
): CallToolResult => {
  const total = report.drifted.length
  const sentence = (kept: number) =>
    `The report lists ${total} drifted Specs, over the ${cap}-token limit of a tool result (o200k_base): this answer carries the first ${kept} in id order and leaves out ${total - kept}. specbundle drift with the same parameters in a shell prints the whole report.`
  const at = (kept: number) => answer({ ...report, drifted: report.drifted.slice(0, kept) }, sentence(kept))
  let low = 0
  let high = total - 1
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (size(at(mid), count, cap) <= cap) low = mid
    else high = mid - 1
  }
  return at(low)
}

const runDrift = (p: Arguments<typeof DriftRequest.fields>) =>
  Effect.gen(function* () {
    const drift = yield* Drift
    // A range end git does not know is the changeset's mistake: a problem naming the parameter.
    const ran = yield* drift
      .run(requestOf(DriftRequest, p))
      .pipe(
        Effect.catchTag("UnknownRevisionError", (e) =>
          p.changeset === undefined ? Effect.fail(e) : Effect.succeed(diagnosticsResult([{ scope: "changeset", problem: e.message }]))
        )
      )
    if (ran instanceof CallToolResult) return ran
    const result = ran
    // GitHub resolves paths from the working folder, as the CLI's github format does.
    const prefix = findingsPrefix(p.root, process.cwd())
    const stderr = [...unmatchedExcludeLines(result.exclude, result.excluded, p.root), ...result.notes.map((note) => `specbundle: drift: ${note}`)]
    const answer = (report: DriftReport, sentence: string | undefined) => ok(driftOutput(report, p.format, prefix), ...stderr, sentence)
    const whole = answer(result.report, undefined)
    const cap = yield* OutputCap
    const count = yield* capCounter(yield* Bundler)
    return size(whole, count, cap.tokens) <= cap.tokens ? whole : within(result.report, answer, count, cap.tokens)
  })

export const driftTool = define(
  "drift",
  "Specs whose bound code or Specs changed since their last change or review, and why. Read-only: the CLI's drift --accept records reviews.",
  DriftParameters,
  runDrift
)
