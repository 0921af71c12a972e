// End to end, through the built CLI: what the pre-commit hook's start-up asks of git (issue 38).
// Each git process costs a start-up of its own, and the hook's first one runs alone before the
// others can start: its location question also names HEAD, so the hook starts three, not four.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempDir } from "../support/git.js"
import { gitCallsIn } from "../support/hostile.js"
import { CLI, env, git, repo, spec } from "../support/hooks.js"

/** `impact --staged --strict --quiet` in `dir` with GIT_TRACE on: its report and the git commands it started. */
const hook = (dir: string) => {
  const trace = path.join(dir, ".git", "specbundle-trace.txt")
  const r = spawnSync(process.execPath, [CLI, "impact", "--staged", "--strict", "--quiet"], { cwd: dir, encoding: "utf8", env: { ...env(), GIT_TRACE: trace } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, calls: gitCallsIn(trace) }
}

const ids = (list: ReadonlyArray<{ id: string }>) => list.map((s) => s.id)

describe("the pre-commit hook's git processes", () => {
  it("three to find the changes: one rev-parse for the top, the prefix and HEAD, the index listing, the staged diff; HEAD is the old side", () => {
    const dir = repo()
    fs.rmSync(path.join(dir, "specs", "b.sdp.md"))
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha, renamed"))
    git(dir, "add", "-A")
    const r = hook(dir)
    expect([r.code, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout)
    // The removed Spec is known only from HEAD's tree: the old side was read at the commit rev-parse named.
    expect(ids(report.removedSpecs)).toEqual(["spec:b"])
    expect(ids(report.impactedSpecs)).toEqual(["spec:a"])
    // (The old side's blobs come from `cat-file --batch` afterwards, unless a cache holds them.)
    expect(r.calls.filter((c) => !c.startsWith("cat-file --batch"))).toHaveLength(3)
    expect(r.calls.filter((c) => c.includes("rev-parse"))).toEqual([
      expect.stringMatching(/rev-parse --show-toplevel --show-prefix --verify --quiet 'HEAD\^\{commit\}'$/)
    ])
    expect(r.calls.filter((c) => c === "ls-files -s -z")).toHaveLength(1)
    expect(r.calls.filter((c) => /^diff .*--cached/.test(c))).toHaveLength(1)
  })

  it("before the first commit: the same one rev-parse (no HEAD: a silent exit 1 after the location), every staged Spec added", () => {
    const dir = tempDir("specbundle-start-up-")
    git(dir, "init", "-q", "-b", "main")
    fs.mkdirSync(path.join(dir, "specs"))
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
    git(dir, "add", "-A")
    const r = hook(dir)
    expect([r.code, r.stderr]).toEqual([0, ""])
    const report = JSON.parse(r.stdout)
    expect(report.changedFiles).toEqual([{ path: "specs/a.sdp.md", status: "added" }])
    expect(ids(report.impactedSpecs)).toEqual(["spec:a"])
    expect(r.calls.filter((c) => c.includes("rev-parse"))).toHaveLength(1)
  })
})
