// Findings for people, on stderr: one line per file and rule (the first occurrence, with how many
// the file has), and a cap that never hides a refused carrier (the contract, section 1). Pure.
import type { Finding } from "./model.js"

/** A file's findings under one rule: the first, and how many there are. */
export interface FindingLine {
  readonly finding: Finding
  readonly count: number
}

/** One line per (file, code), at its first finding's place in `findings`' order. */
export const perFileRule = (findings: ReadonlyArray<Finding>): FindingLine[] => {
  const lines: Array<{ finding: Finding; count: number }> = []
  const at = new Map<string, number>()
  for (const f of findings) {
    const key = `${f.file}\0${f.code}`
    const i = at.get(key)
    if (i === undefined) {
      at.set(key, lines.length)
      lines.push({ finding: f, count: 1 })
    } else {
      lines[i].count++
      // An error outranks a warning of the same rule: the line says the file was refused.
      if (f.severity === "error" && lines[i].finding.severity !== "error") lines[i].finding = { ...lines[i].finding, severity: "error" }
    }
  }
  return lines
}

/** The line's finding with the count in its message ("... (and 9 more like it in this file)"). */
export const countedFinding = (line: FindingLine): Finding =>
  line.count === 1 ? line.finding : { ...line.finding, message: `${line.finding.message} (and ${line.count - 1} more like it in this file)` }

export interface CappedFindings {
  /** The lines shown, in the findings' order. */
  readonly shown: ReadonlyArray<FindingLine>
  /** Findings (occurrences) the shown lines do not stand for. */
  readonly hidden: number
}

/**
 * The lines a capped run shows: the first error line of every refused file, whatever the cap, then
 * the other lines in order while fewer than `cap` are shown; all of them in the findings' order.
 */
export const capFindings = (findings: ReadonlyArray<Finding>, cap: number): CappedFindings => {
  const lines = perFileRule(findings)
  const keep = new Set<number>()
  const named = new Set<string>()
  lines.forEach((l, i) => {
    if (l.finding.severity === "error" && !named.has(l.finding.file)) {
      named.add(l.finding.file)
      keep.add(i)
    }
  })
  for (let i = 0; i < lines.length && keep.size < cap; i++) keep.add(i)
  const shown = lines.filter((_, i) => keep.has(i))
  return { shown, hidden: findings.length - shown.reduce((n, l) => n + l.count, 0) }
}
