// The kept-statement route of the anchor reader (src/core/read/anchors-slice.ts): which text reaches
// the object-building parse, and that it reads what the whole AST reads.
import { parseSync } from "oxc-parser"
import { parseSync as nativeParseSync } from "oxc-parser/src-js/bindings"
import { describe, expect, it } from "vitest"
import type { AnchorParser } from "../src/core/read/anchors.js"
import { parseAnchors } from "../src/core/read/anchors.js"
import { blankOutside, keptStatements, nativeParse, wordOffsets } from "../src/core/read/anchors-slice.js"
import { WHOLE_AST } from "./support/oxc.js"

const PKG = "@libar-dev/software-delivery-protocol"
const OFF = { selfHosting: false }
const FILE = "src/orders/a.ts"

/** A parser that records every text handed to the object-building parse. */
const recording = () => {
  const texts: string[] = []
  const parser: AnchorParser = {
    parse: (file, text, options) => {
      texts.push(text)
      return parseSync(file, text, options)
    },
    native: nativeParse(nativeParseSync)
  }
  return { parser, texts }
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

const read = (text: string) => {
  const { parser, texts } = recording()
  const result = parseAnchors(FILE, text, OFF, parser)
  expect(result).toEqual(parseAnchors(FILE, text, OFF, WHOLE_AST))
  return { result, texts }
}

describe("the kept-statement route", () => {
  it("builds objects only for the trusted import and the anchor's export statement", () => {
    const { result, texts } = read(exported)
    expect(result.anchors.map((a) => [a.id, a.line])).toEqual([["impl:orders.create", 12]])
    expect(texts).toHaveLength(1)
    const [kept] = texts
    expect(kept).toHaveLength(exported.length)
    expect(kept.split("\n").length).toBe(exported.split("\n").length)
    expect(kept).toContain(`import { codeAnchor, codeAnchorId, ref } from "${PKG}"`)
    expect(kept).toContain("export const create = codeAnchor({")
    expect(kept).not.toContain("reduce")
    expect(kept).not.toContain("class Store")
  })

  it("parses nothing into objects when no import is from the protocol package", () => {
    const text = `// mentions ${PKG} in a comment only\n${HELPERS}`
    const { result, texts } = read(text)
    expect(result).toMatchObject({ anchors: [], findings: [] })
    expect(texts).toEqual([])
  })

  it("keeps an export that misplaces a builder call, so the warning survives", () => {
    const text = `import { codeAnchor } from "${PKG}"\nexport function f() {\n  return codeAnchor({ id: "impl:a.b" })\n}\n`
    const { result, texts } = read(text)
    expect(result.findings.map((f) => [f.line, f.code])).toEqual([[3, "extract/misplaced-authoring"]])
    expect(texts).toHaveLength(1)
    expect(texts[0]).toContain("export function f()")
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
    const { result, texts } = read(text)
    expect(result.anchors.map((a) => a.id)).toEqual(["impl:a.top", "impl:a.b", "impl:a.last"])
    expect(result.findings.map((f) => [f.line, f.code])).toEqual([
      [7, "extract/invalid-anchor-comment"],
      [10, "extract/invalid-anchor-comment"],
      [11, "extract/invalid-anchor-comment"]
    ])
    expect(texts).toHaveLength(1)
    expect(texts[0]).not.toContain("return 1")
  })

  const wholeRoute: Array<[string, string]> = [
    ["a non-exported anchor const", `import { codeAnchor } from "${PKG}"\n${HELPERS}\nconst local = codeAnchor({ id: "impl:a.local" })\n`],
    ["a builder name in a comment", `import { codeAnchor } from "${PKG}"\n// codeAnchor binds code\nexport const a = codeAnchor({ id: "impl:a.b" })\n`],
    ["a \\u escape that could spell a builder", `import { codeAnchor } from "${PKG}"\nexport const a = code\\u0041nchor({ id: "impl:a.b" })\n`]
  ]
  for (const [why, text] of wholeRoute) {
    it(`takes the whole AST for ${why}, and reads the same`, () => {
      const { texts } = read(text)
      expect(texts).toEqual([text])
    })
  }
})

describe("keptStatements and blankOutside", () => {
  it("finds word-bounded mentions only", () => {
    expect(wordOffsets("ref refs xref ref$ ref(a) $ref", "ref")).toEqual([0, 19])
  })

  it("returns the import and export spans in file order", () => {
    const native = nativeParseSync(FILE, exported)
    const spans = keptStatements(exported, native.module, FILE, false)
    expect(spans?.map((s) => exported.slice(s.start, s.end).split("\n")[0])).toEqual([
      `import { codeAnchor, codeAnchorId, ref } from "${PKG}"`,
      "export const create = codeAnchor({"
    ])
  })

  it("blanks everything outside the spans but newlines, so offsets and lines stay", () => {
    const text = "ab\ncd\u00e9\uD83D\uDE00\nef\n"
    const out = blankOutside(text, [{ start: 3, end: 5 }])
    expect(out).toHaveLength(text.length)
    expect(out).toBe("  \ncd   \n  \n")
  })
})
