#!/usr/bin/env node
// The PR bundle as a CI job runs it (issue 50): a fresh clone of issue 50's repository (new
// inodes and times, as every job's checkout), `bundle --changeset HEAD~1...HEAD --parts --budget
// 50000`, without any cache (a job's first run, or CI before the action kept the cache) and with
// the cache a previous job left (copied in, as actions/cache or GitLab's cache restores it); each
// in a clean work tree and with an untracked file beside it (GitLab's job writes its reports into
// the checkout). CPU of the run with git's (/usr/bin/time), against reading every file once in
// the same clone; medians of N rounds. Outputs are compared with the uncached run's.
//   node scripts/bench-ci.mjs [--runs N] [--quick]
import { execFileSync, spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ISSUE50_EXTRAS, corpus, gitHosted, pickEarlyChain } from "./bench-corpus.mjs"
import { median } from "./bench-run.mjs"

const SCRIPTS = path.dirname(fileURLToPath(import.meta.url))
const CLI = path.join(SCRIPTS, "..", "bin", "specbundle.js")
const argv = process.argv.slice(2)
const at = argv.indexOf("--runs")
const RUNS = at >= 0 ? Number(argv[at + 1]) : 5
const size = argv.includes("--quick") ? { specs: 2000, packs: 8, tsFiles: 4000 } : { specs: 10000, packs: 40, tsFiles: 20000 }
const c = await corpus({ shape: "chain", seed: 1, anchorEvery: 5, ...size })
const hosted = gitHosted(c.dir, `${c.dir}-git50`, pickEarlyChain, ISSUE50_EXTRAS)
const work = mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-ci-"))
const ws = path.join(work, "ws")
const args = ["bundle", "--changeset", "HEAD~1...HEAD", "--parts", "--budget", "50000"]
const env = (extra) => {
  const e = { ...process.env, ...extra }
  if (extra.SPECBUNDLE_CODE_CACHE === undefined) delete e.SPECBUNDLE_CODE_CACHE
  return e
}
/** A job's checkout: a fresh clone at the same path, optionally with an untracked file. */
const checkout = (untracked) => {
  rmSync(ws, { recursive: true, force: true })
  execFileSync("git", ["clone", "-q", "--no-hardlinks", hosted, ws], { stdio: "ignore" })
  if (untracked) writeFileSync(path.join(ws, "gl-code-quality-report.json"), "[]\n")
}
const cpu = (cmd, extra = {}) => {
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, ...cmd], { cwd: ws, env: env(extra), encoding: "latin1", maxBuffer: 1 << 28 })
  const [u, s] = r.stderr.trim().split("\n").pop().split(" ").map(Number)
  return { ms: (u + s) * 1000, out: r.stdout, status: r.status }
}
const saved = path.join(work, "saved")
try {
  for (const untracked of [false, true]) {
    // The previous job: fills the cache (and the code cache) in its own clone.
    checkout(untracked)
    rmSync(saved, { recursive: true, force: true })
    cpu([CLI, ...args], { SPECBUNDLE_CODE_CACHE_DIR: saved })
    const rows = { floor: [], cold: [], restored: [] }
    let reference = null
    let same = true
    for (let i = 0; i < RUNS; i++) {
      checkout(untracked)
      rows.floor.push(cpu([path.join(SCRIPTS, "bench-read-all.mjs"), ws]).ms)
      const cold = cpu([CLI, ...args], { SPECBUNDLE_CODE_CACHE: "0" })
      reference ??= cold.out
      rows.cold.push(cold.ms)
      checkout(untracked)
      const restored = path.join(work, `cache-${i}`)
      cpSync(saved, restored, { recursive: true, preserveTimestamps: true })
      const warm = cpu([CLI, ...args], { SPECBUNDLE_CODE_CACHE_DIR: restored })
      rows.restored.push(warm.ms)
      same &&= warm.out === reference && warm.status === 0 && cold.status === 0
      rmSync(restored, { recursive: true, force: true })
    }
    const floor = median(rows.floor)
    const line = (name, xs) =>
      `${name}: ${median(xs).toFixed(0)} ms CPU (${(median(xs) / floor).toFixed(2)}x the floor) [${xs.map((x) => x.toFixed(0)).join(" ")}]`
    process.stdout.write(
      `PR bundle in a fresh clone of ${hosted}${untracked ? ", an untracked file in the work tree" : ""} (${RUNS} rounds)\n` +
        `${line("read every file once", rows.floor)}\n${line("no cache (SPECBUNDLE_CODE_CACHE=0)", rows.cold)}\n` +
        `${line("the previous job's cache restored", rows.restored)}\noutputs ${same ? "identical" : "DIFFER"}\n`
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
