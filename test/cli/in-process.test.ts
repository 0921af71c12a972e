// The seam the in-process tests stand on: a command run in process (test/support/run.ts: the
// program bin.ts runs, with a collecting Output and an Invocation of the test's) gives the bytes,
// the files and the exit code the built CLI gives as a process, for values, findings, refusals,
// failures, help and effect/cli's own output, files written (-o, --out), token counts, hook runs
// and what a command reads on stdin; and the run's folder, environment and stdin are its own.
// Both sides end through the same exit mapping (exit.ts), so each line also names the exit code
// the contract gives it: a wrong mapping fails there, not only a difference between the two.
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { cli, gitCleanEnv } from "../support/cli.js"
import { runGitIn } from "../support/git.js"
import { run } from "../support/run.js"
import { bikeDockCopy, listFiles, tempDir } from "../support/tmp.js"

describe("a run in process and the built CLI as a process", () => {
  let dir = ""
  /** Where a line writes (-o FILE, --out DIR), the same path for both runs: emptied before each. */
  let scratch = ""
  beforeAll(() => {
    scratch = tempDir("specbundle-in-process-out-")
    dir = bikeDockCopy("specbundle-in-process-")
    runGitIn(dir, ["init", "-q", "-b", "main"])
    runGitIn(dir, ["add", "-A"])
    runGitIn(dir, ["commit", "-q", "-m", "corpus"])
    // An edit the carrier still reads with: the changeset impacts its Spec (Claude Code's hook gives its bundle).
    const edited = path.join(dir, "specs", "rides", "ride-fare-rule.sdp.md")
    fs.writeFileSync(edited, fs.readFileSync(edited, "utf8").replace(/^# (.*)$/m, "# $1, edited"))
    // A refused carrier: findings on stderr, and exit 1 under --strict.
    fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n")
  })

  /** What `scratch` holds after a run, path -> text. */
  const written = (): Record<string, string> => Object.fromEntries(listFiles(scratch).map((f) => [f, fs.readFileSync(path.join(scratch, f), "utf8")]))
  /** git's ref line for a first push of main: its commit, and no commit on the remote yet. */
  const pushed = () => `refs/heads/main ${runGitIn(dir, ["rev-parse", "HEAD"]).trim()} refs/heads/main ${"0".repeat(40)}\n`
  const event = () => `${JSON.stringify({ session_id: "in-process", hook_event_name: "SessionStart", source: "startup" })}\n`

  it.each<[string, number, (scratch: string) => ReadonlyArray<string>, (() => string)?]>([
    ["a value and findings", 0, () => ["bundle", "--pack", "pack:rides-v1", "--budget", "M"]],
    ["parts", 0, () => ["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "4000"]],
    ["-o FILE", 0, (s) => ["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "4000", "-o", path.join(s, "bundle.json")]],
    ["--out DIR", 0, (s) => ["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "4000", "--out", path.join(s, "out")]],
    ["--tokens with --out", 0, (s) => ["bundle", "--pack", "pack:rides-v1", "--parts", "--budget", "4000", "--tokens", "o200k_base", "--out", s]],
    ["--budget-tokens", 0, () => ["bundle", "--pack", "pack:rides-v1", "--tokens", "cl100k_base", "--budget-tokens", "900"]],
    ["a value over budget with --fail-on-exceeded", 3, () => ["bundle", "--pack", "pack:rides-v1", "--budget", "300", "--fail-on-exceeded"]],
    ["a changeset as text", 0, () => ["impact", "--changeset", "HEAD", "--format", "text"]],
    ["--strict with a refused carrier", 1, () => ["list", "specs", "--strict"]],
    ["check's findings and summary", 1, () => ["check", "--format", "github"]],
    ["a wrong parameter", 2, () => ["bundle", "--pack", "pack:nope"]],
    ["a refusal of the parser's", 2, () => ["bundle", "--pack", "pack:rides-v1", "--bogus"]],
    ["git's failure", 1, () => ["impact", "--changeset", "no-such-rev"]],
    ["a -o FILE in a folder that does not exist", 1, (s) => ["bundle", "--pack", "pack:rides-v1", "-o", path.join(s, "nowhere", "bundle.json")]],
    ["the pre-commit hook", 0, () => ["hook", "run", "pre-commit"]],
    ["the pre-push hook, git's ref lines on stdin", 0, () => ["hook", "run", "pre-push", "origin"], pushed],
    ["Claude Code's session-start hook, its event on stdin", 0, () => ["hook", "run", "session-start"], event],
    ["a command's help page", 0, () => ["impact", "--help"]],
    ["the version", 0, () => ["--version"]],
    ["effect/cli's completion script", 0, () => ["--completions", "bash"]]
  ])("%s: exit %i, and the same stdout, stderr and files as a process", async (_, code, argsFor, stdinFor) => {
    const args = argsFor(scratch)
    const stdin = stdinFor?.()
    fs.rmSync(scratch, { recursive: true, force: true })
    fs.mkdirSync(scratch)
    const inProcess = await run(dir, args, { stdin })
    const filesInProcess = written()
    fs.rmSync(scratch, { recursive: true, force: true })
    fs.mkdirSync(scratch)
    const spawned = cli(dir, args, { input: stdin })
    expect(spawned.status, spawned.stderr).toBe(code)
    expect(inProcess).toEqual(spawned)
    expect(filesInProcess).toEqual(written())
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
