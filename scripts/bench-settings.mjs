#!/usr/bin/env node
// One scenario of the bench under several settings side by side: environment variables or Node
// flags, each setting run in turn, the order alternating from round to round, N rounds after one
// warm-up each. Prints the median wall and CPU time of each setting and the median of its per-round
// ratios to the first (what docs/bench.md's paired figures are; a busy host moves absolute times
// far more than these ratios).
//
//   node scripts/bench-settings.mjs [--runs N] [--pr] SETTING...
//   SETTING: "-" (as is), or words joined by "+": NAME=VALUE sets a variable, --flag passes a Node flag
//   e.g. node scripts/bench-settings.mjs SPECBUNDLE_CODE_CACHE=0 SPECBUNDLE_CODE_CACHE=0+SPECBUNDLE_WORKERS=0
// The scenario: the pre-commit hook (`impact --staged --strict --quiet`) on the bench's git-hosted
// 10,000-Spec corpus, or with --pr the PR bundle (`bundle --changeset HEAD~1 --parts --budget 50000`).
// The caches go to a folder of this run, as in `npm run bench`.
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { corpus, gitHosted } from "./bench-corpus.mjs"
import { measure, median } from "./bench-run.mjs"

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const CLI = path.join(REPO, "bin", "specbundle.js")
const argv = process.argv.slice(2)
const runsAt = argv.indexOf("--runs")
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 9
const settings = argv.filter((a, i) => a !== "--pr" && a !== "--runs" && (runsAt < 0 || i !== runsAt + 1))
if (!Number.isInteger(RUNS) || RUNS < 1 || settings.length === 0) {
  process.stderr.write("bench-settings: usage: node scripts/bench-settings.mjs [--runs N] [--pr] SETTING... (see the file's head)\n")
  process.exit(2)
}

/** A setting's Node flags and environment. */
const parse = (setting) => {
  const flags = []
  const env = {}
  for (const word of setting === "-" ? [] : setting.split("+")) {
    if (word.startsWith("--")) flags.push(word)
    else if (/^[A-Z_][A-Z0-9_]*=/.test(word)) env[word.slice(0, word.indexOf("="))] = word.slice(word.indexOf("=") + 1)
    else {
      process.stderr.write(`bench-settings: "${word}" in "${setting}" is neither NAME=VALUE nor a --flag\n`)
      process.exit(2)
    }
  }
  return { flags, env }
}
const parsed = settings.map(parse)

const big = gitHosted((await corpus({ shape: "scale", seed: 1, anchorEvery: 5, specs: 10000, packs: 40, tsFiles: 20000 })).dir)
const args = argv.includes("--pr")
  ? ["bundle", "--root", big, "--changeset", "HEAD~1", "--parts", "--budget", "50000"]
  : ["impact", "--root", big, "--staged", "--strict", "--quiet"]
/** Thrown after a failed run's line is written: ends the rounds without a stack trace. */
const FAILED = Symbol("failed")
const cacheDir = mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-cache-"))
try {
  const run = (p) => {
    const { flags, env } = p
    const r = measure(process.execPath, [...flags, CLI, ...args], { cwd: REPO, env: { SPECBUNDLE_CODE_CACHE_DIR: cacheDir, ...env }, captureErr: true })
    // The bench's corpus refuses no carrier: anything but 0 is a failed run, not a figure.
    if (r.status !== 0) {
      // One line, as the CLI's own errors: which setting failed and its last stderr line.
      process.stderr.write(`bench-settings: ${settings[parsed.indexOf(p)]}: exit ${r.status}: ${r.stderr.trim().split("\n").pop() ?? ""}\n`)
      process.exitCode = 1
      throw FAILED
    }
    return r
  }
  for (const p of parsed) run(p)
  const wall = parsed.map(() => [])
  const cpu = parsed.map(() => [])
  for (let round = 0; round < RUNS; round++) {
    const order = parsed.map((_, i) => i)
    if (round % 2 === 1) order.reverse()
    for (const i of order) {
      const r = run(parsed[i])
      wall[i][round] = r.ms
      cpu[i][round] = r.cpuMs
    }
  }
  const fmt = (ms) => (ms === null ? "n/a" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`)
  const ratio = (xs, i) => (xs[0].some((x) => x === null) ? "n/a" : `${median(xs[i].map((x, r) => x / xs[0][r])).toFixed(3)}x`)
  console.log(`| setting | wall | wall ratio | CPU (user + sys) | CPU ratio |  (${argv.includes("--pr") ? "PR bundle" : "hook"}, median of ${RUNS} rounds)`)
  console.log("|---|---|---|---|---|")
  settings.forEach((s, i) => {
    const c = cpu[i].some((x) => x === null) ? null : median(cpu[i])
    console.log(`| ${s} | ${fmt(median(wall[i]))} | ${ratio(wall, i)} | ${fmt(c)} | ${ratio(cpu, i)} |`)
  })
} catch (e) {
  if (e !== FAILED) throw e
} finally {
  rmSync(cacheDir, { recursive: true, force: true })
}
