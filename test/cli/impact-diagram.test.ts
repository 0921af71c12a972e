// The impact picture of `specbundle impact --format markdown`, run in process on real git
// repositories (the bike-dock example, a reference-shaped change of 160 Specs from
// scripts/gen-corpus.mjs, and a corpus of hostile titles). The ```mermaid block it writes is read
// by Mermaid's own parser (test/support/mermaid.ts); what it drew is checked against the JSON report.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import type { ImpactReport } from "../../src/core/changes/impact.js"
import { DIAGRAM_LEGEND, LABEL_MAX, MAX_NODES } from "../../src/core/render/impact-diagram.js"
import { REPO } from "../support/cli.js"
import { run } from "../support/run.js"
import { exampleHistory, makeRepo, repoAt, runGitIn, specCarrier, tempDir } from "../support/git.js"
import type { MermaidGraph } from "../support/mermaid.js"
import { readFlowchart } from "../support/mermaid.js"

const FENCE = /^```mermaid\n([\s\S]*?)```\n\n/m

/** The Mermaid text of a Markdown report; fails the test when there is none. */
const diagramOf = (md: string): string => {
  const m = FENCE.exec(md)
  expect(m, md.slice(0, 400)).not.toBeNull()
  return m![1]
}

/** A title or id as a label shows it: one line, cut at LABEL_MAX. */
const seen = (text: string): string => {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim()
  return line.length <= LABEL_MAX ? line : `${line.slice(0, LABEL_MAX - 1)}…`
}

/** The titles the reader gave each Spec and Pack (`list --format json`). */
const titlesIn = async (dir: string): Promise<Map<string, string>> => {
  const specs = JSON.parse((await run(dir, ["list", "specs", "--format", "json"])).stdout).specs as Array<{ id: string; title: string }>
  const packs = JSON.parse((await run(dir, ["list", "packs", "--format", "json"])).stdout).packs as Array<{ id: string; title: string }>
  return new Map([...specs, ...packs].map((s) => [s.id, s.title]))
}

/** What the picture should hold for a report, uncapped: the files its reasons name, the Specs, the Packs and the at-risk Specs and Packs next to them. */
const expected = (report: ImpactReport) => {
  const rows = [...report.impactedSpecs, ...report.impactedPacks]
  const impacted = new Set(rows.map((r) => r.id))
  const risky = report.atRisk.filter(
    (a) => (a.nodeType === "Primitive" || a.nodeType === "Pack") && a.reasons.some((r) => impacted.has(r.from === a.id ? r.to : r.from))
  )
  return {
    files: [...new Set(rows.flatMap((r) => r.reasons.map((x) => x.file)))].sort(),
    specs: report.impactedSpecs.map((s) => s.id),
    right: [...report.impactedPacks.map((p) => p.id), ...risky.map((r) => r.id)],
    risky: risky.map((r) => r.id)
  }
}

const node = (g: MermaidGraph, first: string) => g.nodes.find((n) => n.lines[0] === first)

const bikeDock = (): string => exampleHistory("specbundle-diagram-").dir

describe("impact --format markdown: the picture of the bike-dock change", () => {
  let dir = ""
  beforeAll(() => {
    dir = bikeDock()
  })

  it("opens the report under the counts line: a flowchart Mermaid's parser accepts, of every changed file, impacted Spec and at-risk Spec and Pack", async () => {
    const r = await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.split("\n").slice(1, 3)).toEqual(["", "```mermaid"])
    const report = JSON.parse((await run(dir, ["impact", "--changeset", "HEAD~1"])).stdout) as ImpactReport
    const want = expected(report)
    const g = await readFlowchart(diagramOf(r.stdout))
    expect(g.diagramType).toBe("flowchart-v2")
    const titles = await titlesIn(dir)
    // Files, then Specs (id and title), then the Packs and at-risk nodes: all of them, under the cap.
    expect(g.nodes.map((n) => n.lines)).toEqual([...want.files.map((f) => [f]), ...[...want.specs, ...want.right].map((id) => [id, seen(titles.get(id)!)])])
    expect(want.risky).toEqual(["pack:rides-v1", "spec:rides.ride-lifecycle"])
    for (const id of want.risky) expect(node(g, id)!.classes).toContain("risk")
    // One edge per file and Spec a reason joins, one dashed edge per impacted Spec an at-risk node rests on.
    const edges = g.edges.map((e) => `${g.nodes.find((n) => n.id === e.from)!.lines[0]} ${e.stroke} ${g.nodes.find((n) => n.id === e.to)!.lines[0]}`)
    expect(edges).toEqual([
      "specs/rides/ride-fare-rule.sdp.md normal spec:rides.ride-fare-rule",
      "src/rides/fare.ts normal spec:decisions.per-minute-fares",
      "src/rides/fare.ts normal spec:rides.ride-fare-rule",
      "spec:decisions.per-minute-fares dotted pack:rides-v1",
      "spec:decisions.per-minute-fares dotted spec:rides.ride-lifecycle",
      "spec:rides.ride-fare-rule dotted pack:rides-v1",
      "spec:rides.ride-fare-rule dotted spec:rides.ride-lifecycle"
    ])
    expect(r.stdout).toContain(`\`\`\`\n\n${DIAGRAM_LEGEND}\n\n`)
  })

  it("--no-diagram leaves out the picture and its legend, and the count of what it drew, nothing else", async () => {
    const whole = (await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown"])).stdout
    const r = await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown", "--no-diagram"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).not.toContain("```")
    expect(whole.split("\n")[0]).toMatch(/ at risk \(\d+ drawn\) /)
    expect(r.stdout).toBe(whole.replace(`${FENCE.exec(whole)![0]}${DIAGRAM_LEGEND}\n\n`, "").replace(/ at risk \(\d+ drawn\) /, " at risk "))
  })

  it("refuses --no-diagram without --format markdown (exit 2, { diagnostics })", async () => {
    for (const format of ["json", "text"]) {
      const r = await run(dir, ["impact", "--changeset", "HEAD~1", "--format", format, "--no-diagram"])
      expect(r.status).toBe(2)
      expect(JSON.parse(r.stdout).diagnostics).toEqual([{ scope: "no-diagram", problem: "--no-diagram goes with --format markdown." }])
    }
  })
})

describe("impact --format markdown: the picture of a reference-shaped change of 160 Specs", () => {
  it(`keeps to ${MAX_NODES} nodes that Mermaid's parser accepts, and what it folds adds up to the JSON report`, async () => {
    const dir = path.join(tempDir("specbundle-diagram-"), "reference")
    execFileSync(process.execPath, [path.join(REPO, "scripts", "gen-corpus.mjs"), dir, "--specs", "160", "--packs", "1", "--shape", "reference"])
    runGitIn(dir, ["init", "-q", "-b", "main"])
    const repo = repoAt(dir)
    repo.commit("the corpus")
    // Every Markdown carrier retitled, every anchored code file touched.
    const walk = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))
    for (const file of walk(path.join(repo.dir, "specs")).filter((f) => f.endsWith(".sdp.md"))) {
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^(# .*)$/m, "$1 (revised)"))
    }
    for (const file of walk(path.join(repo.dir, "src")).filter((f) => /@sdp\w+/.test(fs.readFileSync(f, "utf8")))) fs.appendFileSync(file, "// touched\n")
    const [md, json] = await Promise.all([
      await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "markdown"]),
      await run(repo.dir, ["impact", "--changeset", "HEAD"])
    ])
    expect(md.status, md.stderr).toBe(0)
    const report = JSON.parse(json.stdout) as ImpactReport
    expect(report.impactedSpecs.length).toBeGreaterThanOrEqual(150)
    const want = expected(report)
    const g = await readFlowchart(diagramOf(md.stdout))
    expect(g.nodes).toHaveLength(MAX_NODES)
    // Each column: the nodes shown, then one count node; shown and counted make the whole column.
    const counted = (label: string) => Number(/^\+(\d+) more/.exec(label)![1])
    const files = g.nodes.filter((n) => want.files.includes(n.lines[0]))
    const specs = g.nodes.filter((n) => want.specs.includes(n.lines[0]))
    const right = g.nodes.filter((n) => want.right.includes(n.lines[0]))
    const more = g.nodes.filter((n) => n.classes.includes("more")).map((n) => n.lines.join(" "))
    expect(more).toHaveLength(2)
    expect(files.length + counted(more[0])).toBe(want.files.length)
    expect(more[0]).toMatch(/ more files$/)
    expect(specs.length + counted(more[1])).toBe(want.specs.length)
    expect(more[1]).toMatch(/ more Specs$/)
    expect(right.map((n) => n.lines[0])).toEqual(want.right)
    expect(files.length + specs.length + right.length + more.length).toBe(MAX_NODES)
    // The Specs shown are the report's first, with their new titles.
    const titles = await titlesIn(repo.dir)
    expect(specs.map((n) => n.lines)).toEqual(want.specs.slice(0, specs.length).map((id) => [id, seen(titles.get(id)!)]))
  }, 180_000)
})

describe("impact --format markdown: the picture of hostile titles", () => {
  const TITLES = [
    'Quotes "double" and a lone "',
    "Brackets [a] (b) {c} [[d]] ((e)) {{f}} >g]",
    "Pipes | and -->|label| arrows --> -.-> ==>",
    "<script>alert(1)</script> <img src=x onerror=alert(2)> <br> <b>bold</b>",
    "end",
    "graph TD",
    "click n1 href javascript:alert(1)",
    "style n1 fill:#f00; classDef x fill:#0f0; class n1 x",
    "subgraph one end",
    "Entities #quot; #35; &amp; &#60; and a # and a ;",
    "%%{init: {'securityLevel':'loose'}}%% %% comment",
    "Icons fa:fa-car, maths $$x^2$$, ticks `code` ```fence```",
    "Placeholders ﬂ°°35¶ß and ß and ° ¶"
  ]

  it("parses, with one node per Spec and Pack, each showing its id and title as the reader has them", async () => {
    const repo = makeRepo()
    const ids = TITLES.map((_, i) => `spec:hostile.h${String(i).padStart(2, "0")}`)
    const write = (suffix: string) => {
      TITLES.forEach((title, i) => repo.write(`specs/h${i}.sdp.md`, specCarrier(ids[i], title) + suffix))
      repo.write(
        "specs/hostile.pack.sdp.md",
        `---\nid: pack:hostile\nspecs:\n  - ${ids[0]}\n---\n# A Pack "called" [end] | <script>\n\nThe hostile Pack.${suffix}\n`
      )
    }
    write("")
    repo.commit("hostile titles")
    write("\nA narrative line.\n")
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "markdown"])
    expect(r.status, r.stderr).toBe(0)
    const report = JSON.parse((await run(repo.dir, ["impact", "--changeset", "HEAD"])).stdout) as ImpactReport
    const want = expected(report)
    expect(want.specs).toEqual(ids)
    expect(want.right).toEqual(["pack:hostile"])
    const titles = await titlesIn(repo.dir)
    // The reader keeps the titles as written (so the labels below are the carriers' own text).
    expect(ids.map((id) => titles.get(id))).toEqual(TITLES)
    const g = await readFlowchart(diagramOf(r.stdout))
    expect(g.nodes.map((n) => n.lines)).toEqual([...want.files.map((f) => [f]), ...[...want.specs, ...want.right].map((id) => [id, seen(titles.get(id)!)])])
    expect(g.nodes.map((n) => n.id)).toEqual(g.nodes.map((_, i) => `n${i + 1}`))
    expect(g.edges).toHaveLength(want.files.length)
    const text = diagramOf(r.stdout)
    expect(text.toLowerCase()).not.toContain("<script")
    expect(text).not.toContain("%%")
  })
})
