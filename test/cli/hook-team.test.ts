// End to end, as a team uses the hooks (bundle-contract.md section 6): a hook survives specbundle
// or Node moving (a real `git commit` fires it), a hook folder inside the work tree gets no machine
// paths, `hook print` feeds a husky hook, and pre-push never blocks a push (a real bare remote, a
// force push over a tip this clone never fetched, a new branch). test/cli/hook-push.test.ts: a
// freshly added remote, skipped pushes; test/cli/hook-managers.test.ts: what hook print gives;
// test/entrances/hook-managers.test.ts: husky, lefthook and the pre-commit framework for real.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { BROKEN, CLI, IDENTITY, created, env, git, gitTry, head, repo, run, spec } from "../support/hooks.js"

describe("hooks survive specbundle moving", () => {
  /** A copy of the built CLI in its own folder (node_modules beside it), as a second install would be. */
  const installCopy = (): { pkg: string; cli: string } => {
    const pkg = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-moved-")))
    created.push(pkg)
    fs.mkdirSync(path.join(pkg, "bin"))
    for (const f of fs.readdirSync(path.dirname(CLI)))
      if (f.startsWith("specbundle")) fs.copyFileSync(path.join(path.dirname(CLI), f), path.join(pkg, "bin", f))
    fs.symlinkSync(fs.realpathSync("node_modules"), path.join(pkg, "node_modules"))
    return { pkg, cli: path.join(pkg, "bin", "specbundle.js") }
  }

  it("when the installing specbundle is gone, a real commit goes through with one line naming the path and the reinstall command", () => {
    const dir = repo()
    const { pkg, cli } = installCopy()
    const installed = spawnSync(process.execPath, [cli, "hook", "install", "pre-commit"], { cwd: dir, encoding: "utf8", env: env() })
    expect(installed.status, installed.stderr).toBe(0)
    // The copy works while it is there: a staged broken carrier is refused.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    expect(gitTry(dir, "commit", "-q", "-m", "broken").status).not.toBe(0)

    fs.renameSync(pkg, `${pkg}-moved`)
    created.push(`${pkg}-moved`)
    const r = gitTry(dir, "commit", "-q", "-m", "tool gone")
    expect(r.status, r.stderr).toBe(0)
    const lines = r.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(cli)
    expect(lines[0]).toContain("specbundle hook install pre-commit")
    expect(r.stderr).not.toMatch(/^\s+at |Cannot find module/m)
  })

  it("when the Node that installed the hook is gone (an upgrade), the hook runs node from PATH", async () => {
    const dir = repo()
    expect((await run(dir, ["hook", "install", "pre-commit"])).code).toBe(0)
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    // What an nvm upgrade leaves: the recorded Node path no longer exists.
    const text = fs.readFileSync(file, "utf8").replace(`node=${process.execPath}\n`, "node=/nonexistent/node-v20.10.0/bin/node\n")
    expect(text).toContain("node=/nonexistent/")
    fs.writeFileSync(file, text)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const withNode = { ...env(), PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` }
    const refused = spawnSync("git", [...IDENTITY, "commit", "-q", "-m", "broken"], { cwd: dir, encoding: "utf8", env: withNode })
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/^specs\/broken\.sdp\.md:\d+: /m)
  })

  it("a hook folder inside the work tree (core.hooksPath=.husky) gets no machine paths and runs specbundle from node_modules/.bin", async () => {
    const dir = repo()
    git(dir, "config", "core.hooksPath", ".husky")
    const r = await run(dir, ["hook", "install", "pre-commit"])
    expect(r.code, r.stderr).toBe(0)
    const text = fs.readFileSync(path.join(dir, ".husky", "pre-commit"), "utf8")
    expect(text).not.toContain(CLI)
    expect(text).not.toContain(process.execPath)
    expect(text).not.toContain(os.tmpdir())

    // Without specbundle anywhere the hook finds it, the commit goes through with one line.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const bare = { ...env(), PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` }
    const missing = spawnSync("git", [...IDENTITY, "commit", "-q", "-m", "no tool"], { cwd: dir, encoding: "utf8", env: bare })
    expect(missing.status, missing.stderr).toBe(0)
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1)
    expect(missing.stderr).toContain("hook print pre-commit")

    // With specbundle in the project's node_modules/.bin, the same committed hook refuses a broken carrier.
    fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true })
    fs.symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "specbundle"))
    const before = head(dir)
    fs.writeFileSync(path.join(dir, "specs", "broken2.sdp.md"), BROKEN.replace("spec:broken", "spec:broken2"))
    git(dir, "add", "specs/broken2.sdp.md")
    const refused = spawnSync("git", [...IDENTITY, "commit", "-q", "-m", "broken2"], { cwd: dir, encoding: "utf8", env: bare })
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/^specs\/broken2\.sdp\.md:\d+: /m)
    expect(head(dir)).toBe(before)
  })

  it("hook print gives a command line without machine paths, which a husky hook file runs", async () => {
    const dir = repo()
    const printed = await run(dir, ["hook", "print", "pre-commit"])
    expect(printed.code).toBe(0)
    // One guarded sh line (test/cli/hook-managers.test.ts has its whole text).
    expect(printed.stdout.split("\n")).toEqual([expect.stringContaining("then specbundle hook run pre-commit; else echo "), ""])
    expect((await run(dir, ["hook", "print", "pre-push"])).stdout).toContain('then specbundle hook run pre-push "$1"; else echo ')
    fs.mkdirSync(path.join(dir, "sub"))
    expect((await run(path.join(dir, "sub"), ["hook", "print", "pre-commit", "--root", "."])).stdout).toContain(
      "then specbundle hook run pre-commit --root sub; else echo "
    )

    // husky: .husky/pre-commit holds the printed line; specbundle comes from PATH.
    const binDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-path-")))
    created.push(binDir)
    fs.symlinkSync(CLI, path.join(binDir, "specbundle"))
    fs.mkdirSync(path.join(dir, ".husky"))
    fs.writeFileSync(path.join(dir, ".husky", "pre-commit"), `#!/bin/sh\n${printed.stdout}`, { mode: 0o755 })
    git(dir, "config", "core.hooksPath", ".husky")
    const withPath = { ...env(), PATH: `${binDir}:${path.dirname(process.execPath)}:/usr/bin:/bin` }
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = spawnSync("git", [...IDENTITY, "commit", "-q", "-m", "broken"], { cwd: dir, encoding: "utf8", env: withPath })
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/^specs\/broken\.sdp\.md:\d+: /m)
  })
})

describe("pre-push is informational and never blocks a push", () => {
  /** A bare remote with `main`, cloned twice (two people). */
  const remoteAndClones = () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-push-")))
    created.push(base)
    const seed = path.join(base, "seed")
    fs.mkdirSync(seed)
    git(seed, "init", "-q", "-b", "main")
    fs.mkdirSync(path.join(seed, "specs"))
    fs.writeFileSync(path.join(seed, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
    fs.writeFileSync(path.join(seed, "specs", "b.sdp.md"), spec("spec:b", "Beta"))
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "corpus")
    git(base, "clone", "-q", "--bare", seed, "remote.git")
    const remote = path.join(base, "remote.git")
    git(base, "clone", "-q", remote, "alice")
    git(base, "clone", "-q", remote, "bob")
    return { remote, alice: path.join(base, "alice"), bob: path.join(base, "bob") }
  }

  const manifestOf = (clone: string) =>
    JSON.parse(fs.readFileSync(path.join(clone, ".git", "specbundle", "origin", "manifest.json"), "utf8")) as {
      scope: { specs: string[]; changeset: string }
      parts: Array<{ file: string }>
    }

  it("a push composes the pushed range into .git/specbundle/origin/", async () => {
    const { alice } = remoteAndClones()
    expect((await run(alice, ["hook", "install", "pre-push"])).code).toBe(0)
    expect(fs.readFileSync(path.join(alice, ".git", "hooks", "pre-push"), "utf8")).toContain(`exec "$node" "$cli" hook run pre-push`)
    const before = head(alice)
    fs.appendFileSync(path.join(alice, "specs", "b.sdp.md"), "\nMore about beta.\n")
    git(alice, "commit", "-qam", "touch beta")
    const r = gitTry(alice, "push", "-q", "origin", "main")
    expect(r.status, r.stderr).toBe(0)
    const manifest = manifestOf(alice)
    expect(manifest.scope.specs).toEqual(["spec:b"])
    expect(manifest.scope.changeset).toBe(`${before}..${head(alice)}`)
    expect(manifest.parts.length).toBeGreaterThan(0)
  })

  it("a force push over a remote tip this clone never fetched composes the commits no remote-tracking ref holds; the push goes through", async () => {
    const { alice, bob } = remoteAndClones()
    const base = head(alice)
    // Bob pushes a commit Alice never fetches.
    fs.appendFileSync(path.join(bob, "specs", "b.sdp.md"), "\nBob's beta.\n")
    git(bob, "commit", "-qam", "bob")
    git(bob, "push", "-q", "origin", "main")
    const bobTip = head(bob)

    expect((await run(alice, ["hook", "install", "pre-push"])).code).toBe(0)
    fs.appendFileSync(path.join(alice, "specs", "a.sdp.md"), "\nAlice's alpha.\n")
    git(alice, "commit", "-qam", "alice")
    expect(gitTry(alice, "cat-file", "-e", `${bobTip}^{commit}`).status).not.toBe(0)
    const r = gitTry(alice, "push", "-q", "--force", "origin", "main")
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/unknown revision/)
    const manifest = manifestOf(alice)
    expect(manifest.scope.changeset).toBe(`${base}..${head(alice)}`)
    expect(manifest.scope.specs).toEqual(["spec:a"])
    expect(git(alice, "ls-remote", "origin", "refs/heads/main").split("\t")[0]).toBe(head(alice))
  })

  it("a new branch composes the commits no remote-tracking ref holds (origin/HEAD not needed), and the hook says where it wrote the bundle", async () => {
    const { alice } = remoteAndClones()
    const base = head(alice)
    expect((await run(alice, ["hook", "install", "pre-push"])).code).toBe(0)
    git(alice, "checkout", "-q", "-b", "feature")
    fs.writeFileSync(path.join(alice, "specs", "c.sdp.md"), spec("spec:c", "Gamma"))
    git(alice, "add", "-A")
    git(alice, "commit", "-q", "-m", "gamma")
    const r = gitTry(alice, "push", "-q", "origin", "feature")
    expect(r.status, r.stderr).toBe(0)
    expect(manifestOf(alice).scope.changeset).toBe(`${base}..${head(alice)}`)
    expect(manifestOf(alice).scope.specs).toEqual(["spec:c"])
    const feature = head(alice)

    // Without a default branch known, a branch of feature composes only its own commit: feature is on origin/feature now.
    git(alice, "remote", "set-head", "origin", "--delete")
    git(alice, "checkout", "-q", "-b", "other")
    fs.writeFileSync(path.join(alice, "specs", "d.sdp.md"), spec("spec:d", "Delta"))
    git(alice, "add", "-A")
    git(alice, "commit", "-q", "-m", "delta")
    const other = gitTry(alice, "push", "-q", "origin", "other")
    expect(other.status, other.stderr).toBe(0)
    expect(manifestOf(alice).scope.changeset).toBe(`${feature}..${head(alice)}`)
    expect(manifestOf(alice).scope.specs).toEqual(["spec:d"])
    expect(other.stderr.trimEnd().split("\n")).toEqual([
      `specbundle pre-push: wrote the bundle of refs/heads/other (${feature}..${head(alice)}, 1 part) to ${path.join(alice, ".git", "specbundle", "origin")}`
    ])
  })
})
