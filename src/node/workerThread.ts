// One worker thread of the pool and the worker side of it: the main thread's Helper keeps at most
// two chunks in flight to its thread; the thread parses each chunk it is sent (extractInThread)
// and answers with the results, until it is asked to close.
import { Worker, parentPort, workerData } from "node:worker_threads"
import type { ExtractAllOptions, Extracted, Input } from "./extractInThread.js"
import { extractInThread, loadParser, needsParser } from "./extractInThread.js"

export interface Chunk {
  /** Where each file's result goes in the session's result array. */
  readonly slots: number[]
  readonly files: Input[]
}

export interface Job {
  readonly options: ExtractAllOptions
  /** Load oxc-parser before the first chunk (while the main thread lists the corpus). */
  readonly preload: boolean
}
/** A chunk to parse, or the end: the worker closes its port and its thread ends by itself. */
type ToWorker = { readonly id: number; readonly files: ReadonlyArray<Input> } | { readonly close: true }
type FromWorker = { readonly id: number; readonly results: Extracted[] }

/** One worker thread: at most two chunks in flight, so it never waits for the next one. */
export class Helper {
  private readonly worker: Worker
  readonly inFlight = new Map<number, Chunk>()
  failed = false
  exited = false

  constructor(
    script: string,
    options: ExtractAllOptions,
    preload: boolean,
    private readonly take: () => Chunk | undefined,
    private readonly done: (chunk: Chunk, results: Extracted[]) => void,
    private readonly lost: (chunks: Chunk[]) => void
  ) {
    this.worker = new Worker(script, { workerData: { specbundleExtract: { options, preload } satisfies Job } })
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

/** The worker side: true when this thread was started to parse (then it answers until terminated). */
export const runExtractWorker = (): boolean => {
  const job = (workerData as { specbundleExtract?: Job } | null)?.specbundleExtract
  if (parentPort === null || job === undefined) return false
  const port = parentPort
  // The first chunk comes once the main thread has listed the corpus: load oxc-parser meanwhile.
  if (job.preload && needsParser(job.options)) void loadParser()
  port.on("message", (m: ToWorker) => {
    if ("close" in m) return port.close()
    void extractInThread(m.files, job.options).then((results) => port.postMessage({ id: m.id, results } satisfies FromWorker))
  })
  return true
}
