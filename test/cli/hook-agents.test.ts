// Every agent's hooks (issue 49.4): `hook print session-start user-prompt-submit --manager
// codex|gemini|copilot` prints the agent's own file, checked against its published schema or, for
// Copilot CLI (none published), its documented field table (test/fixtures/agent-hooks/README.md
// names each source); the command it holds is Claude Code's with `--manager M`, and run as that
// agent runs it (sh -c, its folder and environment, its event JSON on stdin) in the history
// `specbundle example DIR` makes, it prints exactly what the agent reads: one JSON object that
// passes the agent's output schema or table with a change, nothing without one; always exit 0.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Ajv } from "ajv"
import { Ajv2020 } from "ajv/dist/2020.js"
import { beforeAll, describe, expect, it } from "vitest"
import type { AgentManager } from "../../src/entrances/cli/hooks/agents.js"
import { AGENTS, CONTEXT_CEILING, fitContext } from "../../src/entrances/cli/hooks/agents.js"
import type { Run } from "../support/cli.js"
import { BIN, REPO, cliAsync, gitCleanEnv, runAsync } from "../support/cli.js"
import { run } from "../support/run.js"
import { tempDir } from "../support/tmp.js"

const FIXTURES = path.join(REPO, "test", "fixtures", "agent-hooks")
const fixture = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8")) as Record<string, unknown>
const NODE_PATH = `${path.dirname(process.execPath)}:/usr/bin:/bin`
const FARE_RULE = "specs/rides/ride-fare-rule.sdp.md"
const lines = (text: string) => text.split("\n").filter((l) => l !== "")

/** The folder `specbundle example DIR` writes: the bike-dock corpus in two commits, nothing changed since. */
const example = async (): Promise<string> => {
  const dir = path.join(tempDir("specbundle-agents-"), "bike")
  const r = await cliAsync(REPO, ["example", dir, "--quiet"])
  expect(r.status, r.stderr).toBe(0)
  return dir
}

const printed = async (dir: string, manager: string, ...events: string[]): Promise<{ stdout: string; stderr: string }> => {
  const r = await run(dir, ["hook", "print", ...events, "--manager", manager])
  expect(r.status, r.stderr).toBe(0)
  return { stdout: r.stdout, stderr: r.stderr }
}

/** Claude Code's command for `event` with its folder step `cd` and `--manager M` after the hook's name. */
const claudeCommand = async (dir: string, event: string): Promise<string> => {
  const settings = JSON.parse((await printed(dir, "claude-code", event)).stdout) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }
  return Object.values(settings.hooks)[0][0].hooks[0].command
}
const asFor = (claude: string, manager: string, cd: string): string =>
  claude.replace(/^cd "\$\{CLAUDE_PROJECT_DIR:-\.\}" \|\| exit 0; /, `${cd}; `).replace(/(specbundle hook run [a-z-]+)/, `$1 --manager ${manager}`)

const CD_TOP = `cd "$(git rev-parse --show-toplevel 2>/dev/null || echo .)" || exit 0`
const CD_GEMINI = `cd "\${GEMINI_PROJECT_DIR:-.}" || exit 0`

type Hooks = Record<string, Array<Record<string, unknown>>>

/** Copilot CLI's documented field table (no published schema): every field known, typed, the required ones there. */
const copilotProblems = (file: unknown): string[] => {
  const table = fixture("copilot/hooks.fields.json") as {
    file: Record<string, { type: string; required: boolean; const?: unknown }>
    events: string[]
    commandHook: Record<string, { type: string; required: boolean | string; const?: unknown }>
  }
  const problems: string[] = []
  const typeOf = (v: unknown) => (Array.isArray(v) ? "array" : typeof v)
  const check = (where: string, value: Record<string, unknown>, fields: Record<string, { type: string; required: boolean | string; const?: unknown }>) => {
    for (const [key, v] of Object.entries(value)) {
      const field = fields[key]
      if (field === undefined) problems.push(`${where}: unknown field ${key}`)
      else if (typeOf(v) !== field.type) problems.push(`${where}.${key}: ${typeOf(v)}, not ${field.type}`)
      else if ("const" in field && v !== field.const) problems.push(`${where}.${key}: ${String(v)}, not ${String(field.const)}`)
    }
    for (const [key, field] of Object.entries(fields)) if (field.required === true && !(key in value)) problems.push(`${where}: no ${key}`)
  }
  const doc = file as Record<string, unknown>
  check("file", doc, table.file)
  for (const [event, handlers] of Object.entries((doc.hooks ?? {}) as Hooks)) {
    if (!table.events.includes(event)) problems.push(`hooks: unknown event ${event}`)
    if (!Array.isArray(handlers)) problems.push(`hooks.${event}: not an array`)
    for (const [i, h] of handlers.entries()) {
      check(`hooks.${event}[${i}]`, h, table.commandHook)
      if (!("bash" in h) && !("powershell" in h)) problems.push(`hooks.${event}[${i}]: neither bash nor powershell`)
    }
  }
  return problems
}

describe("hook print --manager codex|gemini|copilot: each agent's file in its documented shape", () => {
  let dir = ""
  beforeAll(async () => {
    dir = await example()
  })

  it("codex: .codex/hooks.json, valid against the Codex hooks schema; Claude Code's command with --manager codex, from the repository top", async () => {
    const { stdout, stderr } = await printed(dir, "codex", "session-start", "user-prompt-submit")
    expect(stderr).toBe("")
    const file = JSON.parse(stdout) as { hooks: Hooks }
    const validate = new Ajv({ strict: false }).compile(fixture("codex/hooks.schema.json"))
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true)
    const handler = (command: string) => ({ type: "command", command, timeout: 30 })
    expect(file).toEqual({
      hooks: {
        SessionStart: [{ matcher: "startup|resume|clear|compact", hooks: [handler(asFor(await claudeCommand(dir, "session-start"), "codex", CD_TOP))] }],
        UserPromptSubmit: [{ hooks: [handler(asFor(await claudeCommand(dir, "user-prompt-submit"), "codex", CD_TOP))] }]
      }
    })
    expect(stdout).toBe(`${JSON.stringify(file, null, 2)}\n`)
  })

  it("gemini: .gemini/settings.json hooks, valid against Gemini CLI's settings schema; BeforeAgent for the prompt, timeout in milliseconds", async () => {
    const { stdout, stderr } = await printed(dir, "gemini", "user-prompt-submit", "session-start")
    expect(stderr).toBe("")
    const file = JSON.parse(stdout) as { hooks: Hooks }
    const validate = new Ajv2020({ strict: false }).compile(fixture("gemini/settings.schema.json"))
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true)
    const handler = (event: string, command: string) => ({ name: `specbundle-${event}`, type: "command", command, timeout: 30_000 })
    expect(file).toEqual({
      hooks: {
        SessionStart: [{ hooks: [handler("session-start", asFor(await claudeCommand(dir, "session-start"), "gemini", CD_GEMINI))] }],
        BeforeAgent: [{ hooks: [handler("user-prompt-submit", asFor(await claudeCommand(dir, "user-prompt-submit"), "gemini", CD_GEMINI))] }]
      }
    })
    // The schema is strict at the top: a key it does not know is refused (so the check has teeth).
    expect(validate({ ...file, notASetting: true })).toBe(false)
  })

  it("copilot: .github/hooks/*.json, version 1, within the documented field table; sessionStart only, one line saying why", async () => {
    const { stdout, stderr } = await printed(dir, "copilot", "session-start", "user-prompt-submit")
    expect(lines(stderr)).toEqual([
      "specbundle: user-prompt-submit is left out: Copilot CLI does not read what a userPromptSubmitted hook prints; the file holds session-start."
    ])
    const file = JSON.parse(stdout) as { version: number; hooks: Hooks }
    expect(copilotProblems(file)).toEqual([])
    expect(file).toEqual({
      version: 1,
      hooks: { sessionStart: [{ type: "command", bash: asFor(await claudeCommand(dir, "session-start"), "copilot", CD_TOP), timeoutSec: 30 }] }
    })
    // The table has teeth: an unknown field, a wrong version, a handler without a command.
    expect(copilotProblems({ version: 2, hooks: { sessionStart: [{ type: "command", command: "x" }] } })).toEqual([
      "file.version: 2, not 1",
      "hooks.sessionStart[0]: unknown field command",
      "hooks.sessionStart[0]: neither bash nor powershell"
    ])
    const alone = await run(dir, ["hook", "print", "user-prompt-submit", "--manager", "copilot"])
    expect(alone.status).toBe(2)
    expect(lines(alone.stderr)).toEqual([
      "specbundle: arguments: user-prompt-submit is left out: Copilot CLI does not read what a userPromptSubmitted hook prints; print session-start for Copilot CLI."
    ])
  })

  it("--root: relative to the repository top for codex and copilot, to the folder printed in for gemini (as for claude-code)", async () => {
    const sub = path.join(dir, "specs")
    for (const [manager, expected] of [
      ["codex", "--root specs"],
      ["copilot", "--root specs"],
      ["gemini", ""]
    ] as const) {
      const r = await run(sub, ["hook", "print", "session-start", "--manager", manager, "--root", "."])
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout, manager).toContain(`specbundle hook run session-start ${expected === "" ? "" : `${expected} `}--manager ${manager};`)
    }
  })
})

/** What an agent's event looks like on stdin, by its documentation. */
const EVENTS: Record<Exclude<AgentManager, "claude-code">, (event: "session-start" | "user-prompt-submit", cwd: string, session: string) => string> = {
  codex: (event, cwd, session) =>
    JSON.stringify(
      event === "session-start"
        ? { session_id: session, transcript_path: null, cwd, hook_event_name: "SessionStart", model: "gpt-5.5", permission_mode: "default", source: "startup" }
        : {
            session_id: session,
            turn_id: "turn-1",
            transcript_path: null,
            cwd,
            hook_event_name: "UserPromptSubmit",
            model: "gpt-5.5",
            permission_mode: "default",
            prompt: "Go on."
          }
    ),
  gemini: (event, cwd, session) =>
    JSON.stringify({
      session_id: session,
      transcript_path: path.join(cwd, ".gemini", "t.json"),
      cwd,
      hook_event_name: event === "session-start" ? "SessionStart" : "BeforeAgent",
      timestamp: "2026-12-07T00:00:00.000Z",
      ...(event === "session-start" ? { source: "startup" } : { prompt: "Go on." })
    }),
  copilot: (event, cwd, session) =>
    JSON.stringify({ sessionId: session, timestamp: 1796601600000, cwd, ...(event === "session-start" ? { source: "new" } : { prompt: "Go on." }) })
}

describe("the printed commands, run as each agent runs them, in the example history", () => {
  let PATH = ""
  beforeAll(() => {
    const bin = tempDir("specbundle-agents-bin-")
    fs.symlinkSync(BIN, path.join(bin, "specbundle"))
    PATH = `${bin}:${NODE_PATH}`
  })

  /** `sh -c COMMAND` as the agent starts it: Codex in the session's folder (here a sub-folder), Gemini CLI in the project with GEMINI_PROJECT_DIR, Copilot CLI at the top. */
  const runAs = (manager: Exclude<AgentManager, "claude-code">, command: string, dir: string, input: string): Promise<Run> => {
    const env: NodeJS.ProcessEnv = { ...gitCleanEnv(), PATH }
    delete env.CLAUDE_PROJECT_DIR
    if (manager === "gemini") Object.assign(env, { GEMINI_PROJECT_DIR: dir, GEMINI_CWD: dir, CLAUDE_PROJECT_DIR: dir })
    const cwd = manager === "codex" ? path.join(dir, "src", "rides") : dir
    return runAsync("sh", ["-c", command], { cwd, env, timeout: 60_000, input })
  }

  const commandsOf = async (
    dir: string,
    manager: Exclude<AgentManager, "claude-code">
  ): Promise<Partial<Record<"session-start" | "user-prompt-submit", string>>> => {
    const file = JSON.parse((await printed(dir, manager, "session-start", "user-prompt-submit")).stdout) as { hooks: Hooks }
    const out: Partial<Record<"session-start" | "user-prompt-submit", string>> = {}
    for (const [name, groups] of Object.entries(file.hooks)) {
      const h = manager === "copilot" ? groups[0] : (groups[0].hooks as Array<Record<string, unknown>>)[0]
      const command = (manager === "copilot" ? h.bash : h.command) as string
      out[/prompt|BeforeAgent/i.test(name) ? "user-prompt-submit" : "session-start"] = command
    }
    return out
  }

  const codexOut = {
    "session-start": "codex/session-start.command.output.schema.json",
    "user-prompt-submit": "codex/user-prompt-submit.command.output.schema.json"
  }

  /** The agent's one JSON object on one line, passing its schema or table; the bundle's text as its context. */
  const accepted = (manager: Exclude<AgentManager, "claude-code">, event: "session-start" | "user-prompt-submit", r: Run): { specs: string[] } => {
    expect(r.status, r.stderr).toBe(0)
    expect(lines(r.stdout)).toHaveLength(1)
    const out = JSON.parse(r.stdout) as Record<string, unknown>
    let context: string
    if (manager === "codex") {
      const validate = new Ajv({ strict: false }).compile(fixture(codexOut[event]))
      expect(validate(out), JSON.stringify(validate.errors)).toBe(true)
      context = (out.hookSpecificOutput as { additionalContext: string }).additionalContext
      // Within Codex's 2,500 approximate tokens (UTF-8 bytes / 4): no cut preview.
      expect(Buffer.byteLength(context, "utf8") / 4).toBeLessThanOrEqual(2_500)
    } else if (manager === "gemini") {
      // docs/hooks/reference.md: SessionStart and BeforeAgent read hookSpecificOutput.additionalContext (a string).
      expect(out).toEqual({
        hookSpecificOutput: { hookEventName: event === "session-start" ? "SessionStart" : "BeforeAgent", additionalContext: expect.any(String) }
      })
      context = (out.hookSpecificOutput as { additionalContext: string }).additionalContext
    } else {
      const table = fixture("copilot/hooks.fields.json").sessionStartOutput as Record<string, { type: string }>
      for (const [key, v] of Object.entries(out)) expect(typeof v, key).toBe(table[key]?.type)
      expect(Object.keys(out)).toEqual(["additionalContext"])
      context = out.additionalContext as string
    }
    expect(r.stdout.length).toBeLessThanOrEqual(CONTEXT_CEILING)
    return (JSON.parse(context) as { scope: { specs: string[] } }).scope
  }

  it.each(["codex", "gemini", "copilot"] as const)("%s: with a change, what the agent reads; without one, nothing (exit 0 each time)", async (manager) => {
    const dir = await example()
    const commands = await commandsOf(dir, manager)
    const events = (["session-start", "user-prompt-submit"] as const).filter((e) => commands[e] !== undefined)
    expect(events).toEqual(manager === "copilot" ? ["session-start"] : ["session-start", "user-prompt-submit"])
    let n = 0
    const input = (event: "session-start" | "user-prompt-submit") => EVENTS[manager](event, dir, `${manager}-session-${++n}`)
    for (const event of events) {
      const r = await runAs(manager, commands[event] as string, dir, input(event))
      expect(r.status).toBe(0)
      expect(r.stdout).toBe("")
      // Gemini CLI shows stderr to the user when stdout is empty: nothing there either.
      if (manager === "gemini") expect(r.stderr).toBe("")
      else expect(lines(r.stderr)).toEqual([`specbundle ${event}: the working changes (the work tree against HEAD) impact no Spec; no context added`])
    }
    fs.appendFileSync(path.join(dir, FARE_RULE), "- A ride that ends at a closed station costs nothing for the last minute.\n")
    for (const event of events) {
      const r = await runAs(manager, commands[event] as string, dir, input(event))
      expect(r.stderr).toBe("")
      expect(accepted(manager, event, r).specs).toEqual(["spec:rides.ride-fare-rule"])
    }
  })

  it("copilot's userPromptSubmitted, run anyway: nothing on stdout, one line saying why, exit 0; gemini with specbundle missing: one line (shown to the user), exit 0", async () => {
    const dir = await example()
    fs.appendFileSync(path.join(dir, FARE_RULE), "\n")
    const r = await run(dir, ["hook", "run", "user-prompt-submit", "--manager", "copilot"], { stdin: EVENTS.copilot("user-prompt-submit", dir, "s") })
    expect(r.status).toBe(0)
    expect(r.stdout).toBe("")
    expect(lines(r.stderr)).toEqual(["specbundle user-prompt-submit: Copilot CLI does not read what a userPromptSubmitted hook prints; no context added"])
    const command = (await commandsOf(dir, "gemini"))["session-start"] as string
    const missing = await runAsync("sh", ["-c", command], {
      cwd: dir,
      env: { ...gitCleanEnv(), PATH: NODE_PATH, GEMINI_PROJECT_DIR: dir },
      timeout: 60_000,
      input: EVENTS.gemini("session-start", dir, "s")
    })
    expect(missing.status).toBe(0)
    expect(missing.stdout).toBe("")
    expect(lines(missing.stderr)).toEqual([
      "specbundle is not in node_modules/.bin or on PATH, so the session-start hook added no context (install specbundle in this project)"
    ])
  })

  it("gemini: nothing on stderr either when the hook fails to read (outside a repository), where Claude Code's hook says why", async () => {
    const bare = tempDir("specbundle-agents-bare-")
    fs.cpSync(path.join(REPO, "examples", "bike-dock"), bare, { recursive: true })
    const gemini = await run(bare, ["hook", "run", "session-start", "--manager", "gemini"], { stdin: "" })
    expect([gemini.status, gemini.stdout, gemini.stderr]).toEqual([0, "", ""])
    const claude = await run(bare, ["hook", "run", "session-start"], { stdin: "" })
    expect([claude.status, claude.stdout]).toEqual([0, ""])
    expect(claude.stderr).toContain("is not inside a git repository; no context added")
  })
})

describe("fitContext for Codex: the ceiling counts UTF-8 bytes (Codex's approximate tokens)", () => {
  it("a text of two-byte characters fits in 9,500 bytes, where Claude Code's ceiling (UTF-16 units) would let twice as many through", () => {
    const render = (budget: number) => ({ form: "bundle" as const, text: "é".repeat(budget), of: 1 })
    const codex = fitContext("session-start", render, AGENTS.codex)
    const claude = fitContext("session-start", render, AGENTS["claude-code"])
    expect(Buffer.byteLength(codex?.stdout ?? "", "utf8")).toBeLessThanOrEqual(AGENTS.codex.ceiling)
    expect(Buffer.byteLength(claude?.stdout ?? "", "utf8")).toBeGreaterThan(AGENTS.codex.ceiling)
    expect(codex?.stdout.length).toBeLessThanOrEqual(CONTEXT_CEILING)
  })
})

describe("what users read", () => {
  it("the README shows each agent's file as hook print gives it; the help page lists the agents", async () => {
    const dir = await example()
    const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8")
    const section = readme.slice(readme.indexOf("#### Codex, Gemini CLI, Copilot CLI"))
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].slice(0, 3).map((m) => m[1])
    expect(blocks).toEqual([
      (await printed(dir, "codex", "session-start", "user-prompt-submit")).stdout,
      (await printed(dir, "gemini", "session-start", "user-prompt-submit")).stdout,
      (await printed(dir, "copilot", "session-start")).stdout
    ])
    const help = spawnSync(process.execPath, [BIN, "hook", "--help"], { encoding: "utf8", env: { ...gitCleanEnv(), NO_COLOR: "1", COLUMNS: "200" } })
    expect(help.stdout).toContain("  specbundle hook print session-start user-prompt-submit --manager codex\n")
  })
})
