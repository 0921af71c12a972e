// The pre-push hook through real `git push` (bundle-contract.md section 6): a new branch on a remote
// added with `git remote add` (a bare repository in a temp folder), a first push, one line saying
// where the bundle went with refused carriers tallied (never the corpus's findings), and a skipped
// push that leaves no earlier push's bundle behind.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { commitBrokenFixture, created, git, gitTry, head, repo, run, spec } from "../support/hooks.js"

/** An empty bare repository in a temp folder, added to `dir` as `name` with `git remote add`. */
const addRemote = (dir: string, name: string): string => {
  const bare = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-remote-")))
  created.push(bare)
  git(bare, "init", "-q", "--bare")
  git(dir, "remote", "add", name, bare)
  return bare
}

const bundleDir = (dir: string, remote: string) => path.join(dir, ".git", "specbundle", remote)
const manifestOf = (dir: string, remote: string) =>
  JSON.parse(fs.readFileSync(path.join(bundleDir(dir, remote), "manifest.json"), "utf8")) as { scope: { specs: string[]; changeset: string } }
const lines = (stderr: string) => stderr.split("\n").filter((l) => l !== "")

const commitSpec = (dir: string, file: string, id: string) => {
  fs.writeFileSync(path.join(dir, "specs", file), spec(id, id))
  git(dir, "add", "-A")
  git(dir, "commit", "-q", "-m", id)
}

describe("pre-push on a freshly added remote", () => {
  it("a first push says there is no base; a new branch then composes its own commits, in one line naming the folder and tallying refusals", () => {
    const dir = repo()
    // A broken carrier committed earlier: its findings must not show on every push.
    commitBrokenFixture(dir)
    expect(run(dir, ["hook", "install", "pre-push"]).code).toBe(0)
    addRemote(dir, "fresh")

    const first = gitTry(dir, "push", "-q", "fresh", "main")
    expect(first.status, first.stderr).toBe(0)
    expect(lines(first.stderr)).toEqual([
      "specbundle pre-push: none of the commits of refs/heads/main is on a remote-tracking ref this clone knows (a first push), so there is no base to compare with; no bundle composed"
    ])
    expect(fs.existsSync(bundleDir(dir, "fresh"))).toBe(false)

    const main = head(dir)
    git(dir, "checkout", "-q", "-b", "feature")
    commitSpec(dir, "c.sdp.md", "spec:c")
    const r = gitTry(dir, "push", "-q", "fresh", "feature")
    expect(r.status, r.stderr).toBe(0)
    expect(manifestOf(dir, "fresh").scope).toMatchObject({ changeset: `${main}..${head(dir)}`, specs: ["spec:c"] })
    expect(lines(r.stderr)).toEqual([
      `specbundle pre-push: wrote the bundle of refs/heads/feature (${main}..${head(dir)}, 1 part) to ${bundleDir(dir, "fresh")}; 1 carrier is refused in the corpus (specbundle check lists them)`
    ])
    expect(r.stderr).not.toContain("fixtures/bad.sdp.md")
  })

  it("a new branch pushed to a second remote (never fetched) composes from what the first remote holds", () => {
    const origin = repo()
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-fork-")))
    created.push(base)
    git(base, "clone", "-q", origin, "clone")
    const dir = path.join(base, "clone")
    expect(run(dir, ["hook", "install", "pre-push"]).code).toBe(0)
    const tip = head(dir)
    addRemote(dir, "fork")
    git(dir, "checkout", "-q", "-b", "topic")
    commitSpec(dir, "t.sdp.md", "spec:t")
    const r = gitTry(dir, "push", "-q", "fork", "topic")
    expect(r.status, r.stderr).toBe(0)
    expect(manifestOf(dir, "fork").scope).toMatchObject({ changeset: `${tip}..${head(dir)}`, specs: ["spec:t"] })
    expect(lines(r.stderr)).toEqual([`specbundle pre-push: wrote the bundle of refs/heads/topic (${tip}..${head(dir)}, 1 part) to ${bundleDir(dir, "fork")}`])
    expect(fs.existsSync(bundleDir(dir, "origin"))).toBe(false)
  })
})

describe("a skipped push leaves no stale bundle", () => {
  it("after a bundled push, a push that adds no commit removes the previous bundle and says why there is none", () => {
    const dir = repo()
    expect(run(dir, ["hook", "install", "pre-push"]).code).toBe(0)
    addRemote(dir, "fresh")
    expect(gitTry(dir, "push", "-q", "fresh", "main").status).toBe(0)
    git(dir, "checkout", "-q", "-b", "feature")
    commitSpec(dir, "c.sdp.md", "spec:c")
    expect(gitTry(dir, "push", "-q", "fresh", "feature").status).toBe(0)
    expect(manifestOf(dir, "fresh").scope.specs).toEqual(["spec:c"])

    // The same commit under another name: nothing new, nothing to compose.
    const skipped = gitTry(dir, "push", "-q", "fresh", "feature:copy")
    expect(skipped.status, skipped.stderr).toBe(0)
    expect(lines(skipped.stderr)).toEqual([
      "specbundle pre-push: refs/heads/feature adds no commit that is not already on a remote-tracking ref; no bundle composed"
    ])
    expect(fs.existsSync(bundleDir(dir, "fresh"))).toBe(false)
  })
})
