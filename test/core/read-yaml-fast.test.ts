// The frontmatter YAML fast path (src/core/read/markdown-yaml-fast.ts): wherever it answers, its tree
// is the full path's tree and the full path reports nothing; on real and generated corpora it answers
// for nearly every frontmatter; mutated and grammar-built frontmatters never catch it out.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Sink } from "../../src/core/read/markdown-findings.js"
import { readSimpleFrontmatter } from "../../src/core/read/markdown-yaml-fast.js"
import type { YNode } from "../../src/core/read/markdown-yaml.js"
import { readFrontmatterYaml, readFrontmatterYamlFull } from "../../src/core/read/markdown-yaml.js"
import { BIKE_DOCK, CHECKOUT_CORPUS, withoutCheckout } from "../support/paths.js"

const GEN = path.resolve(__dirname, "../../scripts/gen-corpus.mjs")
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "yaml-fast-test-"))
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }))

const sdpFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".sdp.md"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))

/** The frontmatter text exactly as markdown.ts hands it to readFrontmatterYaml (first line = file line 2). */
const frontmatterOf = (carrier: string): string => {
  const lines = carrier.split("\n")
  const close = lines.indexOf("---", 1)
  expect(lines[0]).toBe("---")
  expect(close).toBeGreaterThan(0)
  return close > 1 ? lines.slice(1, close).join("\n") + "\n" : ""
}

const full = (text: string) => {
  const sink = new Sink("f.sdp.md")
  const read = readFrontmatterYamlFull(text, 2, sink)
  return { root: read.root, ok: read.ok, findings: sink.findings }
}

/** Problems (as text) of one frontmatter; `answered` says whether the fast path took it. */
const compare = (text: string): { answered: boolean; problems: string[] } => {
  const fast = readSimpleFrontmatter(text, 2)
  if (fast === undefined) return { answered: false, problems: [] }
  const f = full(text)
  const problems: string[] = []
  if (!f.ok || f.findings.length > 0) problems.push(`fast path answered but the full path reports ${JSON.stringify(f.findings)}`)
  if (JSON.stringify(fast) !== JSON.stringify(f.root)) problems.push(`trees differ: fast ${JSON.stringify(fast)} full ${JSON.stringify(f.root)}`)
  return { answered: true, problems: problems.map((p) => `${JSON.stringify(text)}: ${p}`) }
}

/** mulberry32: a small seeded PRNG, so every run fuzzes the same cases. */
const prng = (seed: number) => {
  let a = seed >>> 0
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number): number => Math.floor(next() * n)
  return { next, int, pick: <T>(xs: ReadonlyArray<T>): T => xs[int(xs.length)] }
}

let checkout: string[] = []
let bikeDock: string[] = []
let generated: string[] = []
// checkout-v1 is read when ../shared is beside the clone (CI); its row skips otherwise.
const noCheckout = withoutCheckout("the fast YAML path over checkout-v1")
beforeAll(() => {
  if (!noCheckout) checkout = sdpFiles(CHECKOUT_CORPUS).map(frontmatterOf)
  bikeDock = sdpFiles(BIKE_DOCK).map(frontmatterOf)
  const dir = path.join(temp, "gen")
  execFileSync(process.execPath, [GEN, dir, "--specs", "300", "--packs", "4", "--ts-files", "0"], { encoding: "utf8" })
  generated = sdpFiles(dir).map(frontmatterOf)
})

describe("fast path on real and generated corpora", () => {
  for (const [name, get, skip] of [
    ["checkout-v1", () => checkout, noCheckout],
    ["bike-dock", () => bikeDock, false],
    ["gen-corpus 300 specs", () => generated, false]
  ] as const) {
    it.skipIf(skip)(`${name}: same tree as the full path for every frontmatter, taken for at least 95%`, () => {
      const texts = get()
      expect(texts.length).toBeGreaterThan(10)
      let answered = 0
      for (const text of texts) {
        const f = full(text)
        expect(f.findings).toEqual([])
        const fast = readSimpleFrontmatter(text, 2)
        if (fast !== undefined) {
          answered++
          expect(fast).toStrictEqual(f.root)
        }
        // The wired-in reader gives the full path's answer either way.
        const sink = new Sink("f.sdp.md")
        expect(readFrontmatterYaml(text, 2, sink)).toStrictEqual({ root: f.root, ok: true })
      }
      console.log(`${name}: fast path took ${answered} of ${texts.length} frontmatters`)
      expect(answered / texts.length).toBeGreaterThanOrEqual(0.95)
    })
  }
})

// ---------------------------------------------------------------------------------------------

const SIGNIFICANT = [
  " ",
  "  ",
  "\t",
  ":",
  ": ",
  "-",
  "- ",
  "#",
  " #",
  "# c",
  "'",
  '"',
  "[",
  "]",
  "{",
  "}",
  "{}",
  "[]",
  ",",
  "&a",
  "*a",
  "!",
  "!!str ",
  "|",
  ">",
  "?",
  "? ",
  "%",
  "@",
  "`",
  "\n",
  "\r",
  "\n\n",
  "\n#x\n",
  "0",
  "7",
  "12",
  "1.5",
  ".5",
  "0x1F",
  "-3",
  "true",
  "null",
  "~",
  ".inf",
  "---",
  "...",
  "x",
  "é",
  "\u00a0",
  "key: v",
  "\n- y",
  "\n  z: w",
  "id"
]

const mutate = (text: string, rng: ReturnType<typeof prng>): string => {
  let t = text
  for (let m = 1 + rng.int(3); m > 0; m--) {
    const at = rng.int(t.length + 1)
    const lines = t.split("\n")
    const ln = rng.int(lines.length)
    switch (rng.int(8)) {
      case 0:
        t = t.slice(0, at) + rng.pick(SIGNIFICANT) + t.slice(at)
        break
      case 1:
        t = t.slice(0, at) + t.slice(at + 1 + rng.int(4))
        break
      case 2:
        t = t.slice(0, at) + rng.pick(SIGNIFICANT) + t.slice(at + 1)
        break
      case 3:
        lines.splice(ln, 0, lines[ln])
        t = lines.join("\n")
        break
      case 4:
        lines[ln] = " ".repeat(1 + rng.int(4)) + lines[ln]
        t = lines.join("\n")
        break
      case 5:
        lines[ln] = lines[ln].replace(/^ {1,2}/, "")
        t = lines.join("\n")
        break
      case 6:
        lines.splice(ln, 1)
        t = lines.join("\n")
        break
      default: {
        // Replace a whole value with a significant token (a value that reads as a number, a flow collection, ...).
        lines[ln] = lines[ln].replace(/(: |- ).*$/, `$1${rng.pick(SIGNIFICANT)}`)
        t = lines.join("\n")
      }
    }
  }
  return t
}

/** A random frontmatter built from the subset's own lines (and some just outside it), tricky values included. */
const VALUES = [
  "spec:a.b-c",
  "behavior",
  "a b",
  "a  b",
  "a:b",
  "a#b",
  "a, b",
  "a]b",
  "x}",
  "a :b",
  "v.1",
  "~x",
  "x~",
  "nullx",
  "True",
  "1",
  "-x",
  "- x",
  "x:",
  "x ",
  "'q'",
  '"q"',
  "{}",
  "[]",
  "{a: b}",
  "a # c",
  "a: b",
  "<<",
  "=",
  "...",
  "---",
  ".",
  "_"
]
const grammarDoc = (rng: ReturnType<typeof prng>): string => {
  const out: string[] = []
  const keys = ["id", "kind", "relations", "refines", "dependsOn", "specs", "a", "b", "a_b", "x.y", "k-1", "true", "null"]
  const block = (indent: number, depth: number) => {
    const pad = " ".repeat(indent)
    for (let n = 1 + rng.int(4); n > 0; n--) {
      const r = rng.next()
      if (r < 0.06) out.push(rng.pick(["", `${pad}# note`, "# top", `${" ".repeat(indent + 3)}#x`]))
      const key = rng.pick(keys)
      if (depth < 4 && r < 0.35) {
        out.push(`${pad}${key}:`)
        const form = rng.int(4)
        if (form === 0) block(indent + 1 + rng.int(3), depth + 1)
        else {
          const itemPad = form === 1 ? pad : " ".repeat(indent + 1 + rng.int(3))
          for (let k = 1 + rng.int(3); k > 0; k--) out.push(`${itemPad}- ${rng.next() < 0.8 ? `spec:s.x${rng.int(99)}` : rng.pick(VALUES)}`)
        }
      } else {
        out.push(`${pad}${key}: ${rng.next() < 0.7 ? `w${rng.int(50)}` : rng.pick(VALUES)}`)
      }
      if (rng.next() < 0.03) out.push(rng.pick(["", "  ", "#", `${pad}  tail`, `${pad}- stray`]))
    }
  }
  block(0, 1)
  return out.join("\n") + "\n"
}

describe("fast path fuzz", () => {
  it("mutated corpus frontmatters: whenever the fast path answers, the full path agrees and reports nothing", () => {
    const rng = prng(0x5eed)
    const seeds = [...checkout, ...bikeDock, ...generated]
    const problems: string[] = []
    let answered = 0
    const CASES = 4000
    for (let c = 0; c < CASES; c++) {
      const r = compare(mutate(rng.pick(seeds), rng))
      if (r.answered) answered++
      problems.push(...r.problems)
    }
    console.log(`mutation fuzz: fast path answered ${answered} of ${CASES}`)
    expect(problems.slice(0, 5)).toEqual([])
    expect(answered).toBeGreaterThan(0)
  })

  it("grammar-built frontmatters (comments, blank lines, same-indent lists, tricky values): same agreement", () => {
    const rng = prng(0xfa57)
    const problems: string[] = []
    let answered = 0
    const CASES = 3000
    for (let c = 0; c < CASES; c++) {
      const r = compare(grammarDoc(rng))
      if (r.answered) answered++
      problems.push(...r.problems)
    }
    console.log(`grammar fuzz: fast path answered ${answered} of ${CASES}`)
    expect(problems.slice(0, 5)).toEqual([])
    expect(answered).toBeGreaterThan(CASES / 10)
  })
})

// ---------------------------------------------------------------------------------------------

const both = (text: string): { fast: YNode | null | undefined; full: ReturnType<typeof full> } => ({
  fast: readSimpleFrontmatter(text, 2),
  full: full(text)
})
const str = (value: string, line: number) => ({ t: "str", value, plain: true, line })

describe("fast path by hand", () => {
  it("reads a nested map: map line is its first key's line, values on their keys' lines", () => {
    const { fast, full: f } = both("id: spec:a.b\nrelations:\n  refines: spec:a\n  dependsOn: spec:c\nkind: rule\n")
    expect(f.findings).toEqual([])
    expect(fast).toStrictEqual(f.root)
    expect(fast).toStrictEqual({
      t: "map",
      line: 2,
      entries: [
        { key: "id", keyLine: 2, value: str("spec:a.b", 2) },
        {
          key: "relations",
          keyLine: 3,
          value: {
            t: "map",
            line: 4,
            entries: [
              { key: "refines", keyLine: 4, value: str("spec:a", 4) },
              { key: "dependsOn", keyLine: 5, value: str("spec:c", 5) }
            ]
          }
        },
        { key: "kind", keyLine: 6, value: str("rule", 6) }
      ]
    })
  })

  it("reads a list under its key at the same indent and at a deeper one; the list line is its first -", () => {
    for (const text of ["specs:\n- spec:a\n- spec:b\nmodelRefs:\n  - spec:m\n", "relations:\n  dependsOn:\n  - spec:a\n  refines: spec:b\n"]) {
      const { fast, full: f } = both(text)
      expect(f.findings).toEqual([])
      expect(fast).toStrictEqual(f.root)
    }
    const root = readSimpleFrontmatter("specs:\n- spec:a\n- spec:b\n", 2)
    expect(root).toStrictEqual({
      t: "map",
      line: 2,
      entries: [{ key: "specs", keyLine: 2, value: { t: "seq", line: 3, items: [str("spec:a", 3), str("spec:b", 4)] } }]
    })
  })

  it("reads blank lines, whole-line comments and relations: {}", () => {
    const text = "# envelope\n\nid: spec:a\n  # indented comment\nrelations: {}\n\nspecs:\n# between\n  - spec:b\n"
    const { fast, full: f } = both(text)
    expect(f.findings).toEqual([])
    expect(fast).not.toBeUndefined()
    expect(fast).toStrictEqual(f.root)
  })

  it("gives null for an empty or comment-only frontmatter, as the full path does", () => {
    for (const text of ["", "\n", "# nothing\n\n"]) {
      const { fast, full: f } = both(text)
      expect(fast).toBeNull()
      expect(f).toEqual({ root: null, ok: true, findings: [] })
    }
  })

  it("falls back on a value with ': ' or ' #' inside, quotes, flow collections, tabs, anchors, non-ASCII", () => {
    for (const text of [
      "title: a: b\n",
      "title: a # note\n",
      "title: 'a'\n",
      "specs: [spec:a]\n",
      "relations: {refines: spec:a}\n",
      "id:\tspec:a\n",
      "id: &x spec:a\n",
      "title: café\n",
      "id: spec:a\n  continued\n",
      "- spec:a\n",
      "  id: spec:a\n"
    ]) {
      expect(readSimpleFrontmatter(text, 2), text).toBeUndefined()
      // The wired-in reader still gives the full path's answer, findings included.
      const sink = new Sink("f.sdp.md")
      const read = readFrontmatterYaml(text, 2, sink)
      const f = full(text)
      expect({ root: read.root, ok: read.ok, findings: sink.findings }).toStrictEqual(f)
    }
  })

  it("falls back on a duplicate key, and the full path reports it", () => {
    const text = "id: spec:a\nkind: rule\nid: spec:b\n"
    expect(readSimpleFrontmatter(text, 2)).toBeUndefined()
    const sink = new Sink("f.sdp.md")
    expect(readFrontmatterYaml(text, 2, sink).ok).toBe(false)
    expect(sink.findings.map((f) => [f.line, f.code, f.message])).toEqual([
      [4, "extract/invalid-frontmatter", "a frontmatter key is written twice; keep each key once"]
    ])
  })

  it("falls back on key: 123 or a ~ list item, and the full path's finding is kept", () => {
    for (const [text, line, message] of [
      ["id: spec:a\nkey: 123\n", 3, 'plain value 123 of "key" is not text in YAML; quote it ("123") if you mean text'],
      ["id: spec:a\nflag: true\n", 3, 'plain value true of "flag" is not text in YAML; quote it ("true") if you mean text'],
      ["specs:\n  - ~\n", 3, 'plain value ~ of "specs" is not text in YAML; quote it ("~") if you mean text']
    ] as const) {
      expect(readSimpleFrontmatter(text, 2), text).toBeUndefined()
      const sink = new Sink("f.sdp.md")
      expect(readFrontmatterYaml(text, 2, sink).ok).toBe(false)
      expect(sink.findings.map((f) => [f.line, f.message])).toEqual([[line, message]])
    }
  })

  it("falls back on a bare key: with nothing under it (the full path reads it as an empty plain string)", () => {
    const text = "id: spec:a\nrelations:\n"
    expect(readSimpleFrontmatter(text, 2)).toBeUndefined()
    const sink = new Sink("f.sdp.md")
    const read = readFrontmatterYaml(text, 2, sink)
    expect({ root: read.root, ok: read.ok, findings: sink.findings }).toStrictEqual(full(text))
  })

  it("falls back before the node and depth limits", () => {
    const many = "specs:\n" + Array.from({ length: 2000 }, (_, k) => `  - spec:s${k}\n`).join("")
    expect(readSimpleFrontmatter(many, 2)).toBeUndefined()
    expect(full(many).ok).toBe(false)
    const justUnder = "specs:\n" + Array.from({ length: 1997 }, (_, k) => `  - spec:s${k}\n`).join("")
    expect(full(justUnder).findings).toEqual([])
    expect(readSimpleFrontmatter(justUnder, 2)).toStrictEqual(full(justUnder).root)
    const nest = (levels: number) => Array.from({ length: levels }, (_, k) => `${" ".repeat(k)}k${k}:`).join("\n") + " v\n"
    expect(full(nest(16)).findings).toEqual([])
    expect(readSimpleFrontmatter(nest(16), 2)).toStrictEqual(full(nest(16)).root)
    expect(full(nest(17)).ok).toBe(false)
    expect(readSimpleFrontmatter(nest(17), 2)).toBeUndefined()
  })
})
