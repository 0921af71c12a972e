// What each entrance returns for check, impact and list: the bytes the CLI prints on stdout, the MCP
// server's tools return and the library can render. Pure: below every entrance, so no entrance
// imports another.
import * as nodePath from "node:path"
import type { ImpactReport } from "../changes/impact.js"
import { riskReasonText } from "../changes/impact-members.js"
import type { Graph } from "../model.js"
import { byCodeUnits } from "../model.js"
import { counted } from "../plural.js"
import { VERSION } from "../version.js"
import { findingsGithub, findingsJson, findingsSarif } from "./findings.js"
import { codeQualityJson, findingIssues, impactIssues } from "./gitlab.js"
import { impactMarkdownFacts } from "./impact-facts.js"
import { impactMarkdown } from "./impact-markdown.js"
import { driftIssues, driftMarkdown, driftText } from "./drift.js"

// The choice lists of the outputs below, declared once: the CLI's flags, the MCP tools' enums and
// the library's request types are built from these (src/usecases/requests.ts).
export const CHECK_FORMATS = ["text", "json", "github", "sarif", "gitlab"] as const
export const IMPACT_FORMATS = ["json", "text", "markdown", "gitlab"] as const
export const LIST_SUBJECTS = ["packs", "specs"] as const
export const LIST_FORMATS = ["json", "text"] as const
export type CheckFormat = (typeof CHECK_FORMATS)[number]
export type ImpactFormat = (typeof IMPACT_FORMATS)[number]
export type ListSubject = (typeof LIST_SUBJECTS)[number]
export type ListFormat = (typeof LIST_FORMATS)[number]

/** The root as seen from the working folder, `/`-separated: GitHub resolves annotation paths from there (GitLab's report names them from the repository's top: Corpus.repositoryPrefix). */
export const findingsPrefix = (root: string, cwd: string): string => nodePath.relative(cwd, nodePath.resolve(cwd, root)).split(nodePath.sep).join("/")

/** What `check --format json|github|sarif|gitlab` prints on stdout (the MCP check tool returns the same text). */
export const checkOutput = (graph: Graph, format: Exclude<CheckFormat, "text">, prefix: string): string => {
  if (format === "json") return findingsJson(graph.findings) + "\n"
  if (format === "github") return findingsGithub(graph.findings, prefix)
  if (format === "gitlab") return codeQualityJson(findingIssues(graph.findings, prefix))
  return JSON.stringify(findingsSarif(graph.findings, { version: VERSION }, prefix), null, 2) + "\n"
}

/** The report for people: the counts first, then one section per class that has rows, one line per row (the counts line names the empty ones). */
export const impactText = (r: ImpactReport): string => {
  const lines: string[] = [
    `changeset ${r.changeset} (root ${r.root})`,
    `${r.impactedSpecs.length} impacted, ${counted(r.impactedPacks.length, "pack")}, ${r.removedSpecs.length} removed, ${r.atRisk.length} at risk, ${r.coverageUnknown.length} uncovered` +
      ` (${counted(r.changedFiles.length, "changed file")}, ${counted(r.unlinked.length, "unlinked code unit")}, ${r.outsideRoot.length} outside the root)`,
    ""
  ]
  const section = (title: string, rows: ReadonlyArray<string>) => {
    if (rows.length === 0) return
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
    r.atRisk.map((a) => `${a.id} [${a.nodeType}]  ${a.reasons.map(riskReasonText).join("; ")}`)
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
export const impactOutput = (report: ImpactReport, graph: Graph, format: ImpactFormat, linkBase = "", diagram = true): string => {
  // impact --drift: its section after the report's own (json: the report's last field, `drift`).
  const drift = report.drift
  return format === "text"
    ? impactText(report) + (drift === undefined ? "" : `\n${driftText(drift)}`)
    : format === "markdown"
      ? impactMarkdown(report, impactMarkdownFacts(report, graph), { linkBase, diagram }) + (drift === undefined ? "" : `\n${driftMarkdown(drift)}`)
      : format === "gitlab"
        ? codeQualityJson([...impactIssues(report, graph), ...(drift === undefined ? [] : driftIssues(drift))])
        : JSON.stringify(report) + "\n"
}

/** What `list` prints on stdout (the MCP list tool returns the same text). */
export const listOutput = (graph: Graph, what: ListSubject, format: ListFormat): string => {
  if (what === "packs") {
    const packs = [...graph.packs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
    const rows = packs.map((p) => ({ id: p.id, title: p.title, members: p.members.length, file: p.file }))
    return format === "json" ? JSON.stringify({ packs: rows }) + "\n" : table(rows.map((r) => [r.id, counted(r.members, "member"), r.title]))
  }
  const specs = [...graph.specs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
  const rows = specs.map((s) => ({ id: s.id, kind: s.kind, title: s.title, file: s.file }))
  return format === "json" ? JSON.stringify({ specs: rows }) + "\n" : table(rows.map((r) => [r.id, r.kind, r.title]))
}

/** Columns padded to the widest cell; nothing when there are no rows. */
const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  if (rows.length === 0) return ""
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ")).join("\n") + "\n"
}
