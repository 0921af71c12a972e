// `specbundle hook print HOOK --manager husky|lefthook|pre-commit`, run the way each manager runs it
// (test/support/managers.ts) through real `git commit` and `git push`: pre-commit refuses a staged
// broken carrier; pre-push to a remote that is not origin puts the bundle under that remote's name
// with the pushed range, which lefthook gets only with use_stdin.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { BROKEN, CLI, IDENTITY, created, env, git, head, repo, run, spec } from "../support/hooks.js"
import { husky, lefthook, preCommit } from "../support/managers.js"

const MANAGERS = ["husky", "lefthook", "pre-commit"] as const
type Manager = (typeof MANAGERS)[number]

/** `specbundle` on PATH (as a global install or node_modules/.bin gives it), and node. */
const withPath = (): NodeJS.ProcessEnv => {
  const bin = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-path-")))
  created.push(bin)
  fs.symlinkSync(CLI, path.join(bin, "specbundle"))
  return { ...env(), PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin` }
}

const gitWith =
  (e: NodeJS.ProcessEnv) =>
  (dir: string, ...args: string[]) =>
    spawnSync("git", [...IDENTITY, ...args], { cwd: dir, encoding: "utf8", env: e })

const install = (manager: Manager, dir: string, hook: "pre-commit" | "pre-push", printed: string) => {
  if (manager === "husky") husky(dir, hook, printed, (...args) => git(dir, ...args))
  else if (manager === "lefthook") lefthook(dir, hook, printed)
  else preCommit(dir, hook, printed)
}

const printed = (dir: string, hook: string, manager: Manager) => {
  const r = run(dir, ["hook", "print", hook, "--manager", manager])
  expect(r.code, r.stderr).toBe(0)
  return r.stdout
}

/** A repository with an empty bare remote `fork` (not origin) that already holds main. */
const pushable = () => {
  const dir = repo()
  const bare = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-remote-")))
  created.push(bare)
  git(bare, "init", "-q", "--bare")
  git(dir, "remote", "add", "fork", bare)
  git(dir, "push", "-q", "fork", "main")
  return dir
}

/** A Spec committed on a new branch `feature`, pushed to the remote `fork` (which has no such branch). */
const pushNewBranch = (dir: string) => {
  git(dir, "checkout", "-q", "-b", "feature")
  fs.writeFileSync(path.join(dir, "specs", "c.sdp.md"), spec("spec:c", "Gamma"))
  git(dir, "add", "-A")
  git(dir, "commit", "-q", "-m", "gamma")
  return gitWith(withPath())(dir, "push", "-q", "fork", "feature")
}

describe("hook print --manager", () => {
  it("prints no machine paths; husky is the default; lefthook's pre-push entry passes {1} and stdin", () => {
    const dir = repo()
    expect(run(dir, ["hook", "print", "pre-push"]).stdout).toBe('specbundle hook run pre-push "$1"\n')
    expect(printed(dir, "pre-push", "husky")).toBe('specbundle hook run pre-push "$1"\n')
    const left = printed(dir, "pre-push", "lefthook")
    expect(left).toContain("run: specbundle hook run pre-push {1}\n")
    expect(left).toContain("use_stdin: true\n")
    expect(printed(dir, "pre-commit", "pre-commit")).toContain("entry: specbundle hook run pre-commit\n")
    for (const manager of MANAGERS) expect(printed(dir, "pre-push", manager)).not.toContain(os.tmpdir())
    const bad = run(dir, ["hook", "print", "pre-push", "--manager", "overcommit"])
    expect(bad.code).toBe(2)
  })

  for (const manager of MANAGERS) {
    it(`${manager}: the pre-commit entry refuses a staged broken carrier with the hook's header`, () => {
      const dir = repo()
      install(manager, dir, "pre-commit", printed(dir, "pre-commit", manager))
      fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
      git(dir, "add", "-A")
      const before = head(dir)
      const r = gitWith(withPath())(dir, "commit", "-q", "-m", "broken")
      expect(r.status).not.toBe(0)
      expect(r.stderr).toContain("specbundle pre-commit: commit refused: 1 refused Spec file (fix it or commit with --no-verify)\n")
      expect(r.stderr).toMatch(/^specs\/broken\.sdp\.md:\d+: /m)
      expect(head(dir)).toBe(before)
    })

    it(`${manager}: the pre-push entry composes a new branch pushed to fork into .git/specbundle/fork/`, () => {
      const dir = pushable()
      const main = head(dir)
      install(manager, dir, "pre-push", printed(dir, "pre-push", manager))
      const r = pushNewBranch(dir)
      expect(r.status, r.stderr).toBe(0)
      const folder = path.join(dir, ".git", "specbundle", "fork")
      const manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8"))
      expect(manifest.scope).toMatchObject({ changeset: `${main}..${head(dir)}`, specs: ["spec:c"] })
      expect(r.stderr).toContain(`to ${folder}`)
      expect(fs.existsSync(path.join(dir, ".git", "specbundle", "origin"))).toBe(false)
    })
  }

  it("lefthook without use_stdin: the hook says the pushed refs did not arrive and names use_stdin; no bundle", () => {
    const dir = pushable()
    lefthook(dir, "pre-push", printed(dir, "pre-push", "lefthook").replace("      use_stdin: true\n", ""))
    const r = pushNewBranch(dir)
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^specbundle pre-push: .*use_stdin: true.*; no bundle composed$/)])
    expect(fs.existsSync(path.join(dir, ".git", "specbundle"))).toBe(false)
  })
})
