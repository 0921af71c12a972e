// End to end: `bundle --out DIR` (part files, manifest with tickets and builtFrom, atomic replacement,
// extra parts removed, a failed write leaves the previous set whole) and `stale DIR`
// (bundle-contract.md sections 1 and 3), through the CLI run in process on real folders and real git.
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { run as inProcess } from "../support/run.js"
import { bikeDockCopy, tempDir as tmpDir } from "../support/tmp.js"

const PACK = "pack:rides-v1"

const tempDir = (): string => tmpDir("specbundle-cli-out-")

const corpus = (): string => bikeDockCopy("specbundle-cli-out-")

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" })

const run = async (cwd: string, args: ReadonlyArray<string>) => {
  const r = await inProcess(cwd, args, { env: process.env })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split("\n").filter((l) => l !== "") }
}

const sha256 = (text: string | Buffer): string => createHash("sha256").update(text).digest("hex")

interface Manifest {
  scope: unknown
  budget: unknown
  declarations: unknown
  parts: Array<{ file: string; hash: string; used: number | null }>
  builtFrom: {
    root: string
    exclude: string[]
    config: string | null
    commit: string | null
    dirty: boolean | null
    base?: string | null
    graphDigest: string
    files: Array<{ path: string; hash: string }>
  }
}

const manifestOf = (dir: string): Manifest => JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest
const partFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir)
    .filter((n) => /^part-\d+\.json$/.test(n))
    .sort()
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((n) => fs.statSync(path.join(dir, n)).isFile())
      .map((n) => [n, fs.readFileSync(path.join(dir, n), "utf8")])
  )

const bundleParts = (root: string, out: string, budget = "4000") => run(root, ["bundle", "--pack", PACK, "--parts", "--budget", budget, "--out", out])

describe("bundle --out", () => {
  it("writes part-NNN.json files of compact JSON plus a newline, and a manifest per contract section 3", async () => {
    const root = corpus()
    const out = path.join(tempDir(), "bundle-out")
    const r = await bundleParts(root, out)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("")
    const names = partFiles(out)
    expect(names.length).toBeGreaterThan(1)
    expect(names).toEqual(names.map((_, i) => `part-${String(i + 1).padStart(3, "0")}.json`))

    const m = manifestOf(out)
    expect(m.scope).toEqual({ pack: PACK })
    expect(m.budget).toBe(4000)
    expect(m.declarations).toBe("whole")
    expect(m.parts.map((p) => p.file)).toEqual(names)
    for (const record of m.parts) {
      const text = fs.readFileSync(path.join(out, record.file), "utf8")
      expect(text.endsWith("\n")).toBe(true)
      const body = text.slice(0, -1)
      expect(body).not.toContain("\n")
      const value = JSON.parse(body) as { used?: number }
      expect(JSON.stringify(value)).toBe(body)
      // The ticket is sha256 of the file's exact bytes (the compact text and its final newline).
      expect(record.hash).toBe(`sha256:${sha256(text)}`)
      if (typeof value.used === "number") expect(record.used).toBe(value.used)
    }

    const b = m.builtFrom
    expect(b.root).toBe(root)
    expect(b.exclude).toEqual([])
    expect(b.config).toBeNull()
    expect(b.commit).toBeNull()
    expect(b.dirty).toBeNull()
    const paths = b.files.map((f) => f.path)
    expect(paths).toEqual([...paths].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)))
    expect(paths).toContain("specs/rides.pack.sdp.md")
    for (const f of b.files) expect(f.hash).toBe(sha256(fs.readFileSync(path.join(root, f.path))))
    expect(b.graphDigest).toBe(sha256(JSON.stringify(b.files)))
    // No temporary files are left beside the outputs.
    expect(fs.readdirSync(out).filter((n) => n.endsWith(".tmp"))).toEqual([])
  })

  it("two runs on the same corpus write byte-identical parts and manifest", async () => {
    const root = corpus()
    const a = path.join(tempDir(), "a")
    const b = path.join(tempDir(), "b")
    expect((await bundleParts(root, a)).code).toBe(0)
    expect((await bundleParts(root, b)).code).toBe(0)
    expect(snapshot(a)).toEqual(snapshot(b))
  })

  it("without --parts writes one part-001.json holding the value", async () => {
    const root = corpus()
    const out = path.join(tempDir(), "single")
    expect((await run(root, ["bundle", "--pack", PACK, "--out", out])).code).toBe(0)
    expect(partFiles(out)).toEqual(["part-001.json"])
    const stdoutValue = (await run(root, ["bundle", "--pack", PACK])).stdout
    expect(fs.readFileSync(path.join(out, "part-001.json"), "utf8")).toBe(stdoutValue)
  })

  it("a rerun with fewer parts removes the extra part files", async () => {
    const root = corpus()
    const out = path.join(tempDir(), "shrink")
    expect((await bundleParts(root, out, "4000")).code).toBe(0)
    expect(partFiles(out).length).toBeGreaterThan(1)
    expect((await bundleParts(root, out, "100000")).code).toBe(0)
    expect(partFiles(out)).toEqual(["part-001.json"])
    expect(manifestOf(out).parts.map((p) => p.file)).toEqual(["part-001.json"])
  })

  it("records the commit and dirtiness inside a git repository", async () => {
    const root = corpus()
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "corpus")
    const head = git(root, "rev-parse", "HEAD").trim()
    const out = path.join(tempDir(), "git-out")
    expect((await bundleParts(root, out)).code).toBe(0)
    expect(manifestOf(out).builtFrom).toMatchObject({ commit: head, dirty: false })
    fs.appendFileSync(path.join(root, "specs", "rides", "rider-model.sdp.md"), "\n")
    expect((await bundleParts(root, out)).code).toBe(0)
    expect(manifestOf(out).builtFrom).toMatchObject({ commit: head, dirty: true })
  })

  it("an --out through a file is a bad parameter (exit 2) naming the file, with one line", async () => {
    const root = corpus()
    const parent = path.join(tempDir(), "a-file")
    fs.writeFileSync(parent, "not a folder")
    const out = path.join(parent, "out")
    const r = await bundleParts(root, out)
    expect(r.code).toBe(2)
    expect(JSON.parse(r.stdout)).toEqual({ diagnostics: [{ scope: "out", problem: `--out ${out}: ${parent} is a file, not a folder.` }] })
    expect(r.lines).toEqual([`specbundle: out: --out ${out}: ${parent} is a file, not a folder.`])
    expect(fs.readFileSync(parent, "utf8")).toBe("not a folder")
  })

  it("a run that fails to write leaves the previous files intact and no temp files", async () => {
    const root = corpus()
    const out = path.join(tempDir(), "blocked")
    expect((await bundleParts(root, out)).code).toBe(0)
    // part-001.json becomes a folder: the rename onto it fails.
    fs.rmSync(path.join(out, "part-001.json"))
    fs.mkdirSync(path.join(out, "part-001.json"))
    const before = snapshot(out)
    fs.appendFileSync(path.join(root, "specs", "rides", "rider-model.sdp.md"), "\n")
    const r = await bundleParts(root, out)
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("part-001.json")
    expect(snapshot(out)).toEqual(before)
    expect(fs.readdirSync(out).filter((n) => n.endsWith(".tmp"))).toEqual([])
  })
})

describe("stale DIR", () => {
  const setup = async () => {
    const root = corpus()
    const out = path.join(tempDir(), "stale-out")
    expect((await bundleParts(root, out)).code).toBe(0)
    return { root, out, elsewhere: tempDir() }
  }

  it("is exit 0 with no output from another folder when nothing changed", async () => {
    const { out, elsewhere } = await setup()
    const r = await run(elsewhere, ["stale", out])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe("")
  })

  it("accepts DIR relative to the current folder", async () => {
    const { out } = await setup()
    const r = await run(path.dirname(out), ["stale", path.basename(out)])
    expect(r.code).toBe(0)
  })

  it("an edited carrier is exit 1 and names `changed <path>`", async () => {
    const { root, out, elsewhere } = await setup()
    fs.appendFileSync(path.join(root, "specs", "rides", "rider-model.sdp.md"), "\n")
    const r = await run(elsewhere, ["stale", out])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe("changed specs/rides/rider-model.sdp.md\n")
  })

  it("an added and a removed carrier are named `added` and `removed`", async () => {
    const { root, out, elsewhere } = await setup()
    fs.copyFileSync(path.join(root, "specs", "rides", "rider-model.sdp.md"), path.join(root, "specs", "rides", "zz-copy.sdp.md"))
    fs.rmSync(path.join(root, "specs", "rides", "ride-fare-rule.sdp.md"))
    const r = await run(elsewhere, ["stale", out])
    expect(r.code).toBe(1)
    expect(r.stdout.split("\n").filter((l) => l !== "")).toEqual(["added specs/rides/zz-copy.sdp.md", "removed specs/rides/ride-fare-rule.sdp.md"])
  })

  type Built = { exclude: unknown[]; files: Array<Record<string, unknown>> }
  // Written as text: JSON.stringify itself overflows on thousands of levels.
  const DEEP = "[".repeat(5_000) + "]".repeat(5_000)
  const edits: Array<[string, (built: Built) => void]> = [
    ["an exclude that is not text", (built) => void (built.exclude = [5])],
    ["thousands of nested arrays in exclude", (built) => void (built.exclude = ["(deep)"])],
    ["a file entry without a hash", (built) => void delete built.files[0].hash]
  ]
  it.each(edits)("a hand-edited manifest with %s is exit 2 (could not tell) with one line, not a stack trace", async (_, edit) => {
    const { out, elsewhere } = await setup()
    const file = path.join(out, "manifest.json")
    const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { builtFrom: Built }
    expect(manifest.builtFrom.files.length).toBeGreaterThan(0)
    edit(manifest.builtFrom)
    fs.writeFileSync(file, JSON.stringify(manifest).replace('"(deep)"', DEEP))
    const r = await run(elsewhere, ["stale", out])
    expect(r.code).toBe(2)
    expect(r.lines).toEqual([expect.stringContaining("manifest.json: not a specbundle manifest")])
  })

  // A changeset bundle is also stale when its changeset names other commits, or the tree's
  // dirtiness flipped (bundle-contract.md section 3); a Pack bundle only when its files changed.
  describe("a changeset bundle", () => {
    const FARE = path.join("specs", "rides", "ride-fare-rule.sdp.md")
    const repo = () => {
      const root = corpus()
      git(root, "init", "-q", "-b", "main")
      git(root, "add", "-A")
      git(root, "commit", "-q", "-m", "corpus")
      return root
    }
    const staleLines = async (out: string) => {
      const r = await run(tempDir(), ["stale", out])
      return { code: r.code, lines: r.stdout.split("\n").filter((l) => l !== ""), stderr: r.stderr }
    }

    it("is stale after a commit moves what --changeset HEAD names, with one line giving both commits; a Pack bundle stays current", async () => {
      const root = repo()
      const before = git(root, "rev-parse", "HEAD").trim()
      fs.appendFileSync(path.join(root, FARE), "\n")
      const out = path.join(tempDir(), "changeset-out")
      const pack = path.join(tempDir(), "pack-out")
      expect((await run(root, ["bundle", "--changeset", "HEAD", "--out", out])).code).toBe(0)
      expect((await bundleParts(root, pack)).code).toBe(0)
      expect(manifestOf(out).builtFrom).toMatchObject({ commit: before, dirty: true, base: before })
      expect(manifestOf(pack).builtFrom).not.toHaveProperty("base")
      expect(await staleLines(out)).toMatchObject({ code: 0, lines: [] })

      git(root, "commit", "-q", "-am", "fare rule")
      const after = git(root, "rev-parse", "HEAD").trim()
      expect(await staleLines(out)).toEqual({
        code: 1,
        lines: [`changeset HEAD now resolves to ${after.slice(0, 12)}; the bundle was built from ${before.slice(0, 12)}`],
        stderr: ""
      })
      expect(await staleLines(pack)).toMatchObject({ code: 0, lines: [] })
    })

    it("is stale when the tree turned clean or dirty, when B of A..B moved, and when a revision is gone", async () => {
      const root = repo()
      // Dirty by a file that is no corpus file: only the dirtiness tells.
      fs.writeFileSync(path.join(root, "notes.txt"), "draft\n")
      const out = path.join(tempDir(), "dirty-out")
      expect((await run(root, ["bundle", "--changeset", "HEAD", "--out", out])).code).toBe(0)
      fs.rmSync(path.join(root, "notes.txt"))
      expect(await staleLines(out)).toMatchObject({
        code: 1,
        lines: ["the work tree is now clean; the bundle of changeset HEAD was built from one with changes"]
      })
      expect((await run(root, ["bundle", "--changeset", "HEAD", "--out", out])).code).toBe(0)
      fs.writeFileSync(path.join(root, "notes.txt"), "draft\n")
      expect((await staleLines(out)).lines).toEqual(["the work tree now has changes; the bundle of changeset HEAD was built from a clean one"])
      fs.rmSync(path.join(root, "notes.txt"))

      // A range read from git objects: its end moves, then is deleted.
      git(root, "branch", "side")
      const first = git(root, "rev-parse", "HEAD").trim()
      const range = path.join(tempDir(), "range-out")
      // (No corpus file differs from main's: stale compares the files with the work tree's.)
      git(root, "switch", "-q", "side")
      fs.writeFileSync(path.join(root, "notes.txt"), "side\n")
      git(root, "add", "notes.txt")
      git(root, "commit", "-q", "-m", "side one")
      const one = git(root, "rev-parse", "HEAD").trim()
      git(root, "switch", "-q", "main")
      expect((await run(root, ["bundle", "--changeset", "main..side", "--out", range])).code).toBe(0)
      expect(manifestOf(range).builtFrom).toMatchObject({ commit: one, base: first })
      expect(await staleLines(range)).toMatchObject({ code: 0, lines: [] })
      git(root, "branch", "-f", "side", first)
      expect((await staleLines(range)).lines).toEqual([`changeset main..side now ends at ${first.slice(0, 12)}; the bundle was built from ${one.slice(0, 12)}`])
      git(root, "branch", "-D", "side")
      const gone = await staleLines(range)
      expect(gone.code).toBe(1)
      expect(gone.lines).toHaveLength(1)
      expect(gone.lines[0]).toMatch(/^changeset main\.\.side no longer resolves: unknown revision "side"/)
    })
  })

  it("a folder without a manifest is exit 2 (could not tell) with one line", async () => {
    const r = await run(tempDir(), ["stale", "nowhere"])
    expect(r.code).toBe(2)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("manifest.json")
  })
})
