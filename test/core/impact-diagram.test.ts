// The impact picture (src/core/render/impact-diagram.ts), pure: every text it writes is read back
// by Mermaid's own parser (the registry package, test/support/mermaid.ts), which must accept it and
// find exactly the nodes and edges meant, each label showing the id and title a reader should see,
// whatever the titles hold; the node cap folds the rest into counts that add up.
import { describe, expect, it } from "vitest"
import type { AtRiskRow, ImpactReport, ImpactRow } from "../../src/core/changes/impact.js"
import type { DiagramTitles } from "../../src/core/render/impact-diagram.js"
import {
  DIAGRAM_LEGEND,
  LABEL_MAX,
  LINE_BREAK,
  MAX_NODES,
  impactDiagram,
  impactDiagramMarkdown,
  labelText,
  mermaidEscape
} from "../../src/core/render/impact-diagram.js"
import { impactMarkdown } from "../../src/core/render/impact-markdown.js"
import type { MermaidGraph } from "../support/mermaid.js"
import { drawnLabels, parseMermaid, readFlowchart } from "../support/mermaid.js"
import { emptyReport } from "../support/impact-report.js"

const titlesOf = (specs: ReadonlyArray<[string, string]>, packs: ReadonlyArray<[string, string]> = []): DiagramTitles => ({
  specs: new Map(specs.map(([id, title]) => [id, { title }])),
  packs: new Map(packs.map(([id, title]) => [id, { title }]))
})

/** What a reader should see of a title or id: one line, cut at LABEL_MAX with an ellipsis. */
const seen = (text: string): string => {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim()
  return line.length <= LABEL_MAX ? line : `${line.slice(0, LABEL_MAX - 1)}…`
}

/** Titles that break a naive label: Mermaid syntax and keywords, HTML, entity codes, directives, Markdown. */
const HOSTILE: ReadonlyArray<string> = [
  'Quotes "double" and \'single\' and a lone "',
  "Brackets [square] (round) {curly} [[sub]] ((circle)) >flag] {{hex}}",
  "Pipes | split |edge label| and -->|x| arrows --> -.-> ==> --- ~~~",
  "<script>alert(1)</script><img src=x onerror=alert(2)><br>break",
  "end",
  "graph TD",
  "click n1 call alert(1)",
  "style n1 fill:#f00;",
  "classDef risk fill:#000; class n1 risk",
  "subgraph x\nend",
  "Semicolons; a #hash, #quot; an entity code, &amp; an HTML one, &#60; a number",
  "%%{init: {'theme':'dark','securityLevel':'loose'}}%% and %% a comment",
  "Icons fa:fa-car and maths $$x^2$$ and `ticks` and ```fences```",
  "Mermaid's placeholders ﬂ°°35¶ß and ﬂ°lt¶ß and ß alone",
  "Line one\nline two\r\nline three\u2028four\u0085five",
  `Cut in a pair ${"x".repeat(LABEL_MAX - 3)}😀 and past`,
  "x".repeat(10_000)
]

const hostileReport = (): { report: ImpactReport; titles: DiagramTitles } => {
  const ids = HOSTILE.map((_, i) => `spec:hostile.t${String(i).padStart(2, "0")}`)
  const impactedSpecs: ImpactRow[] = ids.map((id, i) => ({ id, reasons: [{ file: `specs/h${i % 3}.sdp.md`, via: null }] }))
  // One Spec at risk (a hostile title too) and one Pack, through a hostile-titled member.
  const atRisk: AtRiskRow[] = [
    { id: "pack:hostile", nodeType: "Pack", reasons: [{ from: ids[0], edgeType: "belongsTo", to: "pack:hostile", claim: "declared" }] },
    { id: "spec:hostile.risk", nodeType: "Primitive", reasons: [{ from: "spec:hostile.risk", edgeType: "dependsOn", to: ids[4], claim: "declared" }] }
  ]
  const titles = titlesOf(
    [...ids.map((id, i): [string, string] => [id, HOSTILE[i]]), ["spec:hostile.risk", '"]) --> n1["end']],
    [["pack:hostile", "A Pack | <b>bold</b> end"]]
  )
  return { report: { ...emptyReport(), impactedSpecs, atRisk }, titles }
}

const labelOf = (g: MermaidGraph, lines: ReadonlyArray<string>) => g.nodes.find((n) => n.lines.join("\n") === lines.join("\n"))

describe("impact diagram: hostile titles", () => {
  const { report, titles } = hostileReport()
  const text = impactDiagram(report, titles)!

  it("is a flowchart Mermaid's parser accepts, with exactly the nodes and edges meant", async () => {
    const g = await readFlowchart(text)
    expect(g.diagramType).toBe("flowchart-v2")
    // Three files, the Specs, the at-risk Pack and Spec: nothing a title holds made a node or an edge.
    expect(g.nodes.map((n) => n.id)).toEqual(Array.from({ length: 3 + HOSTILE.length + 2 }, (_, i) => `n${i + 1}`))
    expect(g.edges).toHaveLength(HOSTILE.length + 2)
    expect(g.nodes.filter((n) => n.classes.length > 0).map((n) => [n.lines[0], n.classes])).toEqual([
      ["pack:hostile", ["pack", "risk"]],
      ["spec:hostile.risk", ["risk"]]
    ])
    expect(g.edges.filter((e) => e.stroke === "dotted").length).toBe(2)
  })

  it("shows each label as the reader should see it: the id, then the title, one line each, cut at the same length", async () => {
    const g = await readFlowchart(text)
    HOSTILE.forEach((title, i) => {
      const id = `spec:hostile.t${String(i).padStart(2, "0")}`
      expect(labelOf(g, [id, seen(title)]), `${i}: ${JSON.stringify(title.slice(0, 80))}`).toBeDefined()
    })
    expect(labelOf(g, ["spec:hostile.risk", '"]) --> n1["end'])).toBeDefined()
    expect(labelOf(g, ["pack:hostile", "A Pack | <b>bold</b> end"])).toBeDefined()
    expect(labelOf(g, ["specs/h0.sdp.md"])).toBeDefined()
  })

  it("draws the same label lines as SVG text, where a host turns HTML labels off", async () => {
    const html = await readFlowchart(text)
    const svg = await drawnLabels(text, false)
    expect(html.nodes.map((n) => svg.get(n.id))).toEqual(html.nodes.map((n) => n.lines))
  })

  it("keeps corpus text to quoted labels in rectangles: one node or edge or class line each, no raw quote, bracket, HTML, backtick, % or entity", () => {
    const lines = text.trimEnd().split("\n")
    expect(lines[0]).toBe("flowchart LR")
    for (const line of lines.slice(3)) {
      expect(line).toMatch(
        /^ {2}(n\d+(\["[^"]*"\]|\("[^"]*"\))|n\d+ (-->|-\.->) n\d+|classDef (risk|more|pack) [a-z:#0-9,-]+( \d)*|class (n\d+,)*n\d+ (risk|more|pack))$/
      )
      const label = /^ {2}n\d+\W+"(.*)"\W+$/.exec(line)?.[1]
      if (label === undefined) continue
      // Entity codes are Mermaid's (#NN;); everything else is letters, digits and plain punctuation.
      expect(label.replace(/#\d+;/g, "").replaceAll(LINE_BREAK, "")).toMatch(/^[^"<>`%#;:|[\]{}$&=\\]*$/)
    }
    expect(text.toLowerCase()).not.toContain("<script")
    expect(text).not.toContain("```")
  })

  it("fails the parse when a label is left unescaped (the check has teeth)", async () => {
    // A raw quote ends the label early; an unquoted bracket opens a shape inside a shape.
    await expect(parseMermaid(text.replace(mermaidEscape(seen(HOSTILE[0])), seen(HOSTILE[0])))).rejects.toThrow(/Parse error/)
    await expect(parseMermaid("flowchart LR\n  n1[a [b] c] --> n2\n")).rejects.toThrow(/Parse error/)
    // And the reading check: a `#` left as it is turns "#quot;" into a quote for the reader.
    const raw = text.replace(mermaidEscape(seen(HOSTILE[10])), seen(HOSTILE[10]))
    const g = await readFlowchart(raw)
    expect(labelOf(g, ["spec:hostile.t10", seen(HOSTILE[10])])).toBeUndefined()
  })

  it("writes the same text on every call", () => {
    expect(impactDiagram(report, titles)).toBe(text)
    expect(impactDiagram(structuredClone(report), titles)).toBe(text)
  })
})

describe("impact diagram: labels", () => {
  it("cuts a long path at its start, keeping the file name, and never splits a surrogate pair", () => {
    const path = `specs/${"deep/".repeat(30)}file.sdp.md`
    expect(labelText(path, LABEL_MAX, "start")).toBe(`…${path.slice(path.length - LABEL_MAX + 1)}`)
    expect(labelText(`${"a".repeat(LABEL_MAX - 2)}😀b`)).toBe(`${"a".repeat(LABEL_MAX - 2)}…`)
    expect(labelText(`a😀${"b".repeat(LABEL_MAX)}`, LABEL_MAX, "start")).toBe(`…${"b".repeat(LABEL_MAX - 1)}`)
  })

  it("escapes ASCII punctuation that Mermaid acts on, splits the pairs it reads after decoding with a word joiner, and keeps other text", () => {
    expect(mermaidEscape('a "b" [c] #d; <e> `f` %g {h} |i| k:l & m=n \\ ~')).toBe(
      "a #34;b#34; #91;c#93; #35;d#59; #60;e#62; #96;f#96; #37;g #123;h#125; #124;i#124; k#58;l #38; m#61;n #92; #126;"
    )
    expect(mermaidEscape("Straße ﬂ°°35¶ß $$x$$ fa:fa-car fab:fa-x émoji 😀 (x), y/z - ok?")).toBe(
      "Straße ﬂ\u2060°°35¶\u2060ß #36;\u2060#36;x#36;\u2060#36; fa#58;\u2060fa-car fab#58;\u2060fa-x émoji 😀 (x), y/z - ok?"
    )
  })
})

describe("impact diagram: the node cap", () => {
  // Shaped like a large change: many files and Specs, a few Packs, many Specs at risk.
  const big = (specs: number, files: number, risky: number): { report: ImpactReport; titles: DiagramTitles } => {
    const ids = Array.from({ length: specs }, (_, i) => `spec:big.s${String(i).padStart(4, "0")}`)
    const impactedSpecs = ids.map((id, i) => ({
      id,
      reasons: [
        { file: `specs/big/s${String(i).padStart(4, "0")}.sdp.md`, via: null },
        {
          file: `src/f${String(i % files).padStart(4, "0")}.ts`,
          via: { id: `impl:big.f${i % files}`, edgeType: "satisfies" as const, claim: "anchored" as const }
        }
      ]
    }))
    const impactedPacks = [{ id: "pack:big", reasons: [{ file: "specs/big.pack.sdp.md", via: null }] }]
    const atRisk: AtRiskRow[] = Array.from({ length: risky }, (_, i) => ({
      id: `spec:risk.r${String(i).padStart(3, "0")}`,
      nodeType: "Primitive",
      reasons: [{ from: `spec:risk.r${String(i).padStart(3, "0")}`, edgeType: "dependsOn", to: ids[(i * 7) % specs], claim: "declared" }]
    }))
    const titles = titlesOf(
      ids.map((id) => [id, `A title for ${id}`]),
      [["pack:big", "Big"]]
    )
    return { report: { ...emptyReport(), impactedSpecs, impactedPacks, atRisk }, titles }
  }
  const countOf = (label: string): number => Number(/^\+?(\d+)/.exec(label)?.[1] ?? Number.NaN)

  it(`shows at most ${MAX_NODES} nodes; each cut column ends in one count node, and shown plus counted is the whole column`, async () => {
    const { report, titles } = big(160, 40, 30)
    const text = impactDiagram(report, titles)!
    const g = await readFlowchart(text)
    expect(g.nodes.length).toBe(MAX_NODES)
    const more = g.nodes.filter((n) => n.classes.includes("more")).map((n) => n.lines.join(" "))
    expect(more).toHaveLength(3)
    const [files, specs, right] = more
    expect(files).toMatch(/^\+\d+ more files$/)
    expect(specs).toMatch(/^\+\d+ more Specs$/)
    expect(right).toMatch(/^\+\d+ more: 1 Pack, \d+ at-risk Specs$|^\+\d+ more at-risk Specs$/)
    const shownFiles = g.nodes.filter((n) => /^(specs|src)\//.test(n.lines[0])).length
    const shownSpecs = g.nodes.filter((n) => n.lines[0].startsWith("spec:big.")).length
    const shownRight = g.nodes.filter((n) => n.lines[0].startsWith("spec:risk.") || n.lines[0] === "pack:big").length
    expect(shownFiles + countOf(files)).toBe(160 + 40 + 1)
    expect(shownSpecs + countOf(specs)).toBe(160)
    expect(shownRight + countOf(right)).toBe(31)
    // The Specs shown are the report's first; every edge joins two drawn nodes, and each shown Spec has its files.
    expect(g.nodes.filter((n) => n.lines[0].startsWith("spec:big.")).map((n) => n.lines[0])).toEqual(report.impactedSpecs.slice(0, shownSpecs).map((s) => s.id))
    const ids = new Set(g.nodes.map((n) => n.id))
    for (const e of g.edges) expect(ids.has(e.from) && ids.has(e.to)).toBe(true)
    for (const n of g.nodes.filter((x) => x.lines[0].startsWith("spec:big."))) expect(g.edges.filter((e) => e.to === n.id).length).toBeGreaterThan(0)
  })

  it("shows every node when they fit, and no count node", async () => {
    const { report, titles } = big(10, 5, 4)
    const g = await readFlowchart(impactDiagram(report, titles)!)
    expect(g.nodes).toHaveLength(10 + 10 + 5 + 1 + 1 + 4)
    expect(g.nodes.some((n) => n.classes.includes("more"))).toBe(false)
  })

  it("takes fewer nodes to stay under maxChars, down to one count node per column, and gives nothing under that", async () => {
    const { report, titles } = big(160, 40, 30)
    const whole = impactDiagram(report, titles)!
    for (const maxChars of [whole.length - 1, 2_000, 1_000]) {
      const text = impactDiagram(report, titles, { maxChars })!
      expect(text.length).toBeLessThanOrEqual(maxChars)
      const g = await readFlowchart(text)
      expect(g.nodes.length).toBeLessThan(MAX_NODES)
      expect(g.nodes.length).toBeGreaterThanOrEqual(3)
    }
    // The least picture: each column one count node; a character fewer and there is none.
    const least = impactDiagram(report, titles, { maxNodes: 3 })!
    expect((await readFlowchart(least)).nodes.map((n) => n.lines.join(" "))).toEqual(["201 files", "160 Specs", "1 Pack, 30 at-risk Specs"])
    expect(impactDiagram(report, titles, { maxChars: least.length })).toBe(least)
    expect(impactDiagram(report, titles, { maxChars: least.length - 1 })).toBeNull()
  })

  it("honours a smaller maxNodes", async () => {
    const { report, titles } = big(160, 40, 30)
    const g = await readFlowchart(impactDiagram(report, titles, { maxNodes: 12 })!)
    expect(g.nodes).toHaveLength(12)
  })
})

describe("impact diagram in the Markdown report", () => {
  const { report, titles } = hostileReport()
  const facts = {
    specs: new Map(
      [...HOSTILE.keys()]
        .map((i): [string, string] => [`spec:hostile.t${String(i).padStart(2, "0")}`, HOSTILE[i]])
        .concat([["spec:hostile.risk", '"]) --> n1["end']])
        .map(([id, title]) => [id, { title, stated: "idea" as const, floor: "idea" as const, file: "x", line: 1 }])
    ),
    packs: new Map([["pack:hostile", { title: "A Pack | <b>bold</b> end", file: "p", line: 1 }]]),
    anchors: new Map()
  }

  it("opens the report under the counts line, in a mermaid fence, with its legend", () => {
    const md = impactMarkdown(report, facts)
    const lines = md.split("\n")
    expect(lines[0]).toMatch(/^\*\*specbundle impact\*\* of /)
    expect(lines[2]).toBe("```mermaid")
    const close = lines.indexOf("```")
    expect(lines.slice(3, close).join("\n") + "\n").toBe(impactDiagram(report, titles))
    expect(lines[close + 2]).toBe(DIAGRAM_LEGEND)
  })

  it("is left out with diagram: false, and when nothing is impacted", () => {
    expect(impactMarkdown(report, facts, { diagram: false })).not.toContain("```mermaid")
    expect(impactMarkdown(emptyReport(), { specs: new Map(), packs: new Map(), anchors: new Map() })).not.toContain("```")
    expect(impactDiagram(emptyReport(), titles)).toBeNull()
    expect(impactDiagramMarkdown(emptyReport(), titles)).toBe("")
  })

  it("keeps to its share of a small cap", () => {
    const md = impactMarkdown(report, facts, { maxChars: 5_000 })
    expect(md.length).toBeLessThanOrEqual(5_000)
    const fence = /```mermaid\n[\s\S]*?```\n/.exec(md)
    expect(fence === null || fence[0].length <= 5_000 / 6).toBe(true)
  })
})
