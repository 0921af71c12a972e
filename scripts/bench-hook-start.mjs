#!/usr/bin/env node
// How fast each way a hook manager can start specbundle in a project install begins (issue 37):
// `node_modules/.bin/specbundle`, the guarded sh line `hook print` gives, and `npx --no-install`.
// Run it in a project with specbundle in node_modules/.bin: median, min and max wall time of N runs
// of `--version` each (`node scripts/bench-hook-start.mjs [N]`, default 21).
import { spawnSync } from "node:child_process"

const runs = Number(process.argv[2] ?? 21)
const guarded = 'PATH="node_modules/.bin:$PATH"; if command -v specbundle >/dev/null 2>&1; then specbundle --version; else echo missing >&2; exit 1; fi'
const ways = [
  ["node_modules/.bin/specbundle --version", "node_modules/.bin/specbundle", ["--version"]],
  ["the guarded line (hook print's), --version", "sh", ["-c", guarded]],
  ["npx --no-install specbundle --version", "npx", ["--no-install", "specbundle", "--version"]]
]
for (const [name, command, args] of ways) {
  const times = []
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint()
    const r = spawnSync(command, args, { encoding: "utf8" })
    if (r.status !== 0) {
      process.stderr.write(`bench-hook-start: ${name} failed (run it where node_modules/.bin/specbundle exists): ${r.stderr.trim().split("\n")[0]}\n`)
      process.exit(1)
    }
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
  }
  times.sort((a, b) => a - b)
  console.log(`${name}: median ${times[runs >> 1].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[runs - 1].toFixed(0)}, ${runs} runs)`)
}
