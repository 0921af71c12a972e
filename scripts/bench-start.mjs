#!/usr/bin/env node
// Start-up rows for one or more builds, paired and interleaved (issue 50): `node -e 0`, each
// build's `--help` and the bike-dock pre-commit hook (`impact --staged --strict --quiet` in
// examples/bike-dock committed into git), every round in a shuffled order. Wall time, and CPU time
// from a preload at exit: the process's own (process.cpuUsage, microseconds) plus the children it
// waited for (git; /proc/self/stat, clock ticks), which a loaded host moves far less than wall
// time. Medians, and each row against `node -e 0`'s. Each build gets a cache folder of its own,
// warmed first. Run it as users run the CLI: `env -u NODE_EXTRA_CA_CERTS`.
//
//   node scripts/bench-start.mjs [--rounds N] CLI [CLI2 ...]    (CLI: a build's bin/specbundle.js)
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { gitHosted } from "./bench-corpus.mjs"
import { median } from "./bench-run.mjs"

const SCRIPTS = path.dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const at = argv.indexOf("--rounds")
const ROUNDS = at >= 0 ? Number(argv.splice(at, 2)[1]) : 30
const clis = argv.map((c) => path.resolve(c))
if (clis.length === 0 || !Number.isInteger(ROUNDS) || ROUNDS < 1) {
  process.stderr.write("bench-start: usage: node scripts/bench-start.mjs [--rounds N] CLI [CLI2 ...]\n")
  process.exit(2)
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "specbundle-start-"))
try {
  const example = gitHosted(path.join(path.dirname(SCRIPTS), "examples", "bike-dock"), path.join(scratch, "bike-dock"))
  const probe = path.join(scratch, "cpu.cjs")
  const out = path.join(scratch, "cpu.txt")
  // user + sys of this process, and of the children it waited for (fields 16 and 17 of /proc/self/stat).
  writeFileSync(
    probe,
    `process.on("exit", () => { const fs = require("node:fs"); const u = process.cpuUsage(); let kids = 0; try { const f = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" "); kids = (Number(f[13]) + Number(f[14])) * 10 } catch {} fs.writeFileSync(${JSON.stringify(out)}, String((u.user + u.system) / 1000 + kids)) })\n`
  )
  const rows = [{ name: "node -e 0", args: ["-e", "0"], env: {} }]
  for (const [i, cli] of clis.entries()) {
    const label = clis.length === 1 ? "" : ` (${path.relative(process.cwd(), cli) || cli})`
    const env = { SPECBUNDLE_CODE_CACHE_DIR: path.join(scratch, `cache-${i}`) }
    rows.push({ name: `--help${label}`, args: [cli, "--help"], env })
    rows.push({ name: `bike-dock hook${label}`, args: [cli, "impact", "--root", example, "--staged", "--strict", "--quiet"], env })
  }
  const run = (row) => {
    const env = { ...process.env, ...row.env }
    delete env.NODE_EXTRA_CA_CERTS
    delete env.SPECBUNDLE_CODE_CACHE
    rmSync(out, { force: true })
    const t0 = process.hrtime.bigint()
    const r = spawnSync(process.execPath, ["--require", probe, ...row.args], { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" })
    const wall = Number(process.hrtime.bigint() - t0) / 1e6
    if (r.status !== 0) throw new Error(`${row.name}: exit ${r.status}: ${r.stderr.trim().split("\n")[0]}`)
    return { wall, cpu: Number(readFileSync(out, "utf8")) }
  }
  for (const row of rows) for (let w = 0; w < 2; w++) run(row)
  const times = rows.map(() => [])
  for (let r = 0; r < ROUNDS; r++) {
    const order = [...rows.keys()].sort(() => Math.random() - 0.5)
    for (const i of order) times[i].push(run(rows[i]))
  }
  const base = { wall: median(times[0].map((t) => t.wall)), cpu: median(times[0].map((t) => t.cpu)) }
  console.log(`| run (median of ${ROUNDS} rounds, load ${os.loadavg()[0].toFixed(1)}) | wall | vs node -e 0 | CPU | vs node -e 0 |`)
  console.log("|---|---|---|---|---|")
  for (const [i, row] of rows.entries()) {
    const wall = median(times[i].map((t) => t.wall))
    const cpu = median(times[i].map((t) => t.cpu))
    console.log(`| ${row.name} | ${wall.toFixed(1)} ms | ${(wall / base.wall).toFixed(2)}x | ${cpu.toFixed(1)} ms | ${(cpu / base.cpu).toFixed(2)}x |`)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
