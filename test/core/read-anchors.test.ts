import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { mayHoldAnchor, mayHoldAnchorBytes, parseAnchors } from "../../src/core/read/anchors.js"
import { PARSER, WHOLE_AST } from "../support/oxc.js"
import { PROTOCOL_PACKAGE as PKG } from "../../src/core/protocol-package.js"

const OFF = { selfHosting: false }
/** Every case also checks that the kept-statement route reads exactly what the whole AST reads. */
const read = (text: string, file = "src/orders/a.ts", options = OFF) => {
  const result = parseAnchors(file, text, options, PARSER)
  expect(result).toEqual(parseAnchors(file, text, options, WHOLE_AST))
  return result
}
const errors = (r: ReturnType<typeof read>) => r.findings.filter((f) => f.severity === "error")

describe("parseAnchors: the constant form", () => {
  it("reads a named import's codeAnchor with id builders, label and single satisfies", () => {
    const r = read(`import { codeAnchor, codeAnchorId, ref } from "${PKG}"

export const create = codeAnchor({
  id: codeAnchorId("impl:orders.create"),
  label: "create()",
  satisfies: ref("spec:orders.create-order")
})
`)
    expect(r.findings).toEqual([])
    expect(r.anchors).toEqual([
      {
        id: "impl:orders.create",
        nodeType: "CodeNode",
        flavor: "code",
        form: "constant",
        label: "create()",
        file: "src/orders/a.ts",
        line: 3,
        satisfies: ["spec:orders.create-order"],
        verifies: [],
        models: [],
        references: [],
        component: null,
        uses: [],
        role: null,
        layer: null,
        context: null
      }
    ])
  })

  it("reads a renamed named import", () => {
    const r = read(`import { codeAnchor as anchor, ref as r } from "${PKG}"
const x = anchor({ id: "api:orders.post", satisfies: r("spec:orders.create-order") })
`)
    expect(r.anchors.map((a) => [a.id, a.line, a.satisfies])).toEqual([["api:orders.post", 2, ["spec:orders.create-order"]]])
  })

  it("reads a namespace import", () => {
    const r = read(`import * as sdp from "${PKG}"
export const t = sdp.specTest({ id: sdp.testAnchorId("test:orders.a"), verifies: sdp.ref("spec:orders.a") })
`)
    expect(r.anchors.map((a) => [a.id, a.nodeType, a.flavor, a.verifies])).toEqual([["test:orders.a", "Anchor", "test", ["spec:orders.a"]]])
  })

  it("reads a default import", () => {
    const r = read(`import sdp from "${PKG}"
export const o = sdp.specOracle({ id: "oracle:orders.a", models: "spec:orders.a" })
`)
    expect(r.anchors.map((a) => [a.id, a.flavor, a.models])).toEqual([["oracle:orders.a", "oracle", ["spec:orders.a"]]])
  })

  it("reads builders from the /anchors subpath", () => {
    const r = read(`import { specOracle } from "${PKG}/anchors"
export const o = specOracle({ id: "oracle:orders.a", models: "spec:orders.a" })
`)
    expect(r.anchors.map((a) => a.id)).toEqual(["oracle:orders.a"])
  })

  it("ignores builders imported from any other module", () => {
    const r = read(`import { codeAnchor } from "./local-${"x"}"
// ${PKG}
export const a = codeAnchor({ id: "impl:a.b" })
`)
    expect(r).toMatchObject({ anchors: [], findings: [] })
  })

  it("reads plural satisfies and verifies as arrays, with as-casts", () => {
    const r = read(`import { codeAnchor, specTest, ref } from "${PKG}"
export const a = codeAnchor({ id: "impl:a.b" as const, satisfies: [ref("spec:a.one"), "spec:a.two" as string] as const })
export const t = specTest({ id: "test:a.b", verifies: [ref("spec:a.one"), ref("spec:a.two")] })
`)
    expect(r.anchors.map((a) => [a.id, a.satisfies, a.verifies])).toEqual([
      ["impl:a.b", ["spec:a.one", "spec:a.two"], []],
      ["test:a.b", [], ["spec:a.one", "spec:a.two"]]
    ])
  })

  it("reads references on a code anchor and an identity-only code anchor", () => {
    const r = read(`import { codeAnchor, specId } from "${PKG}"
export const a = codeAnchor({ id: "impl:a.b", satisfies: "spec:a.one", references: [specId("spec:decisions.d")] })
export const b = codeAnchor({ id: "impl:a.c" })
`)
    expect(r.findings).toEqual([])
    expect(r.anchors.map((a) => [a.id, a.satisfies, a.references])).toEqual([
      ["impl:a.b", ["spec:a.one"], ["spec:decisions.d"]],
      ["impl:a.c", [], []]
    ])
  })

  it("reads component and uses", () => {
    const r = read(`import { codeAnchor, codeAnchorId, componentAnchorId } from "${PKG}"
export const a = codeAnchor({
  id: codeAnchorId("impl:a.b"),
  component: componentAnchorId("component:a.svc"),
  uses: [codeAnchorId("impl:a.ledger"), "api:a.gateway"]
})
`)
    expect(r.anchors.map((a) => [a.component, a.uses])).toEqual([["component:a.svc", ["impl:a.ledger", "api:a.gateway"]]])
  })

  it("reads role, and layer/context on a component anchor", () => {
    const r = read(`import { codeAnchor } from "${PKG}"
export const c = codeAnchor({ id: "component:a.svc", role: "service", layer: "domain", context: "ordering" })
`)
    expect(r.anchors.map((a) => [a.role, a.layer, a.context])).toEqual([["service", "domain", "ordering"]])
  })

  it("refuses layer on a non-component anchor and an unknown layer, dropping only that anchor", () => {
    const r = read(`import { codeAnchor } from "${PKG}"
export const a = codeAnchor({ id: "impl:a.b", layer: "domain" })
export const c = codeAnchor({ id: "component:a.c", layer: "core" })
export const ok = codeAnchor({ id: "impl:a.ok" })
`)
    expect(r.anchors.map((a) => a.id)).toEqual(["impl:a.ok"])
    expect(errors(r).map((f) => f.line)).toEqual([2, 3])
  })

  it("refuses a target in both satisfies and references", () => {
    const r = read(`import { codeAnchor } from "${PKG}"
export const a = codeAnchor({ id: "impl:a.b", satisfies: "spec:a.x", references: ["spec:a.x"] })
`)
    expect(r.anchors).toEqual([])
    expect(errors(r)).toEqual([expect.objectContaining({ line: 2, message: expect.stringContaining("both satisfies and references") })])
  })

  it("refuses a bad id, a non-static value and an unknown property, keeping the healthy sibling", () => {
    const r = read(`import { codeAnchor, specTest } from "${PKG}"
const target = "spec:a.x"
export const bad = codeAnchor({ id: "impl:a_b" })
export const dyn = codeAnchor({ id: "impl:a.dyn", satisfies: target })
export const extra = specTest({ id: "test:a.t", verifies: "spec:a.x", readiness: "ready" })
export const wrongNs = specTest({ id: "impl:a.t", verifies: "spec:a.x" })
export const good = codeAnchor({ id: "impl:a.good", satisfies: "spec:a.x" })
`)
    expect(r.anchors.map((a) => a.id)).toEqual(["impl:a.good"])
    expect(errors(r).map((f) => [f.line, f.code])).toEqual([
      [3, "extract/invalid-id"],
      [4, "extract/non-static-envelope"],
      [5, "extract/unrecognized-property"],
      [6, "extract/invalid-id"]
    ])
  })

  it("drops a non-static label with a warning and keeps the anchor", () => {
    const r = read(`import { codeAnchor } from "${PKG}"
const name = "x"
export const a = codeAnchor({ id: "impl:a.b", label: name })
`)
    expect(r.anchors.map((a) => [a.id, a.label])).toEqual([["impl:a.b", null]])
    expect(r.findings).toEqual([expect.objectContaining({ line: 3, severity: "warning", code: "extract/non-static-section" })])
  })

  it("warns extract/misplaced-authoring for a builder call that is not a top-level const", () => {
    const r = read(`import { codeAnchor } from "${PKG}"
export function f() {
  const inner = codeAnchor({ id: "impl:a.inner" })
  return inner
}
export let later = codeAnchor({ id: "impl:a.let" })
`)
    expect(r.anchors).toEqual([])
    expect(r.findings.map((f) => [f.line, f.code, f.severity])).toEqual([
      [3, "extract/misplaced-authoring", "warning"],
      [6, "extract/misplaced-authoring", "warning"]
    ])
  })

  it("reports a syntax error as one error finding and reads no anchor", () => {
    const r = read(`import { codeAnchor } from "${PKG}"
export const a = codeAnchor({ id: "impl:a.b" })
export const = broken(
`)
    expect(r.anchors).toEqual([])
    expect(r.findings).toEqual([expect.objectContaining({ line: 3, code: "extract/parse-error", severity: "error" })])
  })

  it("keeps the right line after non-ASCII text (astral and accented characters)", () => {
    const r = read(`// Überprüfung der Bestellung 😀😀 — 注文
import { codeAnchor } from "${PKG}"
const s = "ß😀"
/** ✓ émoji 🎉 */

export const a = codeAnchor({ id: "impl:a.b" })
/**
 * 😀 naïve
 * @sdpAnchor impl:a.c
 */
`)
    expect(r.anchors.map((a) => [a.id, a.line])).toEqual([
      ["impl:a.b", 6],
      ["impl:a.c", 7]
    ])
  })
})

describe("parseAnchors: lines (property)", () => {
  it("puts both forms on the right line whatever non-ASCII text precedes them", () => {
    // Line comments of arbitrary text (JS line terminators excluded: they would end the comment).
    const line = fc.string({ unit: "grapheme", maxLength: 12 }).map((t) => t.replace(/[\n\r\u2028\u2029]/g, " "))
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.array(line, { maxLength: 8 }), (before, between) => {
        const head = before.map((t) => `// ${t}`)
        const mid = between.map((t) => `// ${t}`)
        const text = [
          `import { codeAnchor } from "${PKG}"`,
          ...head,
          `export const a = codeAnchor({ id: "impl:a.b" })`,
          ...mid,
          "/** @sdpAnchor impl:a.c */",
          ""
        ].join("\n")
        const r = read(text)
        expect(r.findings).toEqual([])
        expect(r.anchors.map((a) => a.line)).toEqual([2 + head.length, 3 + head.length + mid.length])
      }),
      { numRuns: 200 }
    )
  })
})

describe("parseAnchors: the comment form", () => {
  it("reads a camelCase block with every code tag", () => {
    const r = read(`/**
 * Renews an order. Prose first.
 *
 * @sdpAnchor impl:orders.renew
 * @sdpLabel renew()
 * @sdpSatisfies spec:orders.renewal, spec:orders.renewal-limit
 * @sdpReferences spec:decisions.period
 * @sdpComponent component:orders.svc
 * @sdpUses impl:orders.ledger, api:orders.post
 * @sdpRole service
 * @param x ordinary tags after the reserved ones are ignored
 */
export function renew(x: number) { return x }
`)
    expect(r.findings).toEqual([])
    expect(r.anchors).toEqual([
      {
        id: "impl:orders.renew",
        nodeType: "CodeNode",
        flavor: "code",
        form: "comment",
        label: "renew()",
        file: "src/orders/a.ts",
        line: 1,
        satisfies: ["spec:orders.renewal", "spec:orders.renewal-limit"],
        verifies: [],
        models: [],
        references: ["spec:decisions.period"],
        component: "component:orders.svc",
        uses: ["impl:orders.ledger", "api:orders.post"],
        role: "service",
        layer: null,
        context: null
      }
    ])
  })

  it("reads the kebab spelling too (test and oracle flavors, component layer/context)", () => {
    const r = read(`/** @sdp-anchor test:orders.valid */
/**
 * @sdp-anchor oracle:orders.create
 * @sdp-models spec:orders.create
 */
/**
 * @sdp-anchor component:orders.svc
 * @sdp-layer application
 * @sdp-context ordering
 */
`)
    expect(errors(r).map((f) => f.line)).toEqual([1])
    expect(r.anchors.map((a) => [a.id, a.flavor, a.line, a.models, a.layer, a.context])).toEqual([
      ["oracle:orders.create", "oracle", 2, ["spec:orders.create"], null, null],
      ["component:orders.svc", "code", 6, [], "application", "ordering"]
    ])
  })

  it("reads a block before the imports and a block at the end of the file", () => {
    const r = read(`/**
 * @sdpAnchor test:a.first
 * @sdpVerifies spec:a.x
 */
import { something } from "./x.js"

export const y = something

/**
 * @sdpAnchor test:a.last
 * @sdpVerifies spec:a.y
 */
`)
    expect(r.anchors.map((a) => [a.id, a.line, a.verifies])).toEqual([
      ["test:a.first", 1, ["spec:a.x"]],
      ["test:a.last", 9, ["spec:a.y"]]
    ])
  })

  it("refuses a reserved tag in a nested comment", () => {
    const r = read(`export function f() {
  /**
   * @sdpAnchor impl:a.nested
   */
  return 1
}
`)
    expect(r.anchors).toEqual([])
    expect(r.findings).toEqual([expect.objectContaining({ line: 2, severity: "error", code: "extract/invalid-anchor-comment" })])
  })

  it("refuses a block with prose after the tags, two anchors, or an unknown @sdp tag", () => {
    const r = read(`/**
 * @sdpAnchor impl:a.one
 * continues here
 */
/**
 * @sdpAnchor impl:a.two
 * @sdpAnchor impl:a.three
 */
/**
 * @sdpAnchor impl:a.four
 * @sdpImplements spec:a.x
 */
/** @sdpAnchor impl:a.ok */
`)
    expect(r.anchors.map((a) => a.id)).toEqual(["impl:a.ok"])
    expect(errors(r).map((f) => f.line)).toEqual([3, 7, 11])
  })

  it("refuses a tag that the flavor does not take, and a non-kebab role", () => {
    const r = read(`/**
 * @sdpAnchor test:a.t
 * @sdpSatisfies spec:a.x
 */
/**
 * @sdpAnchor impl:a.i
 * @sdpRole ReadModel
 */
`)
    expect(r.anchors).toEqual([])
    expect(errors(r).map((f) => [f.line, f.message])).toEqual([
      [1, 'a test anchor may not carry "satisfies"'],
      [1, "a test anchor needs verifies"],
      [5, 'role "ReadModel" must be one lowercase kebab token']
    ])
  })
})

describe("parseAnchors: self-hosting", () => {
  const text = `import { codeAnchor } from "../model/code-anchor.js"
import { codeAnchorId, ref } from "../ids.js"
export const a = codeAnchor({ id: codeAnchorId("impl:protocol.x"), satisfies: ref("spec:p.x") })
`
  it("trusts relative imports of src/model/code-anchor.ts and src/ids.ts when self-hosting", () => {
    const r = read(text, "src/extract/x.ts", { selfHosting: true })
    expect(r.anchors.map((a) => [a.id, a.satisfies])).toEqual([["impl:protocol.x", ["spec:p.x"]]])
  })

  it("does not trust them when the root is not the protocol package", () => {
    expect(read(text, "src/extract/x.ts", OFF).anchors).toEqual([])
  })

  it("does not trust the barrel src/index.ts", () => {
    const barrel = `import { codeAnchor, codeAnchorId } from "../src/index.js"
export const a = codeAnchor({ id: codeAnchorId("impl:protocol.x") })
`
    expect(read(barrel, "test/builders.typecheck.ts", { selfHosting: true })).toMatchObject({ anchors: [], findings: [] })
  })

  it("resolves the relative specifier against the file's folder", () => {
    // From src/model/, "../ids.js" is src/ids.ts but "./ids.js" would be src/model/ids.ts.
    const wrong = `import { codeAnchor } from "./code-anchor.js"
export const a = codeAnchor({ id: "impl:p.y" })
`
    expect(read(wrong, "src/model/other.ts", { selfHosting: true }).anchors.map((a) => a.id)).toEqual(["impl:p.y"])
    expect(read(wrong, "src/extract/other.ts", { selfHosting: true }).anchors).toEqual([])
  })
})

describe("mayHoldAnchor", () => {
  it("is false for a file without any marker", () => {
    expect(mayHoldAnchor(`export const x = 1\n/** @param y */\n`, { selfHosting: true })).toBe(false)
  })

  it("is true for the package specifier and both comment spellings", () => {
    expect(mayHoldAnchor(`import { codeAnchor } from "${PKG}"`, OFF)).toBe(true)
    expect(mayHoldAnchor("/** @sdpAnchor impl:a.b */", OFF)).toBe(true)
    expect(mayHoldAnchor("/** @sdp-anchor impl:a.b */", OFF)).toBe(true)
  })

  it("sees the self-hosting module names only under selfHosting", () => {
    expect(mayHoldAnchor(`import { ref } from "../ids.js"`, { selfHosting: true })).toBe(true)
    expect(mayHoldAnchor(`import { codeAnchor } from "./model/code-anchor.js"`, { selfHosting: true })).toBe(true)
    expect(mayHoldAnchor(`import { ref } from "../ids.js"`, OFF)).toBe(false)
  })
})

describe("mayHoldAnchorBytes", () => {
  const texts = [
    `import { codeAnchor } from "${PKG}"`,
    "/** @sdpAnchor impl:a.b */",
    "/** @sdp-anchor impl:a.b */",
    `import { ref } from "../ids.js"`,
    `import { ref } from "../ids.js"\r\n`,
    `import { ref } from "../\u00e9ids.js"`,
    `import { ref } from "./d\u00e9j\u00e0/ids"`,
    "export const x = 1\n/** @param y */\n",
    "// caf\u00e9 \ud83d\ude00 @sdpAnchor"
  ]
  const bad = [0xc3, 0x28, 0xff, 0xe2, 0x82]

  it("answers as mayHoldAnchor on the decoded text, valid UTF-8 or not, self-hosting or not", () => {
    for (const selfHosting of [false, true]) {
      for (const text of texts) {
        const utf8 = new TextEncoder().encode(text)
        // Invalid bytes around and inside the text: a replacing decoder keeps every ASCII byte.
        const broken = new Uint8Array([...bad, ...utf8.subarray(0, 5), ...bad, ...utf8.subarray(5), ...bad])
        for (const bytes of [utf8, broken]) {
          const decoded = new TextDecoder().decode(bytes)
          expect([text, selfHosting, mayHoldAnchorBytes(bytes, { selfHosting })]).toEqual([text, selfHosting, mayHoldAnchor(decoded, { selfHosting })])
        }
      }
    }
    expect(texts.filter((t) => mayHoldAnchorBytes(new TextEncoder().encode(t), OFF))).toHaveLength(4)
  })
})
