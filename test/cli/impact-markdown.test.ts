// `specbundle impact --format markdown` run in process on real git repositories (the
// bike-dock example through examples/make-history.mjs, and hand-built ones with hostile titles).
// The text is compared with a committed golden file and read back with marked's lexer: the table's
// rows must be the JSON report's impacted Specs, with the carriers' titles.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { exampleHistory, makeRepo, specCarrier } from "../support/git.js"
import { MAX_TEXT } from "../../src/core/render/markdown-text.js"
import { run } from "../support/run.js"
import { allTokens, lex, tableRows } from "../support/markdown.js"

const GOLDEN = path.join(import.meta.dirname, "..", "fixtures", "impact-markdown", "bike-dock-head-1.md")

const bikeDock = (): string => exampleHistory("specbundle-md-").dir

/** The H1 of a carrier, as the reader takes it. */
const titleOf = (file: string): string => /^# (.*)$/m.exec(fs.readFileSync(file, "utf8"))![1].trim()

const cutTitle = (title: string): string => (title.length <= MAX_TEXT ? title : `${title.slice(0, MAX_TEXT - 1)}…`)

describe("impact --format markdown on the bike-dock example", () => {
  it("matches the golden text, byte for byte, on every run", async () => {
    const dir = bikeDock()
    const a = await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown"])
    expect(a.status, a.stderr).toBe(0)
    expect(a.stdout).toBe(fs.readFileSync(GOLDEN, "utf8"))
    expect((await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown"])).stdout).toBe(a.stdout)
  })

  it("has one table row per impacted Spec of the JSON report: id, the carrier's title, readiness, one link per reason", async () => {
    const dir = bikeDock()
    const report = JSON.parse((await run(dir, ["impact", "--changeset", "HEAD~1"])).stdout)
    const md = (await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown"])).stdout
    const rows = tableRows(md)
    expect(report.impactedSpecs.length).toBeGreaterThan(0)
    expect(rows.map((r) => r[0].text)).toEqual(report.impactedSpecs.map((s: { id: string }) => s.id))
    const bundle = JSON.parse((await run(dir, ["bundle", "--specs", report.impactedSpecs.map((s: { id: string }) => s.id).join(",")])).stdout)
    rows.forEach((row, i) => {
      const member = bundle.members.find((m: { id: string }) => m.id === row[0].text)
      expect(row[1].text).toBe(titleOf(path.join(dir, member.file)))
      const rung = member.floorReached === member.statedReadiness ? member.statedReadiness : `${member.statedReadiness}, floor ${member.floorReached}`
      expect(row[2].text.startsWith(rung)).toBe(true)
      const links = allTokens(row[3].tokens as never).filter((t) => t.type === "link") as Array<{ text: string; href: string }>
      expect(links.map((l) => l.text.split(":")[0])).toEqual(report.impactedSpecs[i].reasons.map((r: { file: string }) => r.file))
      for (const l of links) expect(l.href).toMatch(/^[^#]+#L\d+$/)
    })
    // The count and the picture agree: the anchor at risk is listed, not drawn, and the line says how many are.
    const drawn = (/^ {2}class ([n\d,]+) risk$/m.exec(md)?.[1] ?? "").split(",").filter((n) => n !== "").length
    expect(report.atRisk.filter((r: { nodeType: string }) => r.nodeType === "Anchor")).toHaveLength(1)
    expect(drawn).toBe(report.atRisk.length - 1)
    expect(md.split("\n")[0]).toBe(
      `**specbundle impact** of \`HEAD~1\`: ${report.impactedSpecs.length} impacted Specs · ${report.impactedPacks.length} impacted Packs · ${report.removedSpecs.length} removed · 0 lost bindings · ${report.atRisk.length} at risk (${drawn} drawn) · ${report.coverageUnknown.length} uncovered files`
    )
    // With no picture, nothing is drawn and the count stands alone.
    const plain = (await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown", "--no-diagram"])).stdout
    expect(plain.split("\n")[0]).toContain(` · ${report.atRisk.length} at risk · `)
  })

  it("calls out a Spec removed by the changeset, and links through --link-base", async () => {
    const dir = bikeDock()
    const carrier = "specs/decisions/unlock-by-code.sdp.md"
    fs.rmSync(path.join(dir, carrier))
    const report = JSON.parse((await run(dir, ["impact", "--changeset", "HEAD"])).stdout)
    expect(report.removedSpecs.map((r: { file: string }) => r.file)).toContain(carrier)
    const md = (await run(dir, ["impact", "--changeset", "HEAD", "--format", "markdown", "--link-base", "https://github.com/o/r/blob/0123abc/"])).stdout
    expect(md).toContain(`**Removed Specs (${report.removedSpecs.length})**`)
    const items = (lex(md).filter((t) => t.type === "list") as Array<{ items: Array<{ text: string }> }>)[0].items.map((i) => i.text)
    expect(items).toEqual(
      report.removedSpecs.map((r: { id: string; file: string }) => `\`${r.id}\`, was in [${r.file}](https://github.com/o/r/blob/0123abc/${r.file})`)
    )
  })
})

describe("impact --format markdown: lost bindings", () => {
  it("calls out the bindings a modified code file dropped, as the JSON report names them", async () => {
    const dir = bikeDock()
    const file = path.join(dir, "src/rides/fare.ts")
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(" * @sdpSatisfies spec:rides.ride-fare-rule\n", ""))
    const report = JSON.parse((await run(dir, ["impact", "--changeset", "HEAD"])).stdout)
    expect(report.lostBindings.length).toBeGreaterThan(0)
    const md = (await run(dir, ["impact", "--changeset", "HEAD", "--format", "markdown"])).stdout
    expect(md.split("\n")[0]).toContain(` · ${report.lostBindings.length} lost binding`)
    expect(md).toContain(`**Lost bindings (${report.lostBindings.length})**`)
    const lists = lex(md).filter((t) => t.type === "list") as Array<{ items: Array<{ text: string }> }>
    expect(lists[0].items.map((i) => i.text)).toEqual(
      report.lostBindings.map(
        (b: { spec: string; anchor: string; claim: string; file: string }) => `\`${b.spec}\` lost \`${b.anchor}\` (${b.claim}) in [${b.file}](${b.file})`
      )
    )
  })
})

describe("impact --format markdown with hostile titles", () => {
  const TITLES = [
    "Pipes | and `ticks` <script>alert(1)</script> @octocat",
    "Stars *a* _b_ ~~c~~ [x](https://evil.example) <!-- open comment",
    "t".repeat(10_000)
  ]

  it("keeps one four-cell row per Spec and shows each title as inert text", async () => {
    const repo = makeRepo()
    TITLES.forEach((title, i) => repo.write(`specs/h${i}.sdp.md`, specCarrier(`spec:hostile.h${i}`, title)))
    repo.commit("hostile titles")
    TITLES.forEach((title, i) => repo.write(`specs/h${i}.sdp.md`, specCarrier(`spec:hostile.h${i}`, title) + "\nA narrative line.\n"))
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "markdown"])
    expect(r.status, r.stderr).toBe(0)
    const rows = tableRows(r.stdout)
    expect(rows.map((row) => row.length)).toEqual([4, 4, 4])
    expect(rows.map((row) => row[0].text)).toEqual(TITLES.map((_, i) => `spec:hostile.h${i}`))
    rows.forEach((row, i) => {
      expect(row[1].types.every((t) => t === "text" || t === "escape")).toBe(true)
      expect(row[1].text).toBe(cutTitle(TITLES[i]))
    })
    expect(r.stdout.toLowerCase()).not.toContain("<script")
    expect(r.stdout).not.toContain("<!--")
    expect(r.stdout.length).toBeLessThan(5_000)
  })
})

describe("impact --format markdown on a large changeset", () => {
  it("stays under a GitHub comment's size, keeps the summary sections ahead of the table, and names what it cut and how to get it whole", async () => {
    const repo = makeRepo()
    const n = 600
    const ids = Array.from({ length: n }, (_, i) => `spec:big.s${String(i).padStart(4, "0")}`)
    const write = (suffix: string) =>
      ids.forEach((id, i) => repo.write(`specs/s${i}.sdp.md`, specCarrier(id, `A title long enough | <b>${"w".repeat(120)}</b> ${i}`) + suffix))
    write("")
    // Outside the change: a Spec that rests on a changed one (at risk), and a Pack whose manifest changes.
    repo.write("specs/user.sdp.md", specCarrier("spec:other.user", "User", "relations:\n  dependsOn:\n    - spec:big.s0000"))
    repo.write("specs/big.pack.sdp.md", "---\nid: pack:big\nspecs:\n  - spec:other.user\n---\n# Big\n\nThe big Pack.\n")
    repo.commit("many specs")
    write("\nChanged.\n")
    repo.write("specs/big.pack.sdp.md", "---\nid: pack:big\nspecs:\n  - spec:other.user\n---\n# Big\n\nThe big Pack, reframed.\n")
    repo.write("NOTES.md", "Uncovered.\n")
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "markdown"])
    expect(r.status, r.stderr).toBe(0)
    const md = r.stdout
    expect(md.length).toBeLessThanOrEqual(60_000)
    expect(md.split("\n")[0]).toBe(
      `**specbundle impact** of \`HEAD\`: ${n} impacted Specs · 1 impacted Pack · 0 removed · 0 lost bindings · 1 at risk · 1 uncovered file`
    )
    // The summary sections survive, ahead of the table.
    const table = md.indexOf("| Spec |")
    for (const kept of ["- `pack:big` Big:", "- `spec:other.user` (Primitive): `spec:other.user` dependsOn `spec:big.s0000`", "- [NOTES.md](NOTES.md)"]) {
      expect(md.indexOf(kept), kept).toBeGreaterThan(0)
      expect(md.indexOf(kept), kept).toBeLessThan(table)
    }
    const rows = tableRows(md)
    expect(rows.length).toBeGreaterThan(25)
    expect(rows.length).toBeLessThan(n)
    expect(rows.map((row) => row[0].text)).toEqual(ids.slice(0, rows.length))
    const note =
      /\n_Cut to stay under 60000 characters; not shown: (\d+) of 600 impacted Specs, (\d+) of 602 changed files\. The whole report: `specbundle impact --changeset HEAD --format json` \(or `--format text`\)\._\n$/.exec(
        md
      )
    expect(note, md.slice(-300)).not.toBeNull()
    expect(Number(note![1])).toBe(n - rows.length)
    // Every changed file is either listed or counted as cut (the other items are the three summary rows).
    const items = allTokens(lex(md)).filter((t) => t.type === "list_item").length
    expect(Number(note![2]) + items - 3).toBe(n + 2)
    expect(md.split("<details>").length).toBe(md.split("</details>").length)
    // The command the note names prints the whole report.
    const whole = JSON.parse((await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "json"])).stdout)
    expect(whole.impactedSpecs).toHaveLength(n)
  })

  it("refuses --link-base without --format markdown (exit 2, { diagnostics })", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    repo.commit("one")
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--link-base", "https://x.example/"])
    expect(r.status).toBe(2)
    expect(JSON.parse(r.stdout).diagnostics[0].scope).toBe("link-base")
  })
})

describe("impact --link-base: the URL as people paste it", () => {
  it("adds the / a pasted .../blob/SHA lacks: the same links as with it", async () => {
    const dir = bikeDock()
    const args = ["impact", "--changeset", "HEAD~1", "--format", "markdown", "--link-base"]
    const bare = await run(dir, [...args, "https://github.com/o/r/blob/a32ce65"])
    const slash = await run(dir, [...args, "https://github.com/o/r/blob/a32ce65/"])
    expect(bare.status, bare.stderr).toBe(0)
    expect(bare.stdout).toBe(slash.stdout)
    expect(bare.stdout).toContain("](https://github.com/o/r/blob/a32ce65/src/rides/fare.ts#L")
    expect(bare.stdout).not.toContain("a32ce65src")
  })

  it("refuses a link base that is no http(s) URL: exit 2, one line naming the flag, nothing rendered", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    repo.commit("one")
    for (const base of ["notaurl", "src/", "ftp://host/x/", "https://host/blob/sha?plain=1"]) {
      const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--format", "markdown", "--link-base", base])
      expect(r.status, base).toBe(2)
      expect(r.stderr.trim().split("\n")).toHaveLength(1)
      expect(r.stderr).toMatch(/^specbundle: link-base: --link-base /)
      expect(JSON.parse(r.stdout).diagnostics).toEqual([{ scope: "link-base", problem: expect.stringContaining(JSON.stringify(base)) }])
    }
  })
})

describe("impact --findings github", () => {
  it("writes the corpus findings as workflow commands on stderr, the report alone on stdout", async () => {
    const repo = makeRepo()
    repo.write("specs/ok.sdp.md", specCarrier("spec:ok.one", "Fine"))
    repo.commit("one")
    repo.write("specs/bad.sdp.md", specCarrier("spec:ok.two", "Broken").replace("kind: behavior", "kind: glossary"))
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD", "--findings", "github"])
    expect(r.status).toBe(0)
    JSON.parse(r.stdout)
    const lines = r.stderr.trimEnd().split("\n")
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).toMatch(/^::(error|warning) file=specs\/bad\.sdp\.md,line=\d+,title=specbundle [^:,]+::/)
  })
})
