// End to end: `specbundle hook install|uninstall|print|run` in real repositories (bundle-contract.md
// section 6): the hook runs this CLI, refuses a commit only when a carrier it stages does not read,
// survives the CLI moving, honours core.hooksPath, never touches a foreign hook without --force, and
// pre-push composes without ever blocking a push (a real bare remote and a force push).
import type { SpawnSyncReturns } from "node:child_process"
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const CLI = path.resolve("bin/specbundle.js")

const created: string[] = []
afterAll(() => created.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

/** git's environment without a surrounding hook's GIT_DIR (a test run inside a hook). */
const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete e[key]
  return e
}
const IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]

const git = (cwd: string, ...args: string[]): string => execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", env: env() })
const gitTry = (cwd: string, ...args: string[]): SpawnSyncReturns<string> => spawnSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8", env: env() })
const run = (cwd: string, args: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: env() })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split("\n").filter((l) => l !== "") }
}

const spec = (id: string, title: string): string => `---\nid: ${id}\nkind: behavior\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# ${title}\n`
const BROKEN = "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n"

const repo = (): string => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-cli-hook-")))
  created.push(dir)
  git(dir, "init", "-q", "-b", "main")
  fs.mkdirSync(path.join(dir, "specs"))
  fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
  fs.writeFileSync(path.join(dir, "specs", "b.sdp.md"), spec("spec:b", "Beta"))
  git(dir, "add", "-A")
  git(dir, "commit", "-q", "-m", "corpus")
  return dir
}

const head = (dir: string) => git(dir, "rev-parse", "HEAD").trim()
const FOREIGN = "#!/bin/sh\n# someone else's hook\nexit 0\n"

describe("hook install pre-commit", () => {
  it("writes an executable hook that runs this node and this CLI, with a way out when they move", () => {
    const dir = repo()
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(0)
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    expect(r.lines).toEqual([`installed ${file}`])
    expect(fs.statSync(file).mode & 0o111).toBe(0o111)
    const text = fs.readFileSync(file, "utf8")
    expect(text.startsWith("#!/bin/sh\n")).toBe(true)
    expect(text).toContain(`cli=${CLI}\n`)
    expect(text).toContain(`node=${process.execPath}\n`)
    expect(text).toContain(`exec "$node" "$cli" hook run pre-commit --root "$top" "$@"`)
    expect(text).not.toContain("npx")
  })

  it("refuses a commit with a staged broken carrier (naming file:line) and lets a healthy one through", () => {
    const dir = repo()
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)
    const before = head(dir)

    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/specs\/broken\.sdp\.md:\d+: extract\//)
    expect(head(dir)).toBe(before)

    // Fixed only in the working tree: the index is still broken, so the commit is still refused.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), spec("spec:broken", "Fixed"))
    expect(gitTry(dir, "commit", "-q", "-m", "still broken").status).not.toBe(0)
    expect(head(dir)).toBe(before)

    git(dir, "add", "specs/broken.sdp.md")
    const ok = gitTry(dir, "commit", "-q", "-m", "healthy")
    expect(ok.status, ok.stderr).toBe(0)
    expect(head(dir)).not.toBe(before)
  })

  it("honours core.hooksPath (a folder outside the work tree keeps this CLI's path)", () => {
    const dir = repo()
    const hooks = `${dir}-hooks`
    created.push(hooks)
    git(dir, "config", "core.hooksPath", hooks)
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(0)
    expect(fs.readFileSync(path.join(hooks, "pre-commit"), "utf8")).toContain(`cli=${CLI}\n`)
    expect(fs.existsSync(path.join(dir, ".git", "hooks", "pre-commit"))).toBe(false)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain("specs/broken.sdp.md:")
  })

  it("leaves a foreign hook untouched: exit 1 and one line naming --force", () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("--force")
    expect(r.lines[0]).toContain(file)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
    expect(fs.existsSync(`${file}.specbundle-backup`)).toBe(false)
  })

  it("--force keeps the foreign hook as pre-commit.specbundle-backup; uninstall removes ours and restores it", () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    expect(run(dir, ["hook", "install", "pre-commit", "--force"]).code).toBe(0)
    expect(fs.readFileSync(`${file}.specbundle-backup`, "utf8")).toBe(FOREIGN)
    expect(fs.readFileSync(file, "utf8")).toContain("# specbundle-hook")

    const u = run(dir, ["hook", "uninstall", "pre-commit"])
    expect(u.code).toBe(0)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
    expect(fs.existsSync(`${file}.specbundle-backup`)).toBe(false)
  })

  it("uninstall removes only a hook specbundle wrote", () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)
    expect(run(dir, ["hook", "uninstall", "pre-commit"]).code).toBe(0)
    expect(fs.existsSync(file)).toBe(false)

    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    const r = run(dir, ["hook", "uninstall", "pre-commit"])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
  })

  it("outside a git repository install is exit 1 with one line", () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-cli-nogit-")))
    created.push(dir)
    const r = spawnSync(process.execPath, [CLI, "hook", "install", "pre-commit"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...env(), GIT_CEILING_DIRECTORIES: path.dirname(dir) }
    })
    expect(r.status).toBe(1)
    expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1)
  })
})

const BROKEN_ELSEWHERE = "---\nid: spec:fixture\nkind: rule\nbroken: [\n---\n# A deliberately broken fixture\n"

describe("pre-commit refuses only what the commit stages", () => {
  it("a carrier refused elsewhere is one tally line and lets the commit through; a staged refused carrier blocks it", () => {
    const dir = repo()
    // A broken carrier committed earlier (before the hook): it must not lock the team out.
    fs.mkdirSync(path.join(dir, "fixtures"))
    fs.writeFileSync(path.join(dir, "fixtures", "bad.sdp.md"), BROKEN_ELSEWHERE)
    git(dir, "add", "-A")
    git(dir, "commit", "-q", "-m", "fixtures")
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)

    fs.writeFileSync(path.join(dir, "README.md"), "# readme\n")
    git(dir, "add", "README.md")
    const ok = gitTry(dir, "commit", "-q", "-m", "readme")
    expect(ok.status, ok.stderr).toBe(0)
    expect(ok.stderr.trimEnd().split("\n")).toEqual(["1 carrier elsewhere is refused; `specbundle check` lists them"])

    const before = head(dir)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/^specs\/broken\.sdp\.md:\d+: extract\//m)
    expect(refused.stderr).not.toContain("fixtures/bad.sdp.md")
    expect(refused.stderr).toContain("1 carrier elsewhere is refused")
    expect(head(dir)).toBe(before)
  })

  it("an intent-to-add carrier (git add -N) does not refuse a commit", () => {
    const dir = repo()
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)
    fs.writeFileSync(path.join(dir, "specs", "later.sdp.md"), spec("spec:later", "Later"))
    git(dir, "add", "-N", "specs/later.sdp.md")
    fs.appendFileSync(path.join(dir, "specs", "a.sdp.md"), "\nMore.\n")
    git(dir, "add", "specs/a.sdp.md")
    const ok = gitTry(dir, "commit", "-q", "-m", "alpha")
    expect(ok.status, ok.stderr).toBe(0)
    expect(ok.stderr).toBe("")
  })
})

describe("hooks survive specbundle moving", () => {
  /** A copy of the built CLI in its own folder (node_modules beside it), as a second install would be. */
  const installCopy = (): { pkg: string; cli: string } => {
    const pkg = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-moved-")))
    created.push(pkg)
    fs.mkdirSync(path.join(pkg, "bin"))
    for (const f of fs.readdirSync(path.dirname(CLI))) if (f.startsWith("specbundle")) fs.copyFileSync(path.join(path.dirname(CLI), f), path.join(pkg, "bin", f))
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

  it("when the Node that installed the hook is gone (an upgrade), the hook runs node from PATH", () => {
    const dir = repo()
    expect(run(dir, ["hook", "install", "pre-commit"]).code).toBe(0)
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

  it("a hook folder inside the work tree (core.hooksPath=.husky) gets no machine paths and runs specbundle from node_modules/.bin", () => {
    const dir = repo()
    git(dir, "config", "core.hooksPath", ".husky")
    const r = run(dir, ["hook", "install", "pre-commit"])
    expect(r.code, r.stderr).toBe(0)
    const text = fs.readFileSync(path.join(dir, ".husky", "pre-commit"), "utf8")
    expect(text).not.toContain(CLI)
    expect(text).not.toContain(process.execPath)
    expect(text).not.toContain(os.tmpdir())

    // Without specbundle anywhere the hook finds it, the commit goes through with one line.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const bare = { ...env(), PATH: path.dirname(process.execPath) + ":/usr/bin:/bin" }
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

  it("hook print gives a command line without machine paths, which a husky hook file runs", () => {
    const dir = repo()
    const printed = run(dir, ["hook", "print", "pre-commit"])
    expect(printed.code).toBe(0)
    expect(printed.stdout).toBe("specbundle hook run pre-commit\n")
    expect(run(dir, ["hook", "print", "pre-push"]).stdout).toBe('specbundle hook run pre-push "$1"\n')
    fs.mkdirSync(path.join(dir, "sub"))
    expect(spawnSync(process.execPath, [CLI, "hook", "print", "pre-commit", "--root", "."], { cwd: path.join(dir, "sub"), encoding: "utf8", env: env() }).stdout).toBe(
      "specbundle hook run pre-commit --root sub\n"
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

  it("a push composes the pushed range into .git/specbundle/origin/", () => {
    const { alice } = remoteAndClones()
    expect(run(alice, ["hook", "install", "pre-push"]).code).toBe(0)
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

  it("a force push over a remote tip this clone never fetched falls back to the merge base with origin/HEAD; the push goes through", () => {
    const { alice, bob } = remoteAndClones()
    const base = head(alice)
    // Bob pushes a commit Alice never fetches.
    fs.appendFileSync(path.join(bob, "specs", "b.sdp.md"), "\nBob's beta.\n")
    git(bob, "commit", "-qam", "bob")
    git(bob, "push", "-q", "origin", "main")
    const bobTip = head(bob)

    expect(run(alice, ["hook", "install", "pre-push"]).code).toBe(0)
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

  it("a new branch composes from the merge base with origin/HEAD; with no default branch known it is skipped with one line", () => {
    const { alice } = remoteAndClones()
    const base = head(alice)
    expect(run(alice, ["hook", "install", "pre-push"]).code).toBe(0)
    git(alice, "checkout", "-q", "-b", "feature")
    fs.writeFileSync(path.join(alice, "specs", "c.sdp.md"), spec("spec:c", "Gamma"))
    git(alice, "add", "-A")
    git(alice, "commit", "-q", "-m", "gamma")
    const r = gitTry(alice, "push", "-q", "origin", "feature")
    expect(r.status, r.stderr).toBe(0)
    expect(manifestOf(alice).scope.changeset).toBe(`${base}..${head(alice)}`)
    expect(manifestOf(alice).scope.specs).toEqual(["spec:c"])

    git(alice, "remote", "set-head", "origin", "--delete")
    git(alice, "checkout", "-q", "-b", "other")
    fs.writeFileSync(path.join(alice, "specs", "d.sdp.md"), spec("spec:d", "Delta"))
    git(alice, "add", "-A")
    git(alice, "commit", "-q", "-m", "delta")
    const skipped = gitTry(alice, "push", "-q", "origin", "other")
    expect(skipped.status, skipped.stderr).toBe(0)
    const lines = skipped.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("refs/heads/other")
    expect(lines[0]).toContain("no bundle composed")
  })
})
