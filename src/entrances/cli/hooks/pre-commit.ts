// What the pre-commit hook runs (`specbundle hook run pre-commit`, bundle-contract.md section 6): it
// refuses only a commit whose staged carriers do not read (pre-push: hooks/pre-push.ts). Loaded by
// hook-run.ts when `hook run pre-commit` runs.
import * as Effect from "effect/Effect"
import { Changes } from "../../../usecases/Changes.js"
import { ExitWith } from "../errors.js"
import { located } from "../invocation.js"
import { formatFinding, writeErr } from "../output/output.js"

/** The staged check: findings of staged carriers refuse the commit; the rest is one tally line. */
export const runPreCommit = (root: string) =>
  Effect.gen(function* () {
    // The impact use case over the index, with the configuration's excludes.
    const changes = yield* Changes
    const { report, graph } = yield* changes.report(yield* located({ root, staged: true }), { hashes: false })
    const staged = new Set(report.changedFiles.filter((f) => f.status !== "deleted").map((f) => f.path))
    const refusals = graph.findings.filter((f) => f.severity === "error")
    const ours = refusals.filter((f) => staged.has(f.file))
    const elsewhere = new Set(refusals.filter((f) => !staged.has(f.file)).map((f) => f.file))
    if (ours.length > 0) {
      // git prints nothing of its own when a hook refuses: the first line says what happened and the way out.
      const n = new Set(ours.map((f) => f.file)).size
      yield* writeErr(
        `specbundle pre-commit: commit refused: ${n} refused Spec ${n === 1 ? "file" : "files"} (fix ${n === 1 ? "it" : "them"} or commit with --no-verify)`
      )
      yield* writeErr(ours.map(formatFinding).join("\n"))
    }
    if (elsewhere.size > 0) {
      const n = elsewhere.size
      yield* writeErr(`${n} ${n === 1 ? "carrier" : "carriers"} elsewhere ${n === 1 ? "is" : "are"} refused; \`specbundle check\` lists them`)
    }
    if (ours.length > 0) return yield* new ExitWith({ code: 1 })
  })
