// The kept-statement route of the anchor reader (src/core/read/anchors-slice.ts, with oxc's raw
// transfer in src/node/oxcRaw.ts): which text reaches which parse, that the outline is what
// oxc's JSON route gives, and that the route reads what the whole AST reads.
import { parseSync } from "oxc-parser"
import { describe, expect, it } from "vitest"
import type { AnchorParser } from "../../src/core/read/anchors.js"
import { parseAnchors } from "../../src/core/read/anchors.js"
import type { Outline } from "../../src/core/read/anchors-slice.js"
import { blankOutside, insideSpans, keptStatements, surelyTopLevel, wordOffsets } from "../../src/core/read/anchors-slice.js"
import { loadOxcRaw, rawParser } from "../../src/node/oxcRaw.js"
import { PARSER, WHOLE_AST } from "../support/oxc.js"
import { PROTOCOL_PACKAGE as PKG } from "../../src/core/protocol-package.js"

const OFF = { selfHosting: false }
const FILE = "src/orders/a.ts"
const OUTLINE = PARSER.outline!

/** A parser that records the texts handed to the whole-AST parse and to the kept-statement parse. */
const recording = () => {
  const whole: string[] = []
  const kept: string[] = []
  const parser: AnchorParser = {
    parse: (file, text, options) => {
      whole.push(text)
      return parseSync(file, text, options)
    },
    outline: {
      outline: OUTLINE.outline,
      parseKept: (file, text) => {
        kept.push(text)
        return OUTLINE.parseKept(file, text)
      }
    }
  }
  return { parser, whole, kept }
}

const HELPERS = `
export function total(rows: ReadonlyArray<{ amount: number }>): number {
  return rows.reduce((n, r) => n + r.amount, 0)
}

class Store {
  private readonly rows = new Map<string, number>()
  put(id: string, n: number): void { this.rows.set(id, n) }
}
`

const exported = `import { codeAnchor, codeAnchorId, ref } from "${PKG}"
${HELPERS}
export const create = codeAnchor({
  id: codeAnchorId("impl:orders.create"),
  satisfies: ref("spec:orders.create-order")
})
`

/** Reads through the recording parser, checking the result against the whole AST's. */
const read = (text: string) => {
  const { parser, whole, kept } = recording()
  const result = parseAnchors(FILE, text, OFF, parser)
  expect(result).toEqual(parseAnchors(FILE, text, OFF, WHOLE_AST))
  return { result, whole, kept }
}

const outlineOf = (text: string): Outline => {
  const outline = OUTLINE.outline(FILE, text)
  if (outline === null) throw new Error("no outline")
  return outline
}

describe("the kept-statement route", () => {
  it("builds objects only for the trusted import and the anchor's export statement, from a blanked copy", () => {
    const { result, whole, kept } = read(exported)
    expect(result.anchors.map((a) => [a.id, a.line])).toEqual([["impl:orders.create", 12]])
    expect(whole).toEqual([])
    expect(kept).toHaveLength(1)
    const [small] = kept
    expect(small).toHaveLength(exported.length)
    expect(small).toContain(`import { codeAnchor, codeAnchorId, ref } from "${PKG}"`)
    expect(small).toContain("export const create = codeAnchor({")
    expect(small).not.toContain("reduce")
    expect(small).not.toContain("class Store")
  })

  it("reads literals the JSON route must fix up (a regular expression, a BigInt) in the kept statements", () => {
    const text = exported.replace('satisfies: ref("spec:orders.create-order")', 'satisfies: ref("spec:orders.create-order"),\n  label: /x/.source + 1n')
    const { result, whole, kept } = read(text)
    expect(result.findings.map((f) => f.code)).toEqual(["extract/non-static-section"])
    expect(whole).toEqual([])
    expect(kept).toHaveLength(1)
  })

  it("parses nothing into objects when no import is from the protocol package", () => {
    const text = `// mentions ${PKG} in a comment only\n${HELPERS}`
    const { result, whole, kept } = read(text)
    expect(result).toMatchObject({ anchors: [], findings: [] })
    expect([...whole, ...kept]).toEqual([])
  })

  it("keeps an export that misplaces a builder call, so the warning survives", () => {
    const text = `import { codeAnchor } from "${PKG}"\nexport function f() {\n  return codeAnchor({ id: "impl:a.b" })\n}\n`
    const { result, whole, kept } = read(text)
    expect(result.findings.map((f) => [f.line, f.code])).toEqual([[3, "extract/misplaced-authoring"]])
    expect(whole).toEqual([])
    expect(kept).toHaveLength(1)
  })

  it("reads comment-form anchors without the whole AST, refusing those inside a statement", () => {
    const text = [
      `import { codeAnchor } from "${PKG}"`,
      "/**",
      " * @sdpAnchor impl:a.top",
      " * @sdpSatisfies spec:a.b",
      " */",
      "export function g() {",
      "  /** @sdpAnchor impl:a.inner */",
      "  return 1",
      "}",
      "export /** @sdpAnchor impl:a.between */ const n = 1",
      "const o = { /** @sdpAnchor impl:a.object */ k: 1 }",
      `export const a = codeAnchor({ id: "impl:a.b" })`,
      "/** @sdpAnchor impl:a.last */",
      ""
    ].join("\n")
    const { result, whole } = read(text)
    expect(result.anchors.map((a) => a.id)).toEqual(["impl:a.top", "impl:a.b", "impl:a.last"])
    expect(result.findings.map((f) => [f.line, f.code])).toEqual([
      [7, "extract/invalid-anchor-comment"],
      [10, "extract/invalid-anchor-comment"],
      [11, "extract/invalid-anchor-comment"]
    ])
    expect(whole).toEqual([])
  })

  it("reads type-only imports as binding nothing, as the whole AST does", () => {
    const text = [
      `import type { codeAnchor } from "${PKG}"`,
      `import type * as sdp from "${PKG}"`,
      `import { type specTest, ref } from "${PKG}"`,
      `export const a = codeAnchor({ id: "impl:a.b" })`,
      `export const b = sdp.codeAnchor({ id: "impl:a.c" })`,
      `export const c = specTest({ id: "test:a.d", verifies: ref("spec:a.b") })`,
      ""
    ].join("\n")
    const { result, whole } = read(text)
    expect(result.anchors).toEqual([])
    expect(whole).toEqual([])
  })

  const typeScriptOnly: Array<[string, string]> = [
    ["a parameter decorator", `export class A { m(@codeAnchor({ id: "impl:a.b" }) x: number) {} }`],
    ["a type annotation", `export const t: { [codeAnchor({ id: "impl:a.b" })]: string } = {}`],
    ["a return type", `export function f(): { [codeAnchor()]: 1 } { return null! }`],
    ["a mention in a string", `export const s = codeAnchor({ id: "impl:a.b", label: "codeAnchor" })`]
  ]
  for (const [where, statement] of typeScriptOnly) {
    it(`reads a builder name in ${where} as the whole AST does`, () => {
      const { whole, kept } = read(`import { codeAnchor } from "${PKG}"\n${statement}\n`)
      expect(whole).toEqual([])
      expect(kept).toHaveLength(1)
    })
  }

  it("reads exports nested in a module declaration as the whole AST does (the span lookups assume disjoint statements)", () => {
    const text = [
      `import { codeAnchor } from "${PKG}"`,
      `declare module "m" { export const inner = codeAnchor({ id: "impl:a.inner" }); export const other = 1 }`,
      `export const a = codeAnchor({ id: "impl:a.b" })`,
      ""
    ].join("\n")
    const { result } = read(text)
    expect(result.anchors.map((a) => a.id)).toEqual(["impl:a.b"])
    expect(result.findings.map((f) => f.code)).toEqual(["extract/misplaced-authoring"])
  })

  it("reads a file with a hashbang and non-ASCII text as the whole AST does (UTF-16 offsets)", () => {
    const text = `#!/usr/bin/env node\n/** @sdpAnchor impl:a.top */ // é\nimport { codeAnchor } from "${PKG}"\nconst s = "😀"\nexport const a = codeAnchor({ id: "impl:a.b", label: "ü😀" })\n`
    const { result, whole } = read(text)
    expect(result.anchors.map((a) => [a.id, a.line])).toEqual([
      ["impl:a.top", 2],
      ["impl:a.b", 5]
    ])
    expect(whole).toEqual([])
  })

  it("reads lone surrogates as U+FFFD, as the JSON route's trip through UTF-8 does (found by fuzzing)", () => {
    const text = `import { codeAnchor } from "${PKG}"\n/** @sdpAnchor impl:a.\udfffc */\nexport const a = codeAnchor({ id: "impl:a.\ud800b" })\n`
    const { result, whole } = read(text)
    expect(result.findings.map((f) => f.message.includes("\ufffd"))).toEqual([true, true])
    expect(whole).toEqual([])
  })

  it("takes the whole AST when a kept statement nests deeper than oxc's deserializer can recurse (found by fuzzing)", () => {
    // One template a line: on one long line the code-frame bound (anchors-depth.ts) would refuse the file first.
    const text = `import { codeAnchor } from "${PKG}"\nexport const t = codeAnchor({ id: "impl:a.b" })${"``\n".repeat(50_000)}`
    const { result, whole, kept } = read(text)
    expect(result.findings.map((f) => f.code)).toEqual(["extract/misplaced-authoring"])
    expect(kept).toHaveLength(1)
    expect(whole).toEqual([text])
  })

  const wholeRoute: Array<[string, string]> = [
    ["a non-exported anchor const", `import { codeAnchor } from "${PKG}"\n${HELPERS}\nconst local = codeAnchor({ id: "impl:a.local" })\n`],
    ["a builder name in a comment", `import { codeAnchor } from "${PKG}"\n// codeAnchor binds code\nexport const a = codeAnchor({ id: "impl:a.b" })\n`],
    ["a \\u escape that could spell a builder", `import { codeAnchor } from "${PKG}"\nexport const a = code\\u0041nchor({ id: "impl:a.b" })\n`],
    // oxc 0.159 records the export in the module record and reports no error; the AST holds a
    // labeled statement, so the call is misplaced (found by fuzzing).
    ["a label before an export", `import { codeAnchor } from "${PKG}"\nk:\nexport const a = codeAnchor({ id: "impl:a.b" })\n`]
  ]
  for (const [why, text] of wholeRoute) {
    it(`takes the whole AST for ${why}, and reads the same`, () => {
      const { whole } = read(text)
      expect(whole).toEqual([text])
    })
  }

  it("takes the whole AST for every file when the transfer buffer cannot be had", async () => {
    expect(rawParser(await loadOxcRaw(), 2 ** 60)).toBeNull()
    const { parser, whole } = recording()
    const { outline: _, ...withoutOutline } = parser
    expect(parseAnchors(FILE, exported, OFF, withoutOutline)).toEqual(parseAnchors(FILE, exported, OFF, PARSER))
    expect(whole).toEqual([exported])
  })
})

describe("the outline", () => {
  /** oxc's JSON route, in the outline's shape. */
  const fromJson = (text: string) => {
    const r = parseSync(FILE, text)
    return {
      errors: r.errors.map((e) => ({ severity: e.severity, message: e.message, labels: e.labels.map((l) => ({ start: l.start, end: l.end })) })),
      comments: r.comments.map(({ type, value, start, end }) => ({ type, value, start, end })),
      imports: r.module.staticImports.map((i) => ({
        start: i.start,
        end: i.end,
        source: i.moduleRequest.value,
        entries: i.entries.map((e) => ({ local: e.localName.value, isType: e.isType }))
      })),
      exports: r.module.staticExports.map(({ start, end }) => ({ start, end })),
      statements: r.program.body.map(({ start, end }) => ({ start, end }))
    }
  }

  const texts: Array<[string, string]> = [
    [
      "imports, exports and comments",
      `${exported}export * from "../services/other"\nexport { total as sum } from "../services/helpers"\nexport default 1\n// tail`
    ],
    ["type-only imports", `import type { a } from "x"\nimport { type b, c } from "y"\nimport type * as T from "z"\nimport d, * as e from "w"\n`],
    ["non-ASCII text before and inside everything", `const s = "😀é"; /* c😀 */ export function f(x: number) { return "é" } // ü\nimport { q } from "p😀"\n`],
    ["a hashbang", `#!/usr/bin/env node\n/** x */\nexport const a = 1\n`],
    ["a syntax error", `import { a } from "p"\nexport const z = a(( \n`],
    ["directives before the statements", `"use strict"\n'use client' /* d */\n/** c */\nexport const a = 1\n`],
    ["escaped names and sources (strings the parser stores outside the source text)", `import { a as \\u0062, \\u{63} } from "p\\u00e9\\x41"\nexport { b }\n`]
  ]
  for (const [what, text] of texts) {
    it(`is what oxc's JSON route gives: ${what}`, () => {
      expect(outlineOf(text)).toEqual(fromJson(text))
    })
  }

  it("is copied out of the buffer: an outline survives the next parse", () => {
    const first = outlineOf(exported)
    const copy = JSON.parse(JSON.stringify(first)) as Outline
    outlineOf(`import { x } from "y"\n/** other */\nexport const other = 2\n`)
    OUTLINE.parseKept(FILE, "export const z = 3\n")
    expect(first).toEqual(copy)
  })
})

describe("keptStatements and blankOutside", () => {
  it("finds word-bounded mentions only", () => {
    expect(wordOffsets("ref refs xref ref$ ref(a) $ref", "ref")).toEqual([0, 19])
  })

  it("returns the import and export spans in file order", () => {
    const spans = keptStatements(exported, outlineOf(exported), FILE, false)
    expect(spans?.map((s) => exported.slice(s.start, s.end).split("\n")[0])).toEqual([
      `import { codeAnchor, codeAnchorId, ref } from "${PKG}"`,
      "export const create = codeAnchor({"
    ])
  })

  it("blanks everything outside the spans, offsets unchanged, a gap that held a line break ending in one", () => {
    const text = "ab\ncd\u00e9\uD83D\uDE00\nef\ngh ij"
    expect(blankOutside(text, [{ start: 3, end: 5 }])).toBe(`  \ncd${" ".repeat(11)}\n`)
    expect(
      blankOutside(text, [
        { start: 0, end: 2 },
        { start: 3, end: 5 },
        { start: 14, end: 16 }
      ])
    ).toBe(`ab\ncd${" ".repeat(8)}\n i `)
    expect(blankOutside(text, [])).toBe(`${" ".repeat(16)}\n`)
  })

  it("tells whether a span sits inside sorted spans", () => {
    const spans = [
      { start: 0, end: 5 },
      { start: 10, end: 20 },
      { start: 20, end: 30 }
    ]
    expect(
      [
        [1, 4],
        [5, 6],
        [10, 20],
        [12, 21],
        [25, 30],
        [30, 31]
      ].map(([start, end]) => insideSpans(spans, { start, end }))
    ).toEqual([true, false, true, false, true, false])
  })
})

describe("surelyTopLevel: comments placed between statements without the AST", () => {
  /** The comments the shortcut vouches for, by text, each checked against the statement spans. */
  const sure = (text: string): string[] => {
    const outline = outlineOf(text)
    const vouched = surelyTopLevel(text, outline)
    for (const c of vouched) expect(insideSpans(outline.statements, c)).toBe(false)
    return outline.comments.filter((c) => vouched.has(c)).map((c) => text.slice(c.start, c.end))
  }

  it("vouches for comments after the file start, an import, an export, or another such comment", () => {
    const text = [
      "// header",
      `import { codeAnchor } from "${PKG}"`,
      "/** @sdpAnchor impl:a.one */",
      "export const a = 1;",
      "  /* note */ /** @sdpAnchor impl:a.two */",
      "export function f() {}",
      ""
    ].join("\n")
    expect(sure(text)).toEqual(["// header", "/** @sdpAnchor impl:a.one */", "/* note */", "/** @sdpAnchor impl:a.two */"])
  })

  it("leaves to the statement spans comments after other code, inside statements, after a decorator or a hashbang", () => {
    const text = [
      "#!/usr/bin/env node",
      "/** @sdpAnchor impl:a.afterHashbang */",
      "const local = 1",
      "/** @sdpAnchor impl:a.afterLocal */",
      "export const b = /** @sdpAnchor impl:a.inside */ 2",
      "@dec /** @sdpAnchor impl:a.decorated */ export class C {}",
      ""
    ].join("\n")
    expect(sure(text)).toEqual([])
  })
})
