// Running one command for the bench: wall time, exit status, peak RSS (`/usr/bin/time -f %M`
// when present, else VmHWM from /proc written by a preload at exit, else null) and CPU time (user
// + sys of the process and its children: /usr/bin/time only, else null).
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null
const HWM = path.join(path.dirname(fileURLToPath(import.meta.url)), "bench-hwm.cjs")
let counter = 0

/**
 * Peak RSS in MB (kB, the file's last number: GNU time writes "Command exited with non-zero
 * status" first) and, when the line is time's "%U %S %M", CPU milliseconds.
 */
const usageOf = (file) => {
  try {
    const text = readFileSync(file, "utf8")
    const nums = text.match(/\d+/g)
    const cpu = text.match(/(\d+\.\d+) (\d+\.\d+) \d+\s*$/)
    return { rss: nums === null ? null : Number(nums[nums.length - 1]) / 1024, cpuMs: cpu === null ? null : (Number(cpu[1]) + Number(cpu[2])) * 1000 }
  } catch {
    return { rss: null, cpuMs: null }
  } finally {
    rmSync(file, { force: true })
  }
}

/** Runs `node ...args` once; stdout and stderr go to /dev/null unless captured. */
export const measure = (node, args, opts = {}) => {
  const memFile = path.join(os.tmpdir(), `specbundle-bench-mem-${process.pid}-${counter++}`)
  const base = { ...process.env, ...opts.env }
  const [cmd, argv, env] =
    TIME !== null ? [TIME, ["-f", "%U %S %M", "-o", memFile, node, ...args], base] : [node, ["--require", HWM, ...args], { ...base, BENCH_HWM_FILE: memFile }]
  const t0 = process.hrtime.bigint()
  const r = spawnSync(cmd, argv, {
    cwd: opts.cwd,
    env,
    stdio: ["ignore", opts.captureOut ? "pipe" : "ignore", opts.captureErr ? "pipe" : "ignore"],
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024
  })
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  return { ms, status: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ...usageOf(memFile) }
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** n runs of the scenario, each right after one run of its baseline (when there is one). */
export const runs = (n, baseline, scenario) => {
  const times = []
  const baseTimes = []
  const rss = []
  // With BENCH_CPU=1 (`npm run bench -- --cpu`) the figures are CPU milliseconds (user + sys of the
  // process and the children it waited for, from /usr/bin/time), not wall: on a loaded host wall
  // time says more about the neighbours than about the run.
  const cpu = process.env.BENCH_CPU === "1"
  const figure = (r) => (cpu ? (r.cpuMs ?? Number.NaN) : r.ms)
  for (let i = 0; i < n; i++) {
    if (baseline !== null) baseTimes.push(figure(baseline()))
    const r = scenario()
    times.push(figure(r))
    rss.push(r.rss)
  }
  return { times, baseTimes, rss }
}
