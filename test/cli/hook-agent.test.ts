// Claude Code's hooks (issue 40): `hook print session-start|user-prompt-submit --manager
// claude-code` prints the .claude/settings.json hooks in the documented shape, and the command they
// hold, taken out of the printed JSON and run with `sh -c` in the project as Claude Code runs it,
// hands Claude the bundle of the working changes in one JSON object under 10,000 characters, or
// prints nothing; always exit 0. Real git repositories (the bike-dock history of
// examples/make-history.mjs); the printed hooks run the built CLI as `specbundle` on PATH or in
// node_modules/.bin, and `hook print` and the `bundle` runs they are compared with run in process.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import type { Rendered } from "../../src/entrances/cli/hooks/agents.js"
import { CONTEXT_CEILING, contextOutput, fitContext } from "../../src/entrances/cli/hooks/agents.js"
import type { Run } from "../support/cli.js"
import { BIN, REPO, gitCleanEnv, runAsync } from "../support/cli.js"
import { run } from "../support/run.js"
import { exampleHistory, runGitIn } from "../support/git.js"
import { tempDir } from "../support/tmp.js"

const NODE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`
/** What Claude Code takes whole (issue 40: measured up to 10,000 characters). */
const WHOLE = 10_000

/** A folder holding `specbundle` (the built CLI), as `npm link` or a global install gives. */
const binDir = (): string => {
  const dir = tempDir("specbundle-agent-bin-")
  fs.symlinkSync(BIN, path.join(dir, "specbundle"))
  return dir
}

/** examples/make-history.mjs: bike-dock in two commits, nothing changed since. */
const history = (): string => exampleHistory("specbundle-agent-history-").dir

const append = (dir: string, file: string, text: string) => fs.appendFileSync(path.join(dir, file), text)
const FARE_RULE = "specs/rides/ride-fare-rule.sdp.md"
const FARE_LINE = "- A ride that ends at a closed station costs nothing for the last minute.\n"

type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout: number }> }>> }

const printed = async (dir: string, ...args: string[]): Promise<string> => {
  const r = await run(dir, ["hook", "print", ...args])
  expect(r.stderr).toBe("")
  expect(r.status).toBe(0)
  return r.stdout
}

/** The command of the one handler the settings give `event` (SessionStart or UserPromptSubmit). */
const commandOf = (settings: Settings, event: string): string => {
  const groups = settings.hooks[event]
  expect(groups).toHaveLength(1)
  expect(groups[0].hooks).toHaveLength(1)
  return groups[0].hooks[0].command
}

/** The commands `hook print session-start user-prompt-submit --manager claude-code` gives in `dir`. */
const commands = async (dir: string) => {
  const settings = JSON.parse(await printed(dir, "session-start", "user-prompt-submit", "--manager", "claude-code")) as Settings
  return { start: commandOf(settings, "SessionStart"), prompt: commandOf(settings, "UserPromptSubmit") }
}

/**
 * `sh -c COMMAND` in `cwd`, as Claude Code runs a hook: the project folder in CLAUDE_PROJECT_DIR,
 * the event as JSON on stdin (closed after it). Asynchronous, so the worker's event loop stays free.
 */
const runHook = (command: string, o: { cwd: string; project?: string; PATH: string; input?: string }): Promise<Run> => {
  const env: NodeJS.ProcessEnv = { ...gitCleanEnv(), PATH: o.PATH }
  if (o.project !== undefined) env.CLAUDE_PROJECT_DIR = o.project
  return runAsync("sh", ["-c", command], { cwd: o.cwd, env, timeout: 60_000, input: o.input ?? "" })
}

const lines = (text: string) => text.split("\n").filter((l) => l !== "")

interface Delivered {
  readonly event: string
  readonly context: string
  readonly bundle: {
    scope: { specs: string[]; changeset: string }
    budget: number
    used: number
    part?: { index: number; of: number }
    members: Array<{ id: string }>
  }
}

/** One JSON object on one line, under 10,000 characters, with the bundle as the event's additionalContext. */
const delivered = (r: Run): Delivered => {
  expect(r.status, r.stderr).toBe(0)
  expect(r.stdout.length).toBeLessThan(WHOLE)
  expect(r.stdout.length).toBeLessThanOrEqual(CONTEXT_CEILING)
  expect(r.stdout.endsWith("\n")).toBe(true)
  expect(lines(r.stdout)).toHaveLength(1)
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }
  expect(Object.keys(out)).toEqual(["hookSpecificOutput"])
  expect(Object.keys(out.hookSpecificOutput)).toEqual(["hookEventName", "additionalContext"])
  const context = out.hookSpecificOutput.additionalContext
  const bundle = JSON.parse(context) as Delivered["bundle"]
  // The value's own measure: `used` is the length of its compact text, within its budget.
  expect(bundle.used).toBe(context.length)
  expect(bundle.used).toBeLessThanOrEqual(bundle.budget)
  return { event: out.hookSpecificOutput.hookEventName, context, bundle }
}

/** Nothing for the context, exit 0, at most one line on stderr. */
const nothing = (r: Run): string => {
  expect(r.stdout).toBe("")
  expect(r.status).toBe(0)
  expect(lines(r.stderr).length).toBeLessThanOrEqual(1)
  expect(r.stderr).not.toMatch(/^\s+at /m)
  return r.stderr
}

const guard = (event: string) =>
  `cd "\${CLAUDE_PROJECT_DIR:-.}" || exit 0; PATH="node_modules/.bin:$PATH"; if command -v specbundle >/dev/null 2>&1; then specbundle hook run ${event}; else echo "specbundle is not in node_modules/.bin or on PATH, so the ${event} hook added no context (install specbundle in this project)" >&2; fi`

describe("hook print --manager claude-code", () => {
  it("session-start, user-prompt-submit, or both in one object: the settings hooks in the documented shape, one guarded command each", async () => {
    const dir = history()
    const start = JSON.parse(await printed(dir, "session-start", "--manager", "claude-code")) as Settings
    const sessionStart = [{ matcher: "startup|resume|clear|compact", hooks: [{ type: "command", command: guard("session-start"), timeout: 30 }] }]
    const userPromptSubmit = [{ hooks: [{ type: "command", command: guard("user-prompt-submit"), timeout: 30 }] }]
    expect(start).toEqual({ hooks: { SessionStart: sessionStart } })
    expect(JSON.parse(await printed(dir, "user-prompt-submit", "--manager", "claude-code"))).toEqual({ hooks: { UserPromptSubmit: userPromptSubmit } })
    // Both at once, in the order a session meets them whatever the order asked; the keys in that order too.
    const both = await printed(dir, "user-prompt-submit", "session-start", "--manager", "claude-code")
    expect(both).toBe(await printed(dir, "session-start", "user-prompt-submit", "--manager", "claude-code"))
    const settings = JSON.parse(both) as Settings
    expect(settings).toEqual({ hooks: { SessionStart: sessionStart, UserPromptSubmit: userPromptSubmit } })
    expect(Object.keys(settings.hooks)).toEqual(["SessionStart", "UserPromptSubmit"])
    // Indented JSON with a final newline, without a path of this machine.
    expect(both).toBe(`${JSON.stringify(settings, null, 2)}\n`)
    expect(both).not.toContain(os.tmpdir())
    expect(both).not.toContain(process.execPath)
  })

  it("--root: the corpus folder relative to the project folder where it is printed, quoted for the shell", async () => {
    const dir = history()
    fs.mkdirSync(path.join(dir, "my specs"))
    const settings = JSON.parse(await printed(dir, "session-start", "--manager", "claude-code", "--root", "my specs")) as Settings
    expect(commandOf(settings, "SessionStart")).toContain("then specbundle hook run session-start --root 'my specs'; else")
    const outside = await run(dir, ["hook", "print", "session-start", "--manager", "claude-code", "--root", os.tmpdir()])
    expect(outside.status).toBe(1)
    expect(lines(outside.stderr)).toEqual([expect.stringContaining("is outside the repository")])
  })

  it("a Claude Code hook with a git hook manager, a git hook with claude-code, install of a Claude Code hook: exit 2 and one line", async () => {
    const dir = history()
    const cases: Array<[string[], string]> = [
      [["print", "session-start"], "session-start is an agent hook, not a git hook: give --manager claude-code, codex, gemini, copilot."],
      [
        ["print", "pre-commit", "user-prompt-submit", "--manager", "lefthook"],
        "user-prompt-submit is an agent hook, not a git hook: give --manager claude-code, codex, gemini, copilot."
      ],
      [
        ["print", "session-start", "pre-push", "--manager", "claude-code"],
        '--manager claude-code prints the Claude Code hooks session-start and user-prompt-submit, not "pre-push".'
      ],
      [
        ["install", "session-start"],
        "session-start is an agent hook, not a git hook to install: print it with specbundle hook print session-start --manager claude-code (or codex, gemini, copilot)."
      ]
    ]
    for (const [args, problem] of cases) {
      const r = await run(dir, ["hook", ...args])
      expect(r.status, args.join(" ")).toBe(2)
      expect(JSON.parse(r.stdout)).toEqual({ diagnostics: [{ scope: "arguments", problem }] })
      expect(lines(r.stderr)).toEqual([`specbundle: arguments: ${problem}`])
    }
    expect(fs.existsSync(path.join(dir, ".git", "hooks", "session-start"))).toBe(false)
  })
})

describe("what users read", () => {
  it("the README's settings snippet is what hook print gives; the hook help page names the Claude Code hooks", async () => {
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8")
    const section = readme.slice(readme.indexOf("#### Claude Code"))
    const json = /```json\n([\s\S]*?)```/.exec(section)?.[1]
    expect(json).toBe(await printed(history(), "session-start", "user-prompt-submit", "--manager", "claude-code"))
    const help = await run(tempDir("specbundle-agent-help-"), ["hook", "--help"], { env: { ...gitCleanEnv(), NO_COLOR: "1", COLUMNS: "200" } })
    expect(help.status).toBe(0)
    expect(help.stdout).toContain("pre-commit|pre-push|session-start|user-prompt-submit")
    expect(help.stdout).toContain("[--manager MANAGER]")
    expect(help.stdout.replace(/\s+/g, " ")).toContain("One of husky, lefthook, pre-commit, claude-code, codex, gemini, copilot (default husky).")
    expect(help.stdout).toContain("  specbundle hook print session-start user-prompt-submit --manager claude-code\n")
  })
})

describe("the printed command, run as Claude Code runs it (sh -c in the project)", () => {
  let PATH = ""
  beforeAll(() => {
    PATH = `${binDir()}:${NODE_PATH}`
  })

  it("a staged change in the bike-dock history: each event gets the bundle of the work tree against HEAD, the bytes `bundle` prints, exit 0", async () => {
    const dir = history()
    append(dir, FARE_RULE, FARE_LINE)
    runGitIn(dir, ["add", FARE_RULE])
    const { start, prompt } = await commands(dir)
    for (const [command, event] of [
      [start, "SessionStart"],
      [prompt, "UserPromptSubmit"]
    ]) {
      const r = await runHook(command, { cwd: dir, project: dir, PATH })
      expect(r.stderr).toBe("")
      const got = delivered(r)
      expect(got.event).toBe(event)
      expect(got.bundle.scope).toEqual({ specs: ["spec:rides.ride-fare-rule"], changeset: "HEAD" })
      expect(got.bundle.members.map((m) => m.id)).toEqual(["spec:rides.ride-fare-rule"])
      expect(got.context).toContain("costs nothing for the last minute")
      // The same value `specbundle bundle` composes for the same changeset and budget.
      const same = await run(dir, ["bundle", "--changeset", "HEAD", "--budget", String(got.bundle.budget)])
      expect(same.status).toBe(0)
      expect(same.stdout).toBe(`${got.context}\n`)
    }
  })

  it("an edit not staged counts too, and a new untracked Spec (the agent's uncommitted work)", async () => {
    const dir = history()
    append(dir, FARE_RULE, FARE_LINE)
    const { bundle } = delivered(await runHook((await commands(dir)).start, { cwd: dir, project: dir, PATH }))
    expect(bundle.scope.specs).toEqual(["spec:rides.ride-fare-rule"])
    fs.writeFileSync(
      path.join(dir, "specs", "rides", "night-fare.sdp.md"),
      "---\nid: spec:rides.night-fare\nkind: rule\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# Night rides cost half\n"
    )
    const again = delivered(await runHook((await commands(dir)).start, { cwd: dir, project: dir, PATH }))
    expect(again.bundle.scope.specs).toEqual(["spec:rides.night-fare", "spec:rides.ride-fare-rule"])
  })

  it("a change to every Spec, too large to arrive whole: part 1 of the split, under 10,000 characters, one stderr line naming --parts", async () => {
    const dir = history()
    const carriers = runGitIn(dir, ["ls-files", "*.sdp.md"]).trim().split("\n")
    expect(carriers.length).toBeGreaterThan(20)
    for (const file of carriers) append(dir, file, "\n")
    runGitIn(dir, ["add", "-A"])
    const whole = await run(dir, ["bundle", "--changeset", "HEAD"])
    expect(whole.stdout.length).toBeGreaterThan(3 * WHOLE)
    const r = await runHook((await commands(dir)).prompt, { cwd: dir, project: dir, PATH })
    const got = delivered(r)
    expect(got.event).toBe("UserPromptSubmit")
    expect(got.bundle.part?.index).toBe(1)
    expect(got.bundle.part?.of).toBeGreaterThan(1)
    // Part 1 repeats the whole scope: every impacted Spec is named.
    expect(got.bundle.scope.specs.length).toBeGreaterThanOrEqual(carriers.length - 2)
    expect(got.bundle.members.length).toBeGreaterThan(0)
    expect(lines(r.stderr)).toEqual([
      `specbundle user-prompt-submit: the bundle takes ${got.bundle.part?.of} parts at the hook's budget of ${got.bundle.budget}; Claude Code got part 1 (specbundle bundle --changeset HEAD --parts --budget ${got.bundle.budget} gives all)`
    ])
    // The part the CLI gives for that changeset, budget and index.
    expect((await run(dir, ["bundle", "--changeset", "HEAD", "--budget", String(got.bundle.budget), "--part", "1"])).stdout).toBe(`${got.context}\n`)
  })

  it("nothing for the context, exit 0: nothing changed, outside a repository, no corpus, no specbundle", async () => {
    const clean = history()
    const { start, prompt } = await commands(clean)
    for (const command of [start, prompt])
      expect(nothing(await runHook(command, { cwd: clean, project: clean, PATH }))).toMatch(
        /: the working changes \(the work tree against HEAD\) impact no Spec; no context added\n$/
      )

    // Outside a repository: the corpus, no git.
    const bare = tempDir("specbundle-agent-bare-")
    fs.cpSync(path.join(REPO, "examples", "bike-dock"), bare, { recursive: true })
    expect(nothing(await runHook(start, { cwd: bare, project: bare, PATH }))).toBe(
      `specbundle session-start: ${bare} is not inside a git repository; no context added\n`
    )

    // A repository without a corpus, a change staged in it.
    const plain = tempDir("specbundle-agent-plain-")
    runGitIn(plain, ["init", "-q", "-b", "main"])
    fs.writeFileSync(path.join(plain, "README.md"), "# notes\n")
    runGitIn(plain, ["add", "-A"])
    runGitIn(plain, ["commit", "-q", "-m", "notes"])
    fs.appendFileSync(path.join(plain, "README.md"), "more\n")
    runGitIn(plain, ["add", "-A"])
    expect(nothing(await runHook(prompt, { cwd: plain, project: plain, PATH }))).toContain("impact no Spec")

    // specbundle neither in node_modules/.bin nor on PATH, with a change that would give a bundle.
    const dir = history()
    append(dir, FARE_RULE, FARE_LINE)
    runGitIn(dir, ["add", FARE_RULE])
    for (const [command, event] of [
      [start, "session-start"],
      [prompt, "user-prompt-submit"]
    ])
      expect(nothing(await runHook(command, { cwd: dir, project: dir, PATH: NODE_PATH }))).toBe(
        `specbundle is not in node_modules/.bin or on PATH, so the ${event} hook added no context (install specbundle in this project)\n`
      )
  })

  it("from the project's node_modules/.bin, with the shell in a sub-folder: the command goes to CLAUDE_PROJECT_DIR first", async () => {
    const dir = history()
    fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true })
    fs.symlinkSync(BIN, path.join(dir, "node_modules", ".bin", "specbundle"))
    append(dir, FARE_RULE, FARE_LINE)
    runGitIn(dir, ["add", FARE_RULE])
    const r = await runHook((await commands(dir)).start, { cwd: path.join(dir, "src", "rides"), project: dir, PATH: NODE_PATH })
    expect(r.stderr).toBe("")
    expect(delivered(r).bundle.scope.specs).toEqual(["spec:rides.ride-fare-rule"])
  })

  it("a session gets a bundle once: user-prompt-submit adds nothing while the changes stay the same, the new bundle when they change; session-start always gives it", async () => {
    const dir = history()
    append(dir, FARE_RULE, FARE_LINE)
    runGitIn(dir, ["add", FARE_RULE])
    const { start, prompt } = await commands(dir)
    const event = (name: string, extra: Record<string, string>) => JSON.stringify({ session_id: "session-1", hook_event_name: name, cwd: dir, ...extra })
    const onStart = () => runHook(start, { cwd: dir, project: dir, PATH, input: event("SessionStart", { source: "startup" }) })
    const onPrompt = (session = "session-1") =>
      runHook(prompt, { cwd: dir, project: dir, PATH, input: JSON.stringify({ session_id: session, hook_event_name: "UserPromptSubmit", prompt: "Go on." }) })

    const first = delivered(await onStart())
    expect(nothing(await onPrompt())).toBe("specbundle user-prompt-submit: the bundle is what this session last got; no context added\n")
    expect(nothing(await onPrompt())).not.toBe("")
    // Another session has not got it.
    expect(delivered(await onPrompt("session-2")).context).toBe(first.context)
    // A compaction or /clear starts the session again: SessionStart gives it again.
    expect(delivered(await onStart()).context).toBe(first.context)
    append(dir, FARE_RULE, "- A second new line.\n")
    const changed = delivered(await onPrompt())
    expect(changed.event).toBe("UserPromptSubmit")
    expect(changed.context).not.toBe(first.context)
    expect(changed.context).toContain("A second new line.")
    nothing(await onPrompt())
    // Changes committed: nothing to give, said once in the debug log.
    runGitIn(dir, ["add", "-A"])
    runGitIn(dir, ["commit", "-q", "-m", "fares"])
    expect(nothing(await onPrompt())).toContain("impact no Spec")
    expect(nothing(await onPrompt())).toBe("specbundle user-prompt-submit: the working changes still impact no Spec; no context added\n")
    // Without a session on stdin (a run by hand), every run gives the bundle.
    append(dir, FARE_RULE, FARE_LINE)
    const byHand = await runHook(prompt, { cwd: dir, project: dir, PATH })
    expect(delivered(byHand).bundle.scope.specs).toEqual(["spec:rides.ride-fare-rule"])
    expect(delivered(await runHook(prompt, { cwd: dir, project: dir, PATH })).context).toBe(delivered(byHand).context)
  })
})

describe("git states: what the hook says is what is true (issue 48)", () => {
  let PATH = ""
  beforeAll(() => {
    PATH = `${binDir()}:${NODE_PATH}`
  })

  /** git that may stop with a conflict (status 1): its status, no throw. */
  const gitMay = (dir: string, args: string[]) =>
    spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], {
      cwd: dir,
      encoding: "utf8",
      env: gitCleanEnv()
    })

  /**
   * The bike-dock history with a branch `other` off its first commit and main one commit on, each
   * changing the fare rule's unlock fee differently: merging or rebasing one onto the other stops
   * with conflict markers in that carrier.
   */
  const diverged = (): string => {
    const dir = history()
    const fee = (cents: string, message: string) => {
      const file = path.join(dir, FARE_RULE)
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("an unlock fee of 100 cents", `an unlock fee of ${cents} cents`))
      runGitIn(dir, ["commit", "-q", "-am", message])
    }
    runGitIn(dir, ["checkout", "-q", "-b", "other", "HEAD~1"])
    fee("120", "other: a dearer unlock")
    runGitIn(dir, ["checkout", "-q", "main"])
    fee("90", "main: a cheaper unlock")
    return dir
  }
  const CONFLICT = (operation: string) =>
    `a ${operation} is in progress and ${FARE_RULE} still holds conflict markers, so the impacted Spec spec:rides.ride-fare-rule cannot be read until the conflicts are resolved; no context added`

  it("a branch with no commit yet: there is no HEAD to compare with, said so (not 'fetch it'); nothing for the context, exit 0", async () => {
    const fresh = tempDir("specbundle-agent-fresh-")
    runGitIn(fresh, ["init", "-q", "-b", "main"])
    fs.cpSync(path.join(REPO, "examples", "bike-dock"), fresh, { recursive: true })
    const { start, prompt } = await commands(fresh)
    for (const [command, event] of [
      [start, "session-start"],
      [prompt, "user-prompt-submit"]
    ])
      expect(nothing(await runHook(command, { cwd: fresh, project: fresh, PATH }))).toBe(
        `specbundle ${event}: this branch has no commit yet, so there is no HEAD to compare the working changes with; no context added (the first commit gives one)\n`
      )
  })

  it("mid-merge with a conflict in a carrier: the conflicted Spec is named (impact names it too), never 'impact no Spec'", async () => {
    const dir = diverged()
    expect(gitMay(dir, ["merge", "-q", "other"]).status).toBe(1)
    expect(runGitIn(dir, ["diff", "--name-only", "--diff-filter=U"])).toBe(`${FARE_RULE}\n`)
    const { start, prompt } = await commands(dir)
    expect(nothing(await runHook(start, { cwd: dir, project: dir, PATH }))).toBe(`specbundle session-start: ${CONFLICT("merge")}\n`)
    expect(nothing(await runHook(prompt, { cwd: dir, project: dir, PATH }))).toBe(`specbundle user-prompt-submit: ${CONFLICT("merge")}\n`)
    // What `impact --changeset HEAD` says of the same work tree: that Spec, impacted.
    const impact = await run(dir, ["impact", "--changeset", "HEAD"])
    expect((JSON.parse(impact.stdout) as { impactedSpecs: Array<{ id: string }> }).impactedSpecs.map((s) => s.id)).toEqual(["spec:rides.ride-fare-rule"])
  })

  it("mid-merge, a conflicted carrier beside a Spec that reads: the bundle of the one that reads, and a line naming the one left out", async () => {
    const dir = diverged()
    expect(gitMay(dir, ["merge", "-q", "other"]).status).toBe(1)
    const other = "specs/rides/ride-lifecycle.sdp.md"
    expect(fs.existsSync(path.join(dir, other))).toBe(true)
    append(dir, other, "\n")
    const r = await runHook((await commands(dir)).start, { cwd: dir, project: dir, PATH })
    expect(delivered(r).bundle.scope.specs).toEqual(["spec:rides.ride-lifecycle"])
    expect(lines(r.stderr)).toEqual([
      `specbundle session-start: a merge is in progress and ${FARE_RULE} still holds conflict markers, so the impacted Spec spec:rides.ride-fare-rule cannot be read until the conflicts are resolved; they are left out of the context`
    ])
  })

  it("mid-rebase with a conflict in a carrier: the rebase and the conflicted Spec are named; resolved and continued, the bundle comes back", async () => {
    const dir = diverged()
    runGitIn(dir, ["checkout", "-q", "other"])
    expect(gitMay(dir, ["rebase", "main"]).status).toBe(1)
    const { start } = await commands(dir)
    expect(nothing(await runHook(start, { cwd: dir, project: dir, PATH }))).toBe(`specbundle session-start: ${CONFLICT("rebase")}\n`)
    // Resolved (the carrier reads again) but not yet committed: the Spec's bundle.
    runGitIn(dir, ["checkout", "--theirs", FARE_RULE])
    runGitIn(dir, ["add", FARE_RULE])
    const r = await runHook(start, { cwd: dir, project: dir, PATH })
    expect(r.stderr).toBe("")
    expect(delivered(r).bundle.scope.specs).toEqual(["spec:rides.ride-fare-rule"])
  })
})

describe("fitContext: the budget comes down until the escaped text fits", () => {
  /** A text of `budget` quotes: every one takes two characters once escaped inside the JSON object. */
  const quotes = (budget: number): Rendered => ({ form: "bundle", text: '"'.repeat(budget), of: 1 })

  it("a text that doubles when escaped: the largest budget whose whole stdout is within the ceiling, for both events alike", () => {
    const tried: number[] = []
    const fitted = fitContext("session-start", (b) => (tried.push(b), quotes(b)))
    expect(fitted).not.toBeNull()
    expect(fitted?.stdout.length).toBeLessThanOrEqual(CONTEXT_CEILING)
    expect(contextOutput("user-prompt-submit", fitted?.rendered.text ?? "").length).toBeLessThanOrEqual(CONTEXT_CEILING)
    // The second budget is the length that fits at the share the first text escaped to: it fits.
    expect(tried.length).toBe(2)
    expect(tried[1]).toBeLessThan(tried[0])
    expect(fitContext("user-prompt-submit", quotes)?.rendered.text).toBe(fitted?.rendered.text)
    // The text one character longer would not fit the longer event name's object.
    expect(contextOutput("user-prompt-submit", `${fitted?.rendered.text}"`).length).toBeGreaterThan(CONTEXT_CEILING)
  })

  it("nothing to render, or a text that never comes down: null", () => {
    expect(fitContext("session-start", () => null)).toBeNull()
    expect(fitContext("session-start", () => quotes(CONTEXT_CEILING))).toBeNull()
  })
})
