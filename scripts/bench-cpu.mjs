#!/usr/bin/env node
// Paired CPU per run (issue 38): on a loaded host wall time says little, so each build's warm run
// is measured by CPU, interleaved with the read floor (scripts/bench-read-all.mjs) and with the
// other builds, medians over the rounds. Two figures a run: this process's CPU at exit
// (process.cpuUsage through a -r hook, microseconds) and, under /usr/bin/time, with git's
// children included (10 ms steps). Builds' outputs are compared: they must print the same bytes.
//
//   node scripts/bench-cpu.mjs [--runs N] [--corpus chain|scale|issue50] [--scenario hook|hook-edit|pr] [BUILD_DIR ...]
// hook-edit: the hook after a one-file staged edit, as a real commit sees it (the index changed
// since the last run, just now): before each run a Spec's title changes and is staged, in a
// `git clone --shared` copy of the corpus (bench-edit.mjs editableCopy), never the shared one.
// BUILD_DIR: a checkout holding bin/specbundle.js (default: this one). The corpora are the bench's
// (scripts/bench-corpus.mjs: built and cached under the OS temp folder on first use).
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ISSUE50_EXTRAS, corpus, gitHosted, pickEarlyChain, pickMidChain } from "./bench-corpus.mjs"
import { editableCopy, stageEdit } from "./bench-edit.mjs"

const SCRIPTS = path.dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const option = (name, fallback) => {
  const at = argv.indexOf(name)
  if (at < 0) return fallback
  const [value] = argv.splice(at, 2).slice(1)
  return value
}
const runs = Number(option("--runs", "9"))
const shape = option("--corpus", "chain")
const scenario = option("--scenario", "hook")
const builds = argv.length === 0 ? [path.dirname(SCRIPTS)] : argv.map((b) => path.resolve(b))

const params = { shape: shape === "issue50" ? "chain" : shape, seed: 1, anchorEvery: 5, specs: 10000, packs: 40, tsFiles: 20000 }
const source = (await corpus(params)).dir
// issue50: the chain corpus with issue 50's repository (a .gitignore, an untracked file, the staged Spec early in a chain).
const hosted =
  shape === "issue50"
    ? gitHosted(source, `${source}-git50`, pickEarlyChain, ISSUE50_EXTRAS)
    : shape === "chain"
      ? gitHosted(source, undefined, pickMidChain)
      : gitHosted(source)
const edits = scenario === "hook-edit"
const dir = edits ? editableCopy(hosted) : hosted
let round = 0
const args =
  scenario === "hook" || edits
    ? ["impact", "--root", dir, "--staged", "--strict", "--quiet"]
    : ["bundle", "--root", dir, "--changeset", "HEAD~1", "--parts", "--budget", "50000"]

const tmp = mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-cpu-"))
const hook = path.join(tmp, "cpu-at-exit.cjs")
const out = path.join(tmp, "cpu.txt")
writeFileSync(
  hook,
  'process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").appendFileSync(process.env.BENCH_CPU_OUT, (u.user + u.system) / 1000 + "\\n") })\n'
)
const env = { ...process.env, SPECBUNDLE_CODE_CACHE_DIR: path.join(tmp, "cache"), BENCH_CPU_OUT: out }
delete env.SPECBUNDLE_CODE_CACHE

const run = (cmd, edit = false) => {
  if (edit) stageEdit(dir, ++round)
  rmSync(out, { force: true })
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, "-r", hook, ...cmd], { env, encoding: "latin1", maxBuffer: 1 << 28 })
  const [u, s] = r.stderr.trim().split("\n").pop().split(" ").map(Number)
  return { self: Number(readFileSync(out, "utf8").trim()), all: (u + s) * 1000, stdout: r.stdout, status: r.status }
}
const rows = [
  { name: "read every file once", cmd: [path.join(SCRIPTS, "bench-read-all.mjs"), dir] },
  ...builds.map((b) => ({ name: b, cmd: [path.join(b, "bin", "specbundle.js"), ...args] }))
].map((r) => ({ ...r, self: [], all: [], stdout: null, status: null }))
try {
  // Two warm-ups each: the first fills the caches, the second runs as every later run does.
  for (const r of rows.slice(1)) {
    run(r.cmd, edits)
    const w = run(r.cmd, edits)
    r.stdout = w.stdout
    r.status = w.status
  }
  for (let i = 0; i < runs; i++)
    for (const r of rows) {
      const m = run(r.cmd, edits && r !== rows[0])
      r.self.push(m.self)
      r.all.push(m.all)
    }
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1]
const floor = median(rows[0].all)
process.stdout.write(`${scenario} on the ${shape} corpus (${dir}), ${runs} rounds, medians of CPU per run\n`)
for (const r of rows)
  process.stdout.write(
    `${r.name}: ${median(r.self).toFixed(0)} ms this process, ${median(r.all).toFixed(0)} ms with git's (${(median(r.all) / floor).toFixed(2)}x)` +
      `${r.status === null ? "" : `, exit ${r.status}`} [${r.self.map((x) => x.toFixed(0)).join(" ")}]\n`
  )
const outputs = new Set(rows.slice(1).map((r) => r.stdout))
process.stdout.write(`outputs ${outputs.size === 1 ? "identical" : "DIFFER"} across builds\n`)
