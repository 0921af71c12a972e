// Preloaded (`node --require`) by scripts/bench-phases.mjs: marks when a run of the CLI reaches each
// phase (milliseconds since the process started) and writes them as one JSON line to the file named
// by BENCH_PHASES_FILE at exit. It watches the loader's vm.Script (compile from the code cache, then
// the bundle's evaluation) and child_process.spawn (git), so it needs no change to the CLI.
const vm = require("node:vm")
const childProcess = require("node:child_process")
const fs = require("node:fs")

const marks = {}
const Script = vm.Script
vm.Script = class extends Script {
  constructor(code, options) {
    marks.compileStart ??= performance.now()
    super(code, options)
    marks.compileEnd ??= performance.now()
  }
}
const spawn = childProcess.spawn
let gits = 0
childProcess.spawn = function (command, ...rest) {
  if (command !== "git") return spawn.call(this, command, ...rest)
  marks.gitFirst ??= performance.now()
  gits++
  const child = spawn.call(this, command, ...rest)
  child.once("close", () => {
    marks.gitLast = performance.now()
  })
  return child
}
process.on("exit", () => {
  const boot = performance.nodeTiming.bootstrapComplete
  fs.writeFileSync(process.env.BENCH_PHASES_FILE, JSON.stringify({ ...marks, boot, exit: performance.now(), gits }))
})
