// Fuzzing every reader with mutations of real carriers: whatever the bytes, a reader returns a
// CarrierRead with well-formed findings, a refused carrier holds no node, and nothing hangs.
import { FastCheck as fc } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { parseSync } from "oxc-parser"
import { afterAll, describe, expect, it } from "vitest"
import { extractFile, openText } from "../src/core/extract.js"
import type { CarrierRead } from "../src/core/model.js"
import { parseAnchors } from "../src/core/read/anchors.js"
import { parseGherkinCarrier } from "../src/core/read/gherkin.js"
import { parseMarkdownCarrier } from "../src/core/read/markdown.js"
import { readProblems } from "./support/hostile.js"

const RUNS = 2000
/** Sanity bound against hangs only; the real figure is printed. */
const CASE_BOUND_MS = 1000

const filesUnder = (dir: string, suffix: string): string[] =>
  fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(suffix)).map((f) => fs.readFileSync(path.join(dir, f), "utf8"))

const CHECKOUT = "/work/shared/corpora/checkout-v1"
const MARKDOWN_SEEDS = [...filesUnder(CHECKOUT, ".sdp.md"), ...filesUnder("examples/bike-dock", ".sdp.md")]
const ANCHOR_SEEDS = [...filesUnder("test/fixtures/checkout-anchors", ".ts"), ...filesUnder("examples/bike-dock", ".ts")]
const GHERKIN_SEEDS = [
  [
    "@spec.orders.create-order @altitude.feature @readiness.defined",
    "@depends-on.spec:orders.cart @refines.spec:orders.management",
    "Feature: Customer creates an order",
    "  Turning a cart into an order is the core of checkout.",
    "  - actor: customer",
    "  - outcome: Turn a valid cart into an order.",
    "  - risk: Stock can change mid-checkout.",
    "",
    "  @example-space",
    "  Scenario: vocabulary",
    "    Given a cart with {n:number} lines",
    "    When the customer submits the cart",
    "    Then an order is created with total {total:number}",
    "",
    "  @spec.orders.create-order.valid-cart @altitude.story @readiness.ready",
    "  Scenario: Valid cart creates an order",
    "    Given a cart with {n: 2} lines",
    "    And every line is in stock",
    "    When the customer submits the cart",
    "    Then an order is created with total {total: 100}",
    "",
    "  Rule: An order total is never negative.",
    ""
  ].join("\n"),
  [
    "@spec.docks.capacity @altitude.story @readiness.idea @constrained-by.spec:docks.model",
    "Feature: A dock never holds more bikes than its slots",
    "",
    "  @spec.docks.capacity.full @altitude.story @readiness.idea",
    "  Scenario Outline: a full dock refuses a return",
    "    Given a dock with <slots> slots",
    "    When a rider returns a bike",
    "    Then the return is refused",
    "",
    "    Examples:",
    "      | slots |",
    "      | 0     |",
    ""
  ].join("\n")
]

// ---------------------------------------------------------------------------------------------
// Mutations: a list of operations with raw random parameters, applied in order.

const TEXT_OPS = ["truncate", "insert", "swap", "duplicate", "delete-line", "deep-yaml", "long-line", "cr", "crlf", "bom", "unicode", "yaml-char", "alias-bomb"] as const
const BYTE_OPS = ["invalid-utf8", "nul", "random-bytes", "truncate-bytes"] as const

interface Mutation {
  readonly op: string
  readonly a: number
  readonly b: number
  readonly n: number
  readonly s: string
  readonly bytes: ReadonlyArray<number>
}

const mutationOf = (ops: ReadonlyArray<string>): fc.Arbitrary<Mutation> =>
  fc.record({
    op: fc.constantFrom(...ops),
    a: fc.nat(),
    b: fc.nat(),
    n: fc.integer({ min: 1, max: 4000 }),
    s: fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }), fc.constantFrom("---", ":", "- ", "# ", "## Rule", "```", "@spec.", "Feature:", "/**", " * @sdpAnchor impl:x", "*/", "{", "}", "${")),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 })
  })

const INVALID_UTF8 = [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]

const lines = (t: string) => t.split("\n")

const applyText = (text: string, m: Mutation): string => {
  const at = (len: number) => (len === 0 ? 0 : m.a % (len + 1))
  const ls = lines(text)
  const li = ls.length === 0 ? 0 : m.a % ls.length
  const lj = ls.length === 0 ? 0 : m.b % ls.length
  switch (m.op) {
    case "truncate":
      return text.slice(0, at(text.length))
    case "insert":
      return text.slice(0, at(text.length)) + m.s + text.slice(at(text.length))
    case "swap": {
      const c = [...ls]
      ;[c[li], c[lj]] = [c[lj], c[li]]
      return c.join("\n")
    }
    case "duplicate":
      return [...ls.slice(0, li + 1), ...ls.slice(li)].join("\n")
    case "delete-line":
      return [...ls.slice(0, li), ...ls.slice(li + 1)].join("\n")
    case "deep-yaml": {
      // Deep nesting, block or flow, right after the opening frontmatter fence (or at a random line).
      const depth = m.n
      const nested =
        m.b % 2 === 0
          ? Array.from({ length: Math.min(depth, 600) }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " v"
          : `deep: ${"[".repeat(depth)}x${"]".repeat(m.b % 3 === 0 ? depth : 0)}`
      const where = ls[0] === "---" ? 1 : li
      return [...ls.slice(0, where), nested, ...ls.slice(where)].join("\n")
    }
    case "long-line": {
      const unit = m.s === "" ? "a" : m.s
      const long = unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000)
      return [...ls.slice(0, li), long, ...ls.slice(li)].join("\n")
    }
    case "cr":
      return text.slice(0, at(text.length)) + "\r" + text.slice(at(text.length))
    case "crlf":
      return m.b % 2 === 0 ? text.replace(/\n/g, "\r\n") : text.slice(0, at(text.length)) + "\r\n" + text.slice(at(text.length))
    case "bom":
      return m.b % 2 === 0 ? "\uFEFF" + text : text.slice(0, at(text.length)) + "\uFEFF" + text.slice(at(text.length))
    case "unicode": {
      const chars = [String.fromCodePoint(0x1f600 + (m.b % 80)), "\u0000", "\u2028", "\u2029", "\u0085", "\uD800", "\uDFFF", "\u200B", "\u00A0", "\u{10FFFF}"]
      return text.slice(0, at(text.length)) + chars[m.b % chars.length] + m.s + text.slice(at(text.length))
    }
    case "yaml-char": {
      const specials = [":", "-", "{", "[", "#", "&a", "*a", "!!str", "|", ">", "`", "%YAML 1.2", "? ", "'", '"', "\t"]
      return text.slice(0, at(text.length)) + specials[m.b % specials.length] + text.slice(at(text.length))
    }
    case "alias-bomb": {
      const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]", "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]", "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]", "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]"]
      const where = ls[0] === "---" ? 1 : li
      return [...ls.slice(0, where), ...bomb, ...ls.slice(where)].join("\n")
    }
  }
  return text
}

const applyBytes = (bytes: Uint8Array, m: Mutation): Uint8Array => {
  const at = bytes.length === 0 ? 0 : m.a % (bytes.length + 1)
  const splice = (insert: ReadonlyArray<number>) => Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at)])
  switch (m.op) {
    case "invalid-utf8":
      return splice(INVALID_UTF8[m.b % INVALID_UTF8.length])
    case "nul":
      return splice([0])
    case "random-bytes":
      return splice(m.bytes)
    case "truncate-bytes":
      // Cuts may land inside a multi-byte sequence.
      return bytes.subarray(0, at)
  }
  return bytes
}

const textCase = (seeds: ReadonlyArray<string>) =>
  fc.record({
    seed: fc.constantFrom(...seeds),
    muts: fc.array(mutationOf(TEXT_OPS), { minLength: 1, maxLength: 4 })
  }).map(({ seed, muts }) => ({ text: muts.reduce(applyText, seed), ops: muts.map((m) => m.op).join(",") }))

// ---------------------------------------------------------------------------------------------

const summaries: string[] = []
afterAll(() => {
  for (const line of summaries) console.log(line)
})

/** Runs `read` on every generated case, timing each; asserts the invariants and the hang bound. */
const fuzz = <T>(name: string, arb: fc.Arbitrary<T>, read: (input: T) => CarrierRead | string | null, check: (input: T, out: CarrierRead) => string[]) => {
  let cases = 0
  let max = 0
  let slowest = ""
  fc.assert(
    fc.property(arb, (input) => {
      const start = performance.now()
      const out = read(input)
      const ms = performance.now() - start
      cases++
      if (ms > max) {
        max = ms
        slowest = JSON.stringify(input).slice(0, 120)
      }
      if (out !== null && typeof out !== "string") {
        const problems = check(input, out)
        if (problems.length > 0) throw new Error(problems.join("; "))
      }
      if (ms > CASE_BOUND_MS) throw new Error(`case took ${ms.toFixed(0)} ms`)
    }),
    { numRuns: RUNS }
  )
  const line = `fuzz: ${name} ${cases} cases, max ${max.toFixed(1)} ms`
  summaries.push(line)
  return { cases, max, slowest }
}

describe("readers under random mutation never throw and keep their output lawful", () => {
  it("parseMarkdownCarrier: frontmatter and body mutations", () => {
    const file = "specs/fuzz/a.sdp.md"
    const { cases } = fuzz("parseMarkdownCarrier", textCase(MARKDOWN_SEEDS), ({ text }) => parseMarkdownCarrier(file, text), (_, out) => readProblems(out, file, true))
    expect(cases).toBe(RUNS)
  })

  it("parseGherkinCarrier: mutations of Features, Scenarios and tags", () => {
    const file = "specs/fuzz/a.sdp.gherkin"
    const seeds = GHERKIN_SEEDS.map((s) => parseGherkinCarrier(file, s))
    // The seeds themselves read cleanly, so mutations start from a lawful carrier.
    expect(seeds.map((r) => r.specs.length)).toEqual([2, 2])
    expect(seeds.flatMap((r) => r.findings.filter((f) => f.severity === "error"))).toEqual([])
    const { cases } = fuzz("parseGherkinCarrier", textCase(GHERKIN_SEEDS), ({ text }) => parseGherkinCarrier(file, text), (_, out) => readProblems(out, file, true))
    expect(cases).toBe(RUNS)
  })

  it("parseAnchors: mutations of real code files through oxc-parser", () => {
    const file = "src/fuzz/a.ts"
    const options = { selfHosting: false }
    expect(ANCHOR_SEEDS.map((s) => parseAnchors(file, s, options, parseSync).anchors.length).reduce((a, b) => a + b, 0)).toBeGreaterThan(5)
    // Anchors are refused one at a time (anchors.ts header), so an error finding may sit beside healthy anchors.
    const { cases } = fuzz("parseAnchors", textCase(ANCHOR_SEEDS), ({ text }) => parseAnchors(file, text, options, parseSync), (_, out) => readProblems(out, file, false))
    expect(cases).toBe(RUNS)
  })

  it("openText and extractFile: byte-level mutations (invalid UTF-8, NUL, BOM, CR) of every carrier kind", () => {
    const kinds = [
      ...MARKDOWN_SEEDS.map((s) => ({ path: "specs/fuzz/a.sdp.md", seed: s })),
      ...GHERKIN_SEEDS.map((s) => ({ path: "specs/fuzz/a.sdp.gherkin", seed: s })),
      ...ANCHOR_SEEDS.map((s) => ({ path: "src/fuzz/a.ts", seed: s }))
    ]
    const arb = fc.record({
      kind: fc.constantFrom(...kinds),
      textMuts: fc.array(mutationOf(TEXT_OPS), { maxLength: 2 }),
      byteMuts: fc.array(mutationOf(BYTE_OPS), { minLength: 1, maxLength: 3 })
    }).map(({ kind, textMuts, byteMuts }) => ({
      path: kind.path,
      bytes: byteMuts.reduce(applyBytes, new Uint8Array(Buffer.from(textMuts.reduce(applyText, kind.seed), "utf8")))
    }))
    let opened = 0
    const { cases } = fuzz(
      "openText+extractFile",
      arb,
      (file) => {
        const text = openText(file.path, file.bytes, 256 * 1024)
        if (typeof text === "string") {
          opened++
          // What openText hands on is LF text without a BOM: the readers never see CR or a BOM.
          if (text.includes("\r") || text.charCodeAt(0) === 0xfeff) throw new Error("openText let CR or a BOM through")
        } else if (text.specs.length + text.anchors.length + text.packs.length > 0 || text.findings.length !== 1) {
          throw new Error(`openText refusal malformed: ${JSON.stringify(text.findings)}`)
        }
        return extractFile(file, { selfHosting: false, parse: parseSync })
      },
      (file, out) => readProblems(out, file.path, !file.path.endsWith(".ts"))
    )
    expect(cases).toBe(RUNS)
    // Mutations must not all be refusals at the envelope: some cases reach the parsers.
    expect(opened).toBeGreaterThan(RUNS / 20)
  })
})
