import { it } from "vitest"
import { factsOf } from "../src/core/facts.js"
import { composeBundle, composeBundleText, planParts } from "../src/core/bundle/index.js"
import { graphOf, pack, spec, gwt, anchor } from "./support/nodes.js"
const out: unknown[] = []
import { writeFileSync } from "node:fs"
it("smoke", () => {
  const g = graphOf(
    pack("pack:p", ["spec:p.a", "spec:p.b", "spec:p.missing"], { framing: "Framing text." }),
    spec({ id: "spec:p.a", narrative: "See spec:p.b#design.api and spec:p.a#question.q1.", relations: { dependsOn: "spec:out.x" },
      sections: { intent: { outcome: "x", openQuestions: [{ question: "Q? spec:p.b#design.api", blocking: false, key: "q1" }, { question: "Blocking?", blocking: true }] },
        behavior: { rules: ["plain", { key: "k", rule: "keyed" }], examples: [gwt(["g"], ["w"], ["t"])] },
        design: { description: "d", api: "`f(): X` does", other: "plain value" } },
      locations: { "intent.outcome": 5, "design.api": 9 } }),
    spec({ id: "spec:p.b", sections: { design: { api: "`g()`" } } }),
    spec({ id: "spec:out.x", readiness: "scoped" }),
    spec({ id: "spec:p.a.ex", kind: "example", relations: { refines: "spec:p.a", verifies: "spec:p.a" }, sections: { behavior: { examples: [gwt(["a"], ["b"], ["c"])] } } }),
    anchor({ id: "test:p.a.ex", verifies: ["spec:p.a.ex"] })
  )
  const f = factsOf(g)
  const r = composeBundleText(f, { pack: "pack:p" })
  out.push([JSON.stringify(r.value, null, 1)].join(" "))
  out.push([r.text === JSON.stringify(r.value), r.text.length].join(" "))
  for (const s of [0, 1]) {}
  const small = composeBundle(f, { pack: "pack:p", budget: 1500, declarations: "addresses" })
  out.push([JSON.stringify(small), JSON.stringify(small).length].join(" "))
  const p = planParts(f, { pack: "pack:p", budget: 1200 })
  out.push(JSON.stringify(p))
  if ("render" in p) for (let i = 1; i <= p.of; i++) { const t = p.renderText(i); out.push(t.length, t === JSON.stringify(p.render(i)), t) }
  writeFileSync("/tmp/smoke/out.txt", out.map(String).join("\n"))
})
