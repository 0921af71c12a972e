// Parsing every file of a corpus, on every core when the corpus is large (>= 2,000 files, or
// SPECBUNDLE_WORKERS). The reader queues the files, code files first, unread when workers take
// part; each thread reads what it parses. Worker threads take chunks from the front, the main
// thread from the back, so they meet wherever the work balances, with no cost model; code results
// (a few anchors) are cheap to send back, Specs (whole texts) mostly stay on the main thread.
// Workers run their own bundle (src/worker.ts; bin.ts hands its path in); tests run in-thread unless forced.
import { availableParallelism } from "node:os"
import { Worker, parentPort, workerData } from "node:worker_threads"
import type { SourceFile } from "../core/discover.js"
import { classifyPath, fileFinding, sha256 } from "../core/discover.js"
import { RACY_MS, asIndexObject, load, statOf } from "./diskRead.js"
import type { AnchorParser } from "../core/read/anchors.js"
import type { ExtractOptions } from "../core/extract.js"
import { loadOxcRaw, rawParser } from "./oxcRaw.js"
import type { CarrierRead } from "../core/model.js"
import type { KnownReads } from "./parseCache.js"

export interface ExtractAllOptions {
  readonly selfHosting: boolean
  /**
   * What files gave in an earlier run (parseCache.ts): trusted on the same stat data (the work
   * tree) or object id (the index), else reused for the same path and bytes. When set, every work
   * tree file is stat'ed for the next run.
   */
  readonly known?: KnownReads
  /** Date.now() before the first file was stat'ed: stat data this recent is not kept (racy). */
  readonly since?: number
}

/** What one file gives: its contribution (null: nothing) and the SHA-256 of its bytes (null: unreadable). */
export interface Extracted {
  readonly path: string
  readonly read: CarrierRead | null
  readonly hash: string | null
  /** The stat data the parse cache may trust next time (null: too recent; absent: no cache). */
  readonly stat?: string | null
  /** The git object id of the bytes, when the file was checked against one. */
  readonly oid?: string
  /** The bytes on disk are not the object the caller expected (`FileOnDisk.object`): read it from there. */
  readonly stale?: true
}

/** A file still on disk: whichever thread parses it reads it (`absolute`), so workers share the reading too. */
export interface FileOnDisk {
  readonly path: string
  readonly absolute: string
  /** The git object these bytes should be (the index read): other bytes give a `stale` result. */
  readonly object?: string
}

type Input = SourceFile | FileOnDisk

let parser: Promise<AnchorParser> | undefined
/** oxc-parser is native and costs ~20 ms to load: only pay it when a file may hold an anchor. */
const loadParser = (): Promise<AnchorParser> =>
  (parser ??= Promise.all([import("oxc-parser"), loadOxcRaw()]).then(([oxc, raw]) => {
    const outline = rawParser(raw)
    return outline === null ? { parse: oxc.parseSync } : { parse: oxc.parseSync, outline }
  }))
/** Whether a run will surely parse code: nothing from an earlier run to reuse (a first run, or no cache). */
const needsParser = (options: ExtractAllOptions): boolean => options.known === undefined || options.known.size === 0
/** The parsers (yaml, @cucumber/gherkin) load on first read, not at start-up (`--help` needs none). */
const loadExtract = () => import("../core/extract.js")

let workerScript: string | undefined
/**
 * How long the main thread, with nothing left to parse, waits without a word from any worker
 * before it parses what the workers hold itself (a worker that never answers cannot stall a run).
 */
let silentMs = 20_000
/** Called by the bundled entry: worker threads may run this file (tests may shorten the wait for a silent worker). */
export const enableWorkers = (script: string | undefined, options: { readonly silentMs?: number } = {}): void => {
  workerScript = script
  silentMs = options.silentMs ?? 20_000
}

/** Below this many files, starting a worker costs more than it saves (the bench's smallest scale corpus has 7,500). */
const PARALLEL_FILES = 2000
/** Bounds of a chunk's size: the last ones small enough that the threads finish close together, the first ones large enough that messages stay few. */
const MIN_CHUNK_BYTES = 64 * 1024
const MAX_CHUNK_BYTES = 2 * 1024 * 1024
/**
 * This thread's chunks stay small: worker messages (results, requests for more) wait until it
 * finishes one, and a worker whose queue runs dry sits idle meanwhile (~50 Specs, ~20 ms).
 */
const MAX_OWN_CHUNK_BYTES = 128 * 1024
const UNREAD_BYTES = 4 * 1024

/**
 * Parses files in this thread, in order, each as soon as it is read (straight from the scratch
 * buffer); a parser exception becomes a finding for its file.
 */
export const extractInThread = async (inputs: ReadonlyArray<Input>, options: ExtractAllOptions): Promise<Extracted[]> => {
  const { extractFile, mayHoldAnchorBytes } = await loadExtract()
  let extractOptions: ExtractOptions = options
  const results: Extracted[] = []
  const known = options.known
  const safeBefore = known === undefined ? undefined : (options.since ?? 0) - RACY_MS
  for (const input of inputs) {
    const onDisk = "absolute" in input
    const code = classifyPath(input.path) === "anchor-candidate"
    const object = onDisk ? input.object : undefined
    let stat: string | null | undefined
    let entry = known?.get(input.path)
    let trusted: boolean
    if (object !== undefined && known !== undefined) {
      // The index read: the index names each file's object id, so an entry recorded for the same
      // object id is what those very bytes gave (content-addressed, no stat data involved), and the
      // file is not read at all. Any other is read from the work tree and checked below.
      stat = null
      trusted = entry !== undefined && entry.oid === object
    } else {
      // The work tree: stat data first, as git's index does; a match skips the read and the parse.
      if (onDisk && safeBefore !== undefined) {
        const s = statOf(input.absolute)
        stat = s !== undefined && s.newest < safeBefore ? s.key : null
        if (entry !== undefined && (s === undefined || entry.stat !== s.key)) entry = entry.stat === null ? entry : { ...entry, stat: null }
      }
      trusted = stat !== undefined && entry !== undefined && entry.stat !== null
    }
    if (trusted) {
      // Neither read nor parsed: what these very bytes gave last time.
      results.push({ path: input.path, read: entry!.read, hash: entry!.hash, stat, ...(entry!.oid === null ? {} : { oid: entry!.oid }) })
      continue
    }
    let file = onDisk ? load(input) : input
    if (!("bytes" in file)) {
      // Unreadable where the index says what the file holds: read the index's blob instead.
      results.push(object !== undefined ? { path: input.path, read: null, hash: null, stale: true } : file)
      continue
    }
    let oid: string | undefined
    if (object !== undefined) {
      // Whatever the cache says, the work tree's bytes stand in for the index's only when they are the same object (or its CRLF twin is).
      const blob = asIndexObject(file.bytes, object)
      if (blob === undefined) {
        results.push({ path: input.path, read: null, hash: null, stale: true })
        continue
      }
      oid = object
      if (blob !== file.bytes) file = { path: file.path, bytes: blob }
    }
    const hash = sha256(file.bytes)
    // The object id checked in an earlier run stays with the same bytes (the work tree's read keeps it for the index's).
    if (oid === undefined && entry !== undefined && entry.oid !== null && entry.hash === hash) oid = entry.oid
    const extra = { ...(stat === undefined ? {} : { stat }), ...(oid === undefined ? {} : { oid }) }
    // An earlier run parsed these very bytes at this path (the stat data changed, the bytes did not).
    if (entry !== undefined && entry.hash === hash) {
      results.push({ path: file.path, read: entry.read, hash, ...extra })
      continue
    }
    // What extractFile would read as nothing: a code file without an anchor marker.
    if (code && !mayHoldAnchorBytes(file.bytes, options)) {
      results.push({ path: file.path, read: null, hash, ...extra })
      continue
    }
    // A code file with a marker: oxc-parser loads on the first. Another chunk may read into the
    // scratch buffer while this one waits, so the bytes are copied first.
    if (code && extractOptions.parser === undefined) {
      file = { path: file.path, bytes: Buffer.from(file.bytes) }
      extractOptions = { ...options, parser: await loadParser() }
    }
    let read: CarrierRead | null
    try {
      read = extractFile(file, extractOptions)
    } catch (e) {
      // A parser bug must not take the healthy rest of the corpus down with it.
      read = fileFinding(file.path, "read/internal-error", `the reader failed on this file: ${String(e).split("\n")[0]}`)
    }
    results.push({ path: file.path, read, hash, ...extra })
  }
  return results
}

interface Chunk {
  /** Where each file's result goes in the session's result array. */
  readonly slots: number[]
  readonly files: Input[]
}

interface Job {
  readonly options: ExtractAllOptions
}
/** A chunk to parse, or the end: the worker closes its port and its thread ends by itself. */
type ToWorker = { readonly id: number; readonly files: ReadonlyArray<Input> } | { readonly close: true }
type FromWorker = { readonly id: number; readonly results: Extracted[] }

/** Most worker threads SPECBUNDLE_WORKERS may ask for. */
export const MAX_WORKERS = 16

/**
 * SPECBUNDLE_WORKERS=N (0 to MAX_WORKERS) forces N worker threads; null when unset, or a problem
 * in words when it is not such a number (src/bin.ts refuses the run with it).
 */
export const forcedWorkers = (setting: string | undefined): number | null | { readonly problem: string } => {
  if (setting === undefined || setting === "") return null
  const n = Number(setting)
  return /^\d+$/.test(setting) && n <= MAX_WORKERS ? n : { problem: `SPECBUNDLE_WORKERS must be a whole number from 0 to ${MAX_WORKERS} (got "${setting}")` }
}

/**
 * How many worker threads to use for `files` files. None when an earlier run's results are at
 * hand (`warm`): most files then cost a lookup, and a worker's start-up and its copy of those
 * results cost more than the Specs left to parse (on 2 cores, 10,000 Specs: 2.5 s with one
 * worker, 1.9 s without; docs/bench.md).
 */
const workerCount = (files: number, warm: boolean): number => {
  if (workerScript === undefined) return 0
  const forced = forcedWorkers(process.env.SPECBUNDLE_WORKERS)
  if (typeof forced === "number") return forced
  return files < PARALLEL_FILES || warm ? 0 : Math.min(availableParallelism(), 4) - 1
}

/** One worker thread: at most two chunks in flight, so it never waits for the next one. */
class Helper {
  private readonly worker: Worker
  readonly inFlight = new Map<number, Chunk>()
  failed = false
  exited = false

  constructor(
    script: string,
    options: ExtractAllOptions,
    private readonly take: () => Chunk | undefined,
    private readonly done: (chunk: Chunk, results: Extracted[]) => void,
    private readonly lost: (chunks: Chunk[]) => void
  ) {
    this.worker = new Worker(script, { workerData: { specbundleExtract: { options } satisfies Job } })
    this.worker.on("message", (m: FromWorker) => {
      const chunk = this.inFlight.get(m.id)
      if (chunk === undefined) return
      this.inFlight.delete(m.id)
      this.done(chunk, m.results)
      this.feed()
    })
    const fail = () => this.giveUp()
    this.worker.once("error", fail)
    this.worker.once("exit", () => {
      this.exited = true
      fail()
    })
    // After the listeners: adding a "message" listener refs the worker's port again, and a pool
    // a failed read never finished (a git that could not start) then kept the process alive.
    this.worker.unref()
  }

  /** Whatever it held is parsed on the main thread instead: a worker fault loses nothing. */
  giveUp(): void {
    if (this.failed) return
    this.failed = true
    const held = [...this.inFlight.values()]
    this.inFlight.clear()
    this.lost(held)
  }

  private nextId = 0
  /** Sends chunks until two are in flight or the queue is empty. */
  feed(): void {
    while (!this.failed && this.inFlight.size < 2) {
      const chunk = this.take()
      if (chunk === undefined) return
      const id = this.nextId++
      this.inFlight.set(id, chunk)
      this.worker.postMessage({ id, files: chunk.files } satisfies ToWorker)
    }
  }

  ref(): void {
    this.worker.ref()
  }

  /**
   * Asks the thread to end; resolves once it is gone, its parser's reserved memory with it. Not
   * terminate(): a worker cut off inside require() of oxc-parser (an ES module) aborts the whole
   * process on Node 20 ("IsGraphAsync must be used on an instantiated module"); a message is
   * taken only between tasks.
   */
  close(): Promise<void> {
    this.failed = true
    if (this.exited) return Promise.resolve()
    const gone = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()))
    this.worker.postMessage({ close: true } satisfies ToWorker)
    return gone
  }

  /** The last resort for a thread that does not end when asked (stuck in a loop). */
  kill(): void {
    if (!this.exited) void this.worker.terminate()
  }
}

/**
 * A parse in progress: `add` each file, then `finish` for the results in `add` order. Without
 * workers it simply parses everything at `finish`. Chunks are cut when taken, guided: a share of
 * what remains, so they start large (few messages) and shrink toward the end (the threads finish
 * together).
 */
export class ExtractSession {
  private readonly results: Array<Extracted | undefined> = []
  private readonly inputs: Input[] = []
  private readonly weights: number[] = []
  /** inputs[front, back) are not taken yet: workers take from the front, this thread from the back. */
  private front = 0
  private back = 0
  private remaining = 0
  private readonly retry: Chunk[] = []
  private stored = 0
  private readonly helpers: Helper[] = []
  private wake: (() => void) | undefined
  /** When a worker last brought results (Date.now()), or this thread last parsed a chunk. */
  private heard = 0
  /** How many chunks worker threads parsed (for tests and measurements). */
  remoteChunks = 0

  /** `expected`: about how many files will be added; call `expect` again as the count grows. */
  constructor(
    expected: number,
    private readonly options: ExtractAllOptions
  ) {
    this.start(expected)
  }

  private started = false
  /**
   * Starts the worker threads once `files` (files to parse, so far) makes them worth it. Called
   * while the corpus is still being listed, so the workers load while this thread walks and reads.
   */
  expect(files: number): void {
    // Called for every file listed: decide on round counts only.
    if (files % 256 === 0 || files === PARALLEL_FILES) this.start(files)
  }

  private start(files: number): void {
    const script = workerScript
    if (this.started || script === undefined) return
    const count = workerCount(files, !needsParser(this.options))
    if (count === 0) return
    this.started = true
    for (let i = 0; i < count; i++) {
      this.helpers.push(
        new Helper(
          script,
          this.options,
          () => this.takeFront(),
          (c, r) => this.store(c, r, true),
          (cs) => this.requeue(cs)
        )
      )
    }
    // Without a parse cache to reuse, a corpus this large has code files to parse, and this thread
    // parses some where the threads meet, at the end: load oxc-parser now, while the walk leaves
    // this thread mostly waiting (~40 ms). With one, most runs need no parser at all.
    if (needsParser(this.options)) void loadParser()
  }

  /** Whether worker threads take part: then files are best queued unread (`FileOnDisk`). */
  get parallel(): boolean {
    return this.helpers.length > 0
  }

  /** Queues a file; its result comes back at the position of this call among all `add` calls. */
  add(file: Input): void {
    // A file on disk counts as an average code file until it is read.
    const weight = "bytes" in file ? file.bytes.length : UNREAD_BYTES
    this.inputs.push(file)
    this.weights.push(weight)
    this.results.push(undefined)
    this.back = this.inputs.length
    this.remaining += weight
  }

  private chunkBytes(max = MAX_CHUNK_BYTES): number {
    return Math.min(max, Math.max(MIN_CHUNK_BYTES, this.remaining / (2 * (this.helpers.length + 1))))
  }

  private takeFront(): Chunk | undefined {
    if (this.front >= this.back) return undefined
    const limit = this.chunkBytes()
    const chunk: Chunk = { slots: [], files: [] }
    for (let taken = 0; this.front < this.back && taken < limit; this.front++) {
      chunk.slots.push(this.front)
      chunk.files.push(this.inputs[this.front])
      taken += this.weights[this.front]
      this.remaining -= this.weights[this.front]
    }
    return chunk
  }

  private takeBack(): Chunk | undefined {
    const again = this.retry.pop()
    if (again !== undefined) return again
    if (this.front >= this.back) return undefined
    const limit = this.chunkBytes(MAX_OWN_CHUNK_BYTES)
    let from = this.back
    for (let taken = 0; from > this.front && taken < limit; ) {
      from--
      taken += this.weights[from]
      this.remaining -= this.weights[from]
    }
    const chunk: Chunk = { slots: [], files: this.inputs.slice(from, this.back) }
    for (let i = from; i < this.back; i++) chunk.slots.push(i)
    this.back = from
    return chunk
  }

  private store(chunk: Chunk, results: ReadonlyArray<Extracted>, remote: boolean): void {
    chunk.slots.forEach((slot, i) => (this.results[slot] = results[i]))
    this.stored += chunk.slots.length
    this.heard = Date.now()
    if (remote) this.remoteChunks++
    this.wake?.()
  }

  private requeue(chunks: Chunk[]): void {
    // What a failed worker held: this thread parses it.
    this.retry.push(...chunks)
    this.wake?.()
  }

  /** Parses what the workers have not taken, waits for theirs, and returns the results in `add` order. */
  async finish(): Promise<Extracted[]> {
    // Unreferenced until now, so a read that fails before finish cannot leave the process waiting on them.
    this.heard = Date.now()
    for (const h of this.helpers) {
      h.ref()
      h.feed()
    }
    try {
      for (;;) {
        const chunk = this.takeBack()
        if (chunk !== undefined) {
          this.store(chunk, await extractInThread(chunk.files, this.options), false)
          // Let worker messages in between chunks: they may want more work or bring results.
          await new Promise<void>((resolve) => setImmediate(resolve))
          continue
        }
        // Every chunk of a failed worker was queued again, so nothing can be owed by one.
        if (this.stored === this.results.length || this.helpers.every((h) => h.failed)) break
        const silence = setTimeout(() => this.wake?.(), silentMs)
        await new Promise<void>((resolve) => (this.wake = resolve))
        clearTimeout(silence)
        this.wake = undefined
        // Not a word from any worker for that long: what they hold comes back to this thread.
        if (Date.now() - this.heard >= silentMs) for (const h of this.helpers) if (h.inFlight.size > 0) h.giveUp()
      }
    } finally {
      // Each thread that loaded oxc-parser reserves ~6 GiB of address space, which Linux counts
      // again when the main thread forks git: waited for, so the next git call can start.
      // A thread that does not end when asked is waited for as long as a silent worker, then cut off.
      const ends = Promise.all(this.helpers.map((h) => h.close()))
      await new Promise<unknown>((resolve) => {
        const bound = setTimeout(resolve, silentMs)
        void ends.then(() => resolve(clearTimeout(bound)))
      })
      for (const h of this.helpers) h.kill()
    }
    return this.results.map((r, slot) => {
      if (r === undefined) throw new Error(`extract: no result for file ${slot}`)
      return r
    })
  }
}

/** Parses files held in memory (in slot order) with the session's worker policy. */
export const extractAll = (files: ReadonlyArray<SourceFile>, options: ExtractAllOptions): Promise<Extracted[]> => {
  const session = new ExtractSession(files.length, options)
  for (const f of files) session.add(f)
  return session.finish()
}

/** The worker side: true when this thread was started to parse (then it answers until terminated). */
export const runExtractWorker = (): boolean => {
  const job = (workerData as { specbundleExtract?: Job } | null)?.specbundleExtract
  if (parentPort === null || job === undefined) return false
  const port = parentPort
  // The first chunk comes once the main thread has listed the corpus: load oxc-parser meanwhile.
  if (needsParser(job.options)) void loadParser()
  port.on("message", (m: ToWorker) => {
    if ("close" in m) return port.close()
    void extractInThread(m.files, job.options).then((results) => port.postMessage({ id: m.id, results } satisfies FromWorker))
  })
  return true
}
