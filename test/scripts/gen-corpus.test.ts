// The corpus generator (scripts/gen-corpus.mjs): deterministic bytes, the requested counts, and a
// corpus the reader takes in whole (no finding), in both shapes.
import { execFileSync, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { PARSER } from "../support/oxc.js"
import { listFiles } from "../support/tmp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { extractFile } from "../../src/core/read/extract.js"
import { buildGraph } from "../../src/core/graph/graph.js"
import type { CarrierRead, Graph } from "../../src/core/model.js"

const SCRIPT = path.resolve(__dirname, "../../scripts/gen-corpus.mjs")
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "gen-corpus-test-"))
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }))

const generate = (name: string, ...args: string[]): { dir: string; summary: string } => {
  const dir = path.join(temp, name)
  const summary = execFileSync(process.execPath, [SCRIPT, dir, ...args], { encoding: "utf8" })
  return { dir, summary }
}

const digest = (dir: string): string => {
  const h = createHash("sha256")
  for (const f of listFiles(dir))
    h.update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(dir, f)))
      .update("\0")
  return h.digest("hex")
}

const read = (dir: string): Graph => {
  const reads: CarrierRead[] = []
  for (const f of listFiles(dir)) {
    const r = extractFile({ path: f, bytes: fs.readFileSync(path.join(dir, f)) }, { selfHosting: false, parser: PARSER })
    if (r !== null) reads.push(r)
  }
  return buildGraph(reads)
}

const isAnchored = (text: string) => text.includes("@sdpAnchor") || text.includes("codeAnchor({") || text.includes("specTest({")

describe("gen-corpus scale shape", () => {
  const args = ["--specs", "240", "--packs", "4", "--ts-files", "100"]
  let a: { dir: string; summary: string }
  let b: { dir: string; summary: string }
  let files: string[]
  beforeAll(() => {
    a = generate("scale-a", ...args, "--seed", "7")
    b = generate("scale-b", ...args, "--seed", "7")
    files = listFiles(a.dir)
  })

  it("writes the same bytes on two runs with the same arguments", () => {
    expect(listFiles(b.dir)).toEqual(files)
    expect(digest(b.dir)).toBe(digest(a.dir))
  })

  it("writes different bytes for another seed", () => {
    const c = generate("scale-c", ...args, "--seed", "8")
    expect(digest(c.dir)).not.toBe(digest(a.dir))
  })

  it("writes the requested numbers of Spec carriers, Packs and TypeScript files", () => {
    const packs = files.filter((f) => f.endsWith(".pack.sdp.md"))
    expect(packs).toEqual([0, 1, 2, 3].map((p) => `specs/packs/pack-00${p}.pack.sdp.md`))
    expect(files.filter((f) => f.endsWith(".sdp.md") && !f.endsWith(".pack.sdp.md"))).toHaveLength(240)
    const ts = files.filter((f) => f.endsWith(".ts"))
    expect(ts).toHaveLength(100)
    expect(ts.every((f) => /^src\/mod-\d{3}\/file-\d{3}\.ts$/.test(f))).toBe(true)
    const anchored = ts.filter((f) => isAnchored(fs.readFileSync(path.join(a.dir, f), "utf8")))
    expect(anchored).toHaveLength(20)
    expect(a.summary).toMatch(/^gen-corpus: 240 specs .*4 packs, 100 TypeScript files \(20 anchored/)
  })

  it("reads with no finding: 240 Specs, 4 Packs of 60 members, every anchor and relation kind", () => {
    const graph = read(a.dir)
    expect(graph.findings).toEqual([])
    expect(graph.specs.size).toBe(240)
    expect([...graph.packs.values()].map((p) => p.members.length)).toEqual([60, 60, 60, 60])
    const kinds = new Set([...graph.specs.values()].map((s) => s.kind))
    expect([...kinds].sort()).toEqual(["behavior", "contract", "decision", "example", "model", "rule", "workflow", "constraint"].sort())
    const types = new Set<string>(graph.edges.map((e) => e.type))
    for (const t of ["refines", "dependsOn", "constrainedBy", "decidedBy", "verifies", "supersedes", "belongsTo", "satisfies"]) {
      expect(types.has(t), t).toBe(true)
    }
    const forms = new Set([...graph.anchors.values()].map((x) => `${x.form}/${x.flavor}`))
    expect([...forms].sort()).toEqual(["comment/code", "comment/test", "constant/code", "constant/test"])
    // Every relation target is a generated Spec: nothing dangles.
    const declared = graph.edges.filter((e) => e.claim === "declared" && e.type !== "belongsTo")
    expect(declared.every((e) => graph.specs.has(e.to))).toBe(true)
  })

  it("writes keyed and unkeyed open questions, keyed rules and pinned declarations", () => {
    const specs = [...read(a.dir).specs.values()]
    const questions = specs.flatMap((s) => s.sections.intent?.openQuestions ?? [])
    expect(questions.some((q) => q.blocking && q.key !== undefined)).toBe(true)
    expect(questions.some((q) => !q.blocking && q.key !== undefined)).toBe(true)
    expect(questions.some((q) => q.key === undefined)).toBe(true)
    expect(specs.some((s) => (s.sections.behavior?.rules ?? []).some((r) => typeof r !== "string"))).toBe(true)
    expect(specs.some((s) => Object.values(s.sections.design ?? {}).some((v) => v.startsWith("`")))).toBe(true)
    expect(specs.some((s) => s.sections.behavior?.exampleSpace !== undefined)).toBe(true)
  })
})

describe("gen-corpus reference shape", () => {
  let r: { dir: string; summary: string }
  let files: string[]
  beforeAll(() => {
    r = generate("reference", "--specs", "160", "--packs", "1", "--shape", "reference")
    files = listFiles(r.dir)
  })

  it("writes 158 Markdown carriers, one Gherkin file, one Pack with all 160 Specs", () => {
    expect(files.filter((f) => f.endsWith(".sdp.md"))).toHaveLength(158)
    expect(files.filter((f) => f.endsWith(".sdp.gherkin"))).toHaveLength(1)
    const graph = read(r.dir)
    expect(graph.findings).toEqual([])
    expect(graph.specs.size).toBe(160)
    expect([...graph.packs.values()].map((p) => p.members.length)).toEqual([160])
    const gherkin = [...graph.specs.values()].filter((s) => s.file.endsWith(".sdp.gherkin"))
    expect(gherkin.map((s) => s.kind).sort()).toEqual(["behavior", "example", "example"])
  })

  it("writes about 225 TypeScript files of about 2 MB, 60 anchored ones of about 15 KB", () => {
    const ts = files.filter((f) => f.endsWith(".ts"))
    expect(ts).toHaveLength(225)
    const sizes = ts.map((f) => ({ size: fs.statSync(path.join(r.dir, f)).size, anchored: isAnchored(fs.readFileSync(path.join(r.dir, f), "utf8")) }))
    const total = sizes.reduce((n, s) => n + s.size, 0)
    expect(total).toBeGreaterThan(1.7e6)
    expect(total).toBeLessThan(2.5e6)
    const anchored = sizes.filter((s) => s.anchored)
    expect(anchored).toHaveLength(60)
    const mean = anchored.reduce((n, s) => n + s.size, 0) / anchored.length
    expect(mean).toBeGreaterThan(12e3)
    expect(mean).toBeLessThan(18e3)
  })
})

describe("gen-corpus chain shape", () => {
  let c: { dir: string; summary: string }
  let graph: Graph
  beforeAll(() => {
    c = generate("chain", "--shape", "chain", "--specs", "120", "--packs", "4", "--ts-files", "200", "--anchor-every", "5")
    graph = read(c.dir)
  })

  it("writes one folder a Pack, its manifest inside, and reads with no finding", () => {
    const files = listFiles(c.dir)
    expect(files.filter((f) => f.endsWith(".pack.sdp.md"))).toEqual([0, 1, 2, 3].map((p) => `specs/chain-00${p}/chain-00${p}.pack.sdp.md`))
    expect(graph.findings).toEqual([])
    expect(graph.specs.size).toBe(120)
    expect([...graph.packs.values()].map((p) => p.members.length)).toEqual([30, 30, 30, 30])
    const folders = new Set([...graph.specs.values()].map((s) => s.file.split("/")[1]))
    expect([...folders]).toEqual(["chain-000", "chain-001", "chain-002", "chain-003"])
    expect(c.summary).toMatch(/^gen-corpus: 120 specs .*4 packs, 200 TypeScript files \(40 anchored/)
  })

  it("chains every Pack's Specs by dependsOn and has each refine the next Pack's first Spec", () => {
    for (const pack of graph.packs.values()) {
      const p = Number(pack.id.slice(-3))
      const firstOfNext = `spec:chain-00${(p + 1) % 4}.step-0000`
      // Walk the chain back from the Pack's last member: it visits every member once, in reverse.
      const walked: string[] = []
      let at: string | undefined = pack.members[pack.members.length - 1]
      while (at !== undefined) {
        walked.push(at)
        const out: ReadonlyArray<{ type: string; to: string }> = graph.outgoing.get(at) ?? []
        expect(out.filter((e) => e.type === "refines").map((e) => e.to)).toEqual([firstOfNext])
        at = out.find((e) => e.type === "dependsOn")?.to
      }
      expect(walked.reverse()).toEqual(pack.members)
    }
  })
})

describe("gen-corpus arguments", () => {
  it("refuses a missing --specs with exit 2 and the usage line", () => {
    const run = spawnSync(process.execPath, [SCRIPT, path.join(temp, "bad")], { encoding: "utf8" })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("usage: node scripts/gen-corpus.mjs DIR --specs N")
    expect(fs.existsSync(path.join(temp, "bad"))).toBe(false)
  })

  it("refuses a folder that is not empty, leaving its files as they were", () => {
    const dir = path.join(temp, "full")
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, "keep.txt"), "mine")
    const run = spawnSync(process.execPath, [SCRIPT, dir, "--specs", "20", "--packs", "1"], { encoding: "utf8" })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("is not empty")
    expect(fs.readdirSync(dir)).toEqual(["keep.txt"])
  })
})
