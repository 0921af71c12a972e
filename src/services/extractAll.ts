// Parsing every file of a corpus, on every core when the corpus is large. TypeScript anchors cost
// most (oxc builds the AST in Rust, but turning it into JS objects is single-threaded work), so a
// large corpus is split into contiguous batches: the main thread parses one, worker threads the
// rest. Workers run the bundled CLI file itself (bin.ts hands it in); tests run in-thread.
import { availableParallelism } from "node:os"
import { Worker, parentPort, workerData } from "node:worker_threads"
import type { SourceFile } from "../core/discover.js"
import { classifyPath, fileFinding } from "../core/discover.js"
import type { AnchorParser } from "../core/read/anchors.js"
import { nativeParse } from "../core/read/anchors-slice.js"
import type { CarrierRead } from "../core/model.js"

export interface ExtractAllOptions {
  readonly selfHosting: boolean
}

let parser: Promise<AnchorParser> | undefined
/** oxc-parser is native and costs ~20 ms to load: only pay it when a file may hold an anchor. */
const loadParser = (): Promise<AnchorParser> =>
  (parser ??= Promise.all([import("oxc-parser"), import("oxc-parser/src-js/bindings")]).then(([oxc, bindings]) => ({
    parse: oxc.parseSync,
    native: nativeParse(bindings.parseSync)
  })))
/** The parsers (yaml, @cucumber/gherkin) load on first read, not at start-up (`--help` needs none). */
const loadExtract = () => import("../core/extract.js")

let workerScript: string | undefined
/** Called by the bundled entry: worker threads may run this file. */
export const enableWorkers = (script: string): void => {
  workerScript = script
}

/** Below this many bytes of files to parse, starting a worker costs more than it saves. */
const PARALLEL_BYTES = 8 * 1024 * 1024

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")

/** Parses files in this thread, in order; a parser exception becomes a finding for its file. */
export const extractInThread = async (files: ReadonlyArray<SourceFile>, options: ExtractAllOptions): Promise<Array<CarrierRead | null>> => {
  const { extractFile, mayHoldAnchor } = await loadExtract()
  // The markers are ASCII, so a latin1 view finds them without decoding UTF-8.
  const needsParser = files.some((f) => classifyPath(f.path) === "anchor-candidate" && mayHoldAnchor(latin1(f.bytes), options))
  const extractOptions = needsParser ? { ...options, parser: await loadParser() } : options
  return files.map((file) => {
    try {
      return extractFile(file, extractOptions)
    } catch (e) {
      // A parser bug must not take the healthy rest of the corpus down with it.
      return fileFinding(file.path, "read/internal-error", `the reader failed on this file: ${String(e).split("\n")[0]}`)
    }
  })
}

/** Contiguous batches of roughly equal size, so results come back in file order. */
const batches = (files: ReadonlyArray<SourceFile>, count: number): SourceFile[][] => {
  const total = files.reduce((n, f) => n + f.bytes.length, 0)
  const out: SourceFile[][] = [[]]
  let filled = 0
  for (const f of files) {
    if (filled >= (total * out.length) / count && out.length < count) out.push([])
    out[out.length - 1].push(f)
    filled += f.bytes.length
  }
  return out
}

interface Job {
  readonly files: ReadonlyArray<SourceFile>
  readonly options: ExtractAllOptions
}

const inWorker = (script: string, job: Job): Promise<Array<CarrierRead | null>> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { specbundleExtract: job } })
    worker.once("message", (reads: Array<CarrierRead | null>) => {
      resolve(reads)
      void worker.terminate()
    })
    worker.once("error", reject)
    worker.once("exit", (code) => reject(new Error(`worker exited with ${code}`)))
  })

/** Parses every file; uses worker threads for a large corpus when the bundled CLI enabled them. */
export const extractAll = async (files: ReadonlyArray<SourceFile>, options: ExtractAllOptions): Promise<Array<CarrierRead | null>> => {
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0)
  // SPECBUNDLE_WORKERS=N forces N worker threads (0: none), for tests and measurements.
  const setting = process.env.SPECBUNDLE_WORKERS
  const forced = setting === undefined || setting === "" ? null : Number(setting)
  const threads = forced !== null && Number.isInteger(forced) && forced >= 0 ? forced + 1 : Math.min(availableParallelism(), 4)
  if (workerScript === undefined || threads < 2 || (forced === null && bytes < PARALLEL_BYTES)) return extractInThread(files, options)
  const [mine, ...theirs] = batches(files, threads)
  const script = workerScript
  const remote = theirs.map((batch) => inWorker(script, { files: batch, options }).catch(() => extractInThread(batch, options)))
  const local = await extractInThread(mine, options)
  return [local, ...(await Promise.all(remote))].flat()
}

/** The worker side: true when this thread was started to parse (then it answers and ends). */
export const runExtractWorker = (): boolean => {
  const job = (workerData as { specbundleExtract?: Job } | null)?.specbundleExtract
  if (parentPort === null || job === undefined) return false
  const port = parentPort
  void extractInThread(job.files, job.options).then((reads) => port.postMessage(reads))
  return true
}
