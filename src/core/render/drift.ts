// What `specbundle drift` prints: the report as JSON, for people (text), as a pull-request comment
// (markdown), as GitHub workflow annotations, or as a GitLab Code Quality report. Pure.
import type { DriftReason, DriftReport } from "../changes/drift.js"
import { acceptCommand } from "../changes/drift.js"
import { counted } from "../plural.js"
import { escapeCommandData, escapeCommandProperty } from "./findings.js"
import type { CodeQualityIssue } from "./gitlab.js"
import { codeQualityJson, fingerprintOf } from "./gitlab.js"

export const DRIFT_FORMATS = ["json", "text", "markdown", "github", "gitlab"] as const
export type DriftFormat = (typeof DRIFT_FORMATS)[number]

const short = (commit: string): string => commit.slice(0, 12)

const joined = (root: string, file: string): string => (root === "" || root === "." ? file : `${root.replace(/\/+$/, "")}/${file}`)

/** One reason in words: `src/rides/fare.ts (impl:rides.fare satisfies) in 1a2b3c4d5e6f, ...`. */
export const driftReasonText = (r: DriftReason): string => `${r.file} (${r.via.id} ${r.via.edgeType}) in ${r.commits.map(short).join(", ")}`

const scopeLine = (r: DriftReport): string =>
  r.base === null
    ? `drift at ${short(r.commit)} (root ${r.root}): ${r.drifted.length} of ${counted(r.specs, "Spec")} drifted`
    : `drift ${r.changeset} (root ${r.root}): ${r.drifted.length} ${r.drifted.length === 1 ? "Spec" : "Specs"} clean at ${short(r.base)} and drifted at ${short(r.commit)}`

/** The one summary line a hook or a PR report adds: "this change leaves N Specs drifted" and the accept command. */
export const driftSummaryLine = (r: DriftReport): string =>
  r.drifted.length === 0
    ? `${r.base === null ? "no Spec has" : "this change leaves no Spec"} drifted`
    : `${r.base === null ? "" : "this change leaves "}${counted(r.drifted.length, "Spec")} drifted; after reading them: ${acceptCommand(r)}`

export const driftText = (r: DriftReport): string => {
  const lines = [scopeLine(r), ""]
  for (const d of r.drifted) {
    lines.push(`${d.id}  (${d.file}; reviewed at ${short(d.watermark.commit)} by ${d.watermark.by})`)
    for (const reason of d.reasons) lines.push(`  ${driftReasonText(reason)}`)
  }
  if (r.drifted.length > 0) lines.push("", `after reading them: ${acceptCommand(r)}`)
  return lines.join("\n") + "\n"
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ")

export const driftMarkdown = (r: DriftReport): string => {
  const head =
    r.base === null
      ? scopeLine(r).replace(/^drift /, "Drift ")
      : `This change (${r.changeset}) leaves ${counted(r.drifted.length, "Spec")} drifted: clean at ${short(r.base)}, drifted at ${short(r.commit)}.`
  const lines = [`### specbundle drift`, "", head, ""]
  if (r.drifted.length > 0) {
    lines.push("| Spec | Changed | Through | Commits |", "| --- | --- | --- | --- |")
    for (const d of r.drifted)
      for (const reason of d.reasons)
        lines.push(
          `| \`${cell(d.id)}\` | \`${cell(reason.file)}\` | ${cell(`${reason.via.id} ${reason.via.edgeType}`)} | ${reason.commits.map(short).join(", ")} |`
        )
    lines.push("", "After reading them, record the review:", "", "```", acceptCommand(r), "```")
  }
  return lines.join("\n") + "\n"
}

/** One `::warning` per drifted Spec, on its carrier; `prefix`: the root as seen from the working folder (GitHub resolves paths from there). */
export const driftGithub = (r: DriftReport, prefix = r.root): string =>
  r.drifted
    .map(
      (d) =>
        `::warning file=${escapeCommandProperty(joined(prefix, d.file))},title=${escapeCommandProperty(`specbundle drift: ${d.id}`)}::${escapeCommandData(
          `${d.id} drifted since ${short(d.watermark.commit)}: ${d.reasons.map(driftReasonText).join("; ")}`
        )}\n`
    )
    .join("")

/** One Code Quality issue per drifted Spec, on its carrier (impact --drift adds them to its own). */
export const driftIssues = (r: DriftReport): CodeQualityIssue[] =>
  r.drifted.map((d) => {
    const path = joined(r.root, d.file)
    return {
      description: `specbundle drift: ${d.id} drifted since ${short(d.watermark.commit)}: ${d.reasons.map(driftReasonText).join("; ")}`,
      check_name: "drift/drifted",
      fingerprint: fingerprintOf(["drift/drifted", path, d.id]),
      severity: "minor" as const,
      location: { path, lines: { begin: 1 } }
    }
  })

export const driftGitlab = (r: DriftReport): string => codeQualityJson(driftIssues(r))

/** The report in a format; `prefix` (github): the root as seen from the working folder, the repository-relative root by default. */
export const driftOutput = (r: DriftReport, format: DriftFormat, prefix = r.root): string => {
  switch (format) {
    case "json":
      return JSON.stringify(r) + "\n"
    case "text":
      return driftText(r)
    case "markdown":
      return driftMarkdown(r)
    case "github":
      return driftGithub(r, prefix)
    case "gitlab":
      return driftGitlab(r)
  }
}
