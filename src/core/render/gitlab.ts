// GitLab's side of the renderers: the Code Quality report (`check --format gitlab`, `impact
// --format gitlab`), the JSON array of issues GitLab's merge-request widget reads from an
// `artifacts:reports:codequality` file, and the link base of a GitLab CI job. Pure.
//
// GitLab keys a report's issues by fingerprint (one issue per fingerprint), and the widget shows
// an MR's issues as the fingerprints its report has and the target branch's has not. So a
// fingerprint names the problem, not its line: an edit above it must not turn it into a "new"
// issue, and two problems in one file must not share one (docs/decisions.md, "GitLab Code Quality").
import { hash } from "node:crypto"
import type { ImpactReport } from "../changes/impact.js"
import type { Finding, Graph } from "../model.js"
import { riskReasonText } from "../changes/impact-members.js"

/** GitLab's scale is info, minor, major, critical, blocker. */
export type CodeQualitySeverity = "info" | "minor" | "major" | "critical" | "blocker"

/** One issue, with the fields GitLab documents as required, in that order. */
export interface CodeQualityIssue {
  readonly description: string
  readonly check_name: string
  readonly fingerprint: string
  readonly severity: CodeQualitySeverity
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } }
}

/** Reasons named in one at-risk issue; the rest are counted (one hub Spec must not make a huge description). */
const MAX_REASONS = 5

const joined = (prefix: string, file: string): string => (prefix === "" || prefix === "." ? file : `${prefix.replace(/\/+$/, "")}/${file}`)

/** SHA-256 (hex) of the parts as a JSON list: unambiguous however a part is spelled. */
export const fingerprintOf = (parts: ReadonlyArray<string>): string => hash("sha256", JSON.stringify(["specbundle", ...parts]))

/**
 * A message with the line and column numbers it quotes folded, since they move with an edit above:
 * a file's `:12` or `:12:5` (`extract/duplicate-id` lists its sites so), `line 12` and `column 5`
 * (the YAML parser's words), `(12:5)`. Every other digit stays: it names the problem (`## Rul1` and
 * `## Rul22` are two headings, two issues).
 */
export const folded = (message: string): string =>
  message
    .replace(/(\.[A-Za-z][A-Za-z0-9]*):[0-9]+(:[0-9]+)?\b/g, (_, ext: string, col?: string) => `${ext}:#${col === undefined ? "" : ":#"}`)
    .replace(/\b(lines?|columns?)(\s+)[0-9]+\b/gi, "$1$2#")
    .replace(/\([0-9]+:[0-9]+\)/g, "(#:#)")

const issue = (description: string, check: string, fingerprint: string, severity: CodeQualitySeverity, path: string, line: number): CodeQualityIssue => ({
  description,
  check_name: check,
  fingerprint,
  severity,
  // GitLab needs a line; a finding about the file as a whole (line 0) points at its first.
  location: { path, lines: { begin: Math.max(1, line) } }
})

/**
 * The findings as issues: error (a refused carrier) is major, warning minor. The fingerprint is
 * the code, the path, the message with its line and column numbers folded, and the finding's ordinal among those
 * three alike in its file (findings come sorted by file and line), so identical problems in one
 * file stay distinct issues.
 */
export const findingIssues = (findings: ReadonlyArray<Finding>, prefix = ""): CodeQualityIssue[] => {
  const seen = new Map<string, number>()
  return findings.map((f) => {
    const path = joined(prefix, f.file)
    const key = JSON.stringify([f.code, path, folded(f.message)])
    const ordinal = seen.get(key) ?? 0
    seen.set(key, ordinal + 1)
    return issue(
      `specbundle ${f.code}: ${f.message}`,
      f.code,
      fingerprintOf([f.code, path, folded(f.message), String(ordinal)]),
      f.severity === "error" ? "major" : "minor",
      path,
      f.line
    )
  })
}

/** Where a graph node was declared, if the graph has it. */
const siteOf = (graph: Graph, id: string): { file: string; line: number } | undefined => graph.specs.get(id) ?? graph.packs.get(id) ?? graph.anchors.get(id)

/**
 * What an impact report adds for GitLab: every corpus finding (the same issues, paths and
 * fingerprints as `check --format gitlab` run at the repository's top), then each lost binding
 * (minor, at the code file that lost it) and each node one hop at risk (info, at its declaration).
 * The widget lists what the target branch's report lacks, so these show as the MR's own.
 */
export const impactIssues = (report: ImpactReport, graph: Graph): CodeQualityIssue[] => {
  const prefix = report.root
  const out = findingIssues(graph.findings, prefix)
  for (const b of report.lostBindings) {
    const path = joined(prefix, b.file)
    out.push(
      issue(
        `specbundle impact/lost-binding: ${b.anchor} no longer binds ${b.spec} (${b.claim}); the change removed it from this file`,
        "impact/lost-binding",
        fingerprintOf(["impact/lost-binding", path, b.spec, b.anchor]),
        "minor",
        path,
        1
      )
    )
  }
  for (const row of report.atRisk) {
    const site = siteOf(graph, row.id)
    if (site === undefined) continue
    const path = joined(prefix, site.file)
    const reasons = row.reasons.slice(0, MAX_REASONS).map(riskReasonText)
    if (row.reasons.length > MAX_REASONS) reasons.push(`and ${row.reasons.length - MAX_REASONS} more`)
    out.push(
      issue(
        `specbundle impact/at-risk: ${row.id} (${row.nodeType}) is one hop from this change: ${reasons.join("; ")}`,
        "impact/at-risk",
        fingerprintOf(["impact/at-risk", path, row.id]),
        "info",
        path,
        site.line
      )
    )
  }
  return out
}

/** The report's bytes: a JSON array, two-space indented, one newline at the end. */
export const codeQualityJson = (issues: ReadonlyArray<CodeQualityIssue>): string => JSON.stringify(issues, null, 2) + "\n"

/** The CI variables the link base is read from (the run's settings, src/node/runtime.ts). */
export type GitlabEnv = Readonly<Record<string, string | undefined>>

/**
 * `https://host/group/project/-/blob/SHA/` in a GitLab CI job (GITLAB_CI=true), else "": the
 * project's web address (CI_PROJECT_URL, or CI_SERVER_URL and CI_PROJECT_PATH) and the commit the
 * pipeline runs (CI_COMMIT_SHA, whose tree the report's lines come from). GitLab's line anchor
 * is `#L10`, as GitHub's, so only the base differs.
 */
export const gitlabLinkBase = (env: GitlabEnv): string => {
  if (env.GITLAB_CI !== "true") return ""
  const server = (env.CI_SERVER_URL ?? "").replace(/\/+$/, "")
  const project = (env.CI_PROJECT_URL ?? "") || (server !== "" && env.CI_PROJECT_PATH ? `${server}/${env.CI_PROJECT_PATH}` : "")
  const sha = env.CI_COMMIT_SHA ?? ""
  if (project === "" || !/^[0-9a-f]{7,64}$/i.test(sha)) return ""
  return `${project.replace(/\/+$/, "")}/-/blob/${sha}/`
}
