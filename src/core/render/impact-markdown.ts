// The impact report as GitHub-flavoured Markdown for a pull-request comment or a job summary
// (`specbundle impact --format markdown`): a one-line count summary; the impact picture (a Mermaid
// flowchart, impact-diagram.ts) unless asked without; then the summary sections
// (removed Specs and Packs, lost bindings, impacted Packs, at risk, uncovered files), each within a
// share of the cap so they always survive; then the long parts (the impacted Specs' table with
// title, readiness and reasons linking file:line, and the context lists), folded in <details> and
// cut last. Corpus text is escaped (markdown-text.ts); the whole text stays under a character cap
// that a GitHub comment holds, and the cut note names each section it shortened and the command
// that prints the whole report. Pure.
import type { AtRiskReason, ImpactReason, ImpactReport } from "../changes/impact.js"
import { memberChangeText } from "../changes/impact-members.js"
import type { Rung } from "../model.js"
import { RUNGS } from "../model.js"
import { counted } from "../plural.js"
import { drawnRisk, impactDiagramMarkdown } from "./impact-diagram.js"
import { mdCode, mdId, mdText, urlPath } from "./markdown-text.js"

/** A GitHub comment holds 65,536 characters; the default leaves room for a marker and a header. */
export const DEFAULT_MAX_CHARS = 60_000
/** Rows of a table or list shown before the rest is folded into <details>. */
export const OPEN_ROWS = 25
export const OPEN_ITEMS = 10
/** Reasons shown in one table cell or list item; the rest are counted. */
export const MAX_REASONS = 5

export interface SpecFacts {
  readonly title: string
  readonly stated: Rung
  readonly floor: Rung | "none"
  readonly file: string
  readonly line: number
}

export interface Located {
  readonly title?: string
  readonly file: string
  readonly line: number
}

/** What the report does not carry and the table shows: titles, readiness, the lines of carriers and anchors. */
export interface ImpactMarkdownFacts {
  /** Asked only for the rows the text shows (a Map will do). */
  readonly specs: { get(id: string): SpecFacts | undefined }
  readonly packs: ReadonlyMap<string, Located>
  readonly anchors: ReadonlyMap<string, Located>
}

export interface ImpactMarkdownOptions {
  /** Prefix of every file link (e.g. https://github.com/o/r/blob/SHA/); "" gives repository-relative links. */
  readonly linkBase?: string
  readonly maxChars?: number
  /** The Mermaid picture under the counts (default true; `--no-diagram` leaves it out). */
  readonly diagram?: boolean
}

/**
 * Why `--link-base` text is no link base, or null: an absolute http(s) URL with no query or
 * fragment (the file path goes after it). The one rule for every entrance (the use case's
 * impactProblems asks it).
 */
export const linkBaseProblem = (text: string, field = "--link-base"): string | null => {
  const url = URL.canParse(text) ? new URL(text) : null
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    return `${field} must be an http(s) URL such as https://github.com/OWNER/REPO/blob/SHA/, not ${JSON.stringify(text)}.`
  }
  if (/[?#]/.test(text)) return `${field} takes no ? or # part (the file path goes after it): ${JSON.stringify(text)}.`
  return null
}

/** The base every file link starts with: as given, with the "/" a pasted URL lacks added (blob/SHA + src/a.ts must not glue). */
export const linkBaseOf = (text: string): string => (text === "" || text.endsWith("/") ? text : `${text}/`)

/** Each summary section (removed, lost bindings, Packs, at risk, uncovered) may take this fraction of the cap. */
export const SUMMARY_SHARE = 12
/** The picture may take this fraction of the cap (it shows fewer nodes to fit, or is left out). */
export const DIAGRAM_SHARE = 6

/** Closing tags the last block may still need after the note's room is kept. */
const CLOSING = 50

/** Rows rendered on demand: `at(i)` for i in [0, count). */
interface Rows {
  readonly count: number
  at(i: number): string
}

const rowsOf = <T>(items: ReadonlyArray<T>, render: (item: T) => string, from = 0, to = items.length): Rows => ({
  count: Math.max(0, Math.min(to, items.length) - from),
  at: (i) => render(items[from + i])
})

/** A section of the report: its name in the cut note, its row count, and the rows it could not show. */
interface Section {
  readonly name: string
  readonly total: number
  omitted: number
  /** Characters the section may take (a summary section's share); Infinity for the rest. */
  readonly limit: number
  used: number
}

/**
 * Appends blocks of rows while they fit under the cap, section by section: a section that cannot
 * show a row shows none of its later rows (the open rows, then the folded ones), and counts them.
 */
class CappedText {
  private readonly parts: string[] = []
  private length = 0
  readonly sections: Section[] = []
  constructor(private readonly room: number) {}
  section(name: string, total: number, limit = Number.POSITIVE_INFINITY): Section {
    const s: Section = { name, total, omitted: 0, limit, used: 0 }
    this.sections.push(s)
    return s
  }
  private fits(s: Section | null, text: string, tail: number, first: boolean): boolean {
    if (this.length + text.length + tail > this.room) return false
    // A summary section always gets its first row; past its share, it folds no more.
    return s === null || first || s.used + text.length + tail <= s.limit
  }
  add(text: string): void {
    this.parts.push(text)
    this.length += text.length
  }
  /** A block of rows between `head` and `tail`, each rendered only when it is reached (a report may list tens of thousands). */
  block(s: Section, head: string, rows: Rows, tail: string): void {
    if (rows.count === 0) return
    const before = s.used
    if (s.omitted > 0 || !this.fits(s, head + rows.at(0), tail.length, before === 0)) {
      s.omitted += rows.count
      return
    }
    const start = this.length
    this.add(head)
    for (let i = 0; i < rows.count; i++) {
      const row = rows.at(i)
      // The first row was measured with the head above.
      if (i > 0 && !this.fits(s, row, tail.length, false)) {
        s.omitted += rows.count - i
        break
      }
      this.add(row)
      s.used = before + this.length - start
    }
    this.add(tail)
    s.used = before + this.length - start
  }
  text(): string {
    return this.parts.join("")
  }
}

const TABLE_HEAD = "| Spec | Title | Readiness | Reasons |\n| --- | --- | --- | --- |\n"

const details = (summary: string): string => `<details><summary>${summary}</summary>\n\n`
const DETAILS_END = "\n</details>\n\n"

export const impactMarkdown = (report: ImpactReport, facts: ImpactMarkdownFacts, options: ImpactMarkdownOptions = {}): string => {
  const base = linkBaseOf(options.linkBase ?? "")
  const cap = options.maxChars ?? DEFAULT_MAX_CHARS
  const prefix = report.root === "." || report.root === "" ? "" : `${report.root.replace(/\/+$/, "")}/`
  const link = (file: string, line: number | null): string =>
    `[${mdText(line === null ? file : `${file}:${line}`, 400)}](${base}${urlPath(prefix + file)}${line === null ? "" : `#L${line}`})`

  const { removedPacks, lostBindings } = report
  const share = Math.floor(cap / SUMMARY_SHARE)
  const sections = {
    removedSpecs: { name: "removed Specs", total: report.removedSpecs.length, limit: share },
    removedPacks: { name: "removed Packs", total: removedPacks.length, limit: share },
    lostBindings: { name: "lost bindings", total: lostBindings.length, limit: share },
    packs: { name: "impacted Packs", total: report.impactedPacks.length, limit: share },
    atRisk: { name: "at-risk rows", total: report.atRisk.length, limit: share },
    uncovered: { name: "uncovered files", total: report.coverageUnknown.length, limit: share },
    specs: { name: "impacted Specs", total: report.impactedSpecs.length, limit: Number.POSITIVE_INFINITY },
    unlinked: { name: "unlinked code units", total: report.unlinked.length, limit: Number.POSITIVE_INFINITY },
    outside: { name: "changed files outside the root", total: report.outsideRoot.length, limit: Number.POSITIVE_INFINITY },
    changed: { name: "changed files", total: report.changedFiles.length, limit: Number.POSITIVE_INFINITY }
  }
  const whole = `${mdCode(wholeReportCommand(report))} (or ${mdCode("--format text")})`
  const note = (cut: ReadonlyArray<{ name: string; total: number; omitted: number }>): string =>
    `\n_Cut to stay under ${cap} characters; not shown: ${cut.map((c) => `${c.omitted} of ${c.total} ${c.name}`).join(", ")}. The whole report: ${whole}._\n`
  // The note's room is kept before any row: its longest form has every section cut whole.
  const reserve = note(Object.values(sections).map((c) => ({ ...c, omitted: c.total }))).length + CLOSING
  const doc = new CappedText(cap - reserve)
  const picture = options.diagram === false ? "" : impactDiagramMarkdown(report, facts, Math.floor(cap / DIAGRAM_SHARE))
  // The count and the picture agree: where it leaves some at-risk rows out (anchors, code units), the line says how many it draws.
  const drawn = picture === "" ? report.atRisk.length : drawnRisk(report).length
  const summary = [
    counted(report.impactedSpecs.length, "impacted Spec"),
    counted(report.impactedPacks.length, "impacted Pack"),
    `${report.removedSpecs.length + removedPacks.length} removed`,
    counted(lostBindings.length, "lost binding"),
    drawn === report.atRisk.length ? `${report.atRisk.length} at risk` : `${report.atRisk.length} at risk (${drawn} drawn)`,
    counted(report.coverageUnknown.length, "uncovered file")
  ].join(" · ")
  doc.add(`**specbundle impact** of ${mdCode(report.changeset)}: ${summary}\n\n`)
  doc.add(picture)

  const reasonText = (r: ImpactReason, own: Located | undefined): string => {
    if (r.via === null) return `${link(r.file, own?.file === r.file ? own.line : null)} (its file)`
    const anchor = facts.anchors.get(r.via.id)
    return `${link(r.file, anchor?.file === r.file ? anchor.line : null)} ${mdId(r.via.id)} ${r.via.edgeType}`
  }
  /** The first MAX_REASONS, then a count: one hub Spec must not fill the text alone. */
  const firstReasons = <T>(reasons: ReadonlyArray<T>, render: (r: T) => string): string[] => {
    const shown = reasons.slice(0, MAX_REASONS).map(render)
    if (reasons.length > MAX_REASONS) shown.push(`and ${reasons.length - MAX_REASONS} more`)
    return shown
  }
  const reasonsCell = (reasons: ReadonlyArray<ImpactReason>, own: Located | undefined): string => firstReasons(reasons, (r) => reasonText(r, own)).join("<br>")
  const readiness = (s: SpecFacts): string => {
    if (s.floor === s.stated) return s.stated
    const below = s.floor === "none" || RUNGS.indexOf(s.floor) < RUNGS.indexOf(s.stated)
    return `${s.stated}, floor ${s.floor}${below ? " ⚠" : ""}`
  }
  const specRow = (row: ImpactReport["impactedSpecs"][number]): string => {
    const s = facts.specs.get(row.id)
    const title = s === undefined ? "(not in the corpus)" : mdText(s.title)
    return `| ${mdId(row.id)} | ${title} | ${s === undefined ? "–" : readiness(s)} | ${reasonsCell(row.reasons, s)} |\n`
  }
  const riskReason = (r: AtRiskReason): string =>
    `${mdId(r.from)} ${r.edgeType} ${mdId(r.to)}${r.member === undefined ? "" : ` (${memberChangeText(r.member)})`}`

  /** A called-out list: the first items open under a bold title, the rest folded. */
  const callout = <T>(key: keyof typeof sections, title: string, items: ReadonlyArray<T>, render: (item: T) => string) => {
    const s = doc.section(sections[key].name, items.length, sections[key].limit)
    doc.block(s, `**${title} (${items.length})**\n\n`, rowsOf(items, render, 0, OPEN_ITEMS), "\n")
    doc.block(s, details(`${items.length - OPEN_ITEMS} more`), rowsOf(items, render, OPEN_ITEMS), DETAILS_END)
  }
  /** A list folded whole: context a reviewer opens when they want it. */
  const folded = <T>(key: keyof typeof sections, title: string, items: ReadonlyArray<T>, render: (item: T) => string) =>
    doc.block(doc.section(sections[key].name, items.length, sections[key].limit), details(`${title} (${items.length})`), rowsOf(items, render), DETAILS_END)

  // The summary first, each part within its share, so a long table can never push it out.
  callout("removedSpecs", "Removed Specs", report.removedSpecs, (r) => `- ${mdId(r.id)}, was in ${link(r.file, null)}\n`)
  callout("removedPacks", "Removed Packs", removedPacks, (r) => `- ${mdId(r.id)}, was in ${link(r.file, null)}\n`)
  callout("lostBindings", "Lost bindings", lostBindings, (b) => `- ${mdId(b.spec)} lost ${mdId(b.anchor)} (${mdText(b.claim)}) in ${link(b.file, null)}\n`)
  folded("packs", "Impacted Packs", report.impactedPacks, (row) => {
    const p = facts.packs.get(row.id)
    return `- ${mdId(row.id)}${p?.title === undefined ? "" : ` ${mdText(p.title)}`}: ${firstReasons(row.reasons, (r) => reasonText(r, p)).join(", ")}\n`
  })
  folded("atRisk", "At risk, one hop", report.atRisk, (a) => `- ${mdId(a.id)} (${a.nodeType}): ${firstReasons(a.reasons, riskReason).join("; ")}\n`)
  folded("uncovered", "Uncovered files: changed, and no Spec speaks for them", report.coverageUnknown, (f) => `- ${link(f, null)}\n`)

  // Then the long tables: the impacted Specs (the first rows open, the rest folded), then context.
  const specs = report.impactedSpecs
  if (specs.length === 0) doc.add("No Spec is impacted.\n\n")
  const table = doc.section(sections.specs.name, specs.length)
  doc.block(table, `**Impacted Specs (${specs.length})**\n\n${TABLE_HEAD}`, rowsOf(specs, specRow, 0, OPEN_ROWS), "\n")
  doc.block(table, `${details(counted(specs.length - OPEN_ROWS, "more impacted Spec"))}${TABLE_HEAD}`, rowsOf(specs, specRow, OPEN_ROWS), DETAILS_END)
  folded("unlinked", "Unlinked code units", report.unlinked, (u) => `- ${mdId(u.id)} in ${link(u.file, null)}\n`)
  folded("outside", "Changed files outside the root", report.outsideRoot, (f) => `- ${mdText(f, 400)}\n`)
  folded(
    "changed",
    "Changed files",
    report.changedFiles,
    (f) => `- ${f.status}: ${f.oldPath === undefined ? "" : `${mdText(f.oldPath, 400)} → `}${link(f.path, null)}\n`
  )
  const cut = doc.sections.filter((s) => s.omitted > 0)
  return doc.text().trimEnd() + "\n" + (cut.length > 0 ? note(cut) : "")
}

/** The command that prints the whole report, as the cut note names it. */
export const wholeReportCommand = (report: ImpactReport): string => {
  const root = report.root === "." || report.root === "" ? "" : ` --root ${report.root}`
  const changeset = report.changeset === "--staged" ? "--staged" : report.changeset === "--paths-from" ? "--paths-from FILE" : `--changeset ${report.changeset}`
  return `specbundle impact${root} ${changeset} --format json`
}
