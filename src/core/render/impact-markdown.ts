// The impact report as GitHub-flavoured Markdown for a pull-request comment or a job summary
// (`specbundle impact --format markdown`): a one-line count summary, a table of the impacted Specs
// (title, readiness, reasons linking file:line), removed Specs and Packs and lost bindings called
// out, the longer lists folded in <details>. Corpus text is escaped (markdown-text.ts); the whole
// text stays under a character cap that a GitHub comment holds, and says what it cut. Pure.
import type { ImpactReason, ImpactReport } from "../impact.js"
import type { Rung } from "../model.js"
import { RUNGS } from "../model.js"
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
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** Room kept for the closing tags and the note that says what was cut. */
const RESERVE = 400

/** Rows rendered on demand: `at(i)` for i in [0, count). */
interface Rows {
  readonly count: number
  at(i: number): string
}

const rowsOf = <T>(items: ReadonlyArray<T>, render: (item: T) => string, from = 0, to = items.length): Rows => ({
  count: Math.max(0, Math.min(to, items.length) - from),
  at: (i) => render(items[from + i])
})

/** Appends blocks while they fit; counts the rows it had to leave out. */
class CappedText {
  private readonly parts: string[] = []
  private length = 0
  omitted = 0
  constructor(private readonly cap: number) {}
  get full(): boolean {
    return this.omitted > 0
  }
  private fits(text: string, tail: number): boolean {
    return this.length + text.length + tail <= this.cap - RESERVE
  }
  add(text: string): boolean {
    if (this.full || !this.fits(text, 0)) return false
    this.parts.push(text)
    this.length += text.length
    return true
  }
  /**
   * A block of rows between `head` and `tail`, each row rendered only when it is reached (a report
   * may list tens of thousands); leaves the block out whole when not even one row fits.
   */
  block(head: string, rows: Rows, tail: string): void {
    if (rows.count === 0) return
    if (this.full || !this.fits(head + rows.at(0), tail.length)) {
      this.omitted += rows.count
      return
    }
    this.add(head)
    for (let i = 0; i < rows.count; i++) {
      const row = rows.at(i)
      if (!this.fits(row, tail.length)) {
        this.omitted += rows.count - i
        break
      }
      this.parts.push(row)
      this.length += row.length
    }
    this.parts.push(tail)
    this.length += tail.length
  }
  text(): string {
    return this.parts.join("")
  }
}

const TABLE_HEAD = "| Spec | Title | Readiness | Reasons |\n| --- | --- | --- | --- |\n"

const details = (summary: string): string => `<details><summary>${summary}</summary>\n\n`
const DETAILS_END = "\n</details>\n\n"

export const impactMarkdown = (report: ImpactReport, facts: ImpactMarkdownFacts, options: ImpactMarkdownOptions = {}): string => {
  const base = options.linkBase ?? ""
  const cap = options.maxChars ?? DEFAULT_MAX_CHARS
  const prefix = report.root === "." || report.root === "" ? "" : `${report.root.replace(/\/+$/, "")}/`
  const link = (file: string, line: number | null): string =>
    `[${mdText(line === null ? file : `${file}:${line}`, 400)}](${base}${urlPath(prefix + file)}${line === null ? "" : `#L${line}`})`

  const { removedPacks, lostBindings } = report
  const doc = new CappedText(cap)
  const summary = [
    plural(report.impactedSpecs.length, "impacted Spec"),
    plural(report.impactedPacks.length, "impacted Pack"),
    `${report.removedSpecs.length + removedPacks.length} removed`,
    plural(lostBindings.length, "lost binding"),
    `${report.atRisk.length} at risk`,
    plural(report.coverageUnknown.length, "uncovered file")
  ].join(" · ")
  doc.add(`**specbundle impact** of ${mdCode(report.changeset)}: ${summary}\n\n`)

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
  const specs = report.impactedSpecs
  if (specs.length === 0) doc.add("No Spec is impacted.\n\n")
  doc.block(TABLE_HEAD, rowsOf(specs, specRow, 0, OPEN_ROWS), "\n")
  doc.block(`${details(`${specs.length - OPEN_ROWS} more impacted Specs`)}${TABLE_HEAD}`, rowsOf(specs, specRow, OPEN_ROWS), DETAILS_END)

  /** A called-out list: the first items open under a bold title, the rest folded. */
  const callout = <T>(title: string, items: ReadonlyArray<T>, render: (item: T) => string) => {
    doc.block(`**${title} (${items.length})**\n\n`, rowsOf(items, render, 0, OPEN_ITEMS), "\n")
    doc.block(details(`${items.length - OPEN_ITEMS} more`), rowsOf(items, render, OPEN_ITEMS), DETAILS_END)
  }
  /** A list folded whole: context a reviewer opens when they want it. */
  const folded = <T>(title: string, items: ReadonlyArray<T>, render: (item: T) => string) =>
    doc.block(details(`${title} (${items.length})`), rowsOf(items, render), DETAILS_END)

  callout("Removed Specs", report.removedSpecs, (r) => `- ${mdId(r.id)}, was in ${link(r.file, null)}\n`)
  callout("Removed Packs", removedPacks, (r) => `- ${mdId(r.id)}, was in ${link(r.file, null)}\n`)
  callout("Lost bindings", lostBindings, (b) => `- ${mdId(b.spec)} lost ${mdId(b.anchor)} (${mdText(b.claim)}) in ${link(b.file, null)}\n`)
  folded("Impacted Packs", report.impactedPacks, (row) => {
    const p = facts.packs.get(row.id)
    return `- ${mdId(row.id)}${p?.title === undefined ? "" : ` ${mdText(p.title)}`}: ${firstReasons(row.reasons, (r) => reasonText(r, p)).join(", ")}\n`
  })
  folded(
    "At risk, one hop",
    report.atRisk,
    (a) => `- ${mdId(a.id)} (${a.nodeType}): ${firstReasons(a.reasons, (r) => `${mdId(r.from)} ${r.edgeType} ${mdId(r.to)}`).join("; ")}\n`
  )
  folded("Uncovered files: changed, and no Spec speaks for them", report.coverageUnknown, (f) => `- ${link(f, null)}\n`)
  folded("Unlinked code units", report.unlinked, (u) => `- ${mdId(u.id)} in ${link(u.file, null)}\n`)
  folded("Changed files outside the root", report.outsideRoot, (f) => `- ${mdText(f, 400)}\n`)
  folded("Changed files", report.changedFiles, (f) => `- ${f.status}: ${f.oldPath === undefined ? "" : `${mdText(f.oldPath, 400)} → `}${link(f.path, null)}\n`)
  let text = doc.text().trimEnd() + "\n"
  if (doc.omitted > 0) {
    text += `\n_Cut to stay under ${cap} characters: ${plural(doc.omitted, "more row")} not shown. The whole report: \`specbundle impact --format json\`._\n`
  }
  return text
}
