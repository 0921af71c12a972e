// The parse cache's rule for stat data (src/node/extractAll.ts, docs/decisions.md "The read
// cache"), on real files: stat data are recorded only for a file safely older than the run, an
// entry is trusted only on the very stat data, and otherwise the bytes decide.
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { CarrierRead } from "../../src/core/model.js"
import { extractInThread } from "../../src/node/extractInThread.js"
import { isAscii } from "node:buffer"
import type { CacheEntry, SavedEntry } from "../../src/node/parseCache.js"
import type { CacheStore } from "../../src/node/parseCache.js"
import { openParseCache } from "../../src/node/parseCache.js"

/** The cache of a root in `store`, settled without a listing (no shard whole: every entry known). */
const opened = (store: CacheStore, root: string, selfHosting: boolean, source: "tree" | "index") => {
  const cache = openParseCache(store, root, selfHosting, source)
  cache?.settle(undefined)
  return cache
}
import { tempDir, writeFiles } from "../support/tmp.js"
import { memoryStore } from "../support/cache-store.js"

const ANCHORED = `/**\n * @sdpAnchor impl:c.one\n * @sdpSatisfies spec:c.one\n */\nexport const x = 1\n`
/** A result no parse of ANCHORED gives: seeing it proves the entry was used without reading the file. */
const PLANTED: CarrierRead = { file: "a.ts", specs: [], packs: [], anchors: [], findings: [] }

const setup = () => {
  const root = tempDir("specbundle-read-cache-")
  writeFiles(root, { "a.ts": ANCHORED })
  return { root, input: { path: "a.ts", absolute: path.join(root, "a.ts") } }
}
const statKey = (file: string) => {
  const s = fs.lstatSync(file)
  return `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`
}

describe("stat data in the parse cache", () => {
  it("a file changed less than 3 s before the run is recorded without stat data; an older one with them", async () => {
    const { input } = setup()
    const now = await extractInThread([input], { selfHosting: false, known: new Map(), since: Date.now() })
    expect(now[0].stat).toBeNull()
    expect(now[0].hash).not.toBeNull()
    // Even with its mtime set an hour back: the ctime (which nothing can set back) is recent.
    const hourAgo = Date.now() / 1000 - 3600
    fs.utimesSync(input.absolute, hourAgo, hourAgo)
    expect((await extractInThread([input], { selfHosting: false, known: new Map(), since: Date.now() }))[0].stat).toBeNull()
    const later = await extractInThread([input], { selfHosting: false, known: new Map(), since: Date.now() + 5000 })
    expect(later[0].stat).toBe(statKey(input.absolute))
    // Without a cache nothing is stat'ed.
    expect((await extractInThread([input], { selfHosting: false }))[0].stat).toBeUndefined()
  })

  it("an entry is trusted on the same stat data only; without them, the bytes decide", async () => {
    const { input } = setup()
    const since = Date.now() + 5000
    const trusted: CacheEntry = { stat: statKey(input.absolute), hash: "0".repeat(64), oid: null, read: PLANTED }
    const [hit] = await extractInThread([input], { selfHosting: false, known: new Map([["a.ts", trusted]]), since })
    expect(hit.read).toBe(PLANTED)
    expect(hit.hash).toBe("0".repeat(64))
    // Racy (null) or other stat data: the file is read, and a hash that does not match is not used.
    for (const stat of [null, `${fs.statSync(input.absolute).size}:1:1:1`]) {
      const [miss] = await extractInThread([input], { selfHosting: false, known: new Map([["a.ts", { ...trusted, stat }]]), since })
      expect(miss.read).not.toBe(PLANTED)
      expect(miss.read?.anchors.map((a) => a.id)).toEqual(["impl:c.one"])
      expect(miss.hash).not.toBe("0".repeat(64))
    }
  })

  it("the index read trusts an entry by object id alone: the file is neither stat'ed nor read; another id reads it", async () => {
    const { root, input } = setup()
    const oid = createHash("sha1")
      .update(`blob ${Buffer.byteLength(ANCHORED)}\0${ANCHORED}`)
      .digest("hex")
    const since = Date.now() + 5000
    const planted: CacheEntry = { stat: null, hash: "0".repeat(64), oid, read: PLANTED }
    // A path with no file behind it: only the entry can answer, for a Spec as for a code file.
    for (const file of ["gone.ts", "gone.sdp.md"]) {
      const [hit] = await extractInThread([{ path: file, absolute: path.join(root, file), object: oid }], {
        selfHosting: false,
        known: new Map([[file, planted]]),
        since
      })
      expect(hit).toEqual({ path: file, read: PLANTED, hash: "0".repeat(64), stat: null, oid, reused: true })
    }
    // The index names other bytes than the entry's: the file is read and checked against the index's id.
    const [read] = await extractInThread([{ ...input, object: oid }], {
      selfHosting: false,
      known: new Map([["a.ts", { ...planted, oid: "1".repeat(40) }]]),
      since
    })
    expect(read.read).not.toBe(PLANTED)
    expect(read.read?.anchors.map((a) => a.id)).toEqual(["impl:c.one"])
    expect(read.oid).toBe(oid)
  })

  it("a file checked against an index object: its own id passes, other bytes or a symbolic link send the caller to the index", async () => {
    const { root, input } = setup()
    const oid = createHash("sha1")
      .update(`blob ${Buffer.byteLength(ANCHORED)}\0${ANCHORED}`)
      .digest("hex")
    const options = { selfHosting: false, known: new Map<string, CacheEntry>(), since: Date.now() }
    const [same] = await extractInThread([{ ...input, object: oid }], options)
    expect(same.oid).toBe(oid)
    expect(same.read?.anchors.map((a) => a.id)).toEqual(["impl:c.one"])
    expect((await extractInThread([{ ...input, object: "0".repeat(40) }], options))[0]).toEqual({ path: "a.ts", read: null, hash: null, stale: true })
    fs.symlinkSync(input.absolute, path.join(root, "link.ts"))
    const [linked] = await extractInThread([{ path: "link.ts", absolute: path.join(root, "link.ts"), object: oid }], options)
    expect(linked.stale).toBe(true)
  })
})

/** A Spec whose prose holds every kind of character the shard files must escape. */
const SPEC: CarrierRead = {
  file: "s.sdp.md",
  specs: [
    {
      id: "spec:s.one",
      kind: "behavior",
      altitude: "story",
      readiness: "scoped",
      title: "Café ✓",
      narrative: "naïve 𝄞 \u2028 line",
      file: "s.sdp.md",
      line: 2,
      sections: { intent: { outcome: "Ünïcode outcome" }, behavior: { rules: ["a rule", { key: "k", rule: "keyed ✓" }] } },
      relations: [{ type: "refines", to: "spec:s" }],
      locations: { "intent.outcome": 7, "behavior.rules[0]": 9 }
    }
  ],
  packs: [],
  anchors: [],
  findings: []
}

describe("the parse cache's files", () => {
  it("are ASCII, and give back every character (accents, symbols, astral ones) and every entry", () => {
    const { files, store } = memoryStore()
    {
      const root = tempDir("specbundle-cache-files-")
      const text: CarrierRead = {
        ...PLANTED,
        file: "é.ts",
        findings: [{ file: "é.ts", line: 1, code: "x", message: "naïve ✓ 𝄞 \u2028 \u0000", severity: "warning" }]
      }
      const entries: SavedEntry[] = [
        ["é.ts", "1:2:3:4", "a".repeat(64), null, text],
        ["b.sdp.md", null, "b".repeat(64), "c".repeat(40), null],
        ["s.sdp.md", null, "d".repeat(64), null, SPEC]
      ]
      opened(store, root, false, "tree")?.save(entries)
      for (const data of files.values()) expect(isAscii(data)).toBe(true)
      const again = opened(store, root, false, "tree")
      expect(again?.known.get("é.ts")).toEqual({ stat: "1:2:3:4", hash: "a".repeat(64), oid: null, read: text })
      expect(again?.known.get("b.sdp.md")).toEqual({ stat: null, hash: "b".repeat(64), oid: "c".repeat(40), read: null })
      // A Spec comes back with its prose read when first asked for, and prints the same bytes.
      const spec = again?.known.get("s.sdp.md")?.read?.specs[0]
      expect(spec?.sections).toEqual(SPEC.specs[0].sections)
      expect(spec?.narrative).toBe(SPEC.specs[0].narrative)
      expect(JSON.stringify(again?.known.get("s.sdp.md")?.read)).toBe(JSON.stringify(SPEC))
      // Another source or option is another cache: nothing known there.
      expect(opened(store, root, true, "tree")?.known.size).toBe(0)
      expect(opened(store, root, false, "index")?.known.size).toBe(0)
    }
  })

  it("keeps the Specs' prose in a file of its own, named by the entries: without it, the shard is not used", () => {
    const { files, store } = memoryStore()
    {
      const root = tempDir("specbundle-cache-prose-")
      const cache = openParseCache(store, root, false, "tree")
      cache?.save([["s.sdp.md", null, "d".repeat(64), null, SPEC]])
      // One shard holds the entry: its entries file and its prose file.
      expect(files.size).toBe(2)
      const [entriesName, proseName] = [...files.keys()].sort((a, b) => a.length - b.length)
      expect(proseName.startsWith(`${entriesName}-`)).toBe(true)
      expect(Buffer.from(files.get(entriesName) as Uint8Array).toString("latin1")).not.toContain("Unicode")
      // A changed Spec writes a new prose file and removes the one the old entries named.
      const changed: CarrierRead = { ...SPEC, specs: [{ ...SPEC.specs[0], narrative: "changed" }] }
      opened(store, root, false, "tree")?.save([["s.sdp.md", null, "e".repeat(64), null, changed]])
      expect(files.size).toBe(2)
      expect(files.has(proseName)).toBe(false)
      expect(opened(store, root, false, "tree")?.known.get("s.sdp.md")?.read?.specs[0].narrative).toBe("changed")
      // Without its prose file the shard's entries are not used at all.
      for (const name of [...files.keys()]) if (name !== entriesName) files.delete(name)
      expect(opened(store, root, false, "tree")?.known.size).toBe(0)
    }
  })
})
