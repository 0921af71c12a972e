// Parsing files in this thread: what one file gives (its contribution and hash), read from disk or
// held in memory, each parsed as soon as it is read. The pool (extractAll.ts) runs this in every
// thread it starts, the main one included; a small corpus runs it alone.
import type { SourceFile } from "../core/read/discover.js"
import { classifyPath, fileFinding, sha256 } from "../core/read/discover.js"
import type { ExtractOptions } from "../core/read/extract.js"
import type { CarrierRead } from "../core/model.js"
import type { AnchorParser } from "../core/read/anchors.js"
import { type Extracted, type FileOnDisk, RACY_MS, asIndexObject, gitObjectId, load, statOf } from "./diskRead.js"
import { TurnBudget, afterPoll } from "./loopTurn.js"
import { type OxcRawModules, loadOxcRaw, rawParser } from "./oxcRaw.js"
import type { KnownReads } from "./parseCache.js"

export type { Extracted, FileOnDisk } from "./diskRead.js"

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
  /**
   * false: nothing will list the files' SHA-256 (no manifest, no parse cache: `known` unset), so
   * they are not computed (~70 ms of CPU on 30,000 files) and each result's `hash` is UNHASHED.
   */
  readonly hashes?: boolean
}

/**
 * Whether nothing keeps this read whole: no parse cache (`known` unset) and no manifest
 * (`hashes: false`). Its files are then not hashed, and the calling thread's Specs keep their prose
 * for when it is read (`proseOnDemand`).
 */
export const keptByNothing = (options: ExtractAllOptions): boolean => options.known === undefined && options.hashes === false

/** The `hash` of a readable file whose bytes were not hashed (`hashes: false`). */
export const UNHASHED = ""

/** A file held in memory (read from git) or still on disk. */
export type Input = SourceFile | FileOnDisk

let modules: Promise<[typeof import("oxc-parser"), OxcRawModules]> | undefined
const parserModules = () => (modules ??= Promise.all([import("oxc-parser"), loadOxcRaw()]))
/** oxc-parser's modules (native binding included), without the buffer its raw transfer reserves. */
export const loadParserModules = (): Promise<void> => parserModules().then(() => undefined)
let parser: Promise<AnchorParser> | undefined
/** oxc-parser is native and costs ~20 ms to load: only pay it when a file may hold an anchor. */
export const loadParser = (): Promise<AnchorParser> =>
  (parser ??= parserModules().then(([oxc, raw]) => {
    const outline = rawParser(raw)
    return outline === null ? { parse: oxc.parseSync } : { parse: oxc.parseSync, outline }
  }))
/** Whether a run will surely parse code: nothing from an earlier run to reuse (a first run, or no cache). */
export const needsParser = (options: ExtractAllOptions): boolean => options.known === undefined || options.known.size === 0
/** The parsers (yaml, @cucumber/gherkin) load on first read, not at start-up (`--help` needs none). */
const loadExtract = () => import("../core/read/extract.js")

/**
 * Parses files in this thread, in order, each as soon as it is read (straight from the scratch
 * buffer); a parser exception becomes a finding for its file. `proseOnDemand`: Markdown Specs parse
 * their prose again when it is read (read/markdown.ts), for results that stay in this thread (a
 * worker's are copied whole to the main thread: they keep theirs).
 */
export const extractInThread = async (inputs: ReadonlyArray<Input>, options: ExtractAllOptions, proseOnDemand = false): Promise<Extracted[]> => {
  const { extractFile, mayHoldAnchorBytes } = await loadExtract()
  let extractOptions: ExtractOptions = proseOnDemand ? { ...options, proseOnDemand } : options
  const results: Extracted[] = []
  const known = options.known
  const safeBefore = known === undefined ? undefined : (options.since ?? 0) - RACY_MS
  // Hashes and object ids are for a cache to keep and a manifest to list: without either, none.
  const kept = !keptByNothing(options)
  // The event loop turns every so often (loopTurn.ts), between files only: the scratch buffer
  // (diskRead.ts) then holds nothing still to parse. A file taken from the cache counts nothing.
  const turns = new TurnBudget()
  for (const input of inputs) {
    if (turns.due()) await afterPoll()
    const onDisk = "absolute" in input
    const code = classifyPath(input.path) === "anchor-candidate"
    const object = onDisk ? input.object : undefined
    const vouched = onDisk ? input.unchanged : undefined
    let stat: string | null | undefined
    let entry = known?.get(input.path)
    let trusted: boolean
    if (object !== undefined && known !== undefined) {
      // The index read: the index names each file's object id, so an entry recorded for the same
      // object id is what those very bytes gave (content-addressed, no stat data involved), and the
      // file is not read at all. Any other is read from the work tree and checked below.
      stat = null
      trusted = entry !== undefined && entry.oid === object
    } else if (vouched !== undefined && entry !== undefined && entry.oid === vouched) {
      // The same for the work tree where git vouches its bytes are that object: no lstat either.
      stat = entry.stat
      trusted = true
    } else {
      // The work tree: stat data first, as git's index does; a match skips the read and the parse.
      if (onDisk && safeBefore !== undefined) {
        const s = statOf(input.absolute)
        stat = s !== undefined && s.newest < safeBefore ? s.key : null
        if (entry !== undefined && (s === undefined || entry.stat !== s.key)) entry = entry.stat === null ? entry : { ...entry, stat: null }
      }
      trusted = stat !== undefined && entry !== undefined && entry.stat !== null
      // Unchanged since recorded (stat data, taken after git answered) and the object by git's word:
      // the entry is that object's. One recorded with another object id contradicts git: read.
      if (trusted && vouched !== undefined) {
        if (entry!.oid === null) entry = { ...entry!, oid: vouched }
        else trusted = false
      }
    }
    if (trusted) {
      // Neither read nor parsed: what these very bytes gave last time.
      results.push({ path: input.path, read: entry!.read, hash: entry!.hash, stat, ...(entry!.oid === null ? {} : { oid: entry!.oid }), reused: true })
      continue
    }
    let file = onDisk ? load(input) : input
    turns.spend("bytes" in file ? file.bytes.length : 0)
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
    } else if (vouched !== undefined && entry !== undefined && gitObjectId(file.bytes, vouched) === vouched) {
      // Checked, not taken on git's word: the file may have changed since git looked. Only where an
      // earlier run left an entry: a first run (a CI job's empty cache) would hash every file twice
      // (390 ms on the bench corpus); its entries take the id by stat data the next run.
      oid = vouched
    }
    const hash = kept ? sha256(file.bytes) : UNHASHED
    // The object id checked in an earlier run stays with the same bytes (the work tree's read keeps it for the index's).
    if (oid === undefined && entry !== undefined && entry.oid !== null && entry.hash === hash) oid = entry.oid
    const extra = { ...(stat === undefined ? {} : { stat }), ...(oid === undefined || !kept ? {} : { oid }) }
    // An earlier run parsed these very bytes at this path (the stat data changed, the bytes did not).
    if (entry !== undefined && entry.hash === hash) {
      results.push({ path: file.path, read: entry.read, hash, ...extra, reused: true })
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
      extractOptions = { ...extractOptions, parser: await loadParser() }
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
