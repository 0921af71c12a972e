// Worker threads for large corpora (src/node/extractAll.ts): the results are the in-thread
// results, in the same order, whether workers take part, how many, or whether one crashes; and the
// real CLI prints the same bytes with any worker count. Workers run bin/specbundle-worker.cjs
// (built by `npm test` before vitest runs).
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { availableParallelism } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { SourceFile } from "../../src/core/read/discover.js"
import { ExtractSession, IN_THREAD, type Pool, SILENT_MS, ThreadsAhead, startAhead } from "../../src/node/extractAll.js"
import { extractInThread, loadParser } from "../../src/node/extractInThread.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ParseCache, WorkerPool } from "../../src/node/runtime.js"
import { GraphReader } from "../../src/services/GraphReader.js"
import { makeRepo, specCarrier } from "../support/git.js"
import { CLI, cleanEnv } from "../support/hostile.js"
import { run as inProcess } from "../support/run.js"
import { skipping } from "../support/skip.js"
import { listFiles, readerOn, tempDir, writeFiles } from "../support/tmp.js"

const root = tempDir("specbundle-workers-")
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

execFileSync(process.execPath, [path.resolve("scripts/gen-corpus.mjs"), root, "--specs", "400", "--packs", "2", "--ts-files", "800", "--anchor-every", "4"])
// Files every thread must report the same way: a parse error, a refused Spec, binary bytes, an anchor comment.
writeFiles(root, {
  "src/broken/bad.ts": `import { codeAnchor } from "@libar-dev/software-delivery-protocol"\nexport const a = codeAnchor({ id: "impl:x.y" \n`,
  "specs/broken/bad-yaml.sdp.md": "---\nid: spec:broken.bad\nkind: [behavior\n---\n# Bad\n",
  "specs/broken/binary.sdp.md": new Uint8Array([45, 45, 45, 10, 0, 1, 2]),
  "src/broken/comment.ts": `/** @sdpAnchor impl:broken.comment\n * @sdpSatisfies spec:broken.bad */\nexport const b = 1\n`
})

const files: SourceFile[] = listFiles(root)
  .filter((p) => /\.(ts|sdp\.md)$/.test(p))
  .map((p) => ({ path: p, bytes: fs.readFileSync(path.join(root, p)) }))
const OPTIONS = { selfHosting: false }
/** What the CLI starts its workers on (src/worker.ts, built by `npm run build`). */
const WORKER_BUNDLE = path.resolve("bin/specbundle-worker.cjs")

/** True off Linux, after printing `skipped: <what>: <how it measures>, which only Linux has`. */
const notLinux = (what: string, how: string): boolean => skipping(process.platform !== "linux", what, `${how}, which only Linux has`)

/** `workers` threads forced (SPECBUNDLE_WORKERS) on `script`. */
const pool = (script: string, workers: number, silentMs = SILENT_MS): Pool => ({ script, silentMs, forced: workers })

const viaSession = async (on: Pool = IN_THREAD) => {
  const session = new ExtractSession(files.length, OPTIONS, on)
  for (const f of files) session.add(f)
  return { results: await session.finish(), remote: session.remoteChunks }
}

describe("ExtractSession", () => {
  it("reads the corpus in thread with some findings (the fixture is not trivially clean)", async () => {
    const results = await extractInThread(files, OPTIONS)
    expect(results).toHaveLength(files.length)
    const codes = results.flatMap((r) => r.read?.findings.map((f) => f.code) ?? [])
    expect(codes).toEqual(expect.arrayContaining(["extract/parse-error", "read/binary"]))
    expect(results.some((r) => (r.read?.anchors.length ?? 0) > 0)).toBe(true)
  })

  it("reads files from disk straight into one scratch buffer, even with two chunks in flight in one thread", async () => {
    // Each chunk starts with a code file holding a marker, whose parse waits for oxc-parser to load:
    // the other chunk reads meanwhile. Unread files, as workers get them.
    const onDisk = files.map((f) => ({ path: f.path, absolute: path.join(root, f.path) }))
    const marked = onDisk.filter((f, i) => f.path.endsWith(".ts") && Buffer.from(files[i].bytes).includes("@libar-dev/software-delivery-protocol"))
    const [first, second] = [marked[0], marked[1]]
    const rest = onDisk.filter((f) => f !== first && f !== second)
    const chunks = [
      [first, ...rest.slice(0, 300)],
      [second, ...rest.slice(300, 600)]
    ]
    const expected = await Promise.all(
      chunks.map((c) =>
        extractInThread(
          c.map((f) => files.find((g) => g.path === f.path)!),
          OPTIONS
        )
      )
    )
    const together = await Promise.all(chunks.map((c) => extractInThread(c, OPTIONS)))
    expect(together).toEqual(expected)
    expect(together.flat().filter((r) => (r.read?.anchors.length ?? 0) > 0).length).toBeGreaterThan(2)
  })

  for (const count of ["1", "2"]) {
    it(`gives the in-thread results in add order with ${count} worker(s), which parse some chunks`, async () => {
      const expected = await extractInThread(files, OPTIONS)
      const { results, remote } = await viaSession(pool(WORKER_BUNDLE, Number(count)))
      expect(remote).toBeGreaterThan(0)
      expect(results).toEqual(expected)
    }, 60_000)
  }

  it("reads files queued unread, in whichever thread parses them; a missing one gives the reader's finding", async () => {
    const expected = await extractInThread(files, OPTIONS)
    const session = new ExtractSession(files.length + 1, OPTIONS, pool(WORKER_BUNDLE, 1))
    for (const f of files) session.add({ path: f.path, absolute: path.join(root, f.path) })
    session.add({ path: "src/gone.ts", absolute: path.join(root, "src/gone.ts") })
    const results = await session.finish()
    expect(session.remoteChunks).toBeGreaterThan(0)
    expect(results.slice(0, -1)).toEqual(expected)
    expect(results.at(-1)).toEqual({
      path: "src/gone.ts",
      hash: null,
      read: {
        file: "src/gone.ts",
        specs: [],
        packs: [],
        anchors: [],
        findings: [{ file: "src/gone.ts", line: 0, code: "read/unreadable", message: "file could not be read (NotFound)", severity: "error" }]
      }
    })
  }, 60_000)

  it("parses on the main thread what a crashed worker held: nothing is lost", async () => {
    const expected = await extractInThread(files, OPTIONS)
    const crashing = path.join(root, "crash.cjs")
    fs.writeFileSync(crashing, "throw new Error('worker crashed on start')\n")
    const { results, remote } = await viaSession(pool(crashing, 2))
    expect(remote).toBe(0)
    expect(results).toEqual(expected)
  }, 60_000)

  it("parses on the main thread what a worker that never answers holds, and ends that thread (issue 29)", async () => {
    const expected = await extractInThread(files, OPTIONS)
    // Takes every chunk and the request to end, answers nothing.
    const silent = path.join(root, "silent.cjs")
    fs.writeFileSync(silent, "require('node:worker_threads').parentPort.on('message', () => {})\n")
    const { results, remote } = await viaSession(pool(silent, 2, 300))
    expect(remote).toBe(0)
    expect(results).toEqual(expected)
  }, 60_000)
})

describe("a session that never finishes", () => {
  // A read that fails before `finish` (git refused, Ctrl-C in `watch`): a long-lived entrance reads
  // again, and its next git call must find none of these threads holding a parser's memory.
  /**
   * The ids of the process's threads (Linux never reuses one this soon). libuv's thread pool starts
   * on its first task, all its threads at once: started before the first look, so it never counts
   * as new. Threads earlier tests left may end meanwhile: only the new ones are asked about.
   */
  const threadIds = async (): Promise<ReadonlySet<string>> => {
    await fs.promises.stat(root)
    return new Set(fs.readdirSync("/proc/self/task"))
  }
  const startedSince = async (before: ReadonlySet<string>): Promise<string[]> => [...(await threadIds())].filter((id) => !before.has(id))

  it.skipIf(notLinux("a session's threads ended when abandoned", "it counts this process's threads in /proc/self/task"))(
    "ends its threads when abandoned",
    async () => {
      const before = await threadIds()
      const session = new ExtractSession(files.length, OPTIONS, pool(WORKER_BUNDLE, 2))
      for (const f of files) session.add(f)
      expect((await startedSince(before)).length).toBeGreaterThanOrEqual(2)
      await session.abandon()
      expect(await startedSince(before)).toEqual([])
    },
    60_000
  )

  it.skipIf(notLinux("a session's threads ended when git refuses the read", "it counts this process's threads in /proc/self/task"))(
    "a work-tree read git refuses ends the threads its session started (GraphReader, in process)",
    async () => {
      // git refuses the listing (a damaged index): the read fails after its session started two threads.
      const repo = makeRepo()
      repo.write("specs/one.sdp.md", specCarrier("spec:w.one", "One"))
      repo.commit("first")
      fs.writeFileSync(path.join(repo.dir, ".git", "index"), "damaged")
      const reader = readerOn(Layer.mergeAll(Layer.succeed(WorkerPool, pool(WORKER_BUNDLE, 2)), ParseCache.none))
      const before = await threadIds()
      const exit = await Effect.runPromiseExit(Effect.flatMap(GraphReader, (r) => r.readTree({ root: repo.dir, exclude: [] })).pipe(Effect.provide(reader)))
      expect(exit._tag).toBe("Failure")
      expect(String(exit)).toContain("ls-files")
      expect(await startedSince(before)).toEqual([])
    },
    60_000
  )
})

/** The process's address space (VmSize, KiB): oxc's raw transfer reserves ~6 GiB of it per thread that loads a parser. */
const addressSpace = (): number => Number(/^VmSize:\s+(\d+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1] ?? Number.NaN)
const GIB = 1024 * 1024

describe("threads started ahead of their session", () => {
  const ahead = (workers: number): Pool => ({ ...pool(WORKER_BUNDLE, workers), ahead: new ThreadsAhead() })

  it("are adopted by the next session that starts threads: the in-thread results, parsed there", async () => {
    const expected = await extractInThread(files, OPTIONS)
    const on = ahead(1)
    startAhead(on, files.length, () => false)
    await on.ahead!.loaded()
    const session = new ExtractSession(files.length, OPTIONS, on)
    for (const f of files) session.add(f)
    const results = await session.finish()
    expect(session.remoteChunks).toBeGreaterThan(0)
    expect(results).toEqual(expected)
    // Adopted, not started anew beside it: none is left waiting.
    expect(on.ahead!.take(1)).toEqual([])
  }, 60_000)

  it("are started as the corpus's size decides, not for a read with an earlier run's results at hand, nor without a worker script", async () => {
    const decides: Pool = { ...ahead(0), forced: null }
    startAhead(decides, 10_000, () => true)
    expect(decides.ahead!.take(4)).toEqual([])
    startAhead(decides, 100, () => false)
    expect(decides.ahead!.take(4)).toEqual([])
    // A corpus too small for threads does not even ask whether a cache is at hand (a lookup on every small hook).
    startAhead(decides, 100, () => {
      throw new Error("asked")
    })
    startAhead(decides, 10_000, () => false)
    const started = decides.ahead!.take(4)
    expect(started).toHaveLength(Math.min(availableParallelism(), 4) - 1)
    await Promise.all(started.map((h) => h.close()))
    const none: Pool = { ...IN_THREAD, ahead: new ThreadsAhead() }
    startAhead(none, 100_000, () => false)
    expect(none.ahead!.take(4)).toEqual([])
  }, 60_000)

  it("end when released unadopted", async () => {
    const on = ahead(2)
    startAhead(on, files.length, () => false)
    // Resolves only once both threads have exited.
    await on.ahead!.release()
    expect(on.ahead!.take(2)).toEqual([])
  }, 60_000)

  it.skipIf(notLinux("parser memory reserved by threads started ahead", "it reads this process's address space in /proc/self/status"))(
    "reserve no parser memory until a session adopts them, and none once it has ended (issue 29: git still forks meanwhile)",
    async () => {
      // This thread's own parser first, so only the workers' reservations move the figure.
      await loadParser()
      const before = addressSpace()
      const on = ahead(1)
      startAhead(on, files.length, () => false)
      // A waiting thread loads its bundle and oxc-parser's modules (it says when), never the raw transfer's buffer.
      await on.ahead!.loaded()
      expect(addressSpace() - before).toBeLessThan(2 * GIB)
      // Adopted, the thread reserves its buffer for the code files it parses: the figure sees it.
      let adopted = before
      const sample = setInterval(() => (adopted = Math.max(adopted, addressSpace())), 5)
      const session = new ExtractSession(files.length, OPTIONS, on)
      for (const f of files) session.add(f)
      await session.finish()
      clearInterval(sample)
      expect(session.remoteChunks).toBeGreaterThan(0)
      expect(adopted - before).toBeGreaterThan(4 * GIB)
      // Once `ended` resolves the thread is gone and its buffer with it: git may be forked again.
      await session.ended()
      expect(addressSpace() - before).toBeLessThan(2 * GIB)
    },
    60_000
  )
})

describe("the CLI with workers", () => {
  const run = (workers: string) =>
    spawnSync(process.execPath, [CLI, "bundle", "--root", root, "--pack", "pack:pack-001", "--parts", "--budget", "20000"], {
      encoding: "utf8",
      env: { ...cleanEnv(), SPECBUNDLE_WORKERS: workers },
      timeout: 120_000
    })

  it("prints the same bytes and exit code with 0, 1 and 2 worker threads", () => {
    const [none, one, two] = ["0", "1", "2"].map(run)
    expect(none.stdout.split("\n").length).toBeGreaterThan(3)
    expect(none.stderr).toContain("bad.ts")
    for (const r of [one, two]) {
      expect(r.status).toBe(none.status)
      expect(r.stdout).toBe(none.stdout)
      expect(r.stderr).toBe(none.stderr)
    }
  }, 180_000)

  it("refuses an unusable SPECBUNDLE_WORKERS like a bad flag: exit 2, the diagnostics value, one stderr line", async () => {
    for (const value of ["abc", "-1", "1.5", "17"]) {
      // In process: the setting comes from the run's environment, before any worker starts.
      const r = await inProcess(process.cwd(), ["bundle", "--root", root, "--pack", "pack:pack-001"], { env: { ...cleanEnv(), SPECBUNDLE_WORKERS: value } })
      expect(r.status).toBe(2)
      expect(JSON.parse(r.stdout)).toEqual({
        diagnostics: [{ scope: "environment", problem: `SPECBUNDLE_WORKERS must be a whole number from 0 to 16 (got "${value}")` }]
      })
      expect(r.stderr.trim().split("\n")).toEqual([`specbundle: environment: SPECBUNDLE_WORKERS must be a whole number from 0 to 16 (got "${value}")`])
    }
  }, 60_000)
})
