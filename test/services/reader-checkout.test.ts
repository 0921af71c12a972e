// The real checkout-v1 corpus (../shared/corpora/checkout-v1) plus our anchored TypeScript
// (test/fixtures/checkout-anchors), copied into a temp folder and read through GraphReader.readTree
// from disk. Every expected value below is derived by hand from shared/docs/sdp-format.md; the
// short comments give the derivation.
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { factsOf } from "../../src/core/graph/facts.js"
import type { Edge, Facts, FootingRow, Graph, Rung } from "../../src/core/model.js"
import type { ReadResult } from "../../src/services/GraphReader.js"
import { copyInto, readTree, tempDir } from "../support/tmp.js"
import { CHECKOUT_CORPUS, HAS_CHECKOUT, withoutCheckout } from "../support/paths.js"

const CORPUS = CHECKOUT_CORPUS
const ANCHORS = path.join(import.meta.dirname, "..", "fixtures", "checkout-anchors")

const S = {
  lifecycle: "spec:decisions.order-lifecycle",
  create: "spec:orders.create-order",
  api: "spec:orders.create-order.api-contract",
  invalid: "spec:orders.create-order.invalid-cart",
  valid: "spec:orders.create-order.valid-cart",
  inventory: "spec:orders.order-inventory-rule",
  latency: "spec:orders.order-latency-constraint",
  management: "spec:orders.order-management",
  model: "spec:orders.order-model",
  placement: "spec:orders.order-placement-flow",
  total: "spec:orders.order-total-rule"
} as const
const PACK = "pack:checkout-v1"

let result: ReadResult
let graph: Graph
let facts: Facts

beforeAll(async () => {
  if (!HAS_CHECKOUT) return
  const root = tempDir("specbundle-checkout-")
  copyInto(CORPUS, root)
  copyInto(ANCHORS, root)
  result = await readTree(root)
  graph = result.graph
  facts = factsOf(graph)
})

describe.skipIf(withoutCheckout("checkout-v1 read from disk"))("checkout-v1 read from disk", () => {
  it("reads the 12 carriers and 5 anchor files and nothing else (no README, NOTICE, LICENSE), with no findings", () => {
    expect(result.files().map((f) => f.path)).toEqual([
      "specs/checkout.pack.sdp.md",
      "specs/decisions/order-lifecycle.sdp.md",
      "specs/orders/create-order-api-contract.sdp.md",
      "specs/orders/create-order-invalid-cart.sdp.md",
      "specs/orders/create-order-valid-cart.sdp.md",
      "specs/orders/create-order.sdp.md",
      "specs/orders/order-inventory-rule.sdp.md",
      "specs/orders/order-latency-constraint.sdp.md",
      "specs/orders/order-management.sdp.md",
      "specs/orders/order-model.sdp.md",
      "specs/orders/order-placement-flow.sdp.md",
      "specs/orders/order-total-rule.sdp.md",
      "src/orders/create-order.ts",
      "src/orders/order-total.ts",
      "src/orders/orders-route.ts",
      "test/orders/create-order-oracle.ts",
      "test/orders/create-order-valid-cart.check.ts"
    ])
    expect(result.files().every((f) => /^[0-9a-f]{64}$/.test(f.hash))).toBe(true)
    expect(graph.findings).toEqual([])
  })

  it("holds the 11 Spec ids read from the frontmatter (sorted by code units), 1 Pack and 5 anchors", () => {
    // Format 11: 11 Specs + 1 Pack + 5 anchors. Ids come from each carrier's `id:` key, never the file name.
    expect([...graph.specs.keys()]).toEqual([
      S.lifecycle,
      S.create,
      S.api,
      S.invalid,
      S.valid,
      S.inventory,
      S.latency,
      S.management,
      S.model,
      S.placement,
      S.total
    ])
    expect([...graph.anchors.keys()]).toEqual([
      "api:orders.post",
      "impl:orders.create-order-use-case",
      "impl:orders.order-total",
      "oracle:orders.create-order",
      "test:orders.create-order.valid-cart"
    ])
    // Every Spec carrier's `id:` is its frontmatter's first key: file line 2 (frontmatter starts at line 2).
    for (const spec of graph.specs.values()) expect([spec.id, spec.line]).toEqual([spec.id, 2])
  })

  it("reads each Spec's envelope (kind, altitude, stated readiness) and H1 title as authored", () => {
    const rows = [...graph.specs.values()].map((s) => [s.id, s.kind, s.altitude, s.readiness, s.title])
    expect(rows).toEqual([
      [S.lifecycle, "decision", "feature", "defined", "Order lifecycle keeps validation before creation"],
      [S.create, "behavior", "feature", "defined", "Customer creates an order"],
      [S.api, "contract", "story", "idea", "Create-order API contract"],
      [S.invalid, "example", "story", "defined", "Invalid cart is rejected"],
      [S.valid, "example", "story", "ready", "Valid cart creates an order"],
      [S.inventory, "rule", "story", "defined", "Order creation requires available inventory"],
      [S.latency, "constraint", "story", "defined", "Create-order latency stays within checkout budget"],
      [S.management, "behavior", "epic", "defined", "Order management"],
      [S.model, "model", "story", "defined", "Order-management domain vocabulary"],
      [S.placement, "workflow", "feature", "scoped", "Order placement flow"],
      [S.total, "rule", "story", "defined", "Order total matches cart math"]
    ])
    // The example's fence lands in behavior.examples (4.6); the Workflow bullets are flows (4.9).
    expect(graph.specs.get(S.invalid)!.sections.behavior?.examples).toEqual([
      {
        given: ["a customer has a cart with {n: 0} line items"],
        when: ["the customer submits the cart for order creation"],
        then: ['order creation is rejected because {reason: "empty cart"}']
      }
    ])
    expect(graph.specs.get(S.placement)!.sections.behavior?.flows).toHaveLength(3)
    expect(graph.specs.get(S.placement)!.sections.behavior?.rules).toBeUndefined()
  })

  it("reads the Pack with its members in manifest order, modelRefs, title and framing", () => {
    // Format 3.3: `specs` keeps the author's reading order; the H1 is the title, the rest framing.
    expect(graph.packs.get(PACK)).toEqual({
      id: PACK,
      title: "Checkout v1",
      framing: "Let customers create orders from valid carts with honest authored traceability.",
      file: "specs/checkout.pack.sdp.md",
      line: 2,
      members: [S.management, S.placement, S.create, S.valid, S.invalid, S.api, S.total, S.inventory, S.latency, S.model, S.lifecycle],
      modelRefs: [S.model]
    })
  })

  it("derives exactly the 32 edges of format section 11, as one list sorted by (from, type, to)", () => {
    // 16 declared relations from the envelopes + 11 belongsTo (one per Pack entry, member -> pack)
    // + 5 anchored (3 satisfies, 1 test verifies, 1 oracle models). Sort: "api:" < "impl:" <
    // "oracle:" < "spec:" < "test:"; a prefix sorts first ("create-order" < "create-order.api-contract");
    // types: belongsTo < constrainedBy < decidedBy < dependsOn < refines < satisfies < verifies.
    const d = (from: string, type: Edge["type"], to: string): Edge => ({ from, type, to, claim: "declared" })
    const a = (from: string, type: Edge["type"], to: string): Edge => ({ from, type, to, claim: "anchored" })
    expect(graph.edges).toEqual([
      a("api:orders.post", "satisfies", S.create),
      a("impl:orders.create-order-use-case", "satisfies", S.create),
      a("impl:orders.order-total", "satisfies", S.total),
      a("oracle:orders.create-order", "models", S.create),
      d(S.lifecycle, "belongsTo", PACK),
      d(S.lifecycle, "refines", S.create),
      d(S.create, "belongsTo", PACK),
      d(S.create, "constrainedBy", S.latency),
      d(S.create, "decidedBy", S.lifecycle),
      d(S.create, "refines", S.management),
      d(S.api, "belongsTo", PACK),
      d(S.api, "refines", S.create),
      d(S.invalid, "belongsTo", PACK),
      d(S.invalid, "refines", S.create),
      d(S.invalid, "verifies", S.create),
      d(S.valid, "belongsTo", PACK),
      d(S.valid, "refines", S.create),
      d(S.valid, "verifies", S.create),
      d(S.inventory, "belongsTo", PACK),
      d(S.inventory, "refines", S.create),
      d(S.latency, "belongsTo", PACK),
      d(S.latency, "refines", S.create),
      d(S.management, "belongsTo", PACK),
      d(S.management, "decidedBy", S.lifecycle),
      d(S.model, "belongsTo", PACK),
      d(S.model, "refines", S.management),
      d(S.placement, "belongsTo", PACK),
      d(S.placement, "dependsOn", S.create),
      d(S.placement, "refines", S.management),
      d(S.total, "belongsTo", PACK),
      d(S.total, "refines", S.create),
      a("test:orders.create-order.valid-cart", "verifies", S.valid)
    ])
    expect(graph.edges).toHaveLength(32)
  })

  it("computes the delivery facts of format section 11 and none elsewhere", () => {
    // 6.4: implemented = an anchored satisfies from a CodeNode (api:orders.post and
    // impl:orders.create-order-use-case -> create-order; impl:orders.order-total -> order-total-rule).
    // has-verifier: valid-cart directly (test anchor); create-order through valid-cart, an enabled
    // example that declares verifies (one hop). invalid-cart has no test anchor: not enabled.
    const table = [...graph.specs.keys()].map((id) => [id, facts.implemented(id), facts.hasVerifier(id)])
    expect(table).toEqual([
      [S.lifecycle, false, false],
      [S.create, true, true],
      [S.api, false, false],
      [S.invalid, false, false],
      [S.valid, false, true],
      [S.inventory, false, false],
      [S.latency, false, false],
      [S.management, false, false],
      [S.model, false, false],
      [S.placement, false, false],
      [S.total, true, false]
    ])
    expect([...graph.specs.keys()].filter((id) => facts.isEnabledExample(id))).toEqual([S.valid])
  })

  it("lists the verifiers of every Spec: two declared examples on create-order, the test anchor on valid-cart", () => {
    // 7.3: every verifies edge into the Spec, by verifier id; a declared example row is enabled only
    // when a test anchor verifies it. Spec rows carry the carrier file and the id line (2).
    const rows = Object.fromEntries([...graph.specs.keys()].map((id) => [id, facts.verifiers(id)]))
    expect(rows).toEqual({
      [S.lifecycle]: [],
      [S.create]: [
        { id: S.invalid, claim: "declared", enabled: false, file: "specs/orders/create-order-invalid-cart.sdp.md", line: 2 },
        { id: S.valid, claim: "declared", enabled: true, file: "specs/orders/create-order-valid-cart.sdp.md", line: 2 }
      ],
      [S.api]: [],
      [S.invalid]: [],
      [S.valid]: [
        { id: "test:orders.create-order.valid-cart", claim: "anchored", enabled: true, file: "test/orders/create-order-valid-cart.check.ts", line: 5 }
      ],
      [S.inventory]: [],
      [S.latency]: [],
      [S.management]: [],
      [S.model]: [],
      [S.placement]: [],
      [S.total]: []
    })
  })

  it("gives every Spec its footing: the declared typed dependencies, all resolved to defined Specs whose floor is ready", () => {
    // Footing = declared refines/dependsOn/constrainedBy/decidedBy out of the Spec (verifies is not
    // typed), in that type order. Every target here (create-order, order-management,
    // order-latency-constraint, order-lifecycle) states `defined` and reaches `ready` (see floors).
    const row = (type: FootingRow["type"], id: string): FootingRow => ({
      type,
      id,
      claim: "declared",
      resolved: true,
      statedReadiness: "defined",
      floorReached: "ready"
    })
    const footing = Object.fromEntries([...graph.specs.keys()].map((id) => [id, facts.footing(id)]))
    expect(footing).toEqual({
      [S.lifecycle]: [row("refines", S.create)],
      [S.create]: [row("refines", S.management), row("constrainedBy", S.latency), row("decidedBy", S.lifecycle)],
      [S.api]: [row("refines", S.create)],
      [S.invalid]: [row("refines", S.create)],
      [S.valid]: [row("refines", S.create)],
      [S.inventory]: [row("refines", S.create)],
      [S.latency]: [row("refines", S.create)],
      [S.management]: [row("decidedBy", S.lifecycle)],
      [S.model]: [row("refines", S.management)],
      [S.placement]: [row("refines", S.management), row("dependsOn", S.create)],
      [S.total]: [row("refines", S.create)]
    })
  })

  it("derives the floor of each of the 11 Specs: floor reached, stated next rung, and the clauses that hold it below", () => {
    // 8.2/8.3, clause by clause. Every Spec writes intent.outcome and declares >= 1 relation, every
    // relation resolves, every typed target states `defined`, every anchor into a Spec is present:
    // so only kind evidence and blocking questions can fail.
    // - order-lifecycle (decision): Decision section with `decision:` -> present + complete -> ready.
    // - create-order (behavior): no rules/examples/flows of its own (exampleSpace only), but
    //   constrainedBy a constraint Spec with constraints (present) and refined by rule/example
    //   children (complete) -> ready.
    // - api-contract (contract): no rules/examples/flows/constraints, no constrainedBy, no rule or
    //   example child -> kind-evidence-present fails (scoped); it states idea, so next rung scoped
    //   is held by that one clause. (Its blocking question only matters from defined.) -> idea.
    // - invalid-cart / valid-cart (example): one gwt fence, every slot bound ({n: 0}, {reason:
    //   "empty cart"}; {n: 2}, {q: 1}, {price: 50}, {availability: "in stock"}, {total: 100}) and
    //   each skeleton is in create-order's vocabulary with a compatible type -> ready.
    // - inventory/total (rule): Rule bullets -> ready. latency (constraint): target
    //   "latency.p95.lt:250ms" -> ready. management (behavior): two `rule:` entries -> ready.
    //   model: five terms -> ready.
    // - placement-flow (workflow): Workflow bullets are flows (present), but no rules/examples and
    //   no rule/example child -> kind-evidence-complete fails -> scoped; states scoped, next defined.
    const floors = Object.fromEntries(
      [...graph.specs.keys()].map((id) => {
        const f = facts.floor(id)
        return [id, [f.floorReached, f.statedNextRung, f.holds.map((c) => c.clauseId), f.floorFailures.map((c) => c.clauseId)]]
      })
    )
    const ready = (next: Rung | null): [string, Rung | null, string[], string[]] => ["ready", next, [], []]
    expect(floors).toEqual({
      [S.lifecycle]: ready("ready"),
      [S.create]: ready("ready"),
      [S.api]: ["idea", "scoped", ["kind-evidence-present"], []],
      [S.invalid]: ready("ready"),
      [S.valid]: ready(null),
      [S.inventory]: ready("ready"),
      [S.latency]: ready("ready"),
      [S.management]: ready("ready"),
      [S.model]: ready("ready"),
      [S.placement]: ["scoped", "defined", ["kind-evidence-complete"], []],
      [S.total]: ready("ready")
    })
  })

  it("has an empty Pack boundary because every relation of every member stays inside the Pack", () => {
    const members = new Set(graph.packs.get(PACK)!.members)
    // All 11 Specs are members, so the corpus holds no outside Spec to rest on or be rested on by.
    expect(members).toEqual(new Set(graph.specs.keys()))
    const relations = graph.edges.filter((e) => e.claim === "declared" && e.type !== "belongsTo")
    expect(relations).toHaveLength(16)
    const leaving = relations.filter((e) => !members.has(e.from) || !members.has(e.to))
    expect(leaving).toEqual([])
    expect(facts.packBoundary(PACK)).toEqual({ restsOn: [], restedOnBy: [] })
  })

  it("keeps each carrier's nodes under its own file", () => {
    expect(graph.nodesByFile.get("specs/checkout.pack.sdp.md")).toEqual([PACK])
    expect(graph.nodesByFile.get("specs/orders/create-order-valid-cart.sdp.md")).toEqual([S.valid])
    expect(graph.nodesByFile.get("test/orders/create-order-oracle.ts")).toEqual(["oracle:orders.create-order"])
    expect(graph.nodesByFile.size).toBe(17)
  })
})
