// Parsing every file of a corpus, on every core when the corpus is large (>= 2,000 files, or
// SPECBUNDLE_WORKERS). The reader queues the files, code files first, unread when workers take
// part; each thread reads what it parses. Worker threads take chunks from the front, the main
// thread from the back, so they meet wherever the work balances, with no cost model; code results
// (a few anchors) are cheap to send back, Specs (whole texts) mostly stay on the main thread.
// Workers run their own bundle (src/worker.ts): which one, and whether at all, is the pool the
// session is given (the WorkerPool service, src/node/runtime.ts); tests and the library run in-thread.
import { availableParallelism } from "node:os"
import type { SourceFile } from "../core/read/discover.js"
import type { ExtractAllOptions, Extracted, Input } from "./extractInThread.js"
import { extractInThread, keptByNothing, loadParser, needsParser } from "./extractInThread.js"
import { type Chunk, Helper, type Link } from "./workerThread.js"

/** Which worker threads a session may start. */
export interface Pool {
  /** The worker threads' bundle (bin/specbundle-worker.cjs); undefined: every file is parsed in this thread. */
  readonly script: string | undefined
  /**
   * How long the main thread, with nothing left to parse, waits without a word from any worker
   * before it parses what the workers hold itself (a worker that never answers cannot stall a run).
   */
  readonly silentMs: number
  /** SPECBUNDLE_WORKERS: this many worker threads whatever the corpus's size; null: the corpus decides. */
  readonly forced: number | null
  /** Threads started before the read that will use them (`startAhead`); none in a pool without a script. */
  readonly ahead?: ThreadsAhead
}

/**
 * Worker threads started while git still answers, for the large read about to follow: a thread
 * needs ~0.1 s before its first file (Node's start, its bundle, oxc-parser's modules), which then
 * overlaps git's work instead of the parse. They wait without a job, reserving nothing for
 * oxc-parser's raw transfer until a session adopts them (issue 29: the changeset's old side still
 * forks git). Unreferenced: waiting threads never keep the process alive. The next session
 * starting threads adopts them; whoever started them ends the ones left (`release`).
 */
export class ThreadsAhead {
  private waiting: Helper[] = []

  start(script: string, count: number): void {
    const preloading = preloadingThreads()
    for (let i = this.waiting.length; i < count; i++) this.waiting.push(new Helper(script, undefined, i < preloading))
  }

  /** Up to `count` threads, still alive, for a session to adopt. */
  take(count: number): Helper[] {
    return this.waiting.splice(0, count).filter((h) => !h.failed)
  }

  /** Resolves once every waiting thread has loaded what it loads before a session adopts it (or has ended). */
  loaded(): Promise<void> {
    return Promise.all(this.waiting.map((h) => h.loaded)).then(() => undefined)
  }

  /** Ends the threads nobody adopted: resolves once they are gone. */
  release(): Promise<void> {
    return Promise.all(this.waiting.splice(0).map((h) => h.close())).then(() => undefined)
  }
}

/**
 * Starts the worker threads a large read of about `files` files will use, before that read (a
 * changeset's impact knows the count from git's listing while its old side is still to read).
 * `warm`: whether an earlier run's results are at hand, so the read needs none (asked only of a
 * corpus large enough for threads).
 */
export const startAhead = (pool: Pool, files: number, warm: () => boolean): void => {
  if (pool.ahead === undefined || pool.script === undefined) return
  if (workerCount(pool, files, false) === 0) return
  const count = workerCount(pool, files, warm())
  if (count > 0) pool.ahead.start(pool.script, count)
}

/**
 * How many threads load oxc-parser before their first chunk: those on the cores to spare; the
 * rest when a chunk first holds an anchor marker (docs/decisions.md).
 */
const preloadingThreads = (): number => Math.max(1, availableParallelism() - 1)

/** How long a silent worker is waited for by default. */
export const SILENT_MS = 20_000

/** No worker threads: every file parsed in the calling thread. */
export const IN_THREAD: Pool = { script: undefined, silentMs: SILENT_MS, forced: null }

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
/** Queued files after which the workers get their first chunks, before `finish`. */
const EARLY_FEED_FILES = 2048

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
const workerCount = (pool: Pool, files: number, warm: boolean): number => {
  if (pool.script === undefined) return 0
  if (pool.forced !== null) return pool.forced
  return files < PARALLEL_FILES || warm ? 0 : Math.min(availableParallelism(), 4) - 1
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
    private readonly options: ExtractAllOptions,
    private readonly pool: Pool = IN_THREAD
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
    const script = this.pool.script
    if (this.started || script === undefined) return
    const count = workerCount(this.pool, files, !needsParser(this.options))
    if (count === 0) return
    this.started = true
    // Workers get the known entries without what the files gave: copying every read to each thread
    // would cost more than it saves, and a read from the cache is not plain data (its Specs' prose
    // is read when first asked for: cacheFormat.ts). A result that reuses an entry is completed in `store`.
    const known = this.options.known
    const workerOptions: ExtractAllOptions =
      known === undefined ? this.options : { ...this.options, known: new Map([...known].map(([path, e]) => [path, { ...e, read: null }])) }
    // Threads beyond the cores to spare (SPECBUNDLE_WORKERS above them) load oxc-parser only when
    // a chunk of theirs holds an anchor marker: loading it costs a thread ~0.3 s of CPU (Node's
    // module loader set up again, the native binding), which 16 forced threads paid on 2 cores
    // even when few of them ever got a code file.
    const preloading = preloadingThreads()
    const link: Link = { take: () => this.takeFront(), done: (c, r) => this.store(c, r, true), lost: (cs) => this.requeue(cs) }
    for (const h of this.pool.ahead?.take(count) ?? []) {
      h.adopt(workerOptions, link)
      this.helpers.push(h)
    }
    for (let i = this.helpers.length; i < count; i++) this.helpers.push(new Helper(script, workerOptions, i < preloading, link))
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
    // Workers start on the first files while the rest are queued (~20 ms for 30,000 files), as the
    // code files come first: they would otherwise wait for `finish`.
    if (this.inputs.length === EARLY_FEED_FILES) for (const h of this.helpers) h.feed()
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
    // Alone, this thread takes everything at once: small chunks are for letting workers' messages in.
    const limit = this.helpers.length === 0 ? Number.POSITIVE_INFINITY : this.chunkBytes(MAX_OWN_CHUNK_BYTES)
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
    const known = this.options.known
    chunk.slots.forEach((slot, i) => {
      const r = results[i]
      this.results[slot] = remote && r.reused === true && known !== undefined ? { ...r, read: known.get(r.path)?.read ?? null } : r
    })
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

  private closing: Promise<void> | undefined

  /**
   * Each thread that loaded oxc-parser reserves ~6 GiB of address space, which Linux counts again
   * when the main thread forks git (issue 29): `ended` resolves once every thread is gone, and a
   * read awaits it before it asks git anything more or returns, while it builds the graph (the
   * threads end meanwhile, ~12 ms on the 10,000-Spec hook). A thread that does not end when asked
   * is waited for as long as a silent worker, then cut off.
   */
  ended(): Promise<void> {
    return this.closing ?? Promise.resolve()
  }

  /**
   * Ends the threads of a session that will not finish (its read failed or was interrupted before
   * `finish`): a long-lived entrance reads again, and its next git call must find no thread holding
   * a parser's memory. Resolves once they are gone.
   */
  abandon(): Promise<void> {
    this.closing ??= this.end()
    return this.closing
  }

  private async end(): Promise<void> {
    const ends = Promise.all(this.helpers.map((h) => h.close()))
    await new Promise<unknown>((resolve) => {
      const bound = setTimeout(resolve, this.pool.silentMs)
      void ends.then(() => resolve(clearTimeout(bound)))
    })
    for (const h of this.helpers) h.kill()
  }

  /**
   * Parses what the workers have not taken, waits for theirs, and returns the results in `add`
   * order; the threads are asked to end (`ended`).
   */
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
          this.store(chunk, await extractInThread(chunk.files, this.options, keptByNothing(this.options)), false)
          // Let worker messages in between chunks: they may want more work or bring results.
          if (this.helpers.length > 0) await new Promise<void>((resolve) => setImmediate(resolve))
          continue
        }
        // Every chunk of a failed worker was queued again, so nothing can be owed by one.
        if (this.stored === this.results.length || this.helpers.every((h) => h.failed)) break
        const silentMs = this.pool.silentMs
        const silence = setTimeout(() => this.wake?.(), silentMs)
        await new Promise<void>((resolve) => (this.wake = resolve))
        clearTimeout(silence)
        this.wake = undefined
        // Not a word from any worker for that long: what they hold comes back to this thread.
        if (Date.now() - this.heard >= silentMs) for (const h of this.helpers) if (h.inFlight.size > 0) h.giveUp()
      }
    } finally {
      this.closing ??= this.end()
    }
    return this.results.map((r, slot) => {
      if (r === undefined) throw new Error(`extract: no result for file ${slot}`)
      return r
    })
  }
}

/** Parses files held in memory (in slot order) with the pool's worker policy. */
export const extractAll = async (files: ReadonlyArray<SourceFile>, options: ExtractAllOptions, pool: Pool = IN_THREAD): Promise<Extracted[]> => {
  const session = new ExtractSession(files.length, options, pool)
  for (const f of files) session.add(f)
  const results = await session.finish()
  await session.ended()
  return results
}
