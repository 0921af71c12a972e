// Real folders for the reader tests: temp roots removed after the file's tests, files written as
// text or raw bytes, and GraphReader.readTree run over the real disk (or a faulty FileSystem layer).
import * as FileSystem from "effect/FileSystem"
import * as NodeFileSystem from "../../src/node/NodeFileSystemSync.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Finding, Graph } from "../../src/core/model.js"
import type { ReadResult } from "../../src/services/GraphReader.js"
import { GraphReader } from "../../src/services/GraphReader.js"
import type { ParseCache, WorkerPool } from "../../src/node/runtime.js"
import { TestRuntime } from "./runtime.js"
import { BIKE_DOCK, CHECKOUT_CORPUS } from "./paths.js"
import { tempDir } from "./temp-dir.js"

export { tempDir }

/** Writes root-relative files (text as UTF-8, or raw bytes), creating folders. */
export const writeFiles = (root: string, files: Readonly<Record<string, string | Uint8Array>>): void => {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel)
    fs.mkdirSync(path.dirname(full), { recursive: true })
    fs.writeFileSync(full, content)
  }
}

/** Every file under dir, root-relative with `/`, sorted by code units. */
export const listFiles = (dir: string): string[] => {
  const out: string[] = []
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel === "" ? e.name : `${rel}/${e.name}`
      if (e.isDirectory()) walk(p)
      else out.push(p)
    }
  }
  walk("")
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** Copies every file of `from` into `to` (merging folders). */
export const copyInto = (from: string, to: string): void => {
  fs.cpSync(from, to, { recursive: true })
}

/** Makes a copied tree writable (CI lays shared/ out read-only; copies keep the modes). */
export const makeWritable = (dir: string): void => {
  fs.chmodSync(dir, 0o755)
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) makeWritable(p)
    else fs.chmodSync(p, 0o644)
  }
}

/** A writable temp copy of checkout-v1 with the anchored TypeScript fixtures written for it. */
export const checkoutCopy = (label = "specbundle-checkout-"): string => {
  const dir = tempDir(label)
  fs.cpSync(CHECKOUT_CORPUS, dir, { recursive: true })
  fs.cpSync(path.resolve(import.meta.dirname, "../fixtures/checkout-anchors"), dir, { recursive: true })
  makeWritable(dir)
  return dir
}

/** A writable temp copy of the project's own example corpus, examples/bike-dock (specs, code, tests). */
export const bikeDockCopy = (label = "specbundle-bike-"): string => {
  const dir = tempDir(label)
  fs.cpSync(BIKE_DOCK, dir, { recursive: true })
  makeWritable(dir)
  return dir
}

/** A lawful one-rule Spec carrier; `extra` lines go after the rule. */
export const ruleSpec = (id: string, title = "A rule", readiness = "idea"): string =>
  [
    "---",
    `id: ${id}`,
    "kind: rule",
    "altitude: story",
    `readiness: ${readiness}`,
    "relations: {}",
    "---",
    `# ${title}`,
    "",
    "## Rule",
    "",
    "- Totals are sums.",
    ""
  ].join("\n")

/** GraphReader over the real disk, on `runtime` (TestRuntime by default). */
export const readerOn = (runtime: Layer.Layer<WorkerPool | ParseCache> = TestRuntime) =>
  GraphReader.Default.pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, runtime)))

export const ReaderLive = readerOn()

/** GraphReader with the real FileSystem wrapped: `readFile` goes through `override` first. */
export const readerWithReadFile = (override: (real: FileSystem.FileSystem, file: string) => ReturnType<FileSystem.FileSystem["readFile"]>) =>
  GraphReader.Default.pipe(
    Layer.provide(
      Layer.effect(
        FileSystem.FileSystem,
        Effect.map(FileSystem.FileSystem, (real): FileSystem.FileSystem => ({ ...real, readFile: (file) => override(real, file) }))
      ).pipe(Layer.provide(NodeFileSystem.layer))
    ),
    Layer.provide(TestRuntime)
  )

export const readTreeWith = (layer: Layer.Layer<GraphReader>, root: string, exclude: ReadonlyArray<string> = []): Promise<ReadResult> =>
  Effect.runPromise(Effect.flatMap(GraphReader, (r) => r.readTree({ root, exclude })).pipe(Effect.provide(layer)))

export const readTree = (root: string, exclude: ReadonlyArray<string> = []): Promise<ReadResult> => readTreeWith(ReaderLive, root, exclude)

/** Findings as [file, line, code] triples, for compact assertions. */
export const where = (findings: ReadonlyArray<Finding>): Array<[string, number, string]> => findings.map((f) => [f.file, f.line, f.code])

/** Files that contributed a node to the graph. */
export const filesInGraph = (graph: Graph): string[] => [...graph.nodesByFile.keys()]
