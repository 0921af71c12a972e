// The composer-alone scenario of `npm run bench`: bundles a small program over the pure core
// (buildGraph, factsOf, planParts) with esbuild, to run as its own process. The program builds a
// 10,000-member Pack graph in memory (untimed), then times planning and rendering every part,
// beside the baseline of one JSON.stringify of the same member rows. It prints one JSON line.
import { existsSync } from "node:fs"
import * as path from "node:path"

const ENTRY = `
import { buildGraph } from "./src/core/graph/graph.js"
import { factsOf } from "./src/core/graph/facts.js"
import * as composer from "./src/core/bundle/index.js"
import { anchor, gwt, pack, readsOf, spec } from "./test/support/nodes.js"

const MEMBERS = Number(process.argv[2] ?? 10000)
const RUNS = Number(process.argv[3] ?? 5)
const BUDGET = 50000
const PACK = "pack:bench"
const words = ["ledger", "invoice", "payment", "order", "refund", "receipt", "voucher", "batch"]
const text = (i: number, n: number) =>
  Array.from({ length: n }, (_, k) => words[(i + k) % words.length]).join(" ") + "."

const nodes = () => {
  const out: any[] = []
  const ids: string[] = []
  for (let i = 0; i < MEMBERS; i++) {
    const family = Math.floor(i / 10)
    const parent = "spec:area.f" + family
    const id = i % 10 === 0 ? parent : parent + ".c" + (i % 10)
    ids.push(id)
    const example = i % 10 === 1 || i % 10 === 2
    out.push(spec({
      id,
      kind: example ? "example" : i % 10 === 0 ? "behavior" : "rule",
      readiness: "defined",
      narrative: text(i, 40),
      relations: i % 10 === 0
        ? (family > 0 ? { refines: "spec:area.f" + (family - 1), dependsOn: "spec:outside.s" + (family % 50) } : {})
        : example ? { refines: parent, verifies: parent } : { refines: parent },
      sections: example
        ? { intent: { outcome: text(i, 12) }, behavior: { examples: [gwt(["a step " + i], ["an action"], ["a result"])] } }
        : {
            intent: {
              outcome: text(i, 14),
              value: text(i + 1, 12),
              openQuestions: [{ question: text(i, 10) + "?", blocking: i % 7 === 0, key: "q" + (i % 3) }]
            },
            behavior: { rules: [text(i, 16), { key: "cut", rule: text(i + 2, 16) }] },
            design: { description: text(i, 20), fnRun: "\`run(x: number): number\` " + text(i, 8), store: text(i, 12) }
          },
      locations: { "intent.outcome": 9, "intent.openQuestions[0]": 12, "behavior.rules[0]": 15, "behavior.rules[1]": 16, "design.fnRun": 20, "design.store": 21 }
    }))
    if (i % 5 === 0) out.push(anchor({ id: "impl:bench.a" + i, satisfies: [id], file: "src/a" + (i % 200) + ".ts", line: i }))
  }
  for (let s = 0; s < 50; s++) out.push(spec({ id: "spec:outside.s" + s, title: "Outside " + s }))
  out.push(pack(PACK, ids))
  return { out, ids }
}

const c: any = composer
if (typeof c.planParts !== "function") {
  console.log(JSON.stringify({ missing: "planParts is not exported by src/core/bundle/index.ts" }))
  process.exit(0)
}
const times: number[] = []
const baselines: number[] = []
let parts = 0
for (let r = 0; r < RUNS; r++) {
  const { out, ids } = nodes()
  const graph = buildGraph(readsOf(...out))
  const t0 = performance.now()
  const facts = factsOf(graph)
  const plan = c.planParts(facts, { pack: PACK, budget: BUDGET })
  if (plan.diagnostics !== undefined || typeof plan.renderText !== "function") {
    console.log(JSON.stringify({ error: "planParts returned " + JSON.stringify(plan).slice(0, 300) }))
    process.exit(0)
  }
  let chars = 0
  for (let k = 1; k <= plan.of; k++) chars += plan.renderText(k).length
  times.push(performance.now() - t0)
  parts = plan.of
  const b0 = performance.now()
  const rows = JSON.stringify(ids.map((id) => graph.specs.get(id)))
  baselines.push(performance.now() - b0)
  if (rows.length === 0 || chars === 0) throw new Error("nothing rendered")
}
console.log(JSON.stringify({ times, baselines, parts }))
`

/** Bundles the composer program to `outfile`; `{ ok: false, reason }` when the composer is not there yet. */
export const buildComposerProgram = async (repo, outfile) => {
  if (!existsSync(path.join(repo, "src/core/bundle/index.ts"))) return { ok: false, reason: "composer missing" }
  try {
    const esbuild = await import("esbuild")
    await esbuild.build({
      stdin: { contents: ENTRY, loader: "ts", resolveDir: repo, sourcefile: "bench-composer-entry.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      outfile,
      logLevel: "silent"
    })
    return { ok: true }
  } catch (e) {
    const first = (e?.errors?.[0]?.text ?? String(e)).split("\n")[0]
    return { ok: false, reason: `composer missing (${first})` }
  }
}
