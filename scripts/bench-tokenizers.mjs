#!/usr/bin/env node
// Which tokenizer `bundle --tokens` ships (docs/decisions.md, "Token counts"): the candidates' load
// and count times, each in a fresh Node process (median of --runs, wall and CPU), their counts
// (which must agree), and their install size; the bundles the build makes (bin/) are measured too.
//
//   npm install --prefix /tmp/tokenizers gpt-tokenizer@4.0.0 js-tiktoken@1.0.21
//   node scripts/bench-tokenizers.mjs /tmp/tokenizers/node_modules [TEXT_FILE] [--runs N]
//
// TEXT_FILE defaults to this repository's Markdown (README.md and docs/*.md). Prints a Markdown table.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const argv = process.argv.slice(2)
const runsAt = argv.indexOf("--runs")
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3
const [modules, textArg] = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--runs")
if (modules === undefined) throw new Error("usage: node scripts/bench-tokenizers.mjs NODE_MODULES [TEXT_FILE] [--runs N]")

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-tokenizers-"))
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }))
const textFile =
  textArg ??
  (() => {
    const file = path.join(scratch, "text.md")
    const docs = fs.readdirSync(path.join(REPO, "docs")).filter((f) => f.endsWith(".md"))
    fs.writeFileSync(file, [path.join(REPO, "README.md"), ...docs.map((f) => path.join(REPO, "docs", f))].map((f) => fs.readFileSync(f, "utf8")).join("\n"))
    return file
  })()

/** How each candidate loads one encoding and counts a text, as a CommonJS snippet run with `-e`. */
const candidates = {
  "gpt-tokenizer (package)": (enc) =>
    `const m = require(${JSON.stringify(path.join(modules, "gpt-tokenizer", "cjs", "encoding", `${enc}.js`))}); count = (t) => m.countTokens(t, { disallowedSpecial: new Set() })`,
  "gpt-tokenizer (bin/ bundle)": (enc) =>
    `const m = require(${JSON.stringify(path.join(REPO, "bin", `specbundle-tokens-${enc}.cjs`))}); count = (t) => m.countTokens(t, { disallowedSpecial: new Set() })`,
  "js-tiktoken": (enc) =>
    `const { Tiktoken } = require(${JSON.stringify(path.join(modules, "js-tiktoken", "dist", "lite.cjs"))}); const t = new Tiktoken(require(${JSON.stringify(path.join(modules, "js-tiktoken", "dist", "ranks", `${enc}.cjs`))})); count = (s) => t.encode(s, [], []).length`
}

const probe = (load) => `
const text = require("node:fs").readFileSync(${JSON.stringify(textFile)}, "utf8")
let count
const c0 = process.cpuUsage(), t0 = process.hrtime.bigint()
${load}
const t1 = process.hrtime.bigint(), c1 = process.cpuUsage(c0)
let n
for (let i = 0; i < 5; i++) n = count(text)
const t2 = process.hrtime.bigint(), c2 = process.cpuUsage(c0)
const cpu = (c) => (c.user + c.system) / 1e3
console.log(JSON.stringify({ load: Number(t1 - t0) / 1e6, loadCpu: cpu(c1), count: Number(t2 - t1) / 1e6, countCpu: cpu(c2) - cpu(c1), tokens: n }))`

/** Bytes of a folder, recursively. */
const sizeOf = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .reduce((sum, e) => sum + (e.isFile() ? fs.statSync(path.join(e.parentPath, e.name)).size : 0), 0)
    : 0
/** A package with its dependencies (one level: both candidates have at most one). */
const installed = (name) => {
  const dir = path.join(modules, name)
  const deps = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).dependencies ?? {})
  return [dir, ...deps.map((d) => path.join(modules, d))].reduce((sum, d) => sum + sizeOf(d), 0)
}
const sizes = {
  "gpt-tokenizer (package)": installed("gpt-tokenizer"),
  "gpt-tokenizer (bin/ bundle)": ["o200k_base", "cl100k_base"].reduce(
    (sum, e) => sum + fs.statSync(path.join(REPO, "bin", `specbundle-tokens-${e}.cjs`)).size,
    0
  ),
  "js-tiktoken": installed("js-tiktoken")
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const rows = []
for (const enc of ["o200k_base", "cl100k_base"]) {
  const samples = Object.fromEntries(Object.keys(candidates).map((c) => [c, []]))
  // Interleaved, so a busy moment of the machine falls on every candidate alike.
  for (let run = 0; run < RUNS; run++) {
    for (const [name, load] of Object.entries(candidates)) {
      const r = spawnSync(process.execPath, ["-e", probe(load(enc))], { encoding: "utf8" })
      if (r.status !== 0) throw new Error(`${name} ${enc}: ${r.stderr.trim().split("\n")[0]}`)
      samples[name].push(JSON.parse(r.stdout))
    }
  }
  for (const [name, s] of Object.entries(samples)) {
    const m = (k) => median(s.map((x) => x[k])).toFixed(0)
    rows.push(`| ${name} | ${enc} | ${m("load")} / ${m("loadCpu")} | ${m("count")} / ${m("countCpu")} | ${s[0].tokens} | ${(sizes[name] / 1e6).toFixed(1)} |`)
  }
}
const chars = fs.readFileSync(textFile, "utf8").length
console.log(
  `tokenizers: median of ${RUNS} fresh processes; text ${chars.toLocaleString("en-US")} code units (${textArg ?? "README.md and docs/*.md"}); node ${process.version}`
)
console.log("")
console.log("| candidate | encoding | load ms (wall / CPU) | count x5 ms (wall / CPU) | tokens | install MB |")
console.log("|---|---|---|---|---|---|")
for (const row of rows) console.log(row)
