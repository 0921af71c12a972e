// The Markdown impact report's renderer (src/core/render/impact-markdown.ts), pure: hostile Spec
// titles cannot break the table or inject HTML, long lists fold, and the size cap holds and says
// what it cut. Every assertion reads the text back with marked's lexer (GFM).
import { describe, expect, it } from "vitest"
import type { ImpactReport, ImpactRow } from "../../src/core/impact.js"
import type { ImpactMarkdownFacts, SpecFacts } from "../../src/core/render/impact-markdown.js"
import { DEFAULT_MAX_CHARS, MAX_REASONS, OPEN_ROWS, impactMarkdown } from "../../src/core/render/impact-markdown.js"
import { MAX_TEXT } from "../../src/core/render/markdown-text.js"
import { allTokens, lex, tableRows, tables } from "../support/markdown.js"

const emptyReport = (): ImpactReport => ({
  changeset: "origin/main...HEAD",
  root: ".",
  changedFiles: [],
  impactedSpecs: [],
  impactedPacks: [],
  removedSpecs: [],
  removedPacks: [],
  lostBindings: [],
  atRisk: [],
  coverageUnknown: [],
  unlinked: [],
  outsideRoot: []
})

const specRow = (id: string, file: string): ImpactRow => ({ id, reasons: [{ file, via: null }] })

const factsFor = (titles: ReadonlyArray<[string, string]>): ImpactMarkdownFacts => ({
  specs: new Map(titles.map(([id, title], i): [string, SpecFacts] => [id, { title, stated: "defined", floor: "scoped", file: `specs/s${i}.sdp.md`, line: 2 }])),
  packs: new Map(),
  anchors: new Map()
})

const HOSTILE: ReadonlyArray<string> = [
  "Pipes | split | cells",
  "Ticks `code` and ``double`` and a lone `",
  "<script>alert(1)</script><img src=x onerror=alert(2)>",
  "Line one\nline two\r\nline three\u2028four",
  "[a link](https://evil.example) ![img](x) @octocat #12 *em* _u_ ~~gone~~ &amp; \\| \\",
  "x".repeat(10_000)
]

/** What a reader should see of a title: one line, cut at MAX_TEXT with an ellipsis. */
const expectedTitle = (title: string): string => {
  const line = title.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim()
  return line.length <= MAX_TEXT ? line : `${line.slice(0, MAX_TEXT - 1)}…`
}

describe("impact markdown: hostile titles", () => {
  const ids = HOSTILE.map((_, i) => `spec:hostile.t${i}`)
  const report: ImpactReport = { ...emptyReport(), impactedSpecs: ids.map((id, i) => specRow(id, `specs/s${i}.sdp.md`)) }
  const md = impactMarkdown(report, factsFor(ids.map((id, i) => [id, HOSTILE[i]])))

  it("keeps one table with one four-cell row per Spec, in report order", () => {
    const found = tables(md)
    expect(found).toHaveLength(1)
    expect(found[0].header.map((c) => c.text)).toEqual(["Spec", "Title", "Readiness", "Reasons"])
    const rows = tableRows(md)
    expect(rows.map((r) => r.length)).toEqual(ids.map(() => 4))
    expect(rows.map((r) => r[0].text)).toEqual(ids)
  })

  it("shows each title as plain text: no HTML, code span, link, image or emphasis, no raw newline", () => {
    const rows = tableRows(md)
    rows.forEach((row, i) => {
      const title = row[1]
      expect(
        title.types.every((t) => t === "text" || t === "escape"),
        `${i}: ${title.types.join(",")}`
      ).toBe(true)
      expect(title.text).toBe(expectedTitle(HOSTILE[i]))
    })
    const kinds = new Set(allTokens(lex(md)).map((t) => t.type))
    for (const kind of ["image", "em", "del", "codespan"]) expect(kinds.has(kind), kind).toBe(kind === "codespan")
    // Code spans are the ids and the changeset, which have no backtick.
    const spans = allTokens(lex(md))
      .filter((t) => t.type === "codespan")
      .map((t) => (t as { text: string }).text)
    expect(spans).toEqual(["origin/main...HEAD", ...ids])
    const html = allTokens(lex(md))
      .filter((t) => t.type === "html")
      .map((t) => (t as { text: string }).text.trim())
    expect(html.every((h) => h === "<br>" || /^<\/?details>|^<details><summary>/.test(h))).toBe(true)
    expect(md.toLowerCase()).not.toContain("<script")
    expect(md).not.toContain("<img")
    // A mention would notify someone from a bot's comment.
    expect(md).not.toContain("@octocat")
  })

  it("links the reasons to file:line, and nothing else", () => {
    const links = allTokens(lex(md)).filter((t) => t.type === "link") as Array<{ href: string; text: string }>
    expect(links.map((l) => l.text)).toEqual(ids.map((_, i) => `specs/s${i}.sdp.md:2`))
    expect(links.map((l) => l.href)).toEqual(ids.map((_, i) => `specs/s${i}.sdp.md#L2`))
  })

  it("links through --link-base and the root, percent-encoding the path", () => {
    const r: ImpactReport = { ...emptyReport(), root: "pkg/a", impactedSpecs: [specRow("spec:x", "specs/we ird(1).sdp.md")] }
    const facts: ImpactMarkdownFacts = {
      specs: new Map([["spec:x", { title: "X", stated: "ready", floor: "ready", file: "specs/we ird(1).sdp.md", line: 7 }]]),
      packs: new Map(),
      anchors: new Map()
    }
    const text = impactMarkdown(r, facts, { linkBase: "https://github.com/o/r/blob/abc/" })
    const links = allTokens(lex(text)).filter((t) => t.type === "link") as Array<{ href: string }>
    expect(links.map((l) => l.href)).toEqual(["https://github.com/o/r/blob/abc/pkg/a/specs/we%20ird%281%29.sdp.md#L7"])
  })
})

describe("impact markdown: shape", () => {
  it("puts the counts on the first line and says so when nothing is impacted", () => {
    const md = impactMarkdown(emptyReport(), factsFor([]))
    const lines = md.split("\n")
    expect(lines[0]).toBe(
      "**specbundle impact** of `origin/main...HEAD`: 0 impacted Specs · 0 impacted Packs · 0 removed · 0 lost bindings · 0 at risk · 0 uncovered files"
    )
    expect(md).toContain("No Spec is impacted.")
    expect(tables(md)).toHaveLength(0)
  })

  it("calls out removed Specs, removed Packs and lost bindings", () => {
    const report: ImpactReport = {
      ...emptyReport(),
      removedSpecs: [{ id: "spec:gone", file: "specs/gone.sdp.md" }],
      removedPacks: [{ id: "pack:old", file: "packs/old.pack.md" }],
      lostBindings: [{ spec: "spec:kept", anchor: "impl:moved", claim: "anchored", file: "src/a.ts" }]
    }
    const md = impactMarkdown(report, factsFor([]))
    expect(md.split("\n")[0]).toContain("2 removed · 1 lost binding ·")
    const lists = lex(md).filter((t) => t.type === "list") as Array<{ items: Array<{ text: string }> }>
    expect(lists.map((l) => l.items.map((i) => i.text))).toEqual([
      ["`spec:gone`, was in [specs/gone.sdp.md](specs/gone.sdp.md)"],
      ["`pack:old`, was in [packs/old.pack.md](packs/old.pack.md)"],
      ["`spec:kept` lost `impl:moved` (anchored) in [src/a.ts](src/a.ts)"]
    ])
    for (const title of ["Removed Specs (1)", "Removed Packs (1)", "Lost bindings (1)"]) expect(md).toContain(`**${title}**`)
  })

  it("shows the first reasons of a row and counts the rest", () => {
    const reasons = Array.from({ length: MAX_REASONS + 3 }, (_, i) => ({
      file: `src/f${i}.ts`,
      via: { id: `impl:x.f${i}`, edgeType: "satisfies" as const, claim: "anchored" as const }
    }))
    const report: ImpactReport = { ...emptyReport(), impactedSpecs: [{ id: "spec:hub", reasons }] }
    const facts: ImpactMarkdownFacts = {
      ...factsFor([["spec:hub", "Hub"]]),
      anchors: new Map(reasons.map((r, i) => [r.via.id, { file: r.file, line: 10 + i }]))
    }
    const md = impactMarkdown(report, facts)
    const cell = tableRows(md)[0][3]
    expect(cell.text.split("\n")).toEqual([...reasons.slice(0, MAX_REASONS).map((r, i) => `${r.file}:${10 + i} ${r.via.id} satisfies`), "and 3 more"])
  })

  it("folds the table's rows past the first ones into <details>, keeping every row", () => {
    const ids = Array.from({ length: OPEN_ROWS + 7 }, (_, i) => `spec:many.s${String(i).padStart(3, "0")}`)
    const report: ImpactReport = { ...emptyReport(), impactedSpecs: ids.map((id) => specRow(id, "specs/a.sdp.md")) }
    const md = impactMarkdown(report, factsFor(ids.map((id) => [id, "T"])))
    const found = tables(md)
    expect(found.map((t) => t.rows.length)).toEqual([OPEN_ROWS, 7])
    expect(tableRows(md).map((r) => r[0].text)).toEqual(ids)
    expect(md).toContain("<details><summary>7 more impacted Specs</summary>")
    expect(md.split("<details>").length).toBe(md.split("</details>").length)
  })
})

describe("impact markdown: the size cap", () => {
  const big = (n: number): ImpactReport => ({
    ...emptyReport(),
    impactedSpecs: Array.from({ length: n }, (_, i) => specRow(`spec:big.s${String(i).padStart(5, "0")}`, `specs/big/s${i}.sdp.md`)),
    atRisk: Array.from({ length: 50 }, (_, i) => ({
      id: `spec:risk.r${i}`,
      nodeType: "Primitive" as const,
      reasons: [{ from: `spec:risk.r${i}`, edgeType: "dependsOn" as const, to: "spec:big.s00000", claim: "declared" as const }]
    })),
    coverageUnknown: Array.from({ length: 20 }, (_, i) => `docs/notes-${i}.md`)
  })
  const titles = (r: ImpactReport): Array<[string, string]> => r.impactedSpecs.map((s) => [s.id, `A long title | with <b>markup</b> ${"y".repeat(150)}`])

  for (const cap of [DEFAULT_MAX_CHARS, 5_000]) {
    it(`stays under ${cap} characters, closes what it opened and counts what it cut`, () => {
      const report = big(3_000)
      const md = impactMarkdown(report, factsFor(titles(report)), { maxChars: cap })
      expect(md.length).toBeLessThanOrEqual(cap)
      expect(md.length).toBeLessThan(65_536)
      expect(md.split("<details>").length).toBe(md.split("</details>").length)
      const shownRows = tableRows(md).length
      const shownItems = allTokens(lex(md)).filter((t) => t.type === "list_item").length
      const total = report.impactedSpecs.length + report.atRisk.length + report.coverageUnknown.length
      const note = /_Cut to stay under (\d+) characters: (\d+) more rows not shown\. The whole report: `specbundle impact --format json`\._\n$/.exec(md)
      expect(note).not.toBeNull()
      expect(Number(note![1])).toBe(cap)
      expect(Number(note![2])).toBe(total - shownRows - shownItems)
      expect(shownRows).toBeGreaterThan(0)
      // The rows shown are the report's first ones, in order.
      expect(tableRows(md).map((r) => r[0].text)).toEqual(report.impactedSpecs.slice(0, shownRows).map((s) => s.id))
    })
  }

  it("adds no note when everything fits", () => {
    const report = big(10)
    expect(impactMarkdown(report, factsFor(titles(report)))).not.toContain("Cut to stay under")
  })
})
