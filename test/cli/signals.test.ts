// Interrupted runs (bundle-contract.md section 1): SIGINT or SIGTERM during `bundle` on a corpus of
// a few thousand Specs (scripts/gen-corpus.mjs) exits 130 or 143, and stdout holds nothing or a
// whole value, never an empty "success"; a cache folder that cannot be created is simply not used.
// A signal "during" a run is sent while the run is held at a point of its work (test/support/pause.ts),
// never at a time guessed from an earlier run.
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runPaused } from "../support/pause.js"
import { skipping } from "../support/skip.js"

const REPO = path.join(import.meta.dirname, "..", "..")
const BIN = path.join(REPO, "bin", "specbundle.js")
const corpus = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-signals-"))
// Runs without the caches: every run reads and parses the whole corpus (a warm parse cache would
// leave the carriers unread, and the runs below are held at their first read of one). The user's
// cache folder is left alone either way.
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-signals-cache-"))
const env: NodeJS.ProcessEnv = { ...process.env, SPECBUNDLE_CODE_CACHE_DIR: cacheDir, SPECBUNDLE_CODE_CACHE: "0" }
afterAll(() => {
  fs.rmSync(corpus, { recursive: true, force: true })
  fs.rmSync(cacheDir, { recursive: true, force: true })
})

beforeAll(() => {
  if (!fs.existsSync(BIN)) {
    const build = spawnSync("npm", ["run", "build"], { cwd: REPO, encoding: "utf8" })
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`)
  }
  const gen = spawnSync(process.execPath, [path.join(REPO, "scripts/gen-corpus.mjs"), corpus, "--specs", "3000", "--packs", "30", "--ts-files", "200"], {
    encoding: "utf8"
  })
  if (gen.status !== 0) throw new Error(`gen-corpus failed: ${gen.stderr}`)
}, 120_000)

const ARGS = ["bundle", "--pack", "pack:pack-001", "--budget", "10000000"]

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
}

/** Runs the CLI to its end, left alone. */
const run = (args: ReadonlyArray<string> = ARGS): Promise<Ended> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: corpus, env, stdio: ["ignore", "pipe", "ignore"] })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c))
    child.on("close", (code, sig) => resolve({ code, signal: sig, stdout }))
  })

/**
 * Runs the CLI and sends `signal` while it is held at its first open of a file matching `at`, then
 * lets it go on: the signal is there before that read returns. How many times it was held, too.
 */
const interrupted = async (signal: NodeJS.Signals, at: RegExp, args: ReadonlyArray<string> = ARGS): Promise<Ended & { readonly pauses: number }> => {
  const paused = runPaused(args, {
    cwd: corpus,
    env,
    at,
    onPause: (_, n) => {
      if (n === 1) paused.child.kill(signal)
    }
  })
  const ended = await paused.ended
  return { ...ended, pauses: paused.pauses.length }
}

/** A Spec carrier of the corpus: reading them is the run's work (a few thousand). */
const CARRIER = /\.sdp\.md$/

/** The exit status a shell reports: a signal the process did not handle yet counts as 128 + its number. */
const shellStatus = (r: Ended): number | null => r.code ?? (r.signal === "SIGINT" ? 130 : r.signal === "SIGTERM" ? 143 : null)

const nothingOrWhole = (stdout: string) => {
  if (stdout === "") return
  expect(stdout.endsWith("\n")).toBe(true)
  expect(() => JSON.parse(stdout)).not.toThrow()
}

describe("signals during bundle", () => {
  it("an uninterrupted run is exit 0 with a whole value; SIGINT and SIGTERM mid-run exit 130 and 143 with nothing or a whole value", async () => {
    const whole = await run()
    expect(whole.code).toBe(0)
    expect(JSON.parse(whole.stdout).members.length).toBeGreaterThan(10)
    // At the first Spec the run reads: the work is under way, thousands of files still to read.
    for (const [signal, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 143]
    ] as const) {
      const r = await interrupted(signal, CARRIER)
      expect(r.pauses, signal).toBeGreaterThan(0)
      expect(shellStatus(r), `${signal}: code ${r.code}, signal ${r.signal}`).toBe(code)
      nothingOrWhole(r.stdout)
    }
  }, 120_000)

  it("a signal while the value is being written (a reader that has not read it yet) still leaves the whole value", async () => {
    // A value larger than all a paused reader takes in (a socket pair's buffer, ~208 KiB, and the
    // stream's 64 KiB): 400 Specs whole, ~0.9 MB.
    const list = spawnSync(process.execPath, [BIN, "list", "specs", "--format", "json"], { cwd: corpus, env, encoding: "utf8" })
    const ids = (JSON.parse(list.stdout) as { specs: Array<{ id: string }> }).specs.slice(0, 400).map((s) => s.id)
    const args = ["bundle", "--specs", ids.join(","), "--budget", "100000000"]
    const whole = await run(args)
    expect(whole.code).toBe(0)
    expect(whole.stdout.length).toBeGreaterThan(512 * 1024)
    const r = await new Promise<Ended>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: corpus, env, stdio: ["ignore", "pipe", "ignore"] })
      let stdout = ""
      let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined
      let ended = false
      const settle = () => exited !== undefined && ended && resolve({ ...exited, stdout })
      // Not read at first: once the value's first bytes wait in the stream, the write is under way;
      // the signal comes then, the reading 300 ms later.
      child.stdout.setEncoding("utf8").pause()
      const poll = setInterval(() => {
        if (child.stdout.readableLength === 0) return
        clearInterval(poll)
        child.kill("SIGINT")
        setTimeout(() => child.stdout.on("data", (c: string) => (stdout += c)).resume(), 300)
      }, 5)
      child.stdout.on("end", () => {
        ended = true
        settle()
      })
      child.on("exit", (code, signal) => {
        clearInterval(poll)
        exited = { code, signal }
        settle()
      })
    })
    // 130, or 0 when the value was all written before the signal was handled: never a part of it.
    expect([0, 130], `code ${r.code}, signal ${r.signal}`).toContain(shellStatus(r))
    expect(r.stdout.length).toBe(whole.stdout.length)
    expect(r.stdout).toBe(whole.stdout)
  }, 120_000)

  it("check interrupted mid-run exits 130, not 0", async () => {
    const whole = await run(["check"])
    expect(whole.code).toBe(0)
    const r = await interrupted("SIGINT", CARRIER, ["check"])
    expect(r.pauses).toBeGreaterThan(0)
    expect(shellStatus(r), `code ${r.code}, signal ${r.signal}`).toBe(130)
  }, 120_000)

  it("a signal while the loader reads the CLI's bundle, before the CLI's own handlers are up, still exits 130 or 143 with nothing on stdout", async () => {
    // Node's own bootstrap runs no JavaScript, and a signal then kills any Node program; the loader
    // (bin/specbundle.js) listens first, then reads the bundle that installs the CLI's handlers.
    for (const [signal, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 143]
    ] as const) {
      const r = await interrupted(signal, /specbundle-main\.cjs$/)
      expect(r.pauses, signal).toBe(1)
      expect({ code: r.code, signal: r.signal }, signal).toEqual({ code, signal: null })
      expect(r.stdout).toBe("")
    }
  }, 120_000)

  const noProc = skipping(process.platform !== "linux", "a cache folder under /proc", "only Linux has a /proc where no folder can be created")
  it.skipIf(noProc)(
    "a cache folder that cannot be created (XDG_CACHE_HOME=/proc/x) is not used, and the run ends normally",
    async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: "/proc/x" }
      delete env.SPECBUNDLE_CODE_CACHE_DIR
      delete env.SPECBUNDLE_CODE_CACHE
      const r = spawnSync(process.execPath, [BIN, ...ARGS], { cwd: corpus, env, encoding: "utf8", timeout: 60_000 })
      expect(r.signal).toBeNull()
      expect(r.status).toBe(0)
      expect(JSON.parse(r.stdout).members.length).toBeGreaterThan(10)
      expect(fs.existsSync("/proc/x")).toBe(false)
    },
    120_000
  )
})
