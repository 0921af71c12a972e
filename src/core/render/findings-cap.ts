// Findings for people, on stderr: one line per file and rule (the first occurrence, with how many
// the file has), capped, with one tally line for the rest (the contract, section 1). Pure.
import type { Finding } from "../model.js"
import { counted } from "../plural.js"

/** A file's findings under one rule: the first, and how many there are. */
export interface FindingLine {
  readonly finding: Finding
  /** Occurrences of the rule in the file that this line stands for (the first included). */
  readonly count: number
  /** The file's findings under other rules that no shown line names; this line stands for them too. */
  readonly rest?: number
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

/** What a line adds after its message: how many more it stands for, or "" when only itself. */
const countText = (line: FindingLine): string => {
  const like = line.count - 1
  const other = line.rest ?? 0
  if (other === 0) return like === 0 ? "" : ` (and ${like} more like it in this file)`
  if (like === 0) return ` (and ${counted(other, "more finding", "more findings")} in this file)`
  return ` (and ${like + other} more findings in this file, ${like} like it)`
}

/** The line's finding with its count in the message ("... (and 9 more like it in this file)"). */
export const countedFinding = (line: FindingLine): Finding => {
  const text = countText(line)
  return text === "" ? line.finding : { ...line.finding, message: `${line.finding.message}${text}` }
}

export interface CappedFindings {
  /** The lines shown: refused files first, then the others, each file's lines in the findings' order. */
  readonly shown: ReadonlyArray<FindingLine>
  /** Findings (occurrences) in files no shown line names. */
  readonly hidden: number
  /** Files with findings that no shown line names. */
  readonly hiddenFiles: number
  /** Of those, files refused (an error finding). */
  readonly hiddenRefused: number
}

/**
 * The lines a capped run shows, at most `cap` of them. They are taken in this order, so one file's
 * many findings never hide another file: the first error line of each refused file, then the first
 * line of each other file, then the remaining lines (refused files' before the others'), each group
 * in the findings' order. A file's first shown line also stands for the file's findings that no
 * shown line names (`rest`), so every finding of a named file is counted on its lines, and
 * `hidden` counts only the files left out whole.
 */
export const capFindings = (findings: ReadonlyArray<Finding>, cap: number): CappedFindings => {
  const lines = perFileRule(findings)
  const refused = new Set<string>()
  for (const l of lines) if (l.finding.severity === "error") refused.add(l.finding.file)
  // Each line's rank: 0 a refused file's first error line, 1 another file's first line, then the
  // other lines of refused files (2) and of the rest (3).
  const firstOf = new Map<string, number>()
  lines.forEach((l, i) => {
    const file = l.finding.file
    if (refused.has(file) ? l.finding.severity === "error" && !firstOf.has(file) : !firstOf.has(file)) firstOf.set(file, i)
  })
  const rank = (i: number): number => {
    const file = lines[i].finding.file
    if (firstOf.get(file) === i) return refused.has(file) ? 0 : 1
    return refused.has(file) ? 2 : 3
  }
  const order = lines.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b)
  const keep = new Set(order.slice(0, Math.max(0, cap)))

  // What each shown file's lines do not stand for goes on its first shown line.
  const total = new Map<string, number>()
  const named = new Map<string, number>()
  lines.forEach((l, i) => {
    const file = l.finding.file
    total.set(file, (total.get(file) ?? 0) + l.count)
    if (keep.has(i)) named.set(file, (named.get(file) ?? 0) + l.count)
  })
  const carrying = new Map<string, number>()
  for (const i of order) if (keep.has(i) && !carrying.has(lines[i].finding.file)) carrying.set(lines[i].finding.file, i)

  // Refused files first; a file's lines together, at its first line's place; then the findings' order.
  const fileFirst = new Map<string, number>()
  lines.forEach((l, i) => {
    if (!fileFirst.has(l.finding.file)) fileFirst.set(l.finding.file, i)
  })
  const group = (i: number): number => fileFirst.get(lines[i].finding.file) ?? i
  const isRefused = (i: number): number => (refused.has(lines[i].finding.file) ? 0 : 1)
  const shown = [...keep]
    .sort((a, b) => isRefused(a) - isRefused(b) || group(a) - group(b) || a - b)
    .map((i): FindingLine => {
      const file = lines[i].finding.file
      const rest = carrying.get(file) === i ? (total.get(file) ?? 0) - (named.get(file) ?? 0) : 0
      return rest === 0 ? lines[i] : { ...lines[i], rest }
    })
  let hidden = 0
  let hiddenRefused = 0
  for (const [file, n] of total) {
    if (named.has(file)) continue
    hidden += n
    if (refused.has(file)) hiddenRefused++
  }
  return { shown, hidden, hiddenFiles: total.size - named.size, hiddenRefused }
}

/**
 * The one line after a capped list that names what it left out and where to see all of it, or null
 * when every finding is on a shown line.
 */
export const tallyLine = (capped: CappedFindings): string | null => {
  if (capped.hiddenFiles === 0) return null
  const { hiddenFiles: files, hiddenRefused: refused } = capped
  const which = refused === 0 ? "" : refused < files ? ` (${refused} refused)` : files === 1 ? " (refused)" : " (all refused)"
  return `... and ${counted(capped.hidden, "more finding", "more findings")} in ${counted(files, "more file", "more files")}${which}: specbundle check lists them all (or add --verbose)`
}
