// The kept-statement route of the anchor reader (src/core/read/anchors-slice.ts): which text reaches
// the object-building parse, and that it reads what the whole AST reads.
import { parseSync } from "oxc-parser"
import { parseSync as nativeParseSync } from "oxc-parser/src-js/bindings"
import { describe, expect, it } from "vitest"
import type { AnchorParser } from "../src/core/read/anchors.js"
import { parseAnchors } from "../src/core/read/anchors.js"
import { blankOutside, keptNodesFromJson, keptStatements, nativeParse, spannedByNode, surelyTopLevel, wordOffsets } from "../src/core/read/anchors-slice.js"
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
  it("builds objects only for the trusted import and the anchor's export statement, cut from the native JSON", () => {
    const { result, texts } = read(exported)
    expect(result.anchors.map((a) => [a.id, a.line])).toEqual([["impl:orders.create", 12]])
    expect(texts).toEqual([])
  })

  it("parses the blanked text instead when a kept statement holds a literal oxc fixes up (a regular expression)", () => {
    const text = exported.replace('satisfies: ref("spec:orders.create-order")', 'satisfies: ref("spec:orders.create-order"),\n  label: /x/.source')
    const { result, texts } = read(text)
    expect(result.findings.map((f) => f.code)).toEqual(["extract/non-static-section"])
    expect(texts).toHaveLength(1)
    const [kept] = texts
    expect(kept).toHaveLength(text.length)
    expect(kept.split("\n").length).toBe(text.split("\n").length)
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
    expect(texts).toEqual([])
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
    expect(texts).toEqual([])
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
    const kept = keptStatements(exported, native.module, FILE, false)
    expect(kept?.spans.map((s) => exported.slice(s.start, s.end).split("\n")[0])).toEqual([
      `import { codeAnchor, codeAnchorId, ref } from "${PKG}"`,
      "export const create = codeAnchor({"
    ])
    // The three mentions of bound names in the export, each an Identifier of the AST.
    expect(kept?.mentions.map((m) => exported.slice(m, m + 4))).toEqual(["code", "code", "ref("])
  })

  const cut = (text: string) => {
    const native = nativeParse(nativeParseSync)(FILE, text)
    const kept = keptStatements(text, native.module, FILE, false)
    if (kept === null) throw new Error("expected the kept route")
    return { native, kept, nodes: keptNodesFromJson(text, native.programJson, kept, native.module.staticImports) }
  }

  it("cuts the kept statements out of the native JSON as oxc's JavaScript-shaped AST holds them, import kinds restored", () => {
    const text = [
      `import { codeAnchor, type codeAnchorId, ref } from "${PKG}"`,
      `import type * as T from "${PKG}"`,
      `import def, * as ns from "${PKG}"`,
      exported.split("\n").slice(1).join("\n"),
      `export default { a: [1, "x", null, true], b: ns, c: def }`,
      `export * from "./other"`,
      `export function f<T>(a: T, b?: string): void { codeAnchor }`,
      ""
    ].join("\n")
    const { native, kept, nodes } = cut(text)
    // Kept: every statement but `export * from` and `export function total`, which mention no bound name.
    expect(native.module.staticImports.length + native.module.staticExports.length).toBe(8)
    expect(kept.spans.length).toBe(6)
    const whole = parseSync(FILE, text, { astType: "js" }).program.body.filter((s) => kept.spans.some((k) => k.start === s.start))
    const kinds: Array<[string, ReadonlyArray<string | undefined>]> = [
      ["value", ["value", "type", "value"]],
      ["type", [undefined]],
      ["value", [undefined, undefined]]
    ]
    whole.slice(0, 3).forEach((node, i) => {
      Object.assign(node, { importKind: kinds[i][0] })
      if (node.type === "ImportDeclaration") node.specifiers.forEach((s, j) => kinds[i][1][j] !== undefined && Object.assign(s, { importKind: kinds[i][1][j] }))
    })
    expect(nodes).toEqual(JSON.parse(JSON.stringify(whole)))
    // The TypeScript-shaped whole AST holds the same kinds.
    const full = parseSync(FILE, text).program.body
    expect(full.slice(0, 3).map((n) => n.type === "ImportDeclaration" && [n.importKind, n.specifiers.map((s) => (s.type === "ImportSpecifier" ? s.importKind : undefined))])).toEqual(kinds)
  })

  it("restores type-only imports so they bind nothing, as on the whole AST", () => {
    const text = [
      `import type { codeAnchor } from "${PKG}"`,
      `import type * as sdp from "${PKG}"`,
      `import { type specTest, ref } from "${PKG}"`,
      `export const a = codeAnchor({ id: "impl:a.b" })`,
      `export const b = sdp.codeAnchor({ id: "impl:a.c" })`,
      `export const c = specTest({ id: "test:a.d", verifies: ref("spec:a.b") })`,
      ""
    ].join("\n")
    const { nodes } = cut(text)
    expect(nodes?.slice(0, 3).map((n) => [n.importKind, (n.specifiers as Array<{ importKind?: string }>).map((s) => s.importKind)])).toEqual([
      ["type", ["type"]],
      ["type", [undefined]],
      ["value", ["type", "value"]]
    ])
    const { result, texts } = read(text)
    expect(result.anchors).toEqual([])
    expect(texts).toEqual([])
  })

  it("declines (null) when a span is not a statement's or oxc must fix a literal", () => {
    const native = nativeParse(nativeParseSync)(FILE, exported)
    expect(keptNodesFromJson(exported, native.programJson, { spans: [{ start: 1, end: 5 }], mentions: [] }, [])).toBeNull()
    const withRegex = nativeParse(nativeParseSync)(FILE, "export const r = /x/\n")
    expect(keptNodesFromJson("export const r = /x/\n", withRegex.programJson, { spans: withRegex.module.staticExports, mentions: [] }, [])).toBeNull()
  })

  const dropped: Array<[string, string]> = [
    ["a parameter decorator", `export class A { m(@codeAnchor({ id: "impl:a.b" }) x: number) {} }`],
    ["a type annotation", `export const t: { [codeAnchor({ id: "impl:a.b" })]: string } = {}`],
    ["a return type", `export function f(): { [codeAnchor()]: 1 } { return null! }`],
    ["a mention in a string", `export const s = codeAnchor({ id: "impl:a.b", label: "codeAnchor" })`]
  ]
  for (const [where, statement] of dropped) {
    it(`declines when a bound name sits where the JavaScript shape has no Identifier for it: ${where}`, () => {
      const text = `import { codeAnchor } from "${PKG}"\n${statement}\n`
      expect(cut(text).nodes).toBeNull()
      // The full parse of the blanked copy reads what the whole AST reads.
      const { texts } = read(text)
      expect(texts).toHaveLength(1)
    })
  }

  it("reads a file with a hashbang as the whole AST does (the JavaScript shape lists it as a comment)", () => {
    const text = `#!/usr/bin/env node\n/** @sdpAnchor impl:a.top */\nimport { codeAnchor } from "${PKG}"\nexport const a = codeAnchor({ id: "impl:a.b" })\n`
    const { result, texts } = read(text)
    expect(result.anchors.map((a) => [a.id, a.line])).toEqual([["impl:a.top", 2], ["impl:a.b", 4]])
    expect(texts).toEqual([])
  })

  it("finds each kept statement deep in a long file (the binary-searched floor)", () => {
    const filler = Array.from({ length: 400 }, (_, i) => `export function f${i}(a: number): number { return a * ${i} + [1, 2, 3].length }`).join("\n")
    const text = `import { codeAnchor } from "${PKG}"\n${filler}\nexport const a = codeAnchor({ id: "impl:a.mid" })\n${filler.replace(/f(\d+)/g, "g$1")}\nexport const b = codeAnchor({ id: "impl:a.end" })\n`
    const { nodes } = cut(text)
    expect(nodes?.map((n) => n.type)).toEqual(["ImportDeclaration", "ExportNamedDeclaration", "ExportNamedDeclaration"])
    const { result, texts } = read(text)
    expect(result.anchors.map((a) => a.id)).toEqual(["impl:a.mid", "impl:a.end"])
    expect(texts).toEqual([])
  })

  it("blanks everything outside the spans but newlines, so offsets and lines stay", () => {
    const text = "ab\ncd\u00e9\uD83D\uDE00\nef\n"
    const out = blankOutside(text, [{ start: 3, end: 5 }])
    expect(out).toHaveLength(text.length)
    expect(out).toBe("  \ncd   \n  \n")
  })
})

describe("surelyTopLevel: comments placed between statements without the AST", () => {
  /** The comments the shortcut vouches for, by text, each checked against the AST search. */
  const sure = (text: string): string[] => {
    const native = nativeParse(nativeParseSync)(FILE, text)
    const vouched = surelyTopLevel(text, native.module, native.comments)
    for (const c of vouched) expect(spannedByNode(native.programJson, c)).toBe(false)
    return native.comments.filter((c) => vouched.has(c)).map((c) => text.slice(c.start, c.end))
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

  it("leaves to the AST search comments after other code, inside statements, after a decorator or a hashbang", () => {
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
