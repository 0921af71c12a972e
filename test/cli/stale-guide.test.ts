// The CLI run in process on copies of the example corpus (examples/bike-dock): stale's
// exit codes (0 current, 1 stale, 2 could not tell) and --root, the ticket over the part file's
// bytes, `--part K --out DIR`, and a configuration error in words (bundle-contract.md section 3).
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { nonEmptyLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import { tempDir } from "../support/tmp.js"

const EXAMPLE = path.resolve("examples/bike-dock")

/** A fresh copy of the example corpus (no git). */
const corpus = (): string => {
  const dir = path.join(tempDir("specbundle-stale-guide-"), "bike-dock")
  fs.cpSync(EXAMPLE, dir, { recursive: true })
  return dir
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex")

describe("--out and stale", () => {
  it("the ticket is sha256 of the part file's exact bytes", async () => {
    const root = corpus()
    const out = path.join(tempDir("specbundle-guide-out-"), "out")
    expect((await runCli(["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "M", "--out", out], root)).status).toBe(0)
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as { parts: Array<{ file: string; hash: string }> }
    expect(manifest.parts.length).toBeGreaterThan(0)
    for (const p of manifest.parts) expect(p.hash).toBe(`sha256:${sha256(fs.readFileSync(path.join(out, p.file)))}`)
  })

  it("--part 2 --out DIR writes part-002.json, and the manifest lists only it", async () => {
    const root = corpus()
    const out = path.join(tempDir("specbundle-guide-out-"), "out")
    expect((await runCli(["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "8000", "--out", out], root)).status).toBe(0)
    expect(fs.readdirSync(out).filter((n) => n.startsWith("part-")).length).toBeGreaterThan(2)
    const r = await runCli(["bundle", "--pack", "pack:rides-v1", "--part", "2", "--budget", "8000", "--out", out], root)
    expect(r.status).toBe(0)
    expect(fs.readdirSync(out).filter((n) => n.startsWith("part-"))).toEqual(["part-002.json"])
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as { parts: Array<{ file: string }> }
    expect(manifest.parts.map((p) => p.file)).toEqual(["part-002.json"])
    const value = JSON.parse(fs.readFileSync(path.join(out, "part-002.json"), "utf8")) as { part: { index: number } }
    expect(value.part.index).toBe(2)
  })

  it("stale: 0 current, 1 stale, 2 could not tell (no manifest, root gone), --root checks a corpus elsewhere", async () => {
    const root = corpus()
    const out = path.join(tempDir("specbundle-guide-out-"), "out")
    const elsewhere = tempDir("specbundle-guide-cwd-")
    expect((await runCli(["bundle", "--pack", "pack:rides-v1", "--out", out], root)).status).toBe(0)
    expect((await runCli(["stale", out], elsewhere)).status).toBe(0)

    // A copy of the corpus on "another machine": the recorded root is gone.
    const copy = path.join(tempDir("specbundle-guide-copy-"), "bike-dock")
    fs.cpSync(root, copy, { recursive: true })
    fs.rmSync(root, { recursive: true })
    const gone = await runCli(["stale", out], elsewhere)
    expect(gone.status).toBe(2)
    expect(gone.stdout).toBe("")
    expect(nonEmptyLines(gone.stderr)).toHaveLength(1)
    expect(gone.stderr).toContain("--root")
    expect((await runCli(["stale", out, "--root", copy], elsewhere)).status).toBe(0)

    fs.appendFileSync(path.join(copy, "specs", "rides", "ride-fare-rule.sdp.md"), "\n")
    const stale = await runCli(["stale", out, "--root", copy], elsewhere)
    expect(stale.status).toBe(1)
    expect(stale.stdout).toBe("changed specs/rides/ride-fare-rule.sdp.md\n")

    const none = await runCli(["stale", path.join(elsewhere, "nothing-here")], elsewhere)
    expect(none.status).toBe(2)
    expect(nonEmptyLines(none.stderr)).toHaveLength(1)
    fs.writeFileSync(path.join(out, "manifest.json"), "{ not json")
    expect((await runCli(["stale", out, "--root", copy], elsewhere)).status).toBe(2)
  })
})

describe("a configuration error in words", () => {
  it("exclude given as a string: expected a list of paths, got a string", async () => {
    const root = corpus()
    fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify({ exclude: "test" }))
    const r = await runCli(["check"], root)
    expect(r.status).toBe(1)
    const lines = nonEmptyLines(r.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('exclude: expected a list of paths, got a string ("test")')
    expect(lines[0]).not.toContain("Root-relative paths")
  })

  it("a tier that is not a number, and a budget of the wrong kind", async () => {
    const root = corpus()
    fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify({ tiers: { XL: "big" } }))
    expect((await runCli(["check"], root)).stderr).toContain('tiers.XL: expected a positive integer, got a string ("big")')
    fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify({ budget: true }))
    expect((await runCli(["check"], root)).stderr).toContain("budget: expected a positive integer or a tier name, got true")
  })
})
