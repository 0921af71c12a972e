// The hook managers for real, as a team wires them in a project install: the packed tarball
// installed as a devDependency of a scratch git repository together with the manager from the npm
// registry (husky, lefthook: its npm package ships the binary), or the pre-commit framework where the
// machine has it (PyPI is not asked here; where `pre-commit` is not on PATH one `skipped: …` line
// says so). What the installed `npx specbundle hook print` gives is committed where the manager
// reads it; then real `git commit` and `git push` (to a local bare repository): a good commit
// passes, a broken staged Spec is refused with the hook's header line, a push composes the pushed
// range into .git/specbundle/<remote>/, a push with nothing to send keeps that bundle, and with
// specbundle uninstalled a commit and a push go through with one line each.
//
// SLOW (one npm pack for the file, then one npm install per manager, from npm's cache first).
// PATH holds node, git and pre-commit's folders and /usr/bin:/bin, never node_modules/.bin: the
// line `hook print` gives must find the project's specbundle itself (lefthook and the pre-commit
// framework do not put node_modules/.bin on PATH).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { runAsync } from "../support/cli.js"
import { REPO, npmFreeEnv, packWorkingTree, sh } from "../support/pack.js"
import { skipping } from "../support/skip.js"
import { tempDir } from "../support/tmp.js"

/** The managers' versions: pinned, so a registry release never changes what this file tests. */
const HUSKY = "husky@9.1.7"
const LEFTHOOK = "lefthook@2.2.4"

const HEADER = "specbundle pre-commit: commit refused: 1 refused Spec file (fix it or commit with --no-verify)"
const MISSING_COMMIT = "specbundle is not in node_modules/.bin or on PATH, so the pre-commit hook checked nothing (install specbundle in this project)"
const MISSING_PUSH = "specbundle is not in node_modules/.bin or on PATH, so the pre-push hook composed no bundle (install specbundle in this project)"

const spec = (id: string, title: string): string => `---\nid: ${id}\nkind: behavior\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# ${title}\n`
const BROKEN = "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n"

/** Where a program lives on the test's own PATH, or null. */
const which = (program: string): string | null => {
  const r = spawnSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" })
  return r.status === 0 ? r.stdout.trim() : null
}
const PRE_COMMIT = which("pre-commit")
const GIT = which("git") ?? "/usr/bin/git"
const PATH = [...new Set([path.dirname(process.execPath), path.dirname(GIT), ...(PRE_COMMIT ? [path.dirname(PRE_COMMIT)] : []), "/usr/bin", "/bin"])].join(":")

/** A project's environment: no outer git or npm run's variables, the PATH above, pre-commit's cache in a temp folder. */
const projectEnv = (() => {
  let cached: NodeJS.ProcessEnv | undefined
  return (): NodeJS.ProcessEnv => {
    if (cached) return cached
    const e: NodeJS.ProcessEnv = { ...npmFreeEnv(), GIT_CONFIG_NOSYSTEM: "1" }
    for (const key of Object.keys(e)) if (key.startsWith("GIT_") && key !== "GIT_CONFIG_NOSYSTEM") delete e[key]
    cached = {
      ...e,
      PATH,
      PRE_COMMIT_HOME: tempDir("specbundle-pre-commit-home-"),
      GIT_AUTHOR_NAME: "Team",
      GIT_AUTHOR_EMAIL: "team@example.invalid",
      GIT_COMMITTER_NAME: "Team",
      GIT_COMMITTER_EMAIL: "team@example.invalid",
      // The colours lefthook and pre-commit print would split the lines this file reads.
      NO_COLOR: "1",
      TERM: "dumb"
    }
    return cached
  }
})()

/**
 * A Node older than the package supports, where the machine has one (Debian 12's and many CI
 * images' Node 20 in /usr/bin), and its version; null where there is none.
 */
const OLD_NODE = (() => {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    const r = spawnSync(candidate, ["-p", "process.version"], { encoding: "utf8" })
    const m = /^v(\d+)\.(\d+)\./.exec(r.stdout ?? "")
    if (r.status === 0 && m && (Number(m[1]) < 22 || (Number(m[1]) === 22 && Number(m[2]) < 19))) return { node: candidate, version: r.stdout.trim() }
  }
  return null
})()
const NO_OLD_NODE = skipping(OLD_NODE === null, "hook runs on an older Node", "no Node older than 22.19 in /usr/bin or /usr/local/bin")
/** The project's environment with that Node first on PATH (a shell or CI image whose Node is 20). */
const oldNodeEnv = (() => {
  let cached: NodeJS.ProcessEnv | undefined
  return (): NodeJS.ProcessEnv => {
    if (cached) return cached
    const bin = tempDir("specbundle-old-node-")
    fs.symlinkSync(OLD_NODE!.node, path.join(bin, "node"))
    cached = { ...projectEnv(), PATH: [bin, ...PATH.split(":").filter((d) => d !== path.dirname(process.execPath))].join(":") }
    return cached
  }
})()
/** The line a hook run on that Node gives: what it needs, what the hook left undone, how to get it. */
const oldNodeLine = (hook: string, skipped: string) =>
  `specbundle needs Node 22.19 or later; this is ${OLD_NODE?.version}, so the ${hook} hook ${skipped}. Get it for this project with npm install -D node@22 (npm scripts, npx and the hook lines then run it), or from your version manager`

const run = (cwd: string, command: string, ...args: string[]) => runAsync(command, args, { cwd, env: projectEnv(), timeout: 240_000 })
const git = async (cwd: string, ...args: string[]) => gitWith(projectEnv(), cwd, ...args)
const gitWith = async (env: NodeJS.ProcessEnv, cwd: string, ...args: string[]) => {
  const r = await runAsync("git", ["-c", "commit.gpgsign=false", ...args], { cwd, env, timeout: 240_000 })
  // What the managers print (on either stream) is read as one text.
  return { status: r.status, stderr: r.stderr, out: `${r.stdout}\n${r.stderr}` }
}
const ok = async (cwd: string, command: string, ...args: string[]) => {
  const r = await run(cwd, command, ...args)
  expect(r.status, `${command} ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0)
  return r.stdout
}
const head = async (cwd: string) => (await ok(cwd, "git", "rev-parse", "HEAD")).trim()
const linesWith = (text: string, line: string) => text.split("\n").filter((l) => l.includes(line))

let tarball = ""
beforeAll(async () => {
  ;({ tarball } = await packWorkingTree())
}, 600_000)

/**
 * A team's repository: package.json, the tarball installed as a devDependency with `devDeps`, two
 * Specs, committed before any hook. Also a bare repository `fork` that already holds main.
 */
const teamProject = async (devDeps: ReadonlyArray<string>) => {
  const dir = tempDir("specbundle-team-")
  await ok(dir, "git", "init", "-q", "-b", "main")
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: "team", version: "1.0.0", private: true }, null, 2)}\n`)
  fs.copyFileSync(tarball, path.join(dir, path.basename(tarball)))
  const install = await sh(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", `./${path.basename(tarball)}`, ...devDeps],
    dir,
    projectEnv()
  )
  expect(install.status, install.stderr).toBe(0)
  expect(fs.existsSync(path.join(dir, "node_modules", ".bin", "specbundle"))).toBe(true)
  fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules/\n*.tgz\n")
  fs.mkdirSync(path.join(dir, "specs"))
  fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
  fs.writeFileSync(path.join(dir, "specs", "b.sdp.md"), spec("spec:b", "Beta"))
  await ok(dir, "git", "add", "-A")
  await ok(dir, "git", "commit", "-q", "-m", "the project")
  const bare = tempDir("specbundle-team-remote-")
  await ok(bare, "git", "init", "-q", "--bare")
  await ok(dir, "git", "remote", "add", "fork", bare)
  await ok(dir, "git", "push", "-q", "--no-verify", "fork", "main")
  return dir
}

/** What the installed specbundle prints for `manager`, as a user runs it. */
const printed = (dir: string, manager: string, ...hooks: string[]) =>
  ok(dir, "npx", "--no", "--", "specbundle", "hook", "print", ...hooks, "--manager", manager)

/**
 * The checks every manager goes through, in order, once its hooks are wired in `dir`.
 * `nothingToSend`: the line a push with nothing to send gives (null: the manager runs no hook then).
 */
const exercise = (setup: () => Promise<string>, nothingToSend: string | null) => {
  let dir = ""
  beforeAll(async () => {
    dir = await setup()
  }, 600_000)

  it("a good commit passes", async () => {
    const before = await head(dir)
    fs.writeFileSync(path.join(dir, "specs", "c.sdp.md"), spec("spec:c", "Gamma"))
    await ok(dir, "git", "add", "specs/c.sdp.md")
    const r = await git(dir, "commit", "-q", "-m", "gamma")
    expect(r.status, r.out).toBe(0)
    expect(await head(dir)).not.toBe(before)
    expect(r.out).not.toContain("refused")
    expect(r.out).not.toContain("specbundle is not in")
  }, 120_000)

  it("a broken staged Spec is refused with the hook's header line and its finding", async () => {
    const before = await head(dir)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    await ok(dir, "git", "add", "specs/broken.sdp.md")
    const r = await git(dir, "commit", "-q", "-m", "broken")
    expect(r.status).not.toBe(0)
    expect(linesWith(r.out, HEADER), r.out).toEqual([HEADER])
    expect(r.out).toMatch(/^specs\/broken\.sdp\.md:\d+: /m)
    expect(await head(dir)).toBe(before)
    await ok(dir, "git", "rm", "-q", "--cached", "specs/broken.sdp.md")
    fs.rmSync(path.join(dir, "specs", "broken.sdp.md"))
  }, 120_000)

  it("a push composes the pushed range into .git/specbundle/fork/; a push with nothing to send keeps it", async () => {
    const main = await head(dir)
    await ok(dir, "git", "checkout", "-q", "-b", "feature")
    fs.writeFileSync(path.join(dir, "specs", "d.sdp.md"), spec("spec:d", "Delta"))
    await ok(dir, "git", "add", "specs/d.sdp.md")
    expect((await git(dir, "commit", "-q", "-m", "delta")).status).toBe(0)
    // main's commit gamma is not on fork yet: the range starts at what fork holds.
    const onFork = (await ok(dir, "git", "rev-parse", "fork/main")).trim()
    const r = await git(dir, "push", "-q", "fork", "feature")
    expect(r.status, r.out).toBe(0)
    const folder = path.join(dir, ".git", "specbundle", "fork")
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8"))
    expect(manifest.scope.changeset).toBe(`${onFork}..${await head(dir)}`)
    expect(manifest.scope.specs).toEqual(["spec:c", "spec:d"])
    expect(main).not.toBe(onFork)

    const again = await git(dir, "push", "fork", "feature")
    expect(again.status, again.out).toBe(0)
    expect(again.out).toContain("Everything up-to-date")
    if (nothingToSend !== null) expect(linesWith(again.out, "specbundle pre-push:"), again.out).toEqual([nothingToSend])
    expect(fs.existsSync(path.join(folder, "manifest.json"))).toBe(true)
  }, 120_000)

  it.skipIf(NO_OLD_NODE)(
    "with Node 20 first on PATH, a commit (even a broken Spec) and a push go through with one line each naming Node 22.19",
    async () => {
      const old = oldNodeEnv()
      expect((await runAsync("node", ["-p", "process.version"], { cwd: dir, env: old, timeout: 60_000 })).stdout.trim()).toBe(OLD_NODE!.version)
      const before = await head(dir)
      fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
      await ok(dir, "git", "add", "specs/broken.sdp.md")
      const c = await gitWith(old, dir, "commit", "-q", "-m", "on an older Node")
      expect(c.status, c.out).toBe(0)
      expect(await head(dir)).not.toBe(before)
      expect(linesWith(c.out, "specbundle needs Node"), c.out).toEqual([oldNodeLine("pre-commit", "checked nothing")])
      expect(c.out).not.toMatch(/^\s+at |Error:/m)
      const p = await gitWith(old, dir, "push", "-q", "fork", "HEAD:older-node")
      expect(p.status, p.out).toBe(0)
      expect(linesWith(p.out, "specbundle needs Node"), p.out).toEqual([oldNodeLine("pre-push", "composed no bundle")])
      // Back to a commit the next case starts from.
      await ok(dir, "git", "rm", "-q", "specs/broken.sdp.md")
      await ok(dir, "git", "commit", "-q", "--no-verify", "-m", "broken Spec gone")
    },
    120_000
  )

  it("with specbundle uninstalled, a commit (even a broken Spec) and a push go through with one line each", async () => {
    await ok(dir, "npm", "uninstall", "--no-audit", "--no-fund", "specbundle")
    expect(fs.existsSync(path.join(dir, "node_modules", ".bin", "specbundle"))).toBe(false)
    // Nor anywhere on the PATH the hooks get.
    expect((await run(dir, "sh", "-c", "command -v specbundle")).status).not.toBe(0)
    const before = await head(dir)
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
    await ok(dir, "git", "add", "-A")
    const c = await git(dir, "commit", "-q", "-m", "no tool")
    expect(c.status, c.out).toBe(0)
    expect(await head(dir)).not.toBe(before)
    // One line of ours (the managers' own lines name the hook "specbundle" too), no shell error.
    expect(linesWith(c.out, "specbundle is not in"), c.out).toEqual([MISSING_COMMIT])
    expect(c.out).not.toMatch(/^specbundle( pre-commit)?: |not found|No such file|127/m)

    const p = await git(dir, "push", "-q", "fork", "feature")
    expect(p.status, p.out).toBe(0)
    expect(linesWith(p.out, "specbundle is not in"), p.out).toEqual([MISSING_PUSH])
    expect(p.out).not.toMatch(/^specbundle( pre-push)?: |not found|No such file|127/m)
  }, 120_000)
}

describe.skipIf(NO_OLD_NODE)(
  "on Node 20 (first on PATH), in a project install: hook install's committed hook and the Claude Code hooks let git and the session go on, other commands refuse",
  () => {
    let dir = ""
    beforeAll(async () => {
      dir = await teamProject([])
    }, 600_000)

    it("the hook hook install writes into a committed hooks folder: a commit passes with one line naming Node 22.19", async () => {
      await ok(dir, "git", "config", "core.hooksPath", ".githooks")
      await ok(dir, "npx", "--no", "--", "specbundle", "hook", "install", "pre-commit")
      const before = await head(dir)
      fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
      await ok(dir, "git", "add", "-A")
      const c = await gitWith(oldNodeEnv(), dir, "commit", "-q", "-m", "on an older Node")
      expect(c.status, c.out).toBe(0)
      expect(await head(dir)).not.toBe(before)
      expect(linesWith(c.out, "specbundle"), c.out).toEqual([oldNodeLine("pre-commit", "checked nothing")])
    }, 120_000)

    it("the Claude Code hooks, as hook print --manager claude-code gives them: exit 0, nothing on stdout, one line", async () => {
      const settings = JSON.parse(await printed(dir, "claude-code", "session-start", "user-prompt-submit")) as {
        hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>
      }
      for (const [event, hook] of [
        ["SessionStart", "session-start"],
        ["UserPromptSubmit", "user-prompt-submit"]
      ] as const) {
        const command = settings.hooks[event]![0]!.hooks[0]!.command
        const r = await runAsync("sh", ["-c", command], {
          cwd: dir,
          env: { ...oldNodeEnv(), CLAUDE_PROJECT_DIR: dir },
          timeout: 60_000,
          input: JSON.stringify({ hook_event_name: event, prompt: "hello" })
        })
        expect(r.status, r.stderr).toBe(0)
        expect(r.stdout).toBe("")
        expect(r.stderr).toBe(`${oldNodeLine(hook, "added no context")}\n`)
      }
    }, 120_000)

    it("specbundle bundle and npx specbundle --help still refuse with exit 1 and the one line, saying how to get Node 22", async () => {
      for (const args of [["bundle", "--pack", "pack:none"], ["--help"]]) {
        const r = await runAsync("npx", ["--no", "--", "specbundle", ...args], { cwd: dir, env: oldNodeEnv(), timeout: 120_000 })
        expect(r.status, r.stderr).toBe(1)
        expect(r.stdout).toBe("")
        expect(r.stderr).toBe(
          `specbundle needs Node 22.19 or later; this is ${OLD_NODE!.version}. Get it for this project with npm install -D node@22 (npm scripts, npx and the hook lines then run it), or from your version manager\n`
        )
      }
    }, 240_000)

    it("the line's advice, npm install -D node@22 run by Node 20's npm: npx specbundle and the committed hook then run on Node 22", async () => {
      // The version the clone pins (npm's cache holds the platform binary the package's preinstall fetches).
      const pinned = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).devDependencies.node as string
      const install = await runAsync("npm", ["install", "-D", "--prefer-offline", "--no-audit", "--no-fund", `node@${pinned}`], {
        cwd: dir,
        env: oldNodeEnv(),
        timeout: 540_000
      })
      expect(install.status, install.stderr).toBe(0)
      const version = await runAsync("npx", ["--no", "--", "specbundle", "--version"], { cwd: dir, env: oldNodeEnv(), timeout: 120_000 })
      expect(version.status, version.stderr).toBe(0)
      // The committed hook runs again: the broken Spec staged in this commit is refused.
      fs.writeFileSync(path.join(dir, "specs", "broken2.sdp.md"), BROKEN.replace("spec:broken", "spec:broken2"))
      await ok(dir, "git", "add", "-A")
      const c = await gitWith(oldNodeEnv(), dir, "commit", "-q", "-m", "on Node 22 again")
      expect(c.status, c.out).not.toBe(0)
      expect(c.out).toMatch(/^specs\/broken2\.sdp\.md:\d+: /m)
      expect(c.out).not.toContain("specbundle needs Node")
    }, 600_000)
  }
)

describe("husky (npm registry), the lines hook print gives in .husky/pre-commit and .husky/pre-push", () => {
  exercise(async () => {
    const dir = await teamProject([HUSKY])
    // `npx husky` is what husky's `prepare` script runs: core.hooksPath=.husky/_.
    await ok(dir, "npx", "--no", "--", "husky")
    fs.writeFileSync(path.join(dir, ".husky", "pre-commit"), await printed(dir, "husky", "pre-commit"))
    fs.writeFileSync(path.join(dir, ".husky", "pre-push"), await printed(dir, "husky", "pre-push"))
    return dir
  }, "specbundle pre-push: git listed no ref to push (nothing to send); no bundle composed")
})

describe("lefthook (npm registry), the lefthook.yml hook print gives for both hooks", () => {
  exercise(async () => {
    const dir = await teamProject([LEFTHOOK])
    fs.writeFileSync(path.join(dir, "lefthook.yml"), await printed(dir, "lefthook", "pre-commit", "pre-push"))
    await ok(dir, "npx", "--no", "--", "lefthook", "install")
    return dir
  }, "specbundle pre-push: git listed no ref to push: nothing to send, or the lefthook entry lacks use_stdin: true (see specbundle hook print pre-push --manager lefthook); no bundle composed")
})

/** pre-commit's version on this machine, or null when it is not on PATH. */
const preCommitVersion = (): number[] | null => {
  if (PRE_COMMIT === null) return null
  const r = spawnSync(PRE_COMMIT, ["--version"], { encoding: "utf8" })
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(r.stdout)
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null
}
const VERSION = preCommitVersion()
if (VERSION === null) console.log("skipped: the pre-commit framework's tests: pre-commit is not on PATH (pipx install pre-commit, or apt install pre-commit)")
/** stages named after git's hooks (pre-commit, pre-push) came with pre-commit 3.2. */
const MODERN = VERSION !== null && (VERSION[0]! > 3 || (VERSION[0] === 3 && VERSION[1]! >= 2))

/** The README's form for pre-commit before 3.2: the older stage names, no version floor. */
const olderStages = (config: string): string =>
  config
    .replace("stages: [pre-commit]", "stages: [commit]")
    .replace("stages: [pre-push]", "stages: [push]")
    .replace(/^minimum_pre_commit_version: .*\n/m, "")

describe.skipIf(VERSION === null)(
  `the pre-commit framework (${VERSION?.join(".") ?? "absent"}, from PATH), the .pre-commit-config.yaml hook print gives for both hooks`,
  () => {
    const wire = async (edit: (config: string) => string) => {
      const dir = await teamProject([])
      fs.writeFileSync(path.join(dir, ".pre-commit-config.yaml"), edit(await printed(dir, "pre-commit", "pre-commit", "pre-push")))
      await ok(dir, PRE_COMMIT!, "install", "--hook-type", "pre-commit", "--hook-type", "pre-push")
      return dir
    }

    it.skipIf(skipping(MODERN, "pre-commit before 3.2 refusing the printed stages", `the pre-commit on PATH is ${VERSION?.join(".")}, 3.2 or later`))(
      "before 3.2 the printed file is refused at its stages, before pre-commit reads minimum_pre_commit_version (3.6 reads that first)",
      async () => {
        const dir = await wire((c) => c)
        const r = await git(dir, "commit", "-q", "--allow-empty", "-m", "x")
        expect(r.status).not.toBe(0)
        expect(r.out).toContain("At key: stages")
        expect(r.out).toContain("but got: 'pre-commit'")
      },
      300_000
    )

    // 3.2 and later: the printed file; before: the README's form with the older stage names.
    describe(MODERN ? "as printed" : "with the older stage names the README gives for pre-commit before 3.2", () => {
      // The framework runs no hook for a push with nothing to send.
      exercise(() => wire(MODERN ? (c) => c : olderStages), null)
    })
  }
)
