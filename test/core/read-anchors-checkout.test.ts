import * as fs from "node:fs"
import * as path from "node:path"
import { PARSER } from "../support/oxc.js"
import { describe, expect, it } from "vitest"
import { buildGraph } from "../../src/core/graph/graph.js"
import { mayHoldAnchor, parseAnchors } from "../../src/core/read/anchors.js"

const ROOT = path.join(import.meta.dirname, "..", "fixtures", "checkout-anchors")
const OPTIONS = { selfHosting: false }

/** Every .ts file under the fixture root, root-relative with `/`, in code-unit order. */
const files = (dir = ""): string[] =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) => {
      const rel = dir === "" ? e.name : `${dir}/${e.name}`
      return e.isDirectory() ? files(rel) : rel.endsWith(".ts") ? [rel] : []
    })
    .sort()

describe("checkout-v1 anchored fixtures", () => {
  const reads = files().map((f) => {
    const text = fs.readFileSync(path.join(ROOT, f), "utf8")
    expect(mayHoldAnchor(text, OPTIONS)).toBe(true)
    return parseAnchors(f, text, OPTIONS, PARSER)
  })

  it("every fixture passes the pre-check and parses without findings", () => {
    expect(reads.map((r) => r.file)).toEqual([
      "src/orders/create-order.ts",
      "src/orders/order-total.ts",
      "src/orders/orders-route.ts",
      "test/orders/create-order-oracle.ts",
      "test/orders/create-order-valid-cart.check.ts"
    ])
    expect(reads.flatMap((r) => r.findings)).toEqual([])
  })

  it("gives exactly the anchors the corpus NOTICE lists, with forms, files and lines", () => {
    const anchors = reads.flatMap((r) => r.anchors).map((a) => [a.id, a.nodeType, a.form, a.file, a.line])
    expect(anchors).toEqual([
      ["impl:orders.create-order-use-case", "CodeNode", "constant", "src/orders/create-order.ts", 11],
      ["impl:orders.order-total", "CodeNode", "constant", "src/orders/order-total.ts", 10],
      ["api:orders.post", "CodeNode", "comment", "src/orders/orders-route.ts", 9],
      ["oracle:orders.create-order", "Anchor", "comment", "test/orders/create-order-oracle.ts", 2],
      ["test:orders.create-order.valid-cart", "Anchor", "constant", "test/orders/create-order-valid-cart.check.ts", 5]
    ])
  })

  it("yields the anchored edges of the NOTICE once the graph is built", () => {
    const graph = buildGraph(reads)
    expect(graph.edges).toEqual([
      { from: "api:orders.post", type: "satisfies", to: "spec:orders.create-order", claim: "anchored" },
      { from: "impl:orders.create-order-use-case", type: "satisfies", to: "spec:orders.create-order", claim: "anchored" },
      { from: "impl:orders.order-total", type: "satisfies", to: "spec:orders.order-total-rule", claim: "anchored" },
      { from: "oracle:orders.create-order", type: "models", to: "spec:orders.create-order", claim: "anchored" },
      { from: "test:orders.create-order.valid-cart", type: "verifies", to: "spec:orders.create-order.valid-cart", claim: "anchored" }
    ])
    expect(graph.findings).toEqual([])
  })
})
