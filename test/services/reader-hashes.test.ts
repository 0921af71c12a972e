// A read asked without hashes (GraphReader's HashOption: the CLI's impact report, a bundle printed
// to stdout) gives the same graph without hashing a file, unless a parse cache needs the hashes;
// its `files` is then not to be asked for. A read with them lists every file's SHA-256.
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { UNHASHED, extractInThread } from "../../src/node/extractInThread.js"
import { ParseCache } from "../../src/node/runtime.js"
import { GraphReader } from "../../src/services/GraphReader.js"
import { memoryStore } from "../support/cache-store.js"
import { cachedRuntime } from "../support/runtime.js"
import { ReaderLive, bikeDockCopy, readerOn } from "../support/tmp.js"

/** The example corpus: Specs, a Pack, anchored code and tests. */
const corpus = () => bikeDockCopy("specbundle-hashes-")

const read = (layer: Layer.Layer<GraphReader>, root: string, hashes?: boolean) =>
  Effect.runPromise(
    Effect.flatMap(GraphReader, (r) => r.readTree({ root, exclude: [], ...(hashes === undefined ? {} : { hashes }) })).pipe(Effect.provide(layer))
  )

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex")

describe("a read without hashes", () => {
  it("gives the same graph; its files are not listed, a hashed read's are, with their SHA-256", async () => {
    const root = corpus()
    const hashed = await read(ReaderLive, root)
    const bare = await read(ReaderLive, root, false)
    // The same graph; the bare read's Specs parse their prose when it is read (nothing keeps that
    // read whole), so they compare as the bytes they print.
    const { specs, ...rest } = bare.graph
    const { specs: hashedSpecs, ...hashedRest } = hashed.graph
    expect(rest).toEqual(hashedRest)
    expect(JSON.stringify([...specs])).toBe(JSON.stringify([...hashedSpecs]))
    expect([...specs.values()].every((s) => !Object.keys(s).includes("sections"))).toBe(true)
    expect(bare.graph.specs.size).toBeGreaterThan(3)
    expect(bare.graph.anchors.size).toBeGreaterThan(1)
    expect(() => bare.files()).toThrow(/without hashes/)
    const listed = hashed.files()
    expect(listed.map((f) => f.path)).toEqual(expect.arrayContaining([...bare.graph.nodesByFile.keys()]))
    for (const f of listed) expect(f.hash).toBe(sha256(path.join(root, f.path)))
  })

  it("hashes anyway where a parse cache keeps the entries: the next read trusts them", async () => {
    const root = corpus()
    const { store, files } = memoryStore()
    const layer = readerOn(cachedRuntime(ParseCache.layerStore(store)))
    const first = await read(layer, root, false)
    const listed = first.files()
    expect(listed.length).toBeGreaterThan(5)
    for (const f of listed) expect(f.hash).toBe(sha256(path.join(root, f.path)))
    expect(files.size).toBeGreaterThan(0)
    // The second read trusts the entries (its Specs come back from the store's cache, read lazily).
    const again = await read(layer, root)
    const nodes = (g: typeof first.graph) => JSON.stringify([[...g.specs.values()], [...g.packs.values()], [...g.anchors.values()], g.edges, g.findings])
    expect(nodes(again.graph)).toBe(nodes(first.graph))
    expect(again.files()).toEqual(listed)
  })

  it("leaves each file's hash and object id out of what a thread gives back, but not an unreadable file's null", async () => {
    const root = corpus()
    const [spec, code] = ["specs/docks.pack.sdp.md", fs.readdirSync(path.join(root, "src/docks")).map((f) => `src/docks/${f}`)[0]]
    const inputs = [spec, code, "gone.ts"].map((p) => ({ path: p, absolute: path.join(root, p) }))
    const bare = await extractInThread(inputs, { selfHosting: false, hashes: false })
    expect(bare.map((r) => r.hash)).toEqual([UNHASHED, UNHASHED, null])
    expect(bare.every((r) => r.oid === undefined)).toBe(true)
    // With entries to keep (an empty cache), every readable file is hashed.
    const kept = await extractInThread(inputs, { selfHosting: false, hashes: false, known: new Map() })
    expect(kept.map((r) => r.hash)).toEqual([sha256(path.join(root, spec)), sha256(path.join(root, code)), null])
    expect(kept.map((r) => r.read)).toEqual(bare.map((r) => r.read))
  })
})
