// The parse cache (src/node/parseCache.ts), through the built CLI as a real
// subprocess: every cached run prints exactly what a run without any cache prints, after edits,
// deletions and new files, with workers, and with a damaged cache file; an unchanged corpus leaves
// the file untouched.
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { shardOf } from "../../src/node/parseCache.js"
import { sealed, unsealed } from "../support/cache-file.js"
import { CLI, cleanEnv } from "../support/hostile.js"
import { tempDir, writeFiles } from "../support/tmp.js"
import { PROTOCOL_PACKAGE as PKG } from "../../src/core/protocol-package.js"

interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

const run = (root: string, env: NodeJS.ProcessEnv): Run => {
  const full: NodeJS.ProcessEnv = { ...cleanEnv(), ...env }
  for (const key of Object.keys(full)) if (full[key] === undefined) delete full[key]
  const args = ["bundle", "--root", root, "--pack", "pack:pack-000", "--parts", "--budget", "20000"]
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: full, timeout: 120_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}
const cached = (root: string, dir: string, workers = "0") =>
  run(root, { SPECBUNDLE_CODE_CACHE_DIR: dir, SPECBUNDLE_CODE_CACHE: undefined, SPECBUNDLE_WORKERS: workers })
const uncached = (root: string) => run(root, { SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_CODE_CACHE_DIR: undefined, SPECBUNDLE_WORKERS: "0" })

/** The cache's shard files (one corpus, one source: the work tree), without their prose files. */
const parseCacheFiles = (dir: string): string[] => {
  const names = fs.readdirSync(dir).filter((n) => n.startsWith("specbundle-parse-") && /-[0-9a-f]{2}\.json$/.test(n))
  expect(names.length).toBeGreaterThan(1)
  expect(new Set(names.map((n) => n.replace(/-[0-9a-f]{2}\.json$/, ""))).size).toBe(1)
  return names.sort().map((n) => path.join(dir, n))
}
/** A shard's entries: its second line (src/node/cacheFormat.ts), each [path, stat, hash, oid, place of its read or -1]. */
const entriesOf = (file: string) => JSON.parse(unsealed(fs.readFileSync(file)).toString("utf8").split("\n")[1]) as unknown[][]
/** The shard file that holds (or would hold) a path. */
const shardFile = (dir: string, file: string): string => {
  const names = parseCacheFiles(dir)
  const suffix = `-${shardOf(file).toString(16).padStart(2, "0")}.json`
  const found = names.find((n) => n.endsWith(suffix))
  if (found === undefined) throw new Error(`no shard file for ${file}`)
  return found
}

/** A generated corpus with anchors in code, plus one code file that does not parse. */
const corpus = (): string => {
  const root = tempDir("specbundle-pc-")
  execFileSync(process.execPath, [path.resolve("scripts/gen-corpus.mjs"), root, "--specs", "80", "--packs", "1", "--ts-files", "160", "--anchor-every", "4"])
  writeFiles(root, { "src/broken/bad.ts": `import { codeAnchor } from "${PKG}"\nexport const a = codeAnchor({ id: "impl:x.y" \n` })
  return root
}

const anchoredFile = (root: string): string => {
  const dir = path.join(root, "src")
  for (const sub of fs.readdirSync(dir).sort()) {
    for (const name of fs.readdirSync(path.join(dir, sub)).sort()) {
      const file = path.join(dir, sub, name)
      if (fs.readFileSync(file, "utf8").includes("codeAnchorId(")) return file
    }
  }
  throw new Error("no anchored file in the generated corpus")
}

/** The first Spec of the generated corpus's Pack (in path order). */
const firstSpec = (root: string): string => {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name)
      if (e.isDirectory()) walk(full)
      else if (e.name.endsWith(".sdp.md") && !fs.readFileSync(full, "utf8").includes("pack:")) found.push(full)
    }
  }
  walk(root)
  found.sort()
  if (found.length === 0) throw new Error("no Spec in the generated corpus")
  return found[0]
}

describe("the parse cache", () => {
  it("a warm run prints what an uncached run prints and leaves the cache file untouched", async () => {
    const root = corpus()
    // Files changed within 3 s of a run are kept without stat data (racy), and the next run that
    // finds them old enough records their stat data: a write. Older files make every run the same.
    await new Promise((resolve) => setTimeout(resolve, 3500))
    const dir = tempDir("specbundle-pc-cache-")
    const reference = uncached(root)
    expect(reference.status).toBe(0)
    expect(reference.stderr).toContain("src/broken/bad.ts")
    expect(reference.stdout.split("\n").length).toBeGreaterThan(2)
    expect(cached(root, dir)).toEqual(reference)
    const files = parseCacheFiles(dir)
    const written = files.map((f) => fs.statSync(f).mtimeMs)
    const entries = files.flatMap(entriesOf)
    // Every file read, with stat data (old enough), its hash and what it gave (null: nothing), the broken one included.
    expect(entries.length).toBe(80 + 1 + 160 + 1)
    for (const e of entries) expect(typeof e[1]).toBe("string")
    for (const e of entries) expect(e).toHaveLength(5)
    const parsed = entries.filter((e) => e[4] !== -1).map((e) => e[0] as string)
    expect(parsed).toContain("src/broken/bad.ts")
    expect(parsed.filter((p) => p.endsWith(".ts")).length).toBeGreaterThan(30)
    // Specs too: an unchanged corpus is not parsed again.
    expect(parsed.filter((p) => p.endsWith(".sdp.md")).length).toBe(81)
    // Each path in its own shard.
    for (const f of files) for (const e of entriesOf(f)) expect(shardFile(dir, e[0] as string)).toBe(f)
    expect(cached(root, dir)).toEqual(reference)
    expect(cached(root, dir, "2")).toEqual(reference)
    expect(files.map((f) => fs.statSync(f).mtimeMs)).toEqual(written)
  }, 180_000)

  it("after an edited, a deleted and a new code file, a warm run prints what an uncached run prints", () => {
    const root = corpus()
    const dir = tempDir("specbundle-pc-cache-")
    expect(cached(root, dir).status).toBe(0)
    const edited = anchoredFile(root)
    const text = fs.readFileSync(edited, "utf8")
    const id = /codeAnchorId\("([^"]+)"\)/.exec(text)?.[1] ?? ""
    fs.writeFileSync(edited, text.replace(`codeAnchorId("${id}")`, `codeAnchorId("${id}-renamed")`))
    // A Spec too: its cached result must not outlive its bytes.
    const spec = firstSpec(root)
    const specText = fs.readFileSync(spec, "utf8")
    expect(specText).toMatch(/^# /m)
    fs.writeFileSync(spec, specText.replace(/^# (.*)$/m, "# $1 (edited)"))
    fs.rmSync(path.join(root, "src/broken/bad.ts"))
    writeFiles(root, { "src/fresh/new.ts": `/**\n * @sdpAnchor impl:fresh.one\n * @sdpSatisfies spec:none.here\n */\nexport const x = 1\n` })
    const reference = uncached(root)
    expect(reference.stdout + reference.stderr).not.toContain("src/broken/bad.ts")
    expect(reference.stdout).toContain("(edited)")
    for (const workers of ["0", "2"]) expect(cached(root, dir, workers)).toEqual(reference)
  }, 180_000)

  it("a damaged or foreign cache file is ignored, then replaced", () => {
    const root = corpus()
    const dir = tempDir("specbundle-pc-cache-")
    const reference = uncached(root)
    expect(cached(root, dir)).toEqual(reference)
    const file = shardFile(dir, "src/broken/bad.ts")
    // Bytes that fail the checksum, then well-formed data (valid checksum) of the wrong shape, then
    // entries whose hashes do not match the files: each run still prints the reference.
    const withChecksum = sealed
    const head = (reads: unknown) => JSON.stringify({ format: 5, digest: null, prose: null, size: 0, reads })
    const bad = { file: "src/broken/bad.ts", specs: [], packs: [], anchors: [], findings: [] }
    const damaged = [
      Buffer.from("not a cache at all"),
      withChecksum(`${head("nope")}\n[]`),
      // Well formed, a read that hides the broken file's finding under hashes that are not its bytes.
      withChecksum(`${head([bad])}\n${JSON.stringify([["src/broken/bad.ts", null, "0".repeat(64), null, 0]])}`),
      // Stat data that are not the file's: the entry is not trusted, the bytes decide.
      withChecksum(`${head([bad])}\n${JSON.stringify([["src/broken/bad.ts", "1:2:3:4", "0".repeat(64), null, 0]])}`),
      // An entry naming a read the shard does not hold.
      withChecksum(`${head([])}\n${JSON.stringify([["src/broken/bad.ts", "1:2:3:4", "0".repeat(64), null, 3]])}`)
    ]
    for (const bytes of damaged) {
      fs.writeFileSync(file, bytes, { mode: 0o600 })
      expect(cached(root, dir)).toEqual(reference)
      expect(fs.readFileSync(file).equals(bytes)).toBe(false)
    }
  }, 180_000)
})
