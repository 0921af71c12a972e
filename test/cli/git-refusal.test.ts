// git refusing the repository (safe.directory: a checkout owned by another user, common in CI
// containers) is one stderr line naming git's reason and the fix, exit 1, for every command that
// asks git: never a silent read of the files git would ignore. A folder outside any repository
// is still read as a plain folder.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { gitCleanEnv } from "../support/cli.js"
import { run } from "../support/run.js"
import { makeRepo, specCarrier, tempDir } from "../support/git.js"
import { skipping } from "../support/skip.js"

const PACK = "---\nid: pack:p\nspecs:\n  - spec:a\n---\n# P\n"
const BROKEN = "---\nid: spec:x\nkind: rule\nbroken: [\n---\n# Ignored and broken\n"

/** A corpus whose git-ignored build/ holds a broken carrier: read, it would refuse `check`. */
const corpus = () => {
  const repo = makeRepo()
  repo.write("specs/a.sdp.md", specCarrier("spec:a", "Alpha"))
  repo.write("specs/p.pack.sdp.md", PACK)
  repo.write(".gitignore", "build/\n")
  repo.commit("corpus")
  repo.write("build/x.sdp.md", BROKEN)
  return repo
}

/** git 2.39's ownership check treats the repository as another user's (t/test-lib's switch). */
const refusedEnv = (): NodeJS.ProcessEnv => ({ ...gitCleanEnv(), GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" })

const refusalLine = (dir: string) =>
  new RegExp(
    `^specbundle: git refuses the repository ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: detected dubious ownership .*run: git config --global --add safe\\.directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`
  )

const COMMANDS: ReadonlyArray<ReadonlyArray<string>> = [
  ["check"],
  ["bundle", "--pack", "pack:p"],
  ["bundle", "--specs", "spec:a"],
  ["impact", "--changeset", "HEAD"]
]

describe("git refusing the repository", () => {
  it("trusted, the ignored carrier is not read: every command succeeds", async () => {
    const { dir } = corpus()
    for (const args of COMMANDS) {
      const r = await run(dir, args)
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(0)
      expect(r.stderr).not.toContain("build/x.sdp.md")
    }
  })

  it("refused (GIT_TEST_ASSUME_DIFFERENT_OWNER), check, bundle --pack/--specs and impact give one line with git's reason and the fix, exit 1, no output", async () => {
    const { dir } = corpus()
    for (const args of COMMANDS) {
      const r = await run(dir, args, { env: refusedEnv() })
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(1)
      expect(r.stdout).toBe("")
      const lines = r.stderr.split("\n").filter((l) => l !== "")
      expect(lines, args.join(" ")).toHaveLength(1)
      expect(lines[0]).toMatch(refusalLine(dir))
    }
  })

  it.skipIf(skipping(process.getuid?.() !== 0, "a repository owned by another user", "only root can chown a folder to another user"))(
    "a repository really owned by another user (chown, as root) is refused the same way",
    async () => {
      const { dir } = corpus()
      fs.chownSync(dir, 12345, 12345)
      fs.chownSync(path.join(dir, ".git"), 12345, 12345)
      for (const args of COMMANDS) {
        const r = await run(dir, args)
        expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(1)
        expect(r.stderr.split("\n").filter((l) => l !== "")).toEqual([expect.stringMatching(refusalLine(dir))])
      }
      // Trusted through safe.directory (a config file of its own), it reads again.
      const config = path.join(tempDir("specbundle-safe-"), "gitconfig")
      fs.writeFileSync(config, `[safe]\n\tdirectory = ${dir}\n`)
      const trusted = await run(dir, ["check"], { env: { ...gitCleanEnv(), GIT_CONFIG_GLOBAL: config } })
      expect(trusted.status, trusted.stderr).toBe(0)
    }
  )

  it("a folder outside any repository is still read whole (no git refusal there to report)", async () => {
    const dir = tempDir("specbundle-plain-")
    fs.mkdirSync(path.join(dir, "specs"))
    fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), specCarrier("spec:a", "Alpha"))
    fs.mkdirSync(path.join(dir, "build"))
    fs.writeFileSync(path.join(dir, "build", "x.sdp.md"), BROKEN)
    const env = { ...refusedEnv(), GIT_CEILING_DIRECTORIES: path.dirname(dir) }
    const r = await run(dir, ["check"], { env })
    // No git repository: nothing is ignored, so the broken carrier is read and refused.
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^build\/x\.sdp\.md:\d+: extract\//m)
    expect(r.stderr).not.toContain("git refuses")
  })
})

describe("git in the user's language", () => {
  // gettext reads LANGUAGE before the locale whenever the locale is not plain C: with C.UTF-8 (every
  // glibc has it) and LANGUAGE=de, git speaks German where its translations are installed.
  const german: NodeJS.ProcessEnv = { ...gitCleanEnv(), LANGUAGE: "de", LC_ALL: "C.UTF-8", LANG: "de_DE.UTF-8" }
  const translated = () => {
    const r = spawnSync("git", ["rev-parse", "--git-dir"], { cwd: tempDir(), env: german, encoding: "utf8" })
    return !/not a git repository/.test(r.stderr) && r.stderr.trim() !== ""
  }

  const untranslated = skipping(!translated(), "git in German", "this machine's git has no German translation installed")

  it.skipIf(untranslated)("LANGUAGE=de: the refusal still names git's reason and safe.directory (git runs with LC_ALL=C)", async () => {
    const { dir } = corpus()
    const r = await run(dir, ["impact", "--changeset", "HEAD"], { env: { ...german, GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" } })
    expect(r.status, r.stderr).toBe(1)
    const lines = r.stderr.split("\n").filter((l) => l !== "")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(refusalLine(dir))
  })

  it("LANGUAGE=de: a trusted repository still reads as one (no German message taken for a failure)", async () => {
    const { dir } = corpus()
    const r = await run(dir, ["impact", "--changeset", "HEAD"], { env: german })
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toHaveProperty("changeset")
  })

  it("the caller's editor, pager, askpass, ssh and config variables still reach git (simple-git refuses an explicit environment holding them unless allowed)", async () => {
    const { dir } = corpus()
    const env = {
      ...gitCleanEnv(),
      EDITOR: "vi",
      GIT_EDITOR: "vi",
      PAGER: "less",
      GIT_PAGER: "less",
      GIT_ASKPASS: "/bin/false",
      GIT_SSH_COMMAND: "ssh",
      GIT_EXTERNAL_DIFF: "/bin/false",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "safe.directory",
      GIT_CONFIG_VALUE_0: dir
    }
    const r = await run(dir, ["impact", "--changeset", "HEAD"], { env: { ...env, GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" } })
    // safe.directory from GIT_CONFIG_* trusts the repository git would otherwise refuse.
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toHaveProperty("changeset")
  })
})
