// The Markdown impact report's renderer (src/core/render/impact-markdown.ts), pure: hostile Spec
// titles cannot break the table or inject HTML, long lists fold, and the size cap holds and says
// what it cut. Every assertion reads the text back with marked's lexer (GFM).
import { describe, expect, it } from "vitest"
import type { ImpactReport, ImpactRow } from "../../src/core/changes/impact.js"
import type { ImpactMarkdownFacts, SpecFacts } from "../../src/core/render/impact-markdown.js"
import { DEFAULT_MAX_CHARS, MAX_REASONS, OPEN_ROWS, impactMarkdown } from "../../src/core/render/impact-markdown.js"
import { MAX_TEXT } from "../../src/core/render/markdown-text.js"
import { allTokens, lex, tableRows, tables } from "../support/markdown.js"
import { emptyReport } from "../support/impact-report.js"

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
    changedFiles: Array.from({ length: 400 }, (_, i) => ({ path: `specs/big/s${i}.sdp.md`, status: "modified" as const })),
    impactedSpecs: Array.from({ length: n }, (_, i) => specRow(`spec:big.s${String(i).padStart(5, "0")}`, `specs/big/s${i}.sdp.md`)),
    impactedPacks: Array.from({ length: 3 }, (_, i) => ({ id: `pack:big.p${i}`, reasons: [{ file: `specs/big/p${i}.pack.sdp.md`, via: null }] })),
    atRisk: Array.from({ length: 50 }, (_, i) => ({
      id: `spec:risk.r${i}`,
      nodeType: "Primitive" as const,
      reasons: [{ from: `spec:risk.r${i}`, edgeType: "dependsOn" as const, to: "spec:big.s00000", claim: "declared" as const }]
    })),
    coverageUnknown: Array.from({ length: 20 }, (_, i) => `docs/notes-${i}.md`)
  })
  const titles = (r: ImpactReport): Array<[string, string]> => r.impactedSpecs.map((s) => [s.id, `A long title | with <b>markup</b> ${"y".repeat(150)}`])
  const NOTE =
    /\n_Cut to stay under (\d+) characters; not shown: (.*)\. The whole report: `specbundle impact --changeset origin\/main\.\.\.HEAD --format json` \(or `--format text`\)\._\n$/

  /** The note's "N of M name" entries. */
  const cutsOf = (md: string): Map<string, [number, number]> => {
    const note = NOTE.exec(md)
    expect(note, md.slice(-400)).not.toBeNull()
    return new Map(
      note![2].split(", ").map((entry) => {
        const m = /^(\d+) of (\d+) (.+)$/.exec(entry)!
        return [m[3], [Number(m[1]), Number(m[2])]]
      })
    )
  }

  for (const cap of [DEFAULT_MAX_CHARS, 5_000]) {
    it(`stays under ${cap} characters, closes what it opened and names each section it cut, with its count`, () => {
      const report = big(3_000)
      const md = impactMarkdown(report, factsFor(titles(report)), { maxChars: cap })
      expect(md.length).toBeLessThanOrEqual(cap)
      expect(md.length).toBeLessThan(65_536)
      expect(md.split("<details>").length).toBe(md.split("</details>").length)
      expect(Number(NOTE.exec(md)![1])).toBe(cap)
      const cuts = cutsOf(md)
      const shownRows = tableRows(md).length
      expect(shownRows).toBeGreaterThan(0)
      expect(cuts.get("impacted Specs")).toEqual([3_000 - shownRows, 3_000])
      // Every row the report holds is either shown or counted in the note.
      const shownItems = allTokens(lex(md)).filter((t) => t.type === "list_item").length
      const total =
        report.impactedSpecs.length + report.impactedPacks.length + report.atRisk.length + report.coverageUnknown.length + report.changedFiles.length
      const omitted = [...cuts.values()].reduce((n, [o]) => n + o, 0)
      expect(omitted).toBe(total - shownRows - shownItems)
      // The rows shown are the report's first ones, in order.
      expect(tableRows(md).map((r) => r[0].text)).toEqual(report.impactedSpecs.slice(0, shownRows).map((s) => s.id))
    })
  }

  it("over the cap keeps the counts, the impacted Packs, the at-risk and the uncovered sections ahead of the table", () => {
    const report = big(3_000)
    const md = impactMarkdown(report, factsFor(titles(report)))
    expect(md.split("\n")[0]).toBe(
      "**specbundle impact** of `origin/main...HEAD`: 3000 impacted Specs · 3 impacted Packs · 0 removed · 0 lost bindings · 50 at risk · 20 uncovered files"
    )
    const table = md.indexOf("| Spec |")
    for (const head of [
      "<summary>Impacted Packs (3)</summary>",
      "<summary>At risk, one hop (50)</summary>",
      "<summary>Uncovered files: changed, and no Spec speaks for them (20)</summary>"
    ]) {
      expect(md.indexOf(head), head).toBeGreaterThan(0)
      expect(md.indexOf(head), head).toBeLessThan(table)
    }
    for (const id of ["pack:big.p0", "pack:big.p2", "spec:risk.r0", "spec:risk.r49"]) expect(md).toContain(`\`${id}\``)
    for (const file of ["docs/notes-0.md", "docs/notes-19.md"]) expect(md).toContain(`[${file}](${file})`)
    const cuts = cutsOf(md)
    expect([...cuts.keys()]).toEqual(["impacted Specs", "changed files"])
    expect(cuts.get("changed files")![1]).toBe(400)
  })

  it("a summary section past its share is cut itself, and says so, without starving the table", () => {
    const report: ImpactReport = {
      ...big(40),
      atRisk: Array.from({ length: 5_000 }, (_, i) => ({
        id: `spec:risk.r${String(i).padStart(4, "0")}`,
        nodeType: "Primitive" as const,
        reasons: [{ from: `spec:risk.r${i}`, edgeType: "dependsOn" as const, to: "spec:big.s00000", claim: "declared" as const }]
      }))
    }
    const md = impactMarkdown(report, factsFor(titles(report)))
    expect(md.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS)
    const shownRisk = (md.match(/^- `spec:risk\.r\d+` \(Primitive\)/gm) ?? []).length
    expect(shownRisk).toBeGreaterThan(0)
    expect(shownRisk).toBeLessThan(5_000)
    expect(cutsOf(md).get("at-risk rows")).toEqual([5_000 - shownRisk, 5_000])
    expect(tableRows(md)).toHaveLength(40)
    expect(cutsOf(md).has("impacted Specs")).toBe(false)
  })

  it("names the --staged and --root form of the command", () => {
    const report: ImpactReport = { ...big(3_000), changeset: "--staged", root: "pkg/a" }
    const md = impactMarkdown(report, factsFor(titles(report)))
    expect(md).toContain("The whole report: `specbundle impact --root pkg/a --staged --format json` (or `--format text`)._\n")
  })

  it("adds no note when everything fits", () => {
    const report = big(10)
    expect(impactMarkdown(report, factsFor(titles(report)))).not.toContain("Cut to stay under")
  })
})
