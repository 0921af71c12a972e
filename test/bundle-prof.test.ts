import { it } from "vitest"
import { composeBundleText, planParts } from "../src/core/bundle/index.js"
import { factsOf } from "../src/core/facts.js"
import type { AnyNode } from "./support/nodes.js"
import { graphOf, pack, spec } from "./support/nodes.js"
it("prof", () => {
  const N = 10000
  const ids = Array.from({ length: N }, (_, i) => `spec:big.m${String(i).padStart(5, "0")}`)
  const nodes: AnyNode[] = [pack("pack:big", ids, { framing: "Ten thousand members." })]
  ids.forEach((id, i) => nodes.push(spec({ id, readiness: "scoped", narrative: `Member ${i} narrative text.`.repeat(8),
    relations: i > 0 ? { dependsOn: ids[i - 1], refines: "spec:outside.root" } : { refines: "spec:outside.root" },
    sections: { intent: { outcome: `Outcome ${i}.`, openQuestions: [{ question: `Open question ${i}?`, blocking: false, key: "open" }] },
      design: { api: `\`fn${i}(): Result\` does one thing`, note: "A plain design note." } }, locations: { "intent.outcome": 5, "design.api": 9 } })))
  nodes.push(spec({ id: "spec:outside.root", readiness: "defined" }))
  let t = performance.now()
  const facts = factsOf(graphOf(...nodes))
  console.log("graph+facts", performance.now() - t); t = performance.now()
  composeBundleText(facts, { pack: "pack:big", budget: 100000000 })
  console.log("warm whole", performance.now() - t); t = performance.now()
  composeBundleText(facts, { pack: "pack:big", budget: 100000000 })
  console.log("whole again", performance.now() - t); t = performance.now()
  facts.packBoundary("pack:big")
  console.log("boundary", performance.now() - t); t = performance.now()
  for (const name of ["floor", "footing", "implementedBy", "referencedBy", "verifiers", "decisions", "designCounts", "pinnedDeclarations", "examplesOf"] as const) {
    t = performance.now(); for (const id of ids) (facts as any)[name](id); console.log(name, performance.now() - t)
  }
  t = performance.now()
  for (let k = 0; k < 3; k++) { const p = planParts(facts, { pack: "pack:big", budget: 100000 }) as any; console.log("plan", performance.now() - t, p.of); t = performance.now() }
})
