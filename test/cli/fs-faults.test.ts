// File-system faults: files that vanish or may not be read while the corpus is read (through the
// GraphReader with a faulty FileSystem), `--out` into places that cannot be written (run in
// process), and a run of the built CLI killed mid-write. Nothing is lost: siblings read, the previous bundle files stay whole.
import { spawn, spawnSync } from "node:child_process"
import * as Effect from "effect/Effect"
import { systemError } from "effect/PlatformError"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { CLI, cleanEnv, nonEmptyLines, stackLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import { bikeDockCopy, readerWithReadFile, readTree, readTreeWith, tempDir, where } from "../support/tmp.js"

/** The bike-dock example (Specs and anchored code), in a fresh folder. */
const corpus = (): string => bikeDockCopy("specbundle-fsfault-")
const PACK = "pack:rides-v1"

const VICTIMS = {
  vanishing: "specs/rides/ride-fare-rule.sdp.md",
  locked: "specs/decisions/per-minute-fares.sdp.md",
  lockedCode: "src/rides/fare.ts"
}

describe("faults while reading the corpus (GraphReader over a faulty FileSystem)", () => {
  it("a vanished carrier and unreadable files are findings naming them; every sibling still reads", async () => {
    const root = corpus()
    const healthy = await readTree(root)
    expect(healthy.graph.findings.filter((f) => f.severity === "error")).toEqual([])
    const layer = readerWithReadFile((real, file) =>
      Effect.suspend(() => {
        const rel = path.relative(root, file).split(path.sep).join("/")
        // Deleted after listing, then read for real: the real NotFound.
        if (rel === VICTIMS.vanishing) fs.rmSync(file)
        if (rel === VICTIMS.locked || rel === VICTIMS.lockedCode) {
          return Effect.fail(systemError({ _tag: "PermissionDenied", module: "FileSystem", method: "readFile", pathOrDescriptor: file }))
        }
        return real.readFile(file)
      })
    )
    const { graph, files } = await readTreeWith(layer, root)
    expect(where(graph.findings.filter((f) => f.code === "read/unreadable")).sort()).toEqual(
      [
        [VICTIMS.locked, 0, "read/unreadable"],
        [VICTIMS.vanishing, 0, "read/unreadable"],
        [VICTIMS.lockedCode, 0, "read/unreadable"]
      ].sort()
    )
    const byFile = new Map(graph.findings.map((f) => [f.file, f.message]))
    expect(byFile.get(VICTIMS.vanishing)).toContain("NotFound")
    expect(byFile.get(VICTIMS.locked)).toContain("PermissionDenied")
    // Exactly the victims' nodes are missing; everything else is as in the healthy read.
    const lost = [...healthy.graph.nodesByFile].filter(([file]) => Object.values(VICTIMS).includes(file)).flatMap(([, ids]) => ids)
    expect(lost.length).toBeGreaterThanOrEqual(3)
    const expected = [...healthy.graph.specs.keys(), ...healthy.graph.packs.keys(), ...healthy.graph.anchors.keys()].filter((id) => !lost.includes(id))
    expect([...graph.specs.keys(), ...graph.packs.keys(), ...graph.anchors.keys()]).toEqual(expected)
    expect(files().map((f) => f.path)).not.toContain(VICTIMS.vanishing)
    expect(files()).toHaveLength(healthy.files().length - 3)
  })
})

// ---------------------------------------------------------------------------------------------
// --out into places that cannot be written

const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((n) => fs.statSync(path.join(dir, n)).isFile())
      .map((n) => [n, fs.readFileSync(path.join(dir, n), "utf8")])
  )

describe("--out into an unwritable place", () => {
  let root = ""
  beforeAll(() => {
    root = corpus()
  })

  // A path through a file is a wrong --out (exit 2, checked before the corpus is read: issue 27).
  it("a folder whose parent is a regular file: exit 2, one stderr line naming the path, no stack", async () => {
    fs.writeFileSync(path.join(root, "plain-file"), "not a folder\n")
    const out = path.join(root, "plain-file", "bundle")
    const r = await runCli(["bundle", "--root", root, "--pack", PACK, "--out", out], root)
    expect(r.status).toBe(2)
    expect(stackLines(r.stderr)).toEqual([])
    const lines = nonEmptyLines(r.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(out)
    expect(fs.readFileSync(path.join(root, "plain-file"), "utf8")).toBe("not a folder\n")
  })

  it("part-001.json taken by a folder: exit 1, one line, the previous bundle files intact and still parsing", async () => {
    const out = path.join(root, "out-dir")
    const first = await runCli(["bundle", "--root", root, "--pack", PACK, "--parts", "--budget", "6000", "--out", out], root)
    expect(first.status).toBe(0)
    const before = snapshot(out)
    expect(Object.keys(before).filter((n) => n.startsWith("part-")).length).toBeGreaterThan(2)
    // Put a non-empty folder where the first part must land.
    fs.renameSync(path.join(out, "part-001.json"), path.join(root, "part-001.saved"))
    fs.mkdirSync(path.join(out, "part-001.json"))
    fs.writeFileSync(path.join(out, "part-001.json", "keep"), "x")
    delete before["part-001.json"]
    const r = await runCli(["bundle", "--root", root, "--pack", PACK, "--parts", "--budget", "7000", "--out", out], root)
    expect(r.status).toBe(1)
    expect(stackLines(r.stderr)).toEqual([])
    const lines = nonEmptyLines(r.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("part-001.json")
    // Nothing of the previous set changed (the manifest still describes it), and each file parses.
    const after = snapshot(out)
    expect(after).toEqual(before)
    for (const [name, text] of Object.entries(after)) expect(() => JSON.parse(text), name).not.toThrow()
    expect(fs.readdirSync(out).filter((n) => n.endsWith(".tmp"))).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// A run killed mid-write

describe("a bundle --parts --out run killed with SIGKILL mid-way", () => {
  it("leaves every part-*.json and the manifest parsing as JSON", async () => {
    const root = path.join(tempDir("specbundle-killed-"), "corpus")
    const gen = runGen(root)
    expect(gen).toBe(0)
    const out = path.join(root, "out")
    const args = (budget: string) => ["bundle", "--root", root, "--pack", "pack:pack-000", "--parts", "--budget", budget, "--out", out]
    const first = await runCli(args("20000"), root)
    expect(first.status, first.stderr).toBe(0)
    const firstParts = fs.readdirSync(out).filter((n) => /^part-\d+\.json$/.test(n))
    expect(firstParts.length).toBeGreaterThan(10)

    // A different budget, so the new parts differ from the old; killed once it starts writing.
    const killedAt = await new Promise<number>((resolve) => {
      const start = Date.now()
      const child = spawn(process.execPath, [CLI, ...args("9000")], { cwd: root, env: cleanEnv(), stdio: "ignore" })
      const poll = setInterval(() => {
        const touched = fs.readdirSync(out).some((n) => n.endsWith(".tmp") || (n.startsWith("part-") && fs.statSync(path.join(out, n)).mtimeMs > start))
        if (touched) {
          child.kill("SIGKILL")
          clearInterval(poll)
        }
      }, 2)
      child.on("exit", (_code, signal) => {
        clearInterval(poll)
        resolve(signal === "SIGKILL" ? 1 : 0)
      })
    })
    // The kill landed while the run was writing (it had not finished by itself).
    expect(killedAt).toBe(1)
    const names = fs.readdirSync(out)
    const parts = names.filter((n) => /^part-\d+\.json$/.test(n))
    expect(parts.length).toBeGreaterThanOrEqual(firstParts.length)
    for (const name of [...parts, "manifest.json"]) {
      expect(() => JSON.parse(fs.readFileSync(path.join(out, name), "utf8")), name).not.toThrow()
    }
    // The manifest was not rewritten: it still describes the complete first set.
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as { budget: number; parts: unknown[] }
    expect(manifest.budget).toBe(20000)
    expect(manifest.parts).toHaveLength(firstParts.length)
  })
})

/** 2,000 generated Specs in 8 Packs of 250 (a Pack manifest must stay under 32 KiB of frontmatter). */
const runGen = (dir: string): number | null =>
  spawnSync(process.execPath, ["scripts/gen-corpus.mjs", dir, "--specs", "2000", "--packs", "8", "--ts-files", "0"], { encoding: "utf8" }).status
