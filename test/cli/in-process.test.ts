// The seam the in-process tests stand on: a command run in process (test/support/run.ts: the
// program bin.ts runs, with a collecting Output and an Invocation of the test's) gives the bytes and
// the exit code the built CLI gives as a process, for values, findings, refusals, failures, help
// and effect/cli's own output; and the run's folder, environment and stdin are its own.
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { cli, gitCleanEnv } from "../support/cli.js"
import { runGitIn } from "../support/git.js"
import { run } from "../support/run.js"
import { bikeDockCopy, tempDir } from "../support/tmp.js"

describe("a run in process and the built CLI as a process", () => {
  let dir = ""
  beforeAll(() => {
    dir = bikeDockCopy("specbundle-in-process-")
    runGitIn(dir, ["init", "-q", "-b", "main"])
    runGitIn(dir, ["add", "-A"])
    runGitIn(dir, ["commit", "-q", "-m", "corpus"])
    fs.appendFileSync(path.join(dir, "specs", "rides", "ride-fare-rule.sdp.md"), "\nOne more line.\n")
    // A refused carrier: findings on stderr, and exit 1 under --strict.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n")
  })

  it.each([
    ["a value and findings", ["bundle", "--pack", "pack:rides-v1", "--budget", "M"]],
    ["parts", ["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "4000"]],
    ["a changeset as text", ["impact", "--changeset", "HEAD", "--format", "text"]],
    ["--strict with a refused carrier", ["list", "specs", "--strict"]],
    ["check's findings and summary", ["check", "--format", "github"]],
    ["a wrong parameter", ["bundle", "--pack", "pack:nope"]],
    ["a refusal of the parser's", ["bundle", "--pack", "pack:rides-v1", "--bogus"]],
    ["git's failure", ["impact", "--changeset", "no-such-rev"]],
    ["a command's help page", ["impact", "--help"]],
    ["the version", ["--version"]],
    ["effect/cli's completion script", ["--completions", "bash"]]
  ])("%s: the same exit code, stdout and stderr", async (_, args) => {
    const inProcess = await run(dir, args)
    const spawned = cli(dir, args)
    expect(inProcess.status, inProcess.stderr).not.toBeNull()
    expect(inProcess).toEqual(spawned)
  })

  it("the folder, the environment and stdin are the run's own: a relative --root, a setting, a hook's refs", async () => {
    const outside = tempDir("specbundle-in-process-cwd-")
    const relative = path.relative(outside, dir)
    const here = await run(dir, ["list", "packs", "--format", "text"])
    const there = await run(outside, ["list", "packs", "--format", "text", "--root", relative])
    expect(there).toEqual(here)
    expect(here.stdout).toContain("pack:rides-v1")
    const refused = await run(dir, ["check"], { env: { ...gitCleanEnv(), SPECBUNDLE_WORKERS: "many" } })
    expect(refused.status).toBe(2)
    expect(refused.stderr).toBe('specbundle: environment: SPECBUNDLE_WORKERS must be a whole number from 0 to 16 (got "many")\n')
    // pre-push reads git's ref lines on stdin: a deleted ref (all zeros) composes nothing.
    const pushed = await run(dir, ["hook", "run", "pre-push", "origin"], { stdin: `refs/heads/gone ${"0".repeat(40)} refs/heads/gone ${"1".repeat(40)}\n` })
    expect(pushed).toEqual({ status: 0, stdout: "", stderr: "" })
    const nothing = await run(dir, ["hook", "run", "pre-push", "origin"])
    expect(nothing.stderr).toBe("specbundle pre-push: git listed no ref to push (nothing to send); no bundle composed\n")
  })
})
