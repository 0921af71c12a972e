// End to end: `bundle -o FILE` / `--output FILE`, what stdout would carry written into one file,
// through the built CLI on a real copy of the example corpus: the same bytes in every format, an
// atomic replacement, and the refusals (beside --out DIR, a folder, a folder that does not exist).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cli } from "../support/cli.js"
import { bikeDockCopy, tempDir } from "../support/tmp.js"

const PACK = "pack:rides-v1"

const bundle = (root: string, args: ReadonlyArray<string>) => cli(root, ["bundle", "--pack", PACK, ...args])

describe("bundle -o FILE", () => {
  it("writes exactly the bytes stdout carries (json, pretty, ndjson; one value or every part), stdout empty, one stderr line", () => {
    const root = bikeDockCopy("specbundle-output-")
    for (const flags of [
      [],
      ["--format", "pretty"],
      ["--parts", "--budget", "4000"],
      ["--parts", "--budget", "4000", "--format", "ndjson"],
      ["--part", "2", "--budget", "4000"]
    ]) {
      const printed = bundle(root, flags)
      expect(printed.status, printed.stderr).toBe(0)
      const file = path.join(tempDir("specbundle-output-file-"), "bundle.json")
      const written = bundle(root, [...flags, "-o", file])
      expect(written.status, written.stderr).toBe(0)
      expect(written.stdout).toBe("")
      expect(fs.readFileSync(file, "utf8")).toBe(printed.stdout)
      const values = printed.stdout.split("\n").filter((l) => l.startsWith("{")).length
      const expected = flags.includes("pretty") ? 1 : values
      expect(written.stderr.split("\n").filter((l) => l.startsWith("wrote "))).toEqual([`wrote ${expected} JSON value${expected === 1 ? "" : "s"} to ${file}`])
    }
    // The split really was several parts, one per line.
    expect(bundle(root, ["--parts", "--budget", "4000"]).stdout.trimEnd().split("\n").length).toBeGreaterThan(1)
  })

  it("--output replaces a FILE that exists whole, leaves no temporary file beside it, and --quiet drops the stderr line", () => {
    const root = bikeDockCopy("specbundle-output-")
    const dir = tempDir("specbundle-output-file-")
    const file = path.join(dir, "bundle.json")
    fs.writeFileSync(file, "an older bundle, longer than nothing\n".repeat(1000))
    const r = bundle(root, ["--output", file, "--quiet"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toBe("")
    expect(fs.readFileSync(file, "utf8")).toBe(bundle(root, []).stdout)
    expect(fs.readdirSync(dir)).toEqual(["bundle.json"])
  })

  it("a budgetExceeded value is written to FILE and --fail-on-exceeded still exits 3 after it", () => {
    const root = bikeDockCopy("specbundle-output-")
    const file = path.join(tempDir("specbundle-output-file-"), "bundle.json")
    const r = bundle(root, ["--budget", "300", "--fail-on-exceeded", "-o", file])
    expect(r.status).toBe(3)
    expect(r.stdout).toBe("")
    expect(JSON.parse(fs.readFileSync(file, "utf8")).budgetExceeded).toBe(true)
  })

  it("beside --out DIR: the { diagnostics } value and one stderr line, exit 2, nothing written", () => {
    const root = bikeDockCopy("specbundle-output-")
    const dir = tempDir("specbundle-output-file-")
    const r = bundle(root, ["-o", path.join(dir, "bundle.json"), "--out", path.join(dir, "parts")])
    expect(r.status).toBe(2)
    const problem = "Give --out DIR (part files and a manifest) or --output FILE (what stdout would carry), not both."
    expect(JSON.parse(r.stdout)).toEqual({ diagnostics: [{ scope: "output", problem }] })
    expect(r.stderr).toBe(`specbundle: output: ${problem}\n`)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("naming a folder is exit 2; in a folder that does not exist, or under a file, one line naming it, exit 1, nothing created", () => {
    const root = bikeDockCopy("specbundle-output-")
    const dir = tempDir("specbundle-output-file-")
    const folder = bundle(root, ["-o", dir])
    expect(folder.status).toBe(2)
    expect(JSON.parse(folder.stdout).diagnostics).toEqual([
      { scope: "output", problem: `--output ${dir} is a folder; name a file, or give --out DIR for part files.` }
    ])
    const missing = path.join(dir, "no-such-folder", "bundle.json")
    const r = bundle(root, ["-o", missing])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toBe(`specbundle: --output ${missing}: the folder ${path.dirname(missing)} does not exist.\n`)
    fs.writeFileSync(path.join(dir, "a-file"), "")
    const under = path.join(dir, "a-file", "bundle.json")
    const u = bundle(root, ["-o", under])
    expect(u.status).toBe(1)
    expect(u.stderr).toBe(`specbundle: --output ${under}: ${path.join(dir, "a-file")} is not a folder.\n`)
    expect(fs.readdirSync(dir)).toEqual(["a-file"])
  })

  it("is bundle's alone: watch, which writes into --out DIR, does not take it", () => {
    const root = bikeDockCopy("specbundle-output-")
    const r = cli(root, ["watch", "--pack", PACK, "--out", "parts", "--output", "bundle.json"])
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^specbundle: arguments: unknown option '--output' for specbundle watch\./)
    expect(fs.existsSync(path.join(root, "parts"))).toBe(false)
  })
})
