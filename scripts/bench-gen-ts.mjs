// TypeScript files for the generated corpus: plain code of a chosen size, and anchors in both
// forms (sdp-format.md section 7). Every file is valid TypeScript, so a parser never refuses it.
import { cap, sentence } from "./bench-gen-words.mjs"

const PACKAGE = "@libar-dev/software-delivery-protocol"
export const IMPORT_LINE = `import { codeAnchor, codeAnchorId, ref, specTest, testAnchorId } from "${PACKAGE}"`

/** One block of ordinary code (an interface, a function, a class), about 0.6 to 1 KB. */
const codeBlock = (rng, name, n) => {
  const T = `${cap(name)}${n}`
  const fields = ["id: string", "amount: number", 'state: "open" | "closed"', "note?: string", "createdAt: number"]
  return [
    `/** ${sentence(rng)} */`,
    `export interface ${T} {`,
    ...fields.slice(0, rng.int(3, 5)).map((f) => `  readonly ${f}`),
    "}",
    "",
    `export function total${T}(items: ReadonlyArray<${T}>, limit: number): number {`,
    "  let total = 0",
    "  for (const item of items) {",
    "    if (item.amount > limit) continue",
    `    total += item.amount * ${rng.int(1, 9)}`,
    "  }",
    "  return total",
    "}",
    "",
    `export class ${T}Store {`,
    `  private readonly rows = new Map<string, ${T}>()`,
    "",
    `  put(row: ${T}): void {`,
    "    this.rows.set(row.id, row)",
    "  }",
    "",
    `  get(id: string): ${T} | undefined {`,
    "    return this.rows.get(id)",
    "  }",
    "",
    "  size(): number {",
    "    return this.rows.size",
    "  }",
    "}",
    ""
  ]
}

/** One block in the shape of a test file (large anchored files of the reference corpus). */
const testBlock = (rng, name, n) => {
  const T = `${cap(name)}${n}`
  return [
    `describe("${name} ${n}", () => {`,
    `  it("sums the open rows of ${name} ${n}", () => {`,
    "    const rows = [",
    ...Array.from({ length: rng.int(3, 6) }, (_, i) => `      { id: "r${i}", amount: ${rng.int(1, 99)}, state: "open" as const },`),
    "    ]",
    `    const total = rows.reduce((sum, row) => sum + row.amount, 0)`,
    `    expect(total${T}(rows, 100)).toBeGreaterThanOrEqual(0)`,
    "    expect(total).toBeGreaterThan(0)",
    "  })",
    "",
    `  it("keeps the last write of ${name} ${n}", () => {`,
    `    const store = new ${T}Store()`,
    `    store.put({ id: "a", amount: ${rng.int(1, 9)}, state: "open" })`,
    `    store.put({ id: "a", amount: ${rng.int(10, 19)}, state: "closed" })`,
    "    expect(store.size()).toBe(1)",
    "  })",
    "})",
    ""
  ]
}

/** An anchor in the constant form: one line, the builder call starts on it. */
const constantAnchor = (a) =>
  a.flavor === "code"
    ? `export const ${a.symbol} = codeAnchor({ id: codeAnchorId("${a.id}"), satisfies: ref("${a.target}") })`
    : `export const ${a.symbol} = specTest({ id: testAnchorId("${a.id}"), verifies: ref("${a.target}") })`

/** An anchor in the comment form: prose, then the reserved tags, then the declaration it documents. */
const commentAnchor = (rng, a) => [
  "/**",
  ` * ${sentence(rng)}`,
  " *",
  ` * @sdpAnchor ${a.id}`,
  ` * ${a.flavor === "code" ? "@sdpSatisfies" : "@sdpVerifies"} ${a.target}`,
  " */",
  `export function ${a.symbol}(): number {`,
  `  return ${rng.int(1, 999)}`,
  "}"
]

/**
 * The text of one TypeScript file of about `size` bytes. `anchors` are
 * `{ id, symbol, flavor: "code" | "test", form: "constant" | "comment", target }`.
 */
export const tsText = (rng, { name, size, anchors, testLike }) => {
  const lines = []
  if (anchors.some((a) => a.form === "constant")) lines.push(IMPORT_LINE, "")
  else lines.push(`import { readFileSync } from "node:fs"`, "", `export const load = (path: string): string => readFileSync(path, "utf8")`, "")
  let bytes = 0
  let n = 0
  let placed = 0
  // Spread the anchors through the file rather than heaping them at the top.
  const every = Math.max(1, Math.floor(size / 900 / (anchors.length + 1)))
  while (bytes < size || placed < anchors.length) {
    const block = testLike && n % 3 !== 0 ? testBlock(rng, name, n - (n % 3)) : codeBlock(rng, name, n)
    for (const l of block) bytes += l.length + 1
    lines.push(...block)
    n++
    if (placed < anchors.length && n % every === 0) {
      const a = anchors[placed++]
      const text = a.form === "constant" ? [constantAnchor(a)] : commentAnchor(rng, a)
      for (const l of text) bytes += l.length + 1
      lines.push(...text, "")
    }
  }
  return lines.join("\n")
}
