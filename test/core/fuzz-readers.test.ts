// Fuzzing every reader with mutations of real carriers: whatever the bytes, a reader returns a
// CarrierRead with well-formed findings, a refused carrier holds no node, and a carrier's findings
// stop at the cap. No clock: speed belongs in the benchmarks (a reader that hangs never returns,
// and the run fails on vitest's deadline). The cases run a few at a time between turns of the
// event loop, so vitest's messages to the worker are answered while a property runs.
// Each property's seed goes to stderr first; FUZZ_SEED=N replays one.
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as path from "node:path"
import { PARSER, WHOLE_AST } from "../support/oxc.js"
import { afterAll, describe, expect, it } from "vitest"
import { extractFile, openText } from "../../src/core/read/extract.js"
import type { CarrierRead } from "../../src/core/model.js"
import { parseAnchors } from "../../src/core/read/anchors.js"
import { parseGherkinCarrier } from "../../src/core/read/gherkin.js"
import { parseMarkdownCarrier } from "../../src/core/read/markdown.js"
import { BYTE_OPS, TEXT_OPS, applyBytes, applyText, mutationOf, readProblems, textCase } from "../support/hostile.js"
import { CHECKOUT_CORPUS, HAS_CHECKOUT } from "../support/paths.js"

const RUNS = 2000
/** Cases between turns of the event loop (2,000 Markdown cases took 6.7 s in one synchronous stretch). */
const CASES_PER_TURN = 20
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))
/**
 * A property that yields can be stopped by vitest's deadline (60 s by default): ten times what one
 * takes on a loaded 2-core machine, a guard against a hang only, never a measure of speed.
 */
const PROPERTY_DEADLINE_MS = 600_000

const filesUnder = (dir: string, suffix: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(suffix))
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))

// checkout-v1's carriers join the seeds when ../shared is beside the clone (CI); bike-dock's always.
const MARKDOWN_SEEDS = [...(HAS_CHECKOUT ? filesUnder(CHECKOUT_CORPUS, ".sdp.md") : []), ...filesUnder("examples/bike-dock", ".sdp.md")]
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
    "  Scenario: a full dock refuses a return",
    "    Given a dock with {slots: 0} free slots",
    "    When a rider returns a bike",
    "    Then the return is refused",
    "",
    "  Rule: A dock never reports more bikes than slots.",
    ""
  ].join("\n")
]

// ---------------------------------------------------------------------------------------------

const summaries: string[] = []
afterAll(() => {
  for (const line of summaries) console.log(line)
})

/**
 * The seed of each property's cases: random unless FUZZ_SEED replays one. It is written to stderr
 * before the cases run, so even a run that crashes the worker process leaves it behind.
 */
const seedFor = (name: string): number => {
  const setting = process.env.FUZZ_SEED
  if (setting !== undefined && !/^\d+$/.test(setting)) throw new Error(`FUZZ_SEED must be a whole number (got "${setting}")`)
  const seed = setting !== undefined ? Number(setting) : Math.floor(Math.random() * 2 ** 31)
  process.stderr.write(`fuzz: ${name} seed ${seed} (FUZZ_SEED=${seed} replays it)\n`)
  return seed
}

/** Runs `read` on every generated case and asserts the invariants; the most findings one read gave is printed. */
const fuzz = async <T>(
  name: string,
  arb: fc.Arbitrary<T>,
  read: (input: T) => CarrierRead | string | null,
  check: (input: T, out: CarrierRead) => string[]
): Promise<{ cases: number }> => {
  const seed = seedFor(name)
  let cases = 0
  let most = 0
  await fc.assert(
    fc.asyncProperty(arb, async (input) => {
      if (++cases % CASES_PER_TURN === 0) await turn()
      const out = read(input)
      if (out !== null && typeof out !== "string") {
        most = Math.max(most, out.findings.length)
        const problems = check(input, out)
        if (problems.length > 0) throw new Error(problems.join("; "))
      }
    }),
    { numRuns: RUNS, seed }
  )
  summaries.push(`fuzz: ${name} ${cases} cases, at most ${most} findings in one read`)
  return { cases }
}

describe("readers under random mutation never throw and keep their output lawful", () => {
  it(
    "parseMarkdownCarrier: frontmatter and body mutations",
    async () => {
      const file = "specs/fuzz/a.sdp.md"
      const { cases } = await fuzz(
        "parseMarkdownCarrier",
        textCase(MARKDOWN_SEEDS),
        ({ text }) => parseMarkdownCarrier(file, text),
        (_, out) => readProblems(out, file, true)
      )
      expect(cases).toBe(RUNS)
    },
    PROPERTY_DEADLINE_MS
  )

  it(
    "parseGherkinCarrier: mutations of Features, Scenarios and tags",
    async () => {
      const file = "specs/fuzz/a.sdp.gherkin"
      const seeds = GHERKIN_SEEDS.map((s) => parseGherkinCarrier(file, s))
      // The seeds themselves read cleanly, so mutations start from a lawful carrier.
      expect(seeds.map((r) => r.specs.length)).toEqual([2, 2])
      expect(seeds.flatMap((r) => r.findings.filter((f) => f.severity === "error"))).toEqual([])
      const { cases } = await fuzz(
        "parseGherkinCarrier",
        textCase(GHERKIN_SEEDS),
        ({ text }) => parseGherkinCarrier(file, text),
        (_, out) => readProblems(out, file, true)
      )
      expect(cases).toBe(RUNS)
    },
    PROPERTY_DEADLINE_MS
  )

  it(
    "parseAnchors: mutations of real code files through oxc-parser",
    async () => {
      const file = "src/fuzz/a.ts"
      const options = { selfHosting: false }
      expect(ANCHOR_SEEDS.map((s) => parseAnchors(file, s, options, PARSER).anchors.length).reduce((a, b) => a + b, 0)).toBeGreaterThan(5)
      // Anchors are refused one at a time (anchors.ts header), so an error finding may sit beside healthy anchors.
      let differ = 0
      const { cases } = await fuzz(
        "parseAnchors",
        textCase(ANCHOR_SEEDS),
        ({ text }) => {
          const read = parseAnchors(file, text, options, PARSER)
          // The kept-statement route must read exactly what the whole AST reads.
          if (JSON.stringify(read) !== JSON.stringify(parseAnchors(file, text, options, WHOLE_AST))) differ++
          return read
        },
        (_, out) => readProblems(out, file, false)
      )
      expect(cases).toBe(RUNS)
      expect(differ).toBe(0)
    },
    PROPERTY_DEADLINE_MS
  )

  it(
    "openText and extractFile: byte-level mutations (invalid UTF-8, NUL, BOM, CR) of every carrier kind",
    async () => {
      const kinds = [
        ...MARKDOWN_SEEDS.map((s) => ({ path: "specs/fuzz/a.sdp.md", seed: s })),
        ...GHERKIN_SEEDS.map((s) => ({ path: "specs/fuzz/a.sdp.gherkin", seed: s })),
        ...ANCHOR_SEEDS.map((s) => ({ path: "src/fuzz/a.ts", seed: s }))
      ]
      const arb = fc
        .record({
          kind: fc.constantFrom(...kinds),
          textMuts: fc.array(mutationOf(TEXT_OPS), { maxLength: 2 }),
          byteMuts: fc.array(mutationOf(BYTE_OPS), { minLength: 1, maxLength: 3 })
        })
        .map(({ kind, textMuts, byteMuts }) => ({
          path: kind.path,
          bytes: byteMuts.reduce(applyBytes, new Uint8Array(Buffer.from(textMuts.reduce(applyText, kind.seed), "utf8")))
        }))
      let opened = 0
      const { cases } = await fuzz(
        "openText+extractFile",
        arb,
        (file) => {
          const opened1 = openText(file.path, file.bytes, 256 * 1024)
          if (opened1._tag === "Success") {
            const text = opened1.success
            opened++
            // What openText hands on is LF text without a BOM: the readers never see CR or a BOM.
            if (text.includes("\r") || text.charCodeAt(0) === 0xfeff) throw new Error("openText let CR or a BOM through")
          } else {
            const refusal = opened1.failure
            if (refusal.specs.length + refusal.anchors.length + refusal.packs.length > 0 || refusal.findings.length !== 1) {
              throw new Error(`openText refusal malformed: ${JSON.stringify(refusal.findings)}`)
            }
          }
          return extractFile(file, { selfHosting: false, parser: PARSER })
        },
        (file, out) => readProblems(out, file.path, !file.path.endsWith(".ts"))
      )
      expect(cases).toBe(RUNS)
      // Mutations must not all be refusals at the envelope: some cases reach the parsers.
      expect(opened).toBeGreaterThan(RUNS / 20)
    },
    PROPERTY_DEADLINE_MS
  )
})

describe("inputs the fuzzing found (fixed in src/core/read)", () => {
  const options = { selfHosting: false }
  const header = `import { codeAnchor } from "@libar-dev/software-delivery-protocol"\n`

  it.each([
    ["parentheses", `const x = ${"(".repeat(20_000)}1${")".repeat(20_000)}\n`],
    ["object literals", `const x = ${"{a:".repeat(10_000)}1${"}".repeat(10_000)}\n`],
    ["labels", "a:".repeat(20_000) + "x\n"],
    ["labels across lines", "a:\n".repeat(20_000) + "x\n"],
    ["unary minus", "- ".repeat(60_000) + "x\n"],
    ["decorators", "@".repeat(60_000) + "x\n"],
    ["if without braces", "if(a)".repeat(20_000) + "x\n"],
    // Seed 382373540: `a<W,b<W,…` on one 100,000-character line, each `<` maybe type arguments.
    ["type arguments across commas", `let x = ${"_pzv<W,w_".repeat(11_000)}\n`]
  ])("a file nesting %s ~10,000+ deep is refused with a finding instead of crashing the process", (_, body) => {
    const read = parseAnchors("src/deep.ts", header + body, options, PARSER)
    expect(read.anchors).toEqual([])
    expect(read.findings.map((f) => [f.line, f.code])).toEqual([[1, "extract/parse-error"]])
    expect(read.findings[0].message).toMatch(/nests deeper than 1000 levels/)
  })

  it("a short file nesting past the bound is refused too (its nesting characters are counted, not its length)", () => {
    // Under 20,000 characters the depth is measured only when the file holds more than 1,000
    // characters that may nest: 1,500 levels pass that count, and the measure refuses them.
    for (const body of [`const x = ${"(".repeat(1_500)}1${")".repeat(1_500)}\n`, "a:".repeat(1_500) + "x\n", "@".repeat(1_500) + "x\n"]) {
      const read = parseAnchors("src/deep.ts", header + body, options, PARSER)
      expect(read.findings.map((f) => [f.line, f.code])).toEqual([[1, "extract/parse-error"]])
      expect(read.findings[0].message).toMatch(/nests deeper than 1000 levels/)
    }
    // Under the bound it is parsed as usual.
    expect(parseAnchors("src/shallow.ts", `${header}const x = ${"(".repeat(900)}1${")".repeat(900)}\n`, options, PARSER).findings).toEqual([])
  })

  it("50,000 stray backslash escapes are refused at once instead of exhausting the heap", () => {
    // On short lines: on one long line their code frames trip the frame bound first (below).
    const read = parseAnchors("src/escapes.ts", header + "\\0\n".repeat(50_000), options, PARSER)
    // Refused by the count before the parser (its message says so), never by the parser's own errors.
    expect(read.findings.map((f) => f.code)).toEqual(["extract/parse-error"])
    expect(read.findings[0].message).toMatch(/backslashes outside strings and comments/)
  })

  it("a 50,000-deep left-leaning chain (tagged templates) is walked without a stack overflow", () => {
    // One template a line: on one 100,000-character line the frame bound (below) would refuse it.
    const read = parseAnchors("src/chain.ts", header + "x" + "``\n".repeat(50_000), options, PARSER)
    expect(read.findings).toEqual([])
  })

  it("real code with regular expressions, strings and nesting still parses (no false alarm)", () => {
    for (const seed of ANCHOR_SEEDS)
      expect(parseAnchors("src/a.ts", seed, options, PARSER).findings.filter((f) => f.code === "extract/parse-error")).toEqual([])
    const regexHeavy = header + `export const r = [${Array.from({ length: 200 }, () => "/\\d+\\.\\d+\\s*/").join(", ")}]\nexport const s = "\\\\".repeat(3)\n`
    expect(parseAnchors("src/re.ts", regexHeavy, options, PARSER).findings).toEqual([])
    // Thousands of `<` in one file, each run ended by `;`, `)` or `>`: comparisons and closed type arguments.
    const comparisons = header + "for (let i = 0; i < n; i++) if (a < b) f(c < d)\nconst m: Map<string, Array<number>> = new Map()\n".repeat(1_500)
    expect(parseAnchors("src/lt.ts", comparisons, options, PARSER).findings).toEqual([])
  })

  it("a frontmatter nesting thousands of block sequences (`- - - …`) is refused with one finding instead of overflowing yaml's stack (seed 2031121454)", () => {
    const text = `---\nid: spec:a.b\nkind: rule\naltitude: story\nreadiness: idea\nrelations:\n\n${"- ".repeat(16_000)}\n  refines: spec:a.c\n---\n# T\n`
    const read = parseMarkdownCarrier("specs/a.sdp.md", text)
    expect(read.specs).toEqual([])
    expect(read.findings.map((f) => [f.line, f.code, f.message])).toEqual([
      [2, "extract/invalid-frontmatter", "frontmatter YAML nests deeper than 16 levels; flatten it"]
    ])
  })

  it("a line break inside a quoted YAML key or an anchor id stays escaped in a one-line message", () => {
    const md = parseMarkdownCarrier("specs/a.sdp.md", '---\n"i\\nd": x\nid: spec:a.b\nkind: rule\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# T\n')
    expect(md.findings.map((f) => f.message)).toEqual(['property "i\\nd" is not accepted in a Spec frontmatter; remove it'])
    // The string literal "impl:a\nb" holds a real line break once parsed.
    const source = `import { codeAnchor, codeAnchorId } from "@libar-dev/software-delivery-protocol"\nexport const a = codeAnchor({ id: codeAnchorId("impl:a\\nb") })\n`
    const code = parseAnchors("src/a.ts", source, options, PARSER)
    expect(code.findings.map((f) => f.message)).toEqual(['anchor id "impl:a\\nb" is not an id (namespace:segment.segment, no spaces or "_")'])
  })
})

describe("parse errors on a very long line", () => {
  it("a 100,000-character line of 50,000 parse errors is refused before the parser (its code frames exhausted memory: seed 1783931914)", () => {
    const text = `import { codeAnchor } from "@libar-dev/software-delivery-protocol"\n` + ",s".repeat(50_000) + "\n"
    const read = parseAnchors("src/long.ts", text, { selfHosting: false }, PARSER)
    expect(read.findings.map((f) => [f.line, f.code])).toEqual([[1, "extract/parse-error"]])
    expect(read.findings[0].message).toMatch(/parse errors could take 50\d{8} bytes of code frames \(the limit is 100000000\)/)
  })

  it("a 1 MB file of short lines, and a long line in a short file, are still parsed", () => {
    const header = `import { codeAnchor } from "@libar-dev/software-delivery-protocol"\nexport const a = codeAnchor({ id: "impl:a.b" })\n`
    const longFile = header + "export const rows = [\n" + '  { id: 1, name: "a row of moderate length" },\n'.repeat(20_000) + "]\n"
    const longLine = header + `export const data = "${"x".repeat(15_000)}"\n`
    for (const text of [longFile, longLine]) {
      const read = parseAnchors("src/data.ts", text, { selfHosting: false }, PARSER)
      expect(read.findings).toEqual([])
      expect(read.anchors.map((a) => a.id)).toEqual(["impl:a.b"])
    }
  })
})

describe("stray escapes on a very long line", () => {
  it("300 stray backslashes on a 100,000-character line are refused before the parser (their code frames would cost seconds)", () => {
    const text = `import { codeAnchor } from "@libar-dev/software-delivery-protocol"\n` + "\\0".repeat(300) + " ".repeat(100_000) + "\n"
    const read = parseAnchors("src/long.ts", text, { selfHosting: false }, PARSER)
    expect(read.findings.map((f) => [f.line, f.code])).toEqual([[1, "extract/parse-error"]])
    expect(read.findings[0].message).toMatch(/parse errors could take \d+ bytes of code frames/)
  })
})
