// `specbundle hook install|uninstall` (run in process) in real repositories (bundle-contract.md
// section 6): the hook, fired by a real `git commit`, runs this CLI (built), refuses a commit only
// when a carrier it stages does not read, honours core.hooksPath, and never touches a foreign hook
// without --force. test/cli/hook-team.test.ts: hooks that survive specbundle moving, `hook print`,
// and pre-push on a real bare remote.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cli } from "../support/cli.js"
import { BROKEN, CLI, commitBrokenFixture, created, env, git, gitTry, head, repo, run, spec } from "../support/hooks.js"

const FOREIGN = "#!/bin/sh\n# someone else's hook\nexit 0\n"

describe("hook install pre-commit", () => {
  it("writes an executable hook that runs this node and this CLI, with a way out when they move", () => {
    const dir = repo()
    // The built CLI as a process: the hook names the process's own node and script.
    const r = cli(dir, ["hook", "install", "pre-commit"], { env: env() })
    expect(r.status).toBe(0)
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    expect(r.stderr).toBe(`installed ${file}\n`)
    expect(fs.statSync(file).mode & 0o111).toBe(0o111)
    const text = fs.readFileSync(file, "utf8")
    expect(text.startsWith("#!/bin/sh\n")).toBe(true)
    expect(text).toContain(`cli=${CLI}\n`)
    expect(text).toContain(`node=${process.execPath}\n`)
    expect(text).toContain(`exec "$node" "$cli" hook run pre-commit --root "$top" "$@"`)
    expect(text).not.toContain("npx")
  })

  it("refuses a commit with a staged broken carrier (naming file:line) and lets a healthy one through", async () => {
    const dir = repo()
    expect((await run(dir, ["hook", "install", "pre-commit"])).code).toBe(0)
    const before = head(dir)

    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    // git adds nothing of its own: the hook's header opens stderr, then the findings.
    expect(refused.stderr.split("\n")[0]).toBe("specbundle pre-commit: commit refused: 1 refused Spec file (fix it or commit with --no-verify)")
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

  it("honours core.hooksPath (a folder outside the work tree keeps this CLI's path)", async () => {
    const dir = repo()
    const hooks = `${dir}-hooks`
    created.push(hooks)
    git(dir, "config", "core.hooksPath", hooks)
    const r = await run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(0)
    expect(fs.readFileSync(path.join(hooks, "pre-commit"), "utf8")).toContain(`cli=${CLI}\n`)
    expect(fs.existsSync(path.join(dir, ".git", "hooks", "pre-commit"))).toBe(false)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const refused = gitTry(dir, "commit", "-q", "-m", "broken")
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain("specs/broken.sdp.md:")
  })

  it("leaves a foreign hook untouched: exit 1 and one line naming --force", async () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    const r = await run(dir, ["hook", "install", "pre-commit"])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("--force")
    expect(r.lines[0]).toContain(file)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
    expect(fs.existsSync(`${file}.specbundle-backup`)).toBe(false)
  })

  it("--force keeps the foreign hook as pre-commit.specbundle-backup; uninstall removes ours and restores it", async () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    expect((await run(dir, ["hook", "install", "pre-commit", "--force"])).code).toBe(0)
    expect(fs.readFileSync(`${file}.specbundle-backup`, "utf8")).toBe(FOREIGN)
    expect(fs.readFileSync(file, "utf8")).toContain("# specbundle-hook")

    const u = await run(dir, ["hook", "uninstall", "pre-commit"])
    expect(u.code).toBe(0)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
    expect(fs.existsSync(`${file}.specbundle-backup`)).toBe(false)
  })

  it("uninstall removes only a hook specbundle wrote", async () => {
    const dir = repo()
    const file = path.join(dir, ".git", "hooks", "pre-commit")
    expect((await run(dir, ["hook", "install", "pre-commit"])).code).toBe(0)
    expect((await run(dir, ["hook", "uninstall", "pre-commit"])).code).toBe(0)
    expect(fs.existsSync(file)).toBe(false)

    fs.writeFileSync(file, FOREIGN, { mode: 0o755 })
    const r = await run(dir, ["hook", "uninstall", "pre-commit"])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(fs.readFileSync(file, "utf8")).toBe(FOREIGN)
  })

  it("outside a git repository install is exit 1 with one line", async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-cli-nogit-")))
    created.push(dir)
    const r = await run(dir, ["hook", "install", "pre-commit"], { env: { ...env(), GIT_CEILING_DIRECTORIES: path.dirname(dir) } })
    expect(r.code).toBe(1)
    expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1)
  })
})

describe("pre-commit refuses only what the commit stages", () => {
  it("a carrier refused elsewhere is one tally line and lets the commit through; a staged refused carrier blocks it", async () => {
    const dir = repo()
    // A broken carrier committed earlier (before the hook): it must not lock the team out.
    commitBrokenFixture(dir)
    expect((await run(dir, ["hook", "install", "pre-commit"])).code).toBe(0)

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

  it("two staged refused carriers: the header counts them, and --no-verify (which it names) commits anyway", async () => {
    const dir = repo()
    expect((await run(dir, ["hook", "install", "pre-commit"])).code).toBe(0)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    fs.writeFileSync(path.join(dir, "specs", "broken2.sdp.md"), BROKEN.replace("spec:broken", "spec:broken2"))
    git(dir, "add", "-A")
    const before = head(dir)
    const refused = gitTry(dir, "commit", "-q", "-m", "two broken")
    expect(refused.status).not.toBe(0)
    const lines = refused.stderr.trimEnd().split("\n")
    expect(lines[0]).toBe("specbundle pre-commit: commit refused: 2 refused Spec files (fix them or commit with --no-verify)")
    expect(lines.slice(1).every((l) => /^specs\/broken2?\.sdp\.md:\d+: /.test(l))).toBe(true)
    expect(head(dir)).toBe(before)
    expect(gitTry(dir, "commit", "-q", "--no-verify", "-m", "anyway").status).toBe(0)
    expect(head(dir)).not.toBe(before)
  })

  it("an intent-to-add carrier (git add -N) does not refuse a commit", async () => {
    const dir = repo()
    expect((await run(dir, ["hook", "install", "pre-commit"])).code).toBe(0)
    fs.writeFileSync(path.join(dir, "specs", "later.sdp.md"), spec("spec:later", "Later"))
    git(dir, "add", "-N", "specs/later.sdp.md")
    fs.appendFileSync(path.join(dir, "specs", "a.sdp.md"), "\nMore.\n")
    git(dir, "add", "specs/a.sdp.md")
    const ok = gitTry(dir, "commit", "-q", "-m", "alpha")
    expect(ok.status, ok.stderr).toBe(0)
    expect(ok.stderr).toBe("")
  })
})
