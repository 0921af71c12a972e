// What specbundle writes into a work tree is not a change of the project: `bundle -o FILE` (every
// format), `bundle --out DIR` and their part files and manifest, untracked, are left out of the next
// `--changeset` (src/core/own-output.ts, GitDiff), as `.specbundle/out` always was; a JSON file of
// the user's stays a changed file. And a relative `-o` is the run's folder's, checked and written
// there, in process and as a subprocess. Real git, the example history.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cli } from "../support/cli.js"
import { exampleHistory } from "../support/git.js"
import { run } from "../support/run.js"

const PACK = "pack:rides-v1"

const changedFiles = async (dir: string, changeset = "HEAD") => {
  const r = await run(dir, ["impact", "--changeset", changeset])
  expect(r.status, r.stderr).toBe(0)
  const report = JSON.parse(r.stdout) as { changedFiles: Array<{ path: string }>; coverageUnknown: string[] }
  return { changed: report.changedFiles.map((f) => f.path), uncovered: report.coverageUnknown }
}

describe("what specbundle wrote into the work tree", () => {
  it("is no changed file of the next --changeset: -o in every format, --out DIR, a budgetExceeded value", async () => {
    const repo = exampleHistory()
    fs.mkdirSync(path.join(repo.dir, "ctx"))
    for (const args of [
      ["-o", "ctx.json"],
      ["-o", "ctx/pretty.json", "--format", "pretty"],
      ["-o", "ctx/parts.json", "--parts", "--budget", "4000"],
      ["-o", "ctx/ndjson.json", "--parts", "--budget", "4000", "--format", "ndjson"],
      ["-o", "ctx/over.json", "--budget", "300"],
      ["--out", "bundle-out", "--parts", "--budget", "4000"],
      ["--changeset", "HEAD~1", "--out", "changeset-out"]
    ]) {
      const r = await run(repo.dir, ["bundle", ...(args.includes("--changeset") ? [] : ["--pack", PACK]), ...args])
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(0)
    }
    expect(fs.readdirSync(path.join(repo.dir, "bundle-out")).length).toBeGreaterThan(2)
    expect(await changedFiles(repo.dir)).toEqual({ changed: [], uncovered: [] })
    expect((await changedFiles(repo.dir, "HEAD~1")).changed).toEqual(["specs/rides/ride-fare-rule.sdp.md", "src/rides/fare.ts"])
  })

  it("only what holds specbundle's value: the user's JSON files (untracked, or tracked and changed) stay changed files", async () => {
    const repo = exampleHistory()
    const value = (await run(repo.dir, ["bundle", "--pack", PACK])).stdout
    // Committed, it is the project's file: a change to it is listed.
    fs.writeFileSync(path.join(repo.dir, "golden.json"), value)
    repo.commit("a golden bundle")
    fs.appendFileSync(path.join(repo.dir, "golden.json"), "\n")
    // A value whose keys come in another order, a scope alone, not JSON, another name: the user's.
    const parsed = JSON.parse(value) as Record<string, unknown>
    const { scope, budget, ...rest } = parsed
    fs.writeFileSync(path.join(repo.dir, "reordered.json"), JSON.stringify({ budget, scope, ...rest }))
    fs.writeFileSync(path.join(repo.dir, "scope.json"), '{"scope": {"pack": "x"}}\n')
    fs.writeFileSync(path.join(repo.dir, "broken.json"), `${value.slice(0, 200)}\n`)
    fs.writeFileSync(path.join(repo.dir, "ctx.txt"), value)
    const { changed, uncovered } = await changedFiles(repo.dir)
    expect(changed).toEqual(["broken.json", "ctx.txt", "golden.json", "reordered.json", "scope.json"])
    expect(uncovered).toEqual(changed)
  })
})

describe("a relative -o FILE is the run's folder's", () => {
  it("in process: checked and written against the run's folder, not the process's", async () => {
    const repo = exampleHistory()
    fs.mkdirSync(path.join(repo.dir, "out-here"))
    // A folder the run's folder has and the process's lacks.
    expect(fs.existsSync(path.resolve("out-here"))).toBe(false)
    const r = await run(repo.dir, ["bundle", "--pack", PACK, "-o", "out-here/ctx.json"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toContain("wrote 1 JSON value to out-here/ctx.json")
    expect(JSON.parse(fs.readFileSync(path.join(repo.dir, "out-here", "ctx.json"), "utf8")).scope).toEqual({ pack: PACK })
    // A folder the process's has and the run's lacks: refused before anything is composed, naming the run's.
    expect(fs.existsSync(path.resolve("src"))).toBe(true)
    fs.rmSync(path.join(repo.dir, "src"), { recursive: true })
    const missing = await run(repo.dir, ["bundle", "--pack", PACK, "-o", "src/ctx.json"])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toBe(`specbundle: --output src/ctx.json: the folder ${path.join(repo.dir, "src")} does not exist.\n`)
    // A folder of the run's named as FILE is the folder refusal (exit 2), not a write into the process's.
    expect((await run(repo.dir, ["bundle", "--pack", PACK, "-o", "out-here"])).status).toBe(2)
  })

  it("as a subprocess: the same", () => {
    const repo = exampleHistory()
    fs.mkdirSync(path.join(repo.dir, "out-here"))
    const r = cli(repo.dir, ["bundle", "--pack", PACK, "-o", "out-here/ctx.json"])
    expect(r.status, r.stderr).toBe(0)
    expect(fs.readFileSync(path.join(repo.dir, "out-here", "ctx.json"), "utf8")).toBe(cli(repo.dir, ["bundle", "--pack", PACK]).stdout)
    const missing = cli(repo.dir, ["bundle", "--pack", PACK, "-o", "nowhere/ctx.json"])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toBe(`specbundle: --output nowhere/ctx.json: the folder ${path.join(repo.dir, "nowhere")} does not exist.\n`)
  })
})
