// The `list` handler, loaded when the command runs (list.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { hasRefusal } from "../core/graph.js"
import type { Graph } from "../core/model.js"
import { byCodeUnits } from "../core/model.js"
import { Corpus } from "../services/Corpus.js"
import { renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { warnUnmatched } from "./excludes.js"
import type { ListArgs } from "./list.js"
import { ServicesLive } from "./live.js"
import { writeFindings, writeOut } from "./output.js"
import { withProgress } from "./progress.js"

/** What `list` prints on stdout (the MCP list tool returns the same text). */
export const listOutput = (graph: Graph, what: ListArgs["what"], format: ListArgs["format"]): string => {
  if (what === "packs") {
    const packs = [...graph.packs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
    const rows = packs.map((p) => ({ id: p.id, title: p.title, members: p.members.length, file: p.file }))
    return format === "json" ? JSON.stringify({ packs: rows }) + "\n" : table(rows.map((r) => [r.id, `${r.members} members`, r.title]))
  }
  const specs = [...graph.specs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
  const rows = specs.map((s) => ({ id: s.id, kind: s.kind, title: s.title, file: s.file }))
  return format === "json" ? JSON.stringify({ specs: rows }) + "\n" : table(rows.map((r) => [r.id, r.kind, r.title]))
}

export const runList = (args: ListArgs) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const read = corpus.read({ root: args.root, exclude: args.exclude, config: Option.getOrUndefined(args.config) })
    const { graph, exclude } = yield* renderProblems(withProgress(read, `reading ${args.root}`, args.quiet))
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose })
    yield* warnUnmatched(exclude, args.root, args.quiet)
    yield* writeOut(listOutput(graph, args.what, args.format))
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("list"), Effect.provide(ServicesLive))

/** Columns padded to the widest cell; nothing when there are no rows. */
const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  if (rows.length === 0) return ""
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ")).join("\n") + "\n"
}
