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
import { TURN_BYTES } from "../../src/node/loopTurn.js"
import { repoAt } from "../support/git.js"
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
  // A repository with a last commit that changes 30 Specs, for `impact --changeset HEAD~1`.
  const repo = repoAt(corpus)
  repo.git("init", "-q", "-b", "main")
  repo.commit("corpus")
  for (const file of filesOf(corpus, /\.sdp\.md$/)
    .slice(0, 300)
    .filter((_, i) => i % 10 === 0)) {
    const text = fs.readFileSync(file, "utf8")
    const end = text.lastIndexOf(".")
    fs.writeFileSync(file, `${text.slice(0, end)}, changed${text.slice(end)}`)
  }
  repo.commit("thirty Specs changed")
}, 120_000)

/** The files under `root` whose names match `re` (absolute, in code-unit order), .git left out. */
const filesOf = (root: string, re: RegExp): string[] =>
  fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => re.test(f) && !f.startsWith(".git"))
    .sort()
    .map((f) => path.join(root, f))

const ARGS = ["bundle", "--pack", "pack:pack-001", "--budget", "10000000"]

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
}

/** Runs the CLI to its end, left alone. */
const run = (args: ReadonlyArray<string> = ARGS, cwd = corpus): Promise<Ended> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "ignore"] })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c))
    child.on("close", (code, sig) => resolve({ code, signal: sig, stdout }))
  })

/**
 * Runs the CLI and sends `signal` while it is held at its first open of a file matching `at`, then
 * lets it go on: the signal is there before that read returns. How many times it was held, too.
 */
const interrupted = async (
  signal: NodeJS.Signals,
  at: RegExp,
  args: ReadonlyArray<string> = ARGS,
  options: { readonly nth?: number; readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {}
): Promise<Ended & { readonly pauses: number; readonly after: ReadonlyArray<string> }> => {
  const nth = options.nth ?? 1
  const paused = runPaused(args, {
    cwd: options.cwd ?? corpus,
    env: options.env ?? env,
    at,
    onPause: (_, n) => {
      if (n === nth) paused.child.kill(signal)
    }
  })
  const ended = await paused.ended
  return { ...ended, pauses: paused.pauses.length, after: paused.pauses.slice(nth) }
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

// A read that does not yield (bundle-contract.md section 1): a corpus read and parsed in the main
// thread (any corpus under 2,000 files, or SPECBUNDLE_WORKERS=0), the parse cache off. A signal
// there used to wait in the event loop until the read ended, and was never seen when the run went
// from its read straight to its end: exit 0. "Within a second" is checked as work, not time:
// after the signal the run reads at most a few turns' worth of files (src/node/loopTurn.ts: the
// event loop polls every TURN_BYTES read or parsed), where the rest of the read is many times
// that. Each point is a file the run is held at when it opens it.
describe("signals during a long read in one thread", () => {
  const inThread: NodeJS.ProcessEnv = { ...env, SPECBUNDLE_WORKERS: "0" }
  const sizeOf = (files: ReadonlyArray<string>) => files.reduce((sum, f) => sum + fs.statSync(f).size, 0)
  /** At most this many bytes of files opened after the signal: a turn's worth to reach the poll, more while the run winds down. */
  const AFTER_BYTES = 3 * TURN_BYTES
  /** The files a read opens, code and carriers. */
  const READ = /\.(ts|sdp\.md)$/
  /** The SDP reference repository's size and shape (scripts/gen-corpus.mjs --shape reference): ~520 files, ~2.7 MB. */
  const reference = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-signals-reference-"))
  afterAll(() => fs.rmSync(reference, { recursive: true, force: true }))
  beforeAll(() => {
    const gen = spawnSync(process.execPath, [path.join(REPO, "scripts/gen-corpus.mjs"), reference, "--shape", "reference", "--specs", "300"], {
      encoding: "utf8"
    })
    if (gen.status !== 0) throw new Error(`gen-corpus failed: ${gen.stderr}`)
  }, 120_000)

  /** Sends `signal` at the `nth` file matching `at` the run opens; checks the status, the work done after it and stdout. */
  const stopsAt = async (
    root: string,
    args: ReadonlyArray<string>,
    signal: NodeJS.Signals,
    at: RegExp,
    nth: number,
    runEnv: NodeJS.ProcessEnv = inThread
  ): Promise<void> => {
    const r = await interrupted(signal, at, args, { nth, cwd: root, env: runEnv })
    const what = `${args.join(" ")}, ${signal} at file ${nth}: code ${r.code}, signal ${r.signal}, ${r.after.length} files opened after`
    expect(r.pauses, what).toBeGreaterThanOrEqual(nth)
    expect({ code: r.code, signal: r.signal }, what).toEqual({ code: signal === "SIGINT" ? 130 : 143, signal: null })
    expect(sizeOf(r.after), what).toBeLessThanOrEqual(AFTER_BYTES)
    nothingOrWhole(r.stdout)
  }

  it("the reference-sized corpus: check and list specs, SIGINT or SIGTERM at the first file, a third, two thirds and the last carrier: 130 or 143, the rest of the read left undone", async () => {
    const files = filesOf(reference, READ)
    const n = files.length
    // Left to read after the first file: ~3.5 times AFTER_BYTES, so stopping early is not luck.
    expect(sizeOf(files.slice(1))).toBeGreaterThan(3 * AFTER_BYTES)
    expect((await run(["check"], reference)).code).toBe(0)
    await stopsAt(reference, ["check"], "SIGINT", READ, 1, env)
    await stopsAt(reference, ["check"], "SIGTERM", READ, Math.floor(n / 3), env)
    await stopsAt(reference, ["list", "specs", "--format", "json"], "SIGINT", READ, Math.floor((2 * n) / 3), env)
    await stopsAt(reference, ["check"], "SIGINT", READ, n, env)
    await stopsAt(reference, ["list", "specs", "--format", "json"], "SIGTERM", READ, n, env)
  }, 300_000)

  it("3,000 Specs in one thread: check and list specs at the first carrier, a third and two thirds", async () => {
    const n = filesOf(corpus, CARRIER).length
    await stopsAt(corpus, ["check"], "SIGINT", CARRIER, 1)
    await stopsAt(corpus, ["check"], "SIGTERM", CARRIER, Math.floor(n / 3))
    await stopsAt(corpus, ["list", "specs", "--format", "json"], "SIGINT", CARRIER, Math.floor((2 * n) / 3))
  }, 300_000)

  it("the parse cache's first run (each file read as it is parsed): SIGINT at the first carrier and at a third ends the parse within a few turns", async () => {
    // With the parse cache off, the read takes every file into memory first and then parses them,
    // opening nothing more: here each file is read where it is parsed, in the same loop
    // (src/node/extractInThread.ts), so what the parse did after the signal can be seen.
    const n = filesOf(corpus, CARRIER).length
    for (const nth of [1, Math.floor(n / 3)]) {
      const cold = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-signals-cold-"))
      try {
        await stopsAt(corpus, ["check"], "SIGINT", CARRIER, nth, { ...inThread, SPECBUNDLE_CODE_CACHE: "1", SPECBUNDLE_CODE_CACHE_DIR: cold })
      } finally {
        fs.rmSync(cold, { recursive: true, force: true })
      }
    }
  }, 120_000)

  it("impact --changeset HEAD~1: SIGINT at a carrier of the working tree's read ends it with 130", async () => {
    const args = ["impact", "--changeset", "HEAD~1", "--format", "json"]
    expect((await run(args)).code).toBe(0)
    await stopsAt(corpus, args, "SIGINT", CARRIER, Math.floor(filesOf(corpus, CARRIER).length / 4))
  }, 120_000)

  it("a corpus read in less than one turn: a signal at its last carrier still ends the run with 130, not 0", async () => {
    // Nothing in such a run polls the event loop after the read: the signal is seen only because
    // the run polls once more before it exits (src/bin.ts).
    const small = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-signals-small-"))
    try {
      const gen = spawnSync(process.execPath, [path.join(REPO, "scripts/gen-corpus.mjs"), small, "--specs", "40", "--packs", "1", "--ts-files", "5"], {
        encoding: "utf8"
      })
      expect(gen.status, gen.stderr).toBe(0)
      const files = filesOf(small, READ)
      expect(sizeOf(files)).toBeLessThan(TURN_BYTES)
      for (const args of [["check"], ["list", "specs", "--format", "json"]]) await stopsAt(small, args, "SIGINT", READ, files.length, env)
    } finally {
      fs.rmSync(small, { recursive: true, force: true })
    }
  }, 120_000)
})
