// A 10,000-member Pack partitions by JSON arithmetic (each item serialized once per stage). The
// time it takes is measured by `npm run bench` (never asserted in a test); this checks the split
// at that scale: every part fits, the parts cover the members once, in order.
import { describe, expect, it } from "vitest"
import { composeBundleText, planParts } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import type { AnyNode } from "../support/nodes.js"
import { graphOf, pack, spec } from "../support/nodes.js"

const N = 10000

const bigPack = () => {
  const ids = Array.from({ length: N }, (_, i) => `spec:big.m${String(i).padStart(5, "0")}`)
  const nodes: AnyNode[] = [pack("pack:big", ids, { framing: "Ten thousand members." })]
  ids.forEach((id, i) =>
    nodes.push(
      spec({
        id,
        readiness: "scoped",
        narrative: `Member ${i} narrative text.`.repeat(8),
        relations: i > 0 ? { dependsOn: ids[i - 1], refines: "spec:outside.root" } : { refines: "spec:outside.root" },
        sections: {
          intent: { outcome: `Outcome ${i}.`, openQuestions: [{ question: `Open question ${i}?`, blocking: false, key: "open" }] },
          design: { api: `\`fn${i}(): Result\` does one thing`, note: "A plain design note." }
        },
        locations: { "intent.outcome": 5, "design.api": 9 }
      })
    )
  )
  nodes.push(spec({ id: "spec:outside.root", readiness: "defined" }))
  return factsOf(graphOf(...nodes))
}

describe("speed", () => {
  it("a 10,000-member Pack splits into parts that fit and cover every member once, in order", () => {
    const facts = bigPack()
    // Warm the facts memo (floors, footing) so the timing below is the composer's own work.
    composeBundleText(facts, { pack: "pack:big", budget: 100000000 })
    const plan = planParts(facts, { pack: "pack:big", budget: 100000 })
    if (!("render" in plan)) throw new Error("expected a split")
    const seen: string[] = []
    for (let i = 1; i <= plan.of; i++) {
      const text = plan.renderText(i)
      const part = JSON.parse(text) as { used: number; members: Array<{ id: string }> }
      expect(text.length).toBeLessThanOrEqual(100000)
      expect(part.used).toBe(text.length)
      seen.push(...part.members.map((m) => m.id))
    }
    expect(plan.of).toBeGreaterThan(10)
    expect(seen).toEqual(Array.from({ length: N }, (_, i) => `spec:big.m${String(i).padStart(5, "0")}`))
  })
})
