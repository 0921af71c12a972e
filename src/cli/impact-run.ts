// The `impact` handler, loaded when the command runs (impact.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { hasRefusal } from "../core/graph.js"
import type { ImpactReport } from "../core/impact.js"
import type { Graph } from "../core/model.js"
import { impactMarkdownFacts } from "../core/render/impact-facts.js"
import { impactMarkdown } from "../core/render/impact-markdown.js"
import { Changes, impactProblems } from "../services/Changes.js"
import type { ImpactRequest } from "../services/requests.js"
import { failWithDiagnostics, renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { warnUnmatched } from "./excludes.js"
import type { ImpactArgs } from "./impact.js"
import { ServicesLive } from "./live.js"
import { writeFindings, writeOut } from "./output.js"

/** The report for people: the counts first, then one section per class, one line per row. */
export const impactText = (r: ImpactReport): string => {
  const lines: string[] = [
    `changeset ${r.changeset} (root ${r.root})`,
    `${r.impactedSpecs.length} impacted, ${r.impactedPacks.length} packs, ${r.removedSpecs.length} removed, ${r.atRisk.length} at risk, ${r.coverageUnknown.length} uncovered` +
      ` (${r.changedFiles.length} changed files, ${r.unlinked.length} unlinked code units, ${r.outsideRoot.length} outside the root)`,
    ""
  ]
  const section = (title: string, rows: ReadonlyArray<string>) => {
    lines.push(`${title} (${rows.length})`)
    for (const row of rows) lines.push(`  ${row}`)
    lines.push("")
  }
  section(
    "changed files",
    r.changedFiles.map((f) => `${f.status.padEnd(9)} ${f.oldPath !== undefined ? `${f.oldPath} -> ` : ""}${f.path}`)
  )
  section(
    "impacted specs",
    r.impactedSpecs.map((s) => `${s.id}  <- ${s.reasons.map((x) => (x.via === null ? x.file : `${x.file} (${x.via.id} ${x.via.edgeType})`)).join(", ")}`)
  )
  section(
    "impacted packs",
    r.impactedPacks.map((p) => `${p.id}  <- ${p.reasons.map((x) => x.file).join(", ")}`)
  )
  section(
    "removed specs",
    r.removedSpecs.map((s) => `${s.id}  (was in ${s.file})`)
  )
  section(
    "removed packs",
    r.removedPacks.map((p) => `${p.id}  (was in ${p.file})`)
  )
  section(
    "lost bindings",
    r.lostBindings.map((b) => `${b.spec}  <- ${b.anchor} no longer binds it (${b.file})`)
  )
  section(
    "at risk (one hop)",
    r.atRisk.map((a) => `${a.id} [${a.nodeType}]  ${a.reasons.map((x) => `${x.from} ${x.edgeType} ${x.to}`).join("; ")}`)
  )
  section("coverage unknown", r.coverageUnknown)
  section(
    "unlinked code units",
    r.unlinked.map((u) => `${u.id}  (${u.file})`)
  )
  section("outside the root", r.outsideRoot)
  return lines.join("\n").trimEnd() + "\n"
}

/** The report in the asked format: what stdout carries (the MCP impact tool returns the same text). */
export const impactOutput = (report: ImpactReport, graph: Graph, format: "text" | "json" | "markdown", linkBase = ""): string =>
  format === "text"
    ? impactText(report)
    : format === "markdown"
      ? impactMarkdown(report, impactMarkdownFacts(report, graph), { linkBase })
      : JSON.stringify(report) + "\n"

export const runImpactCommand = (args: ImpactArgs) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const request: ImpactRequest = {
      root: args.root,
      exclude: args.exclude,
      config: Option.getOrUndefined(args.config),
      changeset: Option.getOrUndefined(args.changeset),
      staged: args.staged
    }
    // --link-base is the renderer's, not the use case's: checked here, with the request's own problems.
    if (Option.isSome(args.linkBase) && args.format !== "markdown") {
      return yield* failWithDiagnostics([...impactProblems(request), { scope: "link-base", problem: "--link-base goes with --format markdown." }])
    }
    const { report, graph, exclude } = yield* renderProblems(changes.report(request))
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(exclude, args.root, args.quiet)
    yield* writeOut(
      impactOutput(
        report,
        graph,
        args.format,
        Option.getOrElse(args.linkBase, () => "")
      )
    )
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("impact"), Effect.provide(ServicesLive))
