#!/usr/bin/env node
// Times the Markdown impact renderer (src/core/render/impact-markdown.ts) on a synthetic report of
// N impacted Specs with long titles: the cap makes it render only the rows it shows; the picture
// (impact-diagram.ts) reads every row once. Timed with the picture and without (--no-diagram).
//   node scripts/bench-impact-markdown.mjs [N]     (default 20000)
import { build } from "esbuild"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

const n = Number(process.argv[2] ?? 20_000)
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-md-")), "render.mjs")
await build({ entryPoints: ["src/core/render/impact-markdown.ts"], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "warning" })
const { impactMarkdown } = await import(pathToFileURL(out).href)
const impactedSpecs = Array.from({ length: n }, (_, i) => ({ id: `spec:s.x${i}`, reasons: [{ file: `specs/x${i}.sdp.md`, via: null }] }))
const report = {
  changeset: "a...b",
  root: ".",
  changedFiles: [],
  impactedSpecs,
  impactedPacks: [],
  removedSpecs: [],
  removedPacks: [],
  lostBindings: [],
  atRisk: [],
  coverageUnknown: [],
  unlinked: [],
  outsideRoot: []
}
const facts = {
  specs: new Map(
    impactedSpecs.map((s, i) => [s.id, { title: `T ${"y".repeat(150)} | <b>`, stated: "ready", floor: "defined", file: `specs/x${i}.sdp.md`, line: 2 }])
  ),
  packs: new Map(),
  anchors: new Map()
}
for (const diagram of [true, false]) {
  const times = []
  let length = 0
  for (let k = 0; k < 5; k++) {
    const t = performance.now()
    length = impactMarkdown(report, facts, { diagram }).length
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  console.log(`${n} impacted Specs${diagram ? "" : ", no picture"}: median ${times[2].toFixed(1)} ms over 5 runs, ${length} characters`)
}
fs.rmSync(path.dirname(out), { recursive: true, force: true })
