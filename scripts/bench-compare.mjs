#!/usr/bin/env node
// Two builds of the CLI side by side: each scenario runs the old and the new build in alternating
// order, N rounds (one warm-up each first), with `node -e 0` in the same rounds; prints the medians,
// each build's against `node -e 0` (issue 38's start-up targets), and the median of the per-round
// new/old ratios, which a machine shared with other work disturbs far less than any absolute time.
// Run it as users run the CLI: `env -u NODE_EXTRA_CA_CERTS` (Node reads that file at every start).
//
//   node scripts/bench-compare.mjs OLD_CLI [NEW_CLI] [--runs N] [--large]
//   (--large: both 10,000-Spec corpora in git, warm and without any cache; generated once, cached)
//   (OLD_CLI: a copy of an earlier bin/specbundle.js with its bin/ folder, e.g. .scratch/before/bin/specbundle.js)
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { corpus, gitHosted, pickMidChain } from "./bench-corpus.mjs"
import { measure, median } from "./bench-run.mjs"

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const argv = process.argv.slice(2)
const runsAt = argv.indexOf("--runs")
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 9
const clis = argv.filter((a, i) => !a.startsWith("--") && (runsAt < 0 || i !== runsAt + 1))
if (clis.length < 1) {
  process.stderr.write("bench-compare: usage: node scripts/bench-compare.mjs OLD_CLI [NEW_CLI] [--runs N]\n")
  process.exit(2)
}
const OLD = path.resolve(clis[0])
const NEW = path.resolve(clis[1] ?? path.join(REPO, "bin", "specbundle.js"))
const NODE = process.execPath

const exampleDir = mkdtempSync(path.join(os.tmpdir(), "specbundle-compare-"))
process.on("exit", () => rmSync(exampleDir, { recursive: true, force: true }))
const example = gitHosted(path.join(REPO, "examples", "bike-dock"), path.join(exampleDir, "bike-dock"))
const c200 = await corpus({ shape: "scale", seed: 1, anchorEvery: 5, specs: 200, packs: 2, tsFiles: 400 })
const small = gitHosted(c200.dir)
const large = argv.includes("--large")
// --large: the git-hosted 10,000-Spec corpus too (issue 25's rows; generated once, ~1 minute).
// and the chain corpus; each with the hook and the PR bundle without any cache too (issue 38's 5x rows).
const big = large ? gitHosted((await corpus({ shape: "scale", seed: 1, anchorEvery: 5, specs: 10000, packs: 40, tsFiles: 20000 })).dir) : null
const chain = large
  ? gitHosted((await corpus({ shape: "chain", seed: 1, anchorEvery: 5, specs: 10000, packs: 40, tsFiles: 20000 })).dir, undefined, pickMidChain)
  : null
/** A scenario's runs without the code cache or the parse cache. */
const NO_CACHE = { SPECBUNDLE_CODE_CACHE: "0" }
const largeRows = (label, dir) => [
  [`pre-commit hook, ${label}`, ["impact", "--root", dir, "--staged", "--strict", "--quiet"]],
  [`bundle --changeset HEAD~1 --parts --budget 50000, ${label}`, ["bundle", "--root", dir, "--changeset", "HEAD~1", "--parts", "--budget", "50000"]],
  [`pre-commit hook, ${label}, without any cache`, ["impact", "--root", dir, "--staged", "--strict", "--quiet"], NO_CACHE],
  [
    `bundle --changeset HEAD~1 --parts --budget 50000, ${label}, without any cache`,
    ["bundle", "--root", dir, "--changeset", "HEAD~1", "--parts", "--budget", "50000"],
    NO_CACHE
  ]
]
// The reference-shaped corpus of `npm run bench` (a plain folder, one Pack of 160 Specs).
const ref = await corpus({ shape: "reference", seed: 1, specs: 160, packs: 1, tsFiles: 225, anchorEvery: null })
const scenarios = [
  ["--help", ["--help"]],
  [
    "reference-shaped: bundle whole Pack --parts 20000 (160 Specs, 225 TS files)",
    ["bundle", "--root", ref.dir, "--pack", ref.packIds[0], "--parts", "--budget", "20000"]
  ],
  ...(big === null ? [] : largeRows("git-hosted 10,000 Specs, 20,000 TS files", big)),
  ...(chain === null ? [] : largeRows("git-hosted 40 chains of 250, 10,000 Specs", chain)),
  ["pre-commit hook, examples/bike-dock in git", ["impact", "--root", example, "--staged", "--strict", "--quiet"]],
  ["bundle --changeset HEAD~1, examples/bike-dock in git", ["bundle", "--root", example, "--changeset", "HEAD~1"]],
  ["pre-commit hook, git-hosted 200 Specs, 400 TS files", ["impact", "--root", small, "--staged", "--strict", "--quiet"]],
  ["bundle --changeset HEAD~1 --parts, 200 Specs", ["bundle", "--root", small, "--changeset", "HEAD~1", "--parts", "--budget", "50000"]]
]

// The builds' caches go to a folder of this run, not the user's (each build keys its own files).
const cacheDir = mkdtempSync(path.join(os.tmpdir(), "specbundle-compare-cache-"))
process.env.SPECBUNDLE_CODE_CACHE_DIR = cacheDir
delete process.env.SPECBUNDLE_CODE_CACHE
process.on("exit", () => rmSync(cacheDir, { recursive: true, force: true }))

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`)
console.log(`| scenario | node -e 0 | old | new | old, new against node -e 0 | new/old (median of ${RUNS} paired rounds) |`)
console.log("|---|---|---|---|---|---|")
for (const [name, args, env = {}] of scenarios) {
  for (const cli of [OLD, NEW]) {
    const warm = measure(NODE, [cli, ...args], { cwd: REPO, env, captureErr: true })
    if (warm.status !== 0 && warm.status !== 1) throw new Error(`${name}: exit ${warm.status}: ${warm.stderr.slice(0, 200)}`)
  }
  const base = []
  const old = []
  const neu = []
  const ratios = []
  for (let i = 0; i < RUNS; i++) {
    base.push(measure(NODE, ["-e", "0"], { cwd: REPO }).ms)
    // Alternate which build goes first, so neither always runs on a warmer machine.
    const pair = i % 2 === 0 ? [OLD, NEW] : [NEW, OLD]
    const t = Object.fromEntries(pair.map((cli) => [cli, measure(NODE, [cli, ...args], { cwd: REPO, env }).ms]))
    old.push(t[OLD])
    neu.push(t[NEW])
    ratios.push(t[NEW] / t[OLD])
  }
  const against = (times) => `${(median(times) / median(base)).toFixed(2)}x`
  console.log(
    `| ${name} | ${fmt(median(base))} | ${fmt(median(old))} | ${fmt(median(neu))} | ${against(old)}, ${against(neu)} | ${median(ratios).toFixed(2)}x |`
  )
}
