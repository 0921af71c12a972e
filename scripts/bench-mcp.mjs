#!/usr/bin/env node
// The MCP server between calls (issue 38): `node bin/specbundle.js mcp` over stdio, driven with raw
// JSON-RPC lines, on the 10,000-Spec corpus in git (`--quick`: 2,000 Specs). Per session, the first
// `impact --staged` call, then repeated calls with nothing changed, then calls each after a one-file
// edit (a Spec's title changed and staged with `git add`); medians over the sessions' calls. The
// corpus is copied first (the bench's cached corpus is shared and stays as it is); the CLI gets a
// cache folder of its own, filled by a warm-up session, as after a first commit.
//   node scripts/bench-mcp.mjs [--quick] [--sessions N] [--calls N] [--profile]
// `--profile` writes one session's CPU profile (node --cpu-prof) to the temp folder and names it.
import { execFileSync, spawn } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { corpus, gitHosted } from "./bench-corpus.mjs"

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
      const n = ++id
      waiting.set(n, (message) => resolve({ message, ms: Number(process.hrtime.bigint() - started) / 1e6 }))
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: n, method, params })}\n`)
    })
  const ready = request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-mcp", version: "0" } }).then(() =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`)
  )
  const call = async (name, args) => {
    const { message, ms } = await request("tools/call", { name, arguments: args })
    if (message.error !== undefined || message.result?.isError) throw new Error(`${name} failed: ${JSON.stringify(message.error ?? message.result.content)}`)
    return { text: message.result.content[0].text, ms }
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

const main = async () => {
  const size = quick ? { specs: 2000, packs: 8, tsFiles: 4000 } : { specs: 10000, packs: 40, tsFiles: 20000 }
  const c = await corpus({ shape: "scale", seed: 1, anchorEvery: 5, ...size })
  const hosted = gitHosted(c.dir)
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
    for (let session = 0; session < SESSIONS; session++) {
      const profileDir = argv.includes("--profile") && session === SESSIONS - 1 ? mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-prof-")) : null
      const s = startServer(dir, env, profileDir === null ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir])
      await s.ready
      first.push((await s.call("impact", args)).ms)
      for (let i = 0; i < CALLS; i++) again.push((await s.call("impact", args)).ms)
      for (let i = 0; i < CALLS; i++) {
        edit(dir, specs[(edits * 7919) % specs.length], ++edits)
        edited.push((await s.call("impact", args)).ms)
      }
      await s.stop()
      if (profileDir !== null) log(`CPU profile: ${path.join(profileDir, readdirSync(profileDir)[0] ?? "(none)")}`)
    }
    const label = `${c.specs.toLocaleString("en-US")} Specs, ${c.tsFiles.toLocaleString("en-US")} TS files in git`
    console.log(`MCP server, impact --staged, ${label} (${SESSIONS} sessions, ${CALLS} calls of each kind a session)`)
    console.log(`| call | median | min | max | target |`)
    console.log(`|---|---|---|---|---|`)
    const row = (name, xs, target) => console.log(`| ${name} | ${fmt(median(xs))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} | ${target} |`)
    row("first call of a session (parse cache on disk warm)", first, "info")
    row("second and later calls, nothing changed", again, "<= 100 ms")
    row("a call after a one-file edit (staged)", edited, "<= 100 ms")
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
