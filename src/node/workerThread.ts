// One worker thread of the pool and the worker side of it: the main thread's Helper keeps at most
// two chunks in flight to its thread; the thread parses each chunk it is sent (extractInThread)
// and answers with the results, until it is asked to close.
import type { Worker } from "node:worker_threads"
import type { ExtractAllOptions, Extracted, Input } from "./extractInThread.js"
import { extractInThread, loadParser, loadParserModules, needsParser } from "./extractInThread.js"

export interface Chunk {
  /** Where each file's result goes in the session's result array. */
  readonly slots: number[]
  readonly files: Input[]
}

export interface Job {
  /** The session's options; none for a thread started ahead of its session, which sends them when it adopts the thread. */
  readonly options?: ExtractAllOptions
  /** Load oxc-parser before the first chunk (while the main thread lists the corpus). */
  readonly preload: boolean
}
/**
 * A chunk to parse; the options of the session adopting a thread started ahead; or the end: the
 * worker closes its port and its thread ends by itself.
 */
type ToWorker = { readonly id: number; readonly files: ReadonlyArray<Input> } | { readonly options: ExtractAllOptions } | { readonly close: true }
/** A chunk's results; or, from a thread started ahead, that it has loaded what it loads before a session adopts it. */
type FromWorker = { readonly id: number; readonly results: Extracted[] } | { readonly loaded: true }

/** node:worker_threads, loaded by the first thread started: a run without threads (every small corpus's) never loads it. */
const workerThreads = () => process.getBuiltinModule("node:worker_threads")

/** What a session gives the thread it uses: where chunks come from, and where their results and a failed thread's chunks go. */
export interface Link {
  readonly take: () => Chunk | undefined
  readonly done: (chunk: Chunk, results: Extracted[]) => void
  readonly lost: (chunks: Chunk[]) => void
}

/** One worker thread: at most two chunks in flight, so it never waits for the next one. */
export class Helper {
  private readonly worker: Worker
  readonly inFlight = new Map<number, Chunk>()
  failed = false
  exited = false
  /** The session using the thread; undefined while a thread started ahead waits for one. */
  private link: Link | undefined
  /**
   * A thread started ahead: settled once it has loaded its bundle and oxc-parser's modules and waits
   * for a session (or once it has ended); a thread started by its session never settles it.
   */
  readonly loaded: Promise<void>
  private settleLoaded: () => void = () => {}

  /** `options` undefined: started ahead of its session, which `adopt`s it. */
  constructor(script: string, options: ExtractAllOptions | undefined, preload: boolean, link?: Link) {
    this.link = link
    this.loaded = new Promise<void>((resolve) => (this.settleLoaded = resolve))
    this.worker = new (workerThreads().Worker)(script, { workerData: { specbundleExtract: { options, preload } satisfies Job } })
    this.worker.on("message", (m: FromWorker) => {
      if ("loaded" in m) return this.settleLoaded()
      const chunk = this.inFlight.get(m.id)
      if (chunk === undefined || this.link === undefined) return
      this.inFlight.delete(m.id)
      this.link.done(chunk, m.results)
      this.feed()
    })
    const fail = () => this.giveUp()
    this.worker.once("error", fail)
    this.worker.once("exit", () => {
      this.exited = true
      this.settleLoaded()
      fail()
    })
    // After the listeners: adding a "message" listener refs the worker's port again, and a pool
    // a failed read never finished (a git that could not start) then kept the process alive.
    this.worker.unref()
  }

  /** A thread started ahead becomes this session's: its options go first, before any chunk. */
  adopt(options: ExtractAllOptions, link: Link): void {
    this.link = link
    if (!this.failed) this.worker.postMessage({ options } satisfies ToWorker)
  }

  /** Whatever it held is parsed on the main thread instead: a worker fault loses nothing. */
  giveUp(): void {
    if (this.failed) return
    this.failed = true
    const held = [...this.inFlight.values()]
    this.inFlight.clear()
    if (held.length > 0) this.link?.lost(held)
  }

  private nextId = 0
  /** Sends chunks until two are in flight or the queue is empty. */
  feed(): void {
    while (!this.failed && this.link !== undefined && this.inFlight.size < 2) {
      const chunk = this.link.take()
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

/** The worker side: true when this thread was started to parse (then it answers until terminated). */
export const runExtractWorker = (): boolean => {
  const { parentPort, workerData } = workerThreads()
  const job = (workerData as { specbundleExtract?: Job } | null)?.specbundleExtract
  if (parentPort === null || job === undefined) return false
  const port = parentPort
  let options = job.options
  // The first chunk comes once the main thread has listed the corpus: load oxc-parser meanwhile.
  // A thread started ahead loads its modules only: the ~6 GiB its parser reserves waits for a
  // session (the changeset's old side forks git before that: issue 29, docs/decisions.md).
  const preload = () => {
    if (job.preload && options !== undefined && needsParser(options)) void loadParser()
  }
  if (options === undefined) {
    const loaded = () => port.postMessage({ loaded: true } satisfies FromWorker)
    if (job.preload) void loadParserModules().then(loaded)
    else loaded()
  }
  preload()
  port.on("message", (m: ToWorker) => {
    if ("close" in m) return port.close()
    if ("options" in m) {
      options = m.options
      return preload()
    }
    // Messages arrive in order: a thread started ahead has its options before its first chunk
    // (else the thread fails, and the main thread parses what it held).
    if (options === undefined) throw new Error("specbundle worker: a chunk came before its session's options")
    void extractInThread(m.files, options).then((results) => port.postMessage({ id: m.id, results } satisfies FromWorker))
  })
  return true
}
