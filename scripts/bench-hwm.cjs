// Preloaded (`node --require`) when /usr/bin/time is missing: writes the process's peak resident
// set size (VmHWM, in kB) to BENCH_HWM_FILE on exit, so the bench can still report peak memory.
const fs = require("node:fs")
process.on("exit", () => {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))
    if (m && process.env.BENCH_HWM_FILE) fs.writeFileSync(process.env.BENCH_HWM_FILE, m[1])
  } catch {
    // No /proc (macOS): peak memory is reported as n/a.
  }
})
