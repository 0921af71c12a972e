#!/usr/bin/env node
// The MCP server between calls (issue 38): `node bin/specbundle.js mcp` over stdio, driven with raw
// JSON-RPC lines, on the 10,000-Spec corpus in git (`--quick`: 2,000 Specs). Per session, the first
// `impact --staged` call, then repeated calls with nothing changed, then calls each after a one-file
// edit (a Spec's title changed and staged with `git add`); medians over the sessions' calls. The
// corpus is copied first (the bench's cached corpus is shared and stays as it is); the CLI gets a
// cache folder of its own, filled by a warm-up session, as after a first commit.
//   node scripts/bench-mcp.mjs [--quick] [--sessions N] [--calls N] [--profile] [--corpus scale|issue50]
// `--profile` writes one session's CPU profile (node --cpu-prof) to the temp folder and names it.
// `--corpus issue50`: issue 50's repository (scripts/bench-corpus.mjs, pickEarlyChain). Each call's
// CPU (the server's user + sys and its waited children's, from /proc/PID/stat, Linux only) is
// printed beside its wall time, and both against `git status --porcelain` in the same repository
// (issue 50's yardstick). `mcpRows` gives the same figures as rows of `npm run bench`.
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ISSUE50_EXTRAS, corpus, gitHosted, pickEarlyChain } from "./bench-corpus.mjs"

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const CLI = path.join(REPO, "bin", "specbundle.js")
const argv = process.argv.slice(2)
const quick = argv.includes("--quick")
const option = (name, fallback) => {
  const at = argv.indexOf(name)
  return at < 0 ? fallback : Number(argv[at + 1])
}
const SESSIONS = option("--sessions", quick ? 3 : 5)
const CALLS = option("--calls", 5)
const log = (line) => process.stderr.write(`bench-mcp: ${line}\n`)

const git = (cwd, args) =>
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }
  })

const TICK_MS = (() => {
  const r = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" })
  const hz = Number(r.stdout?.trim())
  return Number.isFinite(hz) && hz > 0 ? 1000 / hz : 10
})()

/** A process's CPU so far in ms (user + sys, its own and its waited children's), or NaN off Linux. */
const cpuOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS
  } catch {
    return Number.NaN
  }
}

/** One server over its pipes: `call` writes a request line and resolves with its answer and the milliseconds it took. */
const startServer = (cwd, env, nodeArgs = []) => {
  const child = spawn(process.execPath, [...nodeArgs, CLI, "mcp"], { cwd, env, stdio: ["pipe", "pipe", "inherit"] })
  let buffered = ""
  const waiting = new Map()
  child.stdout.setEncoding("utf8")
  child.stdout.on("data", (chunk) => {
    buffered += chunk
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl)
      buffered = buffered.slice(nl + 1)
      if (line.trim() === "") continue
      const message = JSON.parse(line)
      const w = waiting.get(message.id)
      if (w !== undefined) {
        waiting.delete(message.id)
        w(message)
      }
    }
  })
  let id = 0
  const request = (method, params) =>
    new Promise((resolve) => {
      const started = process.hrtime.bigint()
      const cpuStart = cpuOf(child.pid)
      const n = ++id
      waiting.set(n, (message) => resolve({ message, ms: Number(process.hrtime.bigint() - started) / 1e6, cpu: cpuOf(child.pid) - cpuStart }))
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: n, method, params })}\n`)
    })
  const ready = request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-mcp", version: "0" } }).then(() =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`)
  )
  const call = async (name, args) => {
    const { message, ms, cpu } = await request("tools/call", { name, arguments: args })
    if (message.error !== undefined || message.result?.isError) throw new Error(`${name} failed: ${JSON.stringify(message.error ?? message.result.content)}`)
    return { text: message.result.content[0].text, ms, cpu }
  }
  const stop = () =>
    new Promise((resolve) => {
      child.on("exit", resolve)
      child.stdin.end()
    })
  return { ready, call, stop }
}

/** Changes a Spec's title and stages it: the `n`th edit. */
const edit = (dir, file, n) => {
  const full = path.join(dir, file)
  writeFileSync(full, readFileSync(full, "utf8").replace(/^# (.*?)(?: \(mcp edit \d+\))?$/m, `# $1 (mcp edit ${n})`))
  git(dir, ["add", "--", file])
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`)

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length

/** `git status --porcelain` in `dir`, `n` times: wall ms each, and CPU ms per run (from /usr/bin/time over the batch; NaN without it). */
const gitStatus = (dir, n) => {
  const wall = []
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint()
    spawnSync("git", ["status", "--porcelain"], { cwd: dir, stdio: "ignore" })
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  if (!existsSync("/usr/bin/time")) return { wall, cpu: Number.NaN }
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", "sh", "-c", `i=0; while [ $i -lt ${n} ]; do git status --porcelain > /dev/null; i=$((i+1)); done`], {
    cwd: dir,
    encoding: "utf8"
  })
  const [u, sys] = r.stderr.trim().split("\n").pop().split(" ").map(Number)
  return { wall, cpu: ((u + sys) * 1000) / n }
}

/**
 * The sessions on a copy of the git-hosted corpus `hosted`: per session the first `impact
 * {staged}` call, `calls` calls with nothing changed, `calls` calls each after a one-file staged
 * edit; and `git status --porcelain` in the same copy. Wall ms per call, CPU ms per call.
 */
export const mcpSessions = async ({ hosted, sessions = SESSIONS, calls = CALLS, profile = false }) => {
  const work = mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-mcp-"))
  const dir = path.join(work, "corpus")
  const cacheDir = path.join(work, "cache")
  try {
    log(`copying ${hosted}`)
    cpSync(hosted, dir, { recursive: true })
    const env = { ...process.env, SPECBUNDLE_CODE_CACHE_DIR: cacheDir }
    delete env.SPECBUNDLE_CODE_CACHE
    const specs = git(dir, ["ls-files", "-z", "--", "*.sdp.md"])
      .split("\0")
      .filter((f) => f !== "" && !f.endsWith(".pack.sdp.md"))
    const args = { staged: true }
    // Warm-up: fills the V8 code cache and the parse cache, as the first commit's hook would.
    {
      const s = startServer(dir, env)
      await s.ready
      await s.call("impact", args)
      await s.stop()
    }
    const first = []
    const again = []
    const edited = []
    let edits = 0
    for (let session = 0; session < sessions; session++) {
      const profileDir = profile && session === sessions - 1 ? mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-prof-")) : null
      const s = startServer(dir, env, profileDir === null ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir])
      await s.ready
      first.push(await s.call("impact", args))
      for (let i = 0; i < calls; i++) again.push(await s.call("impact", args))
      for (let i = 0; i < calls; i++) {
        edit(dir, specs[(edits * 7919) % specs.length], ++edits)
        edited.push(await s.call("impact", args))
      }
      await s.stop()
      if (profileDir !== null) log(`CPU profile: ${path.join(profileDir, readdirSync(profileDir)[0] ?? "(none)")}`)
    }
    const status = gitStatus(dir, Math.max(5, calls))
    const of = (xs) => ({ wall: xs.map((x) => x.ms), cpu: mean(xs.map((x) => x.cpu)) })
    return { first: of(first), again: of(again), edited: of(edited), status }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The git-hosted corpus a session runs on: the scale corpus as before, or issue 50's repository. */
export const mcpCorpus = async (which, quick) => {
  const size = quick ? { specs: 2000, packs: 8, tsFiles: 4000 } : { specs: 10000, packs: 40, tsFiles: 20000 }
  if (which === "issue50") {
    const c = await corpus({ shape: "chain", seed: 1, anchorEvery: 5, ...size })
    return { c, hosted: gitHosted(c.dir, `${c.dir}-git50`, pickEarlyChain, ISSUE50_EXTRAS) }
  }
  const c = await corpus({ shape: "scale", seed: 1, anchorEvery: 5, ...size })
  return { c, hosted: gitHosted(c.dir) }
}

/**
 * Issue 50's MCP rows for `npm run bench`: the second and later calls, and a call after a one-file
 * staged edit, against `git status --porcelain` in the same repository; wall or (BENCH_CPU=1) CPU.
 */
export const mcpRows = async ({ hosted, where, sessions, calls }) => {
  const cpu = process.env.BENCH_CPU === "1"
  const r = await mcpSessions({ hosted, sessions, calls })
  const base = cpu ? r.status.cpu : median(r.status.wall)
  const row = (name, xs, target, limit, goal) => {
    const ms = cpu ? xs.cpu : median(xs.wall)
    return { name: `${name}, ${where}`, ms, baseline: "git status --porcelain", baseMs: base, ratio: ms / base, target, limit, goal }
  }
  return [
    row("MCP impact {staged}: second and later calls", r.again, "<= 0.5x (goal 0.2x)", 0.5, 0.2),
    row("MCP impact {staged}: a call after a one-file staged edit", r.edited, "<= 1.0x (goal 0.3x)", 1, 0.3)
  ]
}

const main = async () => {
  const at = argv.indexOf("--corpus")
  const { c, hosted } = await mcpCorpus(at < 0 ? "scale" : argv[at + 1], quick)
  const r = await mcpSessions({ hosted, profile: argv.includes("--profile") })
  const label = `${c.specs.toLocaleString("en-US")} Specs, ${c.tsFiles.toLocaleString("en-US")} TS files in git (${hosted})`
  console.log(`MCP server, impact --staged, ${label} (${SESSIONS} sessions, ${CALLS} calls of each kind a session)`)
  console.log(`| call | median | min | max | mean CPU per call | CPU vs git status | target (issue 50, vs git status) |`)
  console.log(`|---|---|---|---|---|---|---|`)
  const row = (name, xs, target) =>
    console.log(
      `| ${name} | ${fmt(median(xs.wall))} | ${fmt(Math.min(...xs.wall))} | ${fmt(Math.max(...xs.wall))} | ${fmt(xs.cpu)} | ${(xs.cpu / r.status.cpu).toFixed(2)}x | ${target} |`
    )
  row("first call of a session (parse cache on disk warm)", r.first, "info")
  row("second and later calls, nothing changed", r.again, "<= 0.5x (goal 0.2x)")
  row("a call after a one-file edit (staged)", r.edited, "<= 1.0x (goal 0.3x)")
  console.log(
    `| git status --porcelain (yardstick) | ${fmt(median(r.status.wall))} | ${fmt(Math.min(...r.status.wall))} | ${fmt(Math.max(...r.status.wall))} | ${fmt(r.status.cpu)} | 1.00x | |`
  )
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) await main()
