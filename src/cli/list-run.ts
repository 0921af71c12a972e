// The `list` handler, loaded when the command runs (list.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import { hasRefusal } from "../core/graph.js"
import { byCodeUnits } from "../core/model.js"
import { GraphReader } from "../services/GraphReader.js"
import { failWithDiagnostics } from "./diagnostics.js"
import { CliFailure, ExitWith } from "./errors.js"
import { flagExcludes, settledExcludes, warnUnmatched } from "./excludes.js"
import type { ListArgs } from "./list.js"
import { ServicesLive } from "./live.js"
import { writeFindings, writeOut } from "./output.js"
import { withProgress } from "./progress.js"
import { loadConfig, settingsOf } from "./settings.js"

export const runList = (args: ListArgs) =>
  Effect.gen(function* () {
    const flags = flagExcludes(args.exclude)
    if (flags.diagnostics.length > 0) return yield* failWithDiagnostics(flags.diagnostics)
    const loaded = yield* loadConfig(args)
    const settings = yield* settingsOf(loaded, undefined, { exclude: flags.paths })
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const reader = yield* GraphReader
    const { graph } = yield* withProgress(reader.readTree({ root: args.root, exclude }), `reading ${args.root}`, args.quiet).pipe(
      Effect.mapError((e) => new CliFailure({ line: e.message }))
    )
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose })
    yield* warnUnmatched(exclude, args.root, args.quiet)
    if (args.what === "packs") {
      const packs = [...graph.packs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
      const rows = packs.map((p) => ({ id: p.id, title: p.title, members: p.members.length, file: p.file }))
      yield* writeOut(args.format === "json" ? JSON.stringify({ packs: rows }) + "\n" : table(rows.map((r) => [r.id, `${r.members} members`, r.title])))
    } else {
      const specs = [...graph.specs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
      const rows = specs.map((s) => ({ id: s.id, kind: s.kind, title: s.title, file: s.file }))
      yield* writeOut(args.format === "json" ? JSON.stringify({ specs: rows }) + "\n" : table(rows.map((r) => [r.id, r.kind, r.title])))
    }
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("list"), Effect.provide(ServicesLive))

/** Columns padded to the widest cell; nothing when there are no rows. */
const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  if (rows.length === 0) return ""
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ")).join("\n") + "\n"
}
