#!/usr/bin/env node
// Where the bike-dock pre-commit hook's time goes (issue 38), for one or two builds of the CLI side
// by side: Node's own start-up, the loader (its requires, reading and hashing the bundle, reading
// the code cache), compiling from the code cache, the bundle's module set-up and the CLI's parse up
// to the first git process, git (the first start to the last exit, with whatever the main thread
// does meanwhile), and the rest (reading, the graph, the report) to the exit. Wall milliseconds,
// medians of N rounds, the builds alternating; marks from a preload (scripts/bench-phases-preload.cjs),
// which gives the run its own code cache key, so each build is warmed first. Run it as users run
// the CLI: `env -u NODE_EXTRA_CA_CERTS` (Node reads that file at every start).
//
//   node scripts/bench-phases.mjs CLI [CLI2] [--runs N]
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { gitHosted } from "./bench-corpus.mjs"
import { median } from "./bench-run.mjs"

const SCRIPTS = path.dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const runsAt = argv.indexOf("--runs")
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 15
const clis = argv.filter((a, i) => !a.startsWith("--") && (runsAt < 0 || i !== runsAt + 1)).map((c) => path.resolve(c))
if (clis.length < 1 || clis.length > 2 || !Number.isInteger(RUNS) || RUNS < 1) {
  process.stderr.write("bench-phases: usage: node scripts/bench-phases.mjs CLI [CLI2] [--runs N]\n")
  process.exit(2)
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "specbundle-phases-"))
try {
  const example = gitHosted(path.join(path.dirname(SCRIPTS), "examples", "bike-dock"), path.join(scratch, "bike-dock"))
  const marksFile = path.join(scratch, "marks.json")
  const run = (cli, i) => {
    const env = { ...process.env, SPECBUNDLE_CODE_CACHE_DIR: path.join(scratch, `cache-${i}`), BENCH_PHASES_FILE: marksFile }
    delete env.SPECBUNDLE_CODE_CACHE
    const args = ["--require", path.join(SCRIPTS, "bench-phases-preload.cjs"), cli, "impact", "--root", example, "--staged", "--strict", "--quiet"]
    const r = spawnSync(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" })
    if (r.status !== 0) throw new Error(`${cli}: exit ${r.status}: ${r.stderr.trim().split("\n")[0]}`)
    const m = JSON.parse(readFileSync(marksFile, "utf8"))
    return {
      "Node's start-up (its bootstrap)": m.boot,
      "the loader: requires, the bundle read and hashed, the code cache read": m.compileStart - m.boot,
      "compiling the bundle from the code cache": m.compileEnd - m.compileStart,
      "module set-up and the CLI's parse, to the first git": m.gitFirst - m.compileEnd,
      "git: the first start to the last exit": m.gitLast - m.gitFirst,
      "reading, the graph, the report, to the exit": m.exit - m.gitLast,
      "total, to the exit": m.exit,
      "git processes": m.gits
    }
  }
  for (const [i, cli] of clis.entries()) for (let w = 0; w < 2; w++) run(cli, i)
  const rows = clis.map(() => [])
  for (let r = 0; r < RUNS; r++) {
    const order = r % 2 === 0 ? [...clis.keys()] : [...clis.keys()].reverse()
    for (const i of order) rows[i].push(run(clis[i], i))
  }
  console.log(`| phase (ms, median of ${RUNS}) | ${clis.map((c) => path.relative(process.cwd(), c) || c).join(" | ")} |`)
  console.log(`|---|${clis.map(() => "---|").join("")}`)
  for (const phase of Object.keys(rows[0][0])) {
    console.log(`| ${phase} | ${rows.map((list) => median(list.map((x) => x[phase])).toFixed(phase === "git processes" ? 0 : 1)).join(" | ")} |`)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
