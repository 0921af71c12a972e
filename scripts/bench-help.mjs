// `--help` start-up of two builds, interleaved: node scripts/bench-help.mjs OLD/specbundle.js [NEW/specbundle.js]
// Prints the median of 20 runs of `--help` and `bundle --help` for each (warm V8 code cache).
import { execFileSync } from "node:child_process"

const [before, after = "bin/specbundle.js"] = process.argv.slice(2)
if (before === undefined) throw new Error("usage: node scripts/bench-help.mjs OLD/specbundle.js [NEW/specbundle.js]")
const builds = { before, after }
const run = (file, args) => {
  const start = process.hrtime.bigint()
  execFileSync(process.execPath, [file, ...args], { stdio: "ignore" })
  return Number(process.hrtime.bigint() - start) / 1e6
}
for (const file of Object.values(builds)) for (let i = 0; i < 2; i++) run(file, ["--help"])
for (const args of [["--help"], ["bundle", "--help"]]) {
  const times = { before: [], after: [] }
  for (let i = 0; i < 20; i++) for (const [name, file] of Object.entries(builds)) times[name].push(run(file, args))
  const median = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(0)
  console.log(`${args.join(" ")}: median ms before ${median(times.before)}, after ${median(times.after)}`)
}
