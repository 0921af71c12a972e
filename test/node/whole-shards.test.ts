// Whole shards (src/node/parseCache.ts, docs/decisions.md "The incremental state"): a shard of
// the parse cache saved from a listing of the same paths and object ids gives what its files gave
// without any of them being looked up or read. Shown on the index read through GraphReader, with
// the cache in memory: after a warm run the work tree is emptied, so any file the reader still
// wanted would have to come from `fetch`, which counts what it is asked for.
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { GraphReader } from "../../src/services/GraphReader.js"
import type { IndexedFile } from "../../src/services/GraphReader.js"
import type { SavedEntry } from "../../src/node/parseCache.js"
import type { ParseCaches } from "../../src/node/parseCache.js"
import { shardListing, shardOf, storeCaches, warmCaches } from "../../src/node/parseCache.js"
import { ParseCache } from "../../src/node/runtime.js"
import * as Layer from "effect/Layer"
import { specCarrier } from "../support/git.js"
import { cachedRuntime } from "../support/runtime.js"
import { readerOn, tempDir } from "../support/tmp.js"
import { memoryStore } from "../support/cache-store.js"

const oidOf = (text: string) =>
  createHash("sha1")
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest("hex")

/** The two kinds of cache: the loader's folder (here a store in memory), and the entries kept warm in memory. */
const KINDS: ReadonlyArray<readonly [string, () => ParseCaches]> = [
  ["a folder store's cache", () => storeCaches(memoryStore().store)],
  ["a cache kept warm in memory", () => warmCaches()]
]

describe.each(KINDS)("whole shards, %s", (_, makeCaches) => {
  it("a listing of the same paths and object ids reads nothing, the work tree emptied; a changed object fetches that file alone", async () => {
    const reader = readerOn(cachedRuntime(Layer.succeed(ParseCache, makeCaches())))
    {
      const root = tempDir("specbundle-whole-")
      // Forty Specs, so that every shard holds some.
      const texts = new Map<string, string>()
      for (let i = 0; i < 40; i++) texts.set(`specs/s${i}.sdp.md`, specCarrier(`spec:w.s${i}`, `Spec ${i}`))
      for (const [p, text] of texts) {
        fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true })
        fs.writeFileSync(path.join(root, p), text)
      }
      const entries: IndexedFile[] = [...texts].map(([p, text]) => ({ path: p, object: oidOf(text) }))
      const asked: string[][] = []
      const read = (listed: ReadonlyArray<IndexedFile>) =>
        Effect.runPromise(
          Effect.flatMap(GraphReader, (r) =>
            r.readIndexed({ root, entries: listed, selfHosting: false }, (stale) => {
              asked.push(stale.map((e) => e.path))
              return Effect.succeed(stale.flatMap((e) => (texts.has(e.path) ? [{ path: e.path, bytes: Buffer.from(texts.get(e.path) ?? "") }] : [])))
            })
          ).pipe(Effect.provide(reader))
        )
      const first = await read(entries)
      expect([...first.graph.specs.keys()]).toHaveLength(40)
      expect(asked).toEqual([])
      // Nothing on disk any more: only whole shards can answer without asking git.
      fs.rmSync(path.join(root, "specs"), { recursive: true })
      const second = await read(entries)
      expect(asked).toEqual([])
      expect(JSON.stringify([...second.graph.specs.values()])).toBe(JSON.stringify([...first.graph.specs.values()]))
      expect(second.files()).toEqual(first.files())
      // One file's object changes (staged anew): its shard's files are looked up; the rest stay whole.
      const changed = "specs/s7.sdp.md"
      texts.set(changed, specCarrier("spec:w.s7", "Spec 7, staged again"))
      const third = await read(entries.map((e) => (e.path === changed ? { path: changed, object: oidOf(texts.get(changed) ?? "") } : e)))
      // Its shard's other entries are still trusted by object id: only the changed file is fetched.
      expect(asked).toEqual([[changed]])
      expect(third.graph.specs.get("spec:w.s7")?.title).toBe("Spec 7, staged again")
      expect([...third.graph.specs.keys()]).toHaveLength(40)
    }
  })

  it("are the shards saved from the same listing; a changed object, path or unvouched file leaves its shard to the entries", () => {
    const openParseCache = makeCaches().open
    {
      const root = tempDir("specbundle-whole-cache-")
      const paths = Array.from({ length: 64 }, (_, i) => `src/f${i}.ts`)
      const saved: SavedEntry[] = paths.map((p, i) => [p, null, "h".repeat(64), oidOf(String(i)), null])
      const listing = shardListing(paths.map((p, i) => ({ path: p, object: oidOf(String(i)) })))
      const first = openParseCache(root, false, "index")
      first?.settle(listing)
      first?.save(saved, listing)
      const used = new Set(paths.map(shardOf))
      const again = openParseCache(root, false, "index")
      expect(again?.warm).toBe(true)
      again?.settle(listing)
      for (const shard of used) expect(again?.whole[shard]).toEqual([])
      expect(again?.known.size).toBe(0)
      expect(again?.wholeEntries(shardOf(paths[0])).map((e) => e[0])).toContain(paths[0])
      // Another object for one path: its shard is not whole, its entries are known; the rest stay whole.
      const moved = shardListing(paths.map((p, i) => ({ path: p, object: oidOf(i === 0 ? "other" : String(i)) })))
      const third = openParseCache(root, false, "index")
      third?.settle(moved)
      expect(third?.whole[shardOf(paths[0])]).toBeUndefined()
      expect(third?.known.get(paths[0])?.oid).toBe(oidOf("0"))
      expect([...used].filter((shard) => third?.whole[shard] !== undefined)).toHaveLength(used.size - 1)
      // A file git vouches for no object: its shard is never whole.
      const unvouched = shardListing(paths.map((p, i) => ({ path: p, object: i === 1 ? null : oidOf(String(i)) })))
      expect(unvouched.digests[shardOf(paths[1])]).toBeNull()
      const fourth = openParseCache(root, false, "index")
      fourth?.settle(unvouched)
      expect(fourth?.whole[shardOf(paths[1])]).toBeUndefined()
      // A path more in a shard: not whole either.
      const grown = shardListing([...paths, "src/extra.ts"].map((p, i) => ({ path: p, object: oidOf(String(i)) })))
      const fifth = openParseCache(root, false, "index")
      fifth?.settle(grown)
      expect(fifth?.whole[shardOf("src/extra.ts")]).toBeUndefined()
    }
  })
})
