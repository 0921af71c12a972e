// `specbundle example DIR` run in process (issue 37; a copied bin/ alone, as a process): a user who installed the package has the
// example corpus to try the --help examples on. It writes the two-commit history that
// examples/make-history.mjs makes (the package ships both), prints the folder, and says what to try.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { BIN, gitCleanEnv, REPO } from "../support/cli.js"
import { run } from "../support/run.js"
import { tempDir, writeFiles } from "../support/tmp.js"

const lines = (text: string) => text.split("\n").filter((l) => l !== "")

/** Every file under `dir`, relative, sorted. */
const filesUnder = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .filter((f) => !f.startsWith(`.git${path.sep}`))
    .sort()

describe("specbundle example DIR", () => {
  it("writes the example corpus as a repository with two commits, prints the folder, and says what to try", async () => {
    const cwd = tempDir("specbundle-example-")
    const r = await run(cwd, ["example", "bike"])
    const dir = path.join(cwd, "bike")
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe(`${dir}\n`)
    expect(lines(r.stderr)).toEqual([
      `specbundle: wrote the bike-dock example to ${dir}: a git repository with two commits (the second changes a fare rule and its code)`,
      `specbundle: try it there: cd ${dir} && specbundle impact --changeset HEAD~1 --format text (every --help example runs there)`
    ])
    expect(filesUnder(dir)).toEqual(filesUnder(path.join(REPO, "examples", "bike-dock")))
    const log = spawnSync("git", ["log", "--format=%s"], { cwd: dir, encoding: "utf8", env: gitCleanEnv() })
    expect(lines(log.stdout)).toEqual(["Fares: a short swap back at the same dock is free", "Bike-dock corpus: rides and docks, first cut"])
    // The example the README and --help name runs there.
    const impact = await run(dir, ["impact", "--changeset", "HEAD~1"])
    expect(impact.status, impact.stderr).toBe(0)
    const report = JSON.parse(impact.stdout) as { changedFiles: Array<{ path: string }>; impactedSpecs: Array<{ id: string }> }
    expect(report.changedFiles.map((f) => f.path)).toEqual(["specs/rides/ride-fare-rule.sdp.md", "src/rides/fare.ts"])
    expect(report.impactedSpecs.map((s) => s.id)).toContain("spec:rides.ride-fare-rule")
  })

  it("--quiet prints the folder alone; an empty folder that exists is fine", async () => {
    const dir = tempDir("specbundle-example-empty-")
    const r = await run(tempDir("specbundle-example-cwd-"), ["example", dir, "--quiet"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe(`${dir}\n`)
    expect(r.stderr).toBe("")
  })

  it("a folder that is not empty, or a file, is a wrong parameter: exit 2, nothing written", async () => {
    const cwd = tempDir("specbundle-example-")
    writeFiles(cwd, { "taken/notes.txt": "mine\n", "a-file": "x\n" })
    for (const [name, problem] of [
      ["taken", `${path.join(cwd, "taken")} is not empty; give a new or empty folder.`],
      ["a-file", `${path.join(cwd, "a-file")} is a file; give a new or empty folder.`]
    ] as const) {
      const r = await run(cwd, ["example", name])
      expect(r.status).toBe(2)
      expect(JSON.parse(r.stdout)).toEqual({ diagnostics: [{ scope: "dir", problem }] })
      expect(lines(r.stderr)).toEqual([`specbundle: dir: ${problem}`])
    }
    expect(fs.readdirSync(path.join(cwd, "taken"))).toEqual(["notes.txt"])
  })

  it("an install without the example (bin/ alone) says so in one line, exit 1", () => {
    const pkg = tempDir("specbundle-example-bin-")
    fs.cpSync(path.dirname(BIN), path.join(pkg, "bin"), { recursive: true })
    const r = spawnSync(process.execPath, [path.join(pkg, "bin", "specbundle.js"), "example", "out"], { cwd: pkg, encoding: "utf8", env: gitCleanEnv() })
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(lines(r.stderr)).toEqual([
      `specbundle: example: ${path.join(pkg, "examples", "make-history.mjs")} is missing: this install of specbundle does not hold its example`
    ])
  })
})
