// Git faults and odd repositories, through the CLI run in process on real repositories: shallow clones,
// detached HEAD, submodules, huge and binary diffs, hostile file names, no commits at all.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { makeRepo, runGitIn, specCarrier, tempDir } from "../support/git.js"
import type { Repo } from "../support/git.js"
import { gitCallsIn, nonEmptyLines, stackLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import type { CliRun } from "../support/hostile.js"

interface Report {
  readonly changedFiles: ReadonlyArray<{ path: string; status: string }>
  readonly impactedSpecs: ReadonlyArray<{ id: string; reasons: ReadonlyArray<{ file: string }> }>
  readonly coverageUnknown: ReadonlyArray<string>
}

interface Bundle {
  readonly scope: { specs: string[]; changeset: string }
  readonly members: ReadonlyArray<{ id: string; file: string; title: string }>
}

const impact = (dir: string, ...args: string[]): Promise<CliRun> => runCli(["impact", ...args], dir)

const parsed = <T>(run: CliRun): T => {
  expect(run.status, run.stderr).toBe(0)
  expect(stackLines(run.stderr)).toEqual([])
  return JSON.parse(run.stdout) as T
}

/** A git command line with its object ids left out (each repository has its own). */
const withoutIds = (call: string): string => call.replace(/\b[0-9a-f]{40}\b/g, "<id>")

/** One clear line on stderr, exit 1, no stack. */
const failsWithOneLine = (run: CliRun): string => {
  expect(run.status).toBe(1)
  expect(stackLines(run.stderr)).toEqual([])
  const lines = nonEmptyLines(run.stderr)
  expect(lines).toHaveLength(1)
  return lines[0]
}

/** A repository with two commits: a Spec, then an edit of it. */
const twoCommits = (): Repo => {
  const repo = makeRepo()
  repo.write("specs/a.sdp.md", specCarrier("spec:a.one", "First"))
  repo.commit("one")
  repo.write("specs/a.sdp.md", specCarrier("spec:a.one", "First, edited"))
  repo.commit("two")
  return repo
}

describe("history and HEAD", () => {
  it("a shallow clone asked for HEAD~1: exit 1, one line saying to fetch more history", async () => {
    const origin = twoCommits()
    const clone = path.join(tempDir(), "clone")
    runGitIn(origin.dir, ["clone", "-q", "--depth", "1", `file://${origin.dir}`, clone])
    expect(runGitIn(clone, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("true")
    for (const run of [await impact(clone, "--changeset", "HEAD~1"), await runCli(["bundle", "--changeset", "HEAD~1"], clone)]) {
      const line = failsWithOneLine(run)
      expect(line).toMatch(/HEAD~1/)
      expect(line).toMatch(/fetch/)
    }
  })

  it("a detached HEAD works like a branch", async () => {
    const repo = twoCommits()
    repo.git("checkout", "-q", "--detach")
    const report = parsed<Report>(await impact(repo.dir, "--changeset", "HEAD~1"))
    expect(report.changedFiles).toEqual([{ path: "specs/a.sdp.md", status: "modified" }])
    expect(report.impactedSpecs.map((s) => s.id)).toEqual(["spec:a.one"])
    const bundle = parsed<Bundle>(await runCli(["bundle", "--changeset", "HEAD~1..HEAD"], repo.dir))
    expect(bundle.members.map((m) => [m.id, m.title])).toEqual([["spec:a.one", "First, edited"]])
  })

  it("a repository with no commits: --changeset HEAD is one clear line (exit 1); --staged works", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    const line = failsWithOneLine(await impact(repo.dir, "--changeset", "HEAD"))
    expect(line).toContain("HEAD")
    failsWithOneLine(await runCli(["bundle", "--changeset", "HEAD"], repo.dir))
    repo.git("add", "-A")
    const report = parsed<Report>(await impact(repo.dir, "--staged"))
    expect(report.changedFiles).toEqual([{ path: "specs/a.sdp.md", status: "added" }])
    expect(report.impactedSpecs.map((s) => s.id)).toEqual(["spec:a.one"])
    const bundle = parsed<Bundle>(await runCli(["bundle", "--staged"], repo.dir))
    expect(bundle.members.map((m) => m.id)).toEqual(["spec:a.one"])
  })
})

describe("odd content", () => {
  it("a submodule is not read as corpus and does not crash impact, bundle or check", async () => {
    const inner = makeRepo()
    // Same id as the outer corpus and one of its own: read as corpus, it would double spec:a.one.
    inner.write("specs/a.sdp.md", specCarrier("spec:a.one", "Inner copy"))
    inner.write("specs/inner.sdp.md", specCarrier("spec:inner.only", "Inner only"))
    inner.commit("inner")
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a.one", "Outer"))
    repo.commit("outer")
    repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", `file://${inner.dir}`, "vendor/inner")
    repo.commit("add submodule")
    expect(fs.existsSync(path.join(repo.dir, "vendor/inner/specs/inner.sdp.md"))).toBe(true)

    const check = await runCli(["check"], repo.dir)
    expect(check.status, check.stdout + check.stderr).toBe(0)
    expect(check.stdout + check.stderr).not.toContain("vendor/inner")
    const report = parsed<Report>(await impact(repo.dir, "--changeset", "HEAD~1"))
    expect(report.changedFiles.map((f) => f.path)).toEqual([".gitmodules", "vendor/inner"])
    expect(report.impactedSpecs).toEqual([])
    expect(report.coverageUnknown).toEqual([".gitmodules", "vendor/inner"])
    for (const changeset of ["HEAD~1", "HEAD~1..HEAD"]) {
      const bundle = parsed<Bundle>(await runCli(["bundle", "--changeset", changeset], repo.dir))
      expect(bundle.members).toEqual([])
    }
    const outer = parsed<Bundle>(await runCli(["bundle", "--specs", "spec:a.one"], repo.dir))
    expect(outer.members.map((m) => [m.file, m.title])).toEqual([["specs/a.sdp.md", "Outer"]])
    // The inner-only Spec is unknown: exit 2 with diagnostics.
    expect((await runCli(["bundle", "--specs", "spec:inner.only"], repo.dir)).status).toBe(2)
  })

  it("a commit of 10,000 changed files completes and lists every one (coverage unknown), with no more git processes than a commit of 2", async () => {
    /** A Spec, then a commit of `n` new code and text files; the impact report and the git commands it started (GIT_TRACE). */
    const impactOfMany = async (n: number) => {
      const repo = makeRepo()
      repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
      repo.commit("base")
      fs.mkdirSync(path.join(repo.dir, "many"))
      for (let i = 0; i < n; i++) fs.writeFileSync(path.join(repo.dir, "many", `f${i}.${i % 2 === 0 ? "txt" : "ts"}`), `export const v${i} = ${i}\n`)
      repo.commit("many")
      const trace = path.join(tempDir(), "trace")
      const report = parsed<Report>(await runCli(["impact", "--changeset", "HEAD~1"], repo.dir, { env: { GIT_TRACE: trace } }))
      return { repo, report, calls: gitCallsIn(trace) }
    }
    const { repo, report, calls } = await impactOfMany(10_000)
    expect(report.changedFiles).toHaveLength(10_000)
    expect(report.changedFiles.every((f) => f.status === "added" && f.path.startsWith("many/f"))).toBe(true)
    expect(new Set(report.coverageUnknown).size).toBe(10_000)
    expect(report.impactedSpecs).toEqual([])
    // Work, not time: the git commands are the same few as for 2 files, none per file (some run at once: sorted).
    const few = await impactOfMany(2)
    expect(few.report.changedFiles).toHaveLength(2)
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.map(withoutIds).sort()).toEqual(few.calls.map(withoutIds).sort())
    const bundle = parsed<Bundle>(await runCli(["bundle", "--changeset", "HEAD~1"], repo.dir))
    expect(bundle.members).toEqual([])
  })

  it("binary files in the diff are listed, never read as carriers", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    repo.commit("base")
    fs.writeFileSync(path.join(repo.dir, "specs/diagram.png"), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff, 0xfe]))
    // A binary blob with a code suffix (a video .ts): not an anchor file, no finding.
    fs.mkdirSync(path.join(repo.dir, "media"))
    fs.writeFileSync(path.join(repo.dir, "media/clip.ts"), Uint8Array.from([0x47, 0, 0x11, 0x10, 0, 0xff]))
    repo.commit("binaries")
    const run = await impact(repo.dir, "--changeset", "HEAD~1")
    const report = parsed<Report>(run)
    expect(report.changedFiles).toEqual([
      { path: "media/clip.ts", status: "added" },
      { path: "specs/diagram.png", status: "added" }
    ])
    expect(report.coverageUnknown).toEqual(["media/clip.ts", "specs/diagram.png"])
    expect(run.stderr).toBe("")
  })

  it("file names with a newline, quotes and spaces come through exactly", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    repo.commit("base")
    const odd = `specs/we ird "dq" 'sq'\nnl.sdp.md`
    const code = `src/my "code"\tfile.ts`
    fs.writeFileSync(path.join(repo.dir, odd), specCarrier("spec:odd.name", "Odd name"))
    fs.mkdirSync(path.join(repo.dir, "src"))
    fs.writeFileSync(path.join(repo.dir, code), `/**\n * @sdpAnchor impl:odd.code\n * @sdpSatisfies spec:a.one\n */\nexport const x = 1\n`)
    for (const staged of [false, true]) {
      // First as untracked working-tree files, then committed.
      if (staged) repo.commit("odd names")
      const report = parsed<Report>(await impact(repo.dir, "--changeset", staged ? "HEAD~1" : "HEAD"))
      expect(report.changedFiles.map((f) => f.path)).toEqual([odd, code])
      expect(report.impactedSpecs.map((s) => [s.id, s.reasons[0].file])).toEqual([
        ["spec:a.one", code],
        ["spec:odd.name", odd]
      ])
    }
    const bundle = parsed<Bundle>(await runCli(["bundle", "--changeset", "HEAD~1..HEAD"], repo.dir))
    expect(bundle.members.map((m) => [m.id, m.file])).toEqual([
      ["spec:a.one", "specs/a.sdp.md"],
      ["spec:odd.name", odd]
    ])
  })
})
