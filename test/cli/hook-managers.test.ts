// `specbundle hook print HOOK... --manager husky|lefthook|pre-commit`: the text each manager reads,
// checked without the managers (test/entrances/hook-managers.test.ts runs husky, lefthook and the
// pre-commit framework for real): YAML that reads back to the same guarded sh line, one snippet for
// both hooks, a --root with spaces and quotes that survives YAML and the shell, and the guarded line
// run by a real `git commit`: specbundle from node_modules/.bin, else from PATH, else one line and
// the commit goes through.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parse } from "yaml"
import { describe, expect, it } from "vitest"
import { BROKEN, CLI, IDENTITY, env, git, head, repo, run } from "../support/hooks.js"

const MANAGERS = ["husky", "lefthook", "pre-commit"] as const

const printed = async (dir: string, ...args: string[]) => {
  const r = await run(dir, ["hook", "print", ...args])
  expect(r.code, r.stderr).toBe(0)
  expect(r.stderr).toBe("")
  return r.stdout
}

const guarded = (hook: string, args: string, skipped: string) =>
  `PATH="node_modules/.bin:$PATH"; if command -v specbundle >/dev/null 2>&1; then specbundle hook run ${hook}${args}; else echo "specbundle is not in node_modules/.bin or on PATH, so the ${hook} hook ${skipped} (install specbundle in this project)" >&2; fi`
const COMMIT = guarded("pre-commit", "", "checked nothing")
const PUSH = guarded("pre-push", "", "composed no bundle")

type Lefthook = Record<string, { commands: { specbundle: { run: string; use_stdin?: boolean } } }>
type PreCommit = {
  minimum_pre_commit_version: string
  repos: Array<{ repo: string; hooks: Array<Record<string, unknown> & { id: string; entry: string; stages: string[] }> }>
}

describe("hook print --manager", () => {
  it("husky (the default): one guarded sh line per hook, pre-push passing the remote ($1)", async () => {
    const dir = repo()
    expect(await printed(dir, "pre-commit")).toBe(`${COMMIT}\n`)
    expect(await printed(dir, "pre-push")).toBe(`${guarded("pre-push", ' "$1"', "composed no bundle")}\n`)
    expect(await printed(dir, "pre-push", "--manager", "husky")).toBe(await printed(dir, "pre-push"))
    for (const manager of MANAGERS) expect(await printed(dir, "pre-push", "--manager", manager)).not.toContain(os.tmpdir())
  })

  it("lefthook: YAML whose run: is the guarded line; pre-push passes {1}, --manager lefthook and use_stdin", async () => {
    const dir = repo()
    const text = await printed(dir, "pre-push", "--manager", "lefthook")
    expect(text.split("\n")[0]).toBe("# lefthook.yml (then: lefthook install)")
    const config = parse(text) as Lefthook
    expect(Object.keys(config)).toEqual(["pre-push"])
    expect(config["pre-push"].commands.specbundle).toEqual({
      run: guarded("pre-push", " --manager lefthook {1}", "composed no bundle"),
      use_stdin: true
    })
    expect((parse(await printed(dir, "pre-commit", "--manager", "lefthook")) as Lefthook)["pre-commit"].commands.specbundle).toEqual({ run: COMMIT })
  })

  it("pre-commit: the floor said the framework's way, a stage per hook, the guarded line under sh -c, verbose so its lines show", async () => {
    const dir = repo()
    const text = await printed(dir, "pre-commit", "--manager", "pre-commit")
    expect(text.split("\n").slice(0, 3)).toEqual([
      "# .pre-commit-config.yaml (pre-commit 3.2 or later); in an existing file, add the hooks to its one repos: list",
      "# then: pre-commit install",
      'minimum_pre_commit_version: "3.2.0"'
    ])
    const config = parse(text) as PreCommit
    expect(config.minimum_pre_commit_version).toBe("3.2.0")
    expect(config.repos).toEqual([
      {
        repo: "local",
        hooks: [
          {
            id: "specbundle-pre-commit",
            name: "specbundle pre-commit",
            entry: `sh -c '${COMMIT}'`,
            language: "system",
            stages: ["pre-commit"],
            pass_filenames: false,
            always_run: true,
            verbose: true
          }
        ]
      }
    ])
  })

  it("both hooks at once: one lefthook.yml and one .pre-commit-config.yaml (one repos: list) holding both; husky refuses", async () => {
    const dir = repo()
    const left = parse(await printed(dir, "pre-push", "pre-commit", "--manager", "lefthook")) as Lefthook
    expect(Object.keys(left)).toEqual(["pre-commit", "pre-push"])
    const text = await printed(dir, "pre-commit", "pre-push", "--manager", "pre-commit")
    expect(text.split("\n")[1]).toBe("# then: pre-commit install --hook-type pre-commit --hook-type pre-push")
    expect(text.match(/^repos:/gm)).toHaveLength(1)
    const config = parse(text) as PreCommit
    expect(config.repos).toHaveLength(1)
    expect(config.repos[0].hooks.map((h) => [h.id, h.stages, h.entry])).toEqual([
      ["specbundle-pre-commit", ["pre-commit"], `sh -c '${COMMIT}'`],
      ["specbundle-pre-push", ["pre-push"], `sh -c '${PUSH}'`]
    ])
    // Named twice or in another order: the same text.
    expect(await printed(dir, "pre-push", "pre-commit", "pre-push", "--manager", "pre-commit")).toBe(text)

    const husky = await run(dir, ["hook", "print", "pre-commit", "pre-push"])
    expect(husky.code).toBe(2)
    expect(husky.lines).toEqual([
      "specbundle: arguments: --manager husky prints one hook at a time (a line for .husky/pre-commit, another for .husky/pre-push)."
    ])
    const unknown = await run(dir, ["hook", "print", "pre-commit", "commit-msg", "--manager", "lefthook"])
    expect(unknown.code).toBe(2)
    expect(unknown.lines).toEqual(['specbundle: arguments: hook print takes the hooks pre-commit and pre-push, not "commit-msg".'])
    expect((await run(dir, ["hook", "print", "pre-push", "--manager", "overcommit"])).code).toBe(2)
  })

  it("a --root with a space, a quote and ': ' reaches specbundle whole through each manager's YAML and shell", async () => {
    const dir = repo()
    const root = "docs: it's specs"
    fs.mkdirSync(path.join(dir, root))
    // A stand-in specbundle in node_modules/.bin that prints the arguments it got, one a line.
    fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true })
    fs.writeFileSync(path.join(dir, "node_modules", ".bin", "specbundle"), '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 })
    const shell = (script: string, ...args: string[]) =>
      spawnSync("sh", ["-c", script, "sh", ...args], { cwd: dir, encoding: "utf8", env: { ...env(), PATH: "/usr/bin:/bin" } })
    const expected = ["hook", "run", "pre-commit", "--root", root, ""].join("\n")

    // husky: the line in a sh file.
    expect(shell(await printed(dir, "pre-commit", "--root", root)).stdout).toBe(expected)
    // lefthook: run: through sh -c.
    const left = parse(await printed(dir, "pre-commit", "--root", root, "--manager", "lefthook")) as Lefthook
    expect(shell(left["pre-commit"].commands.specbundle.run).stdout).toBe(expected)
    // pre-commit: entry split into words as a shell splits them (the framework's shlex does the same), no shell around it.
    const entry = (parse(await printed(dir, "pre-commit", "--root", root, "--manager", "pre-commit")) as PreCommit).repos[0].hooks[0].entry
    const words = shell(`printf '%s\\0' ${entry}`).stdout.split("\0").slice(0, -1)
    expect(words.slice(0, 2)).toEqual(["sh", "-c"])
    expect(words).toHaveLength(3)
    expect(spawnSync(words[0], words.slice(1), { cwd: dir, encoding: "utf8", env: { ...env(), PATH: "/usr/bin:/bin" } }).stdout).toBe(expected)
  })
})

describe("the guarded line in a hook file, through a real git commit", () => {
  /** The husky line as the repository's pre-commit hook (what husky's sh runs), PATH without specbundle. */
  const wired = async () => {
    const dir = repo()
    const hook = path.join(dir, ".git", "hooks", "pre-commit")
    fs.writeFileSync(hook, `#!/bin/sh\n${await printed(dir, "pre-commit")}`, { mode: 0o755 })
    return dir
  }
  const commit = (dir: string, PATH: string) =>
    spawnSync("git", [...IDENTITY, "commit", "-q", "-m", "broken"], { cwd: dir, encoding: "utf8", env: { ...env(), PATH } })
  const NODE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`

  it("runs the project's node_modules/.bin/specbundle (not on PATH): a staged broken Spec is refused", async () => {
    const dir = await wired()
    fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true })
    fs.symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "specbundle"))
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const before = head(dir)
    const r = commit(dir, NODE_PATH)
    expect(r.status).not.toBe(0)
    expect(r.stderr.split("\n")[0]).toBe("specbundle pre-commit: commit refused: 1 refused Spec file (fix it or commit with --no-verify)")
    expect(head(dir)).toBe(before)
  })

  it("runs specbundle from PATH when the project has none", async () => {
    const dir = await wired()
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-path-"))
    fs.symlinkSync(CLI, path.join(bin, "specbundle"))
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const r = commit(dir, `${bin}:${NODE_PATH}`)
    fs.rmSync(bin, { recursive: true })
    expect(r.status).not.toBe(0)
    expect(r.stderr).toMatch(/^specs\/broken\.sdp\.md:\d+: /m)
  })

  it("with specbundle nowhere, the commit goes through with one line naming the hook and what it skipped", async () => {
    const dir = await wired()
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    git(dir, "add", "specs/broken.sdp.md")
    const before = head(dir)
    const r = commit(dir, NODE_PATH)
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toBe("specbundle is not in node_modules/.bin or on PATH, so the pre-commit hook checked nothing (install specbundle in this project)\n")
    expect(head(dir)).not.toBe(before)
  })
})
