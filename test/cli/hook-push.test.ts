// The pre-push hook through real `git push` (bundle-contract.md section 6): a new branch on a remote
// added with `git remote add` (a bare repository in a temp folder), a first push, one line saying
// where the bundle went with refused carriers tallied (never the corpus's findings), a skipped
// push that leaves no earlier push's bundle behind, a push with nothing to send that keeps it, an
// annotated tag labelled by its commit, git's safe.directory refusal in git's words, and the
// pre-commit framework's PRE_COMMIT_* variables. `hook install` and `hook run pre-push` given git's
// stdin run in process; the hook git fires on a push runs the built CLI.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { skipping } from "../support/skip.js"
import { commitBrokenFixture, created, env, git, gitTry, head, repo, run, spec } from "../support/hooks.js"

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

/** A repository with the pre-push hook, main pushed to a fresh remote, and BRANCH one Spec ahead of it. */
const branchAhead = async (branch: string, file: string, id: string): Promise<{ dir: string; base: string }> => {
  const dir = repo()
  expect((await run(dir, ["hook", "install", "pre-push"])).code).toBe(0)
  addRemote(dir, "fresh")
  expect(gitTry(dir, "push", "-q", "fresh", "main").status).toBe(0)
  const base = head(dir)
  git(dir, "checkout", "-q", "-b", branch)
  commitSpec(dir, file, id)
  return { dir, base }
}

describe("pre-push and drift (issue 51)", () => {
  it("a pushed range that drifts a Spec adds one line: how many, and the accept command", async () => {
    const dir = repo()
    fs.mkdirSync(path.join(dir, "src"))
    fs.writeFileSync(path.join(dir, "src", "a.ts"), "/**\n * @sdpAnchor impl:a\n * @sdpSatisfies spec:a\n */\nexport const a = 1\n")
    // The Spec's carrier in the same commit: spec:a is clean at the remote's tip.
    fs.appendFileSync(path.join(dir, "specs", "a.sdp.md"), "\nThe code binds it.\n")
    git(dir, "add", "-A")
    git(dir, "commit", "-q", "-m", "code for spec:a")
    expect((await run(dir, ["hook", "install", "pre-push"])).code).toBe(0)
    addRemote(dir, "fresh")
    expect(gitTry(dir, "push", "-q", "fresh", "main").status).toBe(0)
    const base = head(dir)
    git(dir, "checkout", "-q", "-b", "code")
    fs.appendFileSync(path.join(dir, "src", "a.ts"), "export const b = 2\n")
    git(dir, "commit", "-q", "-am", "code changed after spec:a")
    const r = gitTry(dir, "push", "-q", "fresh", "code")
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stderr)).toEqual([
      `specbundle pre-push: wrote the bundle of refs/heads/code (${base}..${head(dir)}, 1 part) to ${bundleDir(dir, "fresh")}`,
      "specbundle pre-push: this change leaves 1 Spec drifted; after reading them: specbundle drift --accept spec:a"
    ])
  })
})

describe("pre-push on a freshly added remote", () => {
  it("a first push says there is no base; a new branch then composes its own commits, in one line naming the folder and tallying refusals", async () => {
    const dir = repo()
    // A broken carrier committed earlier: its findings must not show on every push.
    commitBrokenFixture(dir)
    expect((await run(dir, ["hook", "install", "pre-push"])).code).toBe(0)
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

  it("a new branch pushed to a second remote (never fetched) composes from what the first remote holds", async () => {
    const origin = repo()
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-fork-")))
    created.push(base)
    git(base, "clone", "-q", origin, "clone")
    const dir = path.join(base, "clone")
    expect((await run(dir, ["hook", "install", "pre-push"])).code).toBe(0)
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
  it("after a bundled push, a push that adds no commit removes the previous bundle and says why there is none", async () => {
    const { dir } = await branchAhead("feature", "c.sdp.md", "spec:c")
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

describe("a push with nothing to send", () => {
  it("keeps the previous push's bundle and says git listed no ref, naming no hook manager", async () => {
    const { dir } = await branchAhead("feature", "c.sdp.md", "spec:c")
    expect(gitTry(dir, "push", "-q", "fresh", "feature").status).toBe(0)
    const before = fs.readFileSync(path.join(bundleDir(dir, "fresh"), "manifest.json"), "utf8")

    const again = gitTry(dir, "push", "fresh", "feature")
    expect(again.status, again.stderr).toBe(0)
    expect(again.stderr).toContain("Everything up-to-date")
    expect(lines(again.stderr).filter((l) => l.startsWith("specbundle"))).toEqual([
      "specbundle pre-push: git listed no ref to push (nothing to send); no bundle composed"
    ])
    expect(fs.readFileSync(path.join(bundleDir(dir, "fresh"), "manifest.json"), "utf8")).toBe(before)
  })

  it("under lefthook (hook run --manager lefthook) the line names use_stdin as the other cause; the bundle stays", async () => {
    const dir = repo()
    fs.mkdirSync(bundleDir(dir, "fork"), { recursive: true })
    fs.writeFileSync(path.join(bundleDir(dir, "fork"), "manifest.json"), "{}")
    const r = await run(dir, ["hook", "run", "pre-push", "--manager", "lefthook", "fork"], { env: env(), stdin: "" })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(
      "specbundle pre-push: git listed no ref to push: nothing to send, or the lefthook entry lacks use_stdin: true (see specbundle hook print pre-push --manager lefthook); no bundle composed\n"
    )
    expect(fs.readFileSync(path.join(bundleDir(dir, "fork"), "manifest.json"), "utf8")).toBe("{}")
  })
})

describe("an annotated tag pushed", () => {
  it("labels the bundle and its changeset with the tagged commit's id, not the tag object's", async () => {
    const { dir, base } = await branchAhead("release", "r.sdp.md", "spec:r")
    const commit = head(dir)
    git(dir, "tag", "-a", "-m", "release one", "v1")
    const tagObject = git(dir, "rev-parse", "v1").trim()
    expect(tagObject).not.toBe(commit)

    const r = gitTry(dir, "push", "-q", "fresh", "v1")
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stderr)).toEqual([`specbundle pre-push: wrote the bundle of refs/tags/v1 (${base}..${commit}, 1 part) to ${bundleDir(dir, "fresh")}`])
    expect(manifestOf(dir, "fresh").scope).toMatchObject({ changeset: `${base}..${commit}`, specs: ["spec:r"] })
    expect(fs.readFileSync(path.join(bundleDir(dir, "fresh"), "manifest.json"), "utf8")).not.toContain(tagObject)
  })
})

describe("a repository git refuses (safe.directory)", () => {
  const refusal = (dir: string) =>
    `specbundle pre-push: git refuses the repository ${dir}: detected dubious ownership (it belongs to another user); if you trust it, run: git config --global --add safe.directory ${dir}; no bundle composed\n`

  it("names git's reason and safe.directory, not 'not inside a git repository'; exit 0", async () => {
    const dir = repo()
    // git 2.39's ownership check treats the repository as another user's (t/test-lib's switch).
    const r = await run(dir, ["hook", "run", "pre-push", "origin"], {
      env: { ...env(), GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" },
      stdin: "refs/heads/main 1111111111111111111111111111111111111111 refs/heads/main 0000000000000000000000000000000000000000\n"
    })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(refusal(dir))
  })

  it.skipIf(
    skipping(
      process.getuid?.() !== 0,
      "pre-push in a repository really owned by another user",
      "only root can hand a folder to another user (chown); this run is not root"
    )
  )("the same for a repository really owned by another user (chown, as root)", async () => {
    const dir = repo()
    fs.chownSync(dir, 12345, 12345)
    fs.chownSync(path.join(dir, ".git"), 12345, 12345)
    const r = await run(dir, ["hook", "run", "pre-push", "origin"], { env: env(), stdin: "" })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(refusal(dir))
  })

  it("outside any repository, still 'not inside a git repository'", async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-norepo-")))
    created.push(dir)
    const r = await run(dir, ["hook", "run", "pre-push", "origin"], { env: { ...env(), GIT_CEILING_DIRECTORIES: os.tmpdir() }, stdin: "" })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(`specbundle pre-push: ${dir} is not inside a git repository; no bundle composed\n`)
  })
})

describe("the pre-commit framework's variables (it reads git's stdin itself)", () => {
  it("PRE_COMMIT_FROM_REF/TO_REF/REMOTE_NAME compose that range into the remote's folder", async () => {
    const dir = repo()
    const base = head(dir)
    commitSpec(dir, "f.sdp.md", "spec:f")
    const r = await run(dir, ["hook", "run", "pre-push"], {
      env: { ...env(), PRE_COMMIT_FROM_REF: base, PRE_COMMIT_TO_REF: head(dir), PRE_COMMIT_REMOTE_NAME: "fork", PRE_COMMIT_LOCAL_BRANCH: "refs/heads/main" },
      stdin: ""
    })
    expect(r.code).toBe(0)
    expect(lines(r.stderr)).toEqual([`specbundle pre-push: wrote the bundle of refs/heads/main (${base}..${head(dir)}, 1 part) to ${bundleDir(dir, "fork")}`])
    expect(manifestOf(dir, "fork").scope).toMatchObject({ changeset: `${base}..${head(dir)}`, specs: ["spec:f"] })
  })
})
