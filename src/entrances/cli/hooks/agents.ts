// The agents' session-start and prompt hooks (issues 40 and 49), as plain functions: the file `hook
// print session-start|user-prompt-submit --manager claude-code|codex|gemini|copilot` prints, the
// one JSON object the hook prints for that agent, fitting the bundle under what it takes whole,
// and the record that keeps a prompt from getting the context the session already has.
// hooks/agent-run.ts runs them (`hook run session-start|user-prompt-submit [--manager M]`).
// test/fixtures/agent-hooks/README.md names each agent's documented shape and where it comes from.
//
// Claude Code runs a hook's `command` with a shell in the project, passes the event as JSON on
// stdin, and for SessionStart and UserPromptSubmit adds the stdout of an exit-0 hook to the model's
// context; stderr of an exit-0 hook goes to its debug log only. A stdout that starts with `{` is
// read as the hook's JSON output, so a bare bundle would be refused as an unknown shape: the
// bundle travels as `hookSpecificOutput.additionalContext`. Up to 10,000 characters arrive whole.
import { createHash } from "node:crypto"
import type { BundleParams } from "../../../core/bundle/index.js"
import { composeBundleText, isBudgetExceeded, isDiagnostics, isPartsSplit, planParts } from "../../../core/bundle/index.js"
import type { Facts } from "../../../core/model.js"
import { guardedLine } from "./print.js"

export type AgentEvent = "session-start" | "user-prompt-submit"

/** The events in the order a session meets them: what `hook print` prints for. */
export const AGENT_EVENTS: ReadonlyArray<AgentEvent> = ["session-start", "user-prompt-submit"]

export const isAgentEvent = (name: string): name is AgentEvent => (AGENT_EVENTS as ReadonlyArray<string>).includes(name)

/** Claude Code's name for each event (the settings key and `hookEventName`). */
export const EVENT_NAMES: Record<AgentEvent, "SessionStart" | "UserPromptSubmit"> = {
  "session-start": "SessionStart",
  "user-prompt-submit": "UserPromptSubmit"
}

/**
 * Every way a session starts: a new one, a resumed one, after /clear and after a compaction (the
 * last two begin without the context, so it comes again).
 */
export const SESSION_SOURCES = "startup|resume|clear|compact"

/** Seconds Claude Code gives the command; a cold read of a large corpus on a loaded machine fits. */
export const HOOK_TIMEOUT_SECONDS = 30

/** The working changes: the work tree (staged, unstaged, untracked) against HEAD. */
export const AGENT_CHANGESET = "HEAD"

/**
 * The most stdout the hook prints, in UTF-16 code units (JavaScript's string length, the unit of
 * the budget): 500 under the 10,000 characters Claude Code adds whole.
 */
export const CONTEXT_CEILING = 9_500

/** The agents whose session-start and prompt hooks `hook print --manager` writes and `hook run --manager` answers. */
export type AgentManager = "claude-code" | "codex" | "gemini" | "copilot"

export const AGENT_MANAGERS: ReadonlyArray<AgentManager> = ["claude-code", "codex", "gemini", "copilot"]

export const isAgentManager = (name: string): name is AgentManager => (AGENT_MANAGERS as ReadonlyArray<string>).includes(name)

/**
 * One agent's hook contract: the file the hooks go in, its name for each event (null: the agent
 * reads nothing the hook prints for it), the folder the command starts from, the one stdout it
 * reads, and how much of it arrives whole.
 */
export interface Agent {
  readonly manager: AgentManager
  /** The agent's name in lines and help. */
  readonly name: string
  /** Where the printed hooks go, from the project folder. */
  readonly file: string
  readonly events: Record<AgentEvent, string | null>
  /** Why an event is null: one clause. */
  readonly unread?: string
  /** The sh words that take the command to the folder `--root` is relative to. */
  readonly cd: string
  /** Whether `--root` is relative to the repository top (where the agent reads its file) rather than the folder it is printed in. */
  readonly fromTop: boolean
  /** The agent's one stdout for `text` (the bundle) on `event`. */
  readonly output: (event: AgentEvent, text: string) => string
  /** The size of a stdout in the unit of the agent's limit. */
  readonly measure: (stdout: string) => number
  readonly ceiling: number
  /**
   * Nothing on stderr when nothing is on stdout: Gemini CLI parses an exit-0 hook's stderr when its
   * stdout is empty and shows plain text to the user as a system message, on every prompt.
   */
  readonly quiet: boolean
  /** The printed file for `handlers` (one per event, in the order a session meets them). */
  readonly document: (handlers: ReadonlyArray<{ readonly event: AgentEvent; readonly command: string }>) => unknown
}

/** `{ hookSpecificOutput: { hookEventName, additionalContext } }`: Claude Code's and Codex's shape, Gemini CLI's with its own names. */
const specificOutput = (name: string, text: string): string => `${JSON.stringify({ hookSpecificOutput: { hookEventName: name, additionalContext: text } })}\n`

const utf16 = (s: string): number => s.length

/** The folder Claude Code and Gemini CLI name in the environment: the project the session runs in. */
const cdProject = (variable: string): string => `cd "\${${variable}:-.}" || exit 0`
/** Codex and Copilot CLI read their hook file at the repository top and name no project folder: git's top, else where the session runs. */
const CD_TOP = `cd "$(git rev-parse --show-toplevel 2>/dev/null || echo .)" || exit 0`

const CLAUDE_CODE: Agent = {
  manager: "claude-code",
  name: "Claude Code",
  file: ".claude/settings.json",
  events: { "session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit" },
  cd: cdProject("CLAUDE_PROJECT_DIR"),
  fromTop: false,
  output: (event, text) => specificOutput(EVENT_NAMES[event], text),
  measure: utf16,
  ceiling: CONTEXT_CEILING,
  quiet: false,
  document: (handlers) => ({
    hooks: Object.fromEntries(
      handlers.map(({ event, command }) => {
        const handler = { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }
        return [EVENT_NAMES[event], [event === "session-start" ? { matcher: SESSION_SOURCES, hooks: [handler] } : { hooks: [handler] }]]
      })
    )
  })
}

/**
 * Codex's `.codex/hooks.json`: Claude Code's shape (event, matcher group, `{ type, command, timeout
 * }` in seconds) and Claude Code's stdout object, which its strict parser takes; hook text over
 * 2,500 approximate tokens (UTF-8 bytes / 4) reaches the model as a cut preview, so the ceiling is
 * 9,500 bytes.
 */
const CODEX: Agent = {
  ...CLAUDE_CODE,
  manager: "codex",
  name: "Codex",
  file: ".codex/hooks.json",
  cd: CD_TOP,
  fromTop: true,
  measure: (s) => Buffer.byteLength(s, "utf8")
}

/**
 * Gemini CLI's `.gemini/settings.json`: `BeforeAgent` is its prompt event, `timeout` is in
 * milliseconds, a SessionStart group without a matcher runs for every source; stdout must be the
 * JSON object only.
 */
const GEMINI_EVENTS: Record<AgentEvent, string> = { "session-start": "SessionStart", "user-prompt-submit": "BeforeAgent" }
const GEMINI: Agent = {
  manager: "gemini",
  name: "Gemini CLI",
  file: ".gemini/settings.json",
  events: GEMINI_EVENTS,
  cd: cdProject("GEMINI_PROJECT_DIR"),
  fromTop: false,
  output: (event, text) => specificOutput(GEMINI_EVENTS[event], text),
  measure: utf16,
  ceiling: CONTEXT_CEILING,
  quiet: true,
  document: (handlers) => ({
    hooks: Object.fromEntries(
      handlers.map(({ event, command }) => [
        GEMINI_EVENTS[event],
        [{ hooks: [{ name: `specbundle-${event}`, type: "command", command, timeout: HOOK_TIMEOUT_SECONDS * 1000 }] }]
      ])
    )
  })
}

/**
 * GitHub Copilot CLI's `.github/hooks/specbundle.json`: `version: 1`, handlers `{ type, bash,
 * timeoutSec }` right under the event. It reads a top-level `additionalContext` from a sessionStart
 * hook and nothing a userPromptSubmitted hook prints.
 */
const COPILOT: Agent = {
  manager: "copilot",
  name: "Copilot CLI",
  file: ".github/hooks/specbundle.json",
  events: { "session-start": "sessionStart", "user-prompt-submit": null },
  unread: "Copilot CLI does not read what a userPromptSubmitted hook prints",
  cd: CD_TOP,
  fromTop: true,
  output: (_event, text) => `${JSON.stringify({ additionalContext: text })}\n`,
  measure: utf16,
  ceiling: CONTEXT_CEILING,
  quiet: false,
  document: (handlers) => ({
    version: 1,
    hooks: Object.fromEntries(handlers.map(({ command }) => ["sessionStart", [{ type: "command", bash: command, timeoutSec: HOOK_TIMEOUT_SECONDS }]]))
  })
}

export const AGENTS: Record<AgentManager, Agent> = { "claude-code": CLAUDE_CODE, codex: CODEX, gemini: GEMINI, copilot: COPILOT }

/** The sh line an agent runs: in the folder `--root` is relative to, specbundle from node_modules/.bin or PATH, else one line on stderr and status 0. */
export const agentCommand = (event: AgentEvent, root: string, agent: Agent = CLAUDE_CODE): string =>
  `${agent.cd}; ${guardedLine(event, root, agent.manager === "claude-code" ? "" : `--manager ${agent.manager}`, "added no context")}`

/** The hooks file for `events` (the ones the agent reads); `root` is relative to the folder `agent.fromTop` names ("" for it). */
export const agentSnippet = (events: ReadonlyArray<AgentEvent>, root: string, agent: Agent = CLAUDE_CODE): string => {
  const handlers = AGENT_EVENTS.filter((e) => events.includes(e) && agent.events[e] !== null).map((event) => ({
    event,
    command: agentCommand(event, root, agent)
  }))
  return `${JSON.stringify(agent.document(handlers), null, 2)}\n`
}

/** The settings snippet for `events` (one object, one key per event); `root` is relative to the project folder ("" for it). */
export const claudeCodeSnippet = (events: ReadonlyArray<AgentEvent>, root: string): string => agentSnippet(events, root, CLAUDE_CODE)

/**
 * What `hook print HOOK [MORE...] --manager M` asks for when an agent hook is involved: the
 * events, the agent, and a line about an event it leaves out; or the one problem (exit 2); null
 * when neither the manager nor a name is an agent's.
 */
export const printedEvents = (
  hook: string,
  more: ReadonlyArray<string>,
  manager: string
): { readonly events: ReadonlyArray<AgentEvent>; readonly agent: Agent; readonly note: string | null } | { readonly problem: string } | null => {
  const names = [hook, ...more]
  if (isAgentManager(manager)) {
    const agent = AGENTS[manager]
    const other = names.find((n) => !isAgentEvent(n))
    if (other !== undefined) return { problem: `--manager ${manager} prints the ${agent.name} hooks session-start and user-prompt-submit, not "${other}".` }
    const asked = AGENT_EVENTS.filter((e) => names.includes(e))
    const unread = asked.filter((e) => agent.events[e] === null)
    const events = asked.filter((e) => agent.events[e] !== null)
    const why = unread.length === 0 ? null : `${unread.join(", ")} is left out: ${agent.unread}`
    if (events.length === 0) return { problem: `${why}; print session-start for ${agent.name}.` }
    return { events, agent, note: why === null ? null : `${why}; the file holds ${events.join(", ")}.` }
  }
  const event = names.find(isAgentEvent)
  return event === undefined ? null : { problem: `${event} is an agent hook, not a git hook: give --manager ${AGENT_MANAGERS.join(", ")}.` }
}

/** Why `hook install|uninstall EVENT` cannot take an agent hook. */
export const notGitHook = (event: AgentEvent, action: string): string =>
  `${event} is an agent hook, not a git hook to ${action}: print it with specbundle hook print ${event} --manager claude-code (or codex, gemini, copilot).`

/** The one JSON object the Claude Code hook prints: `text` (the bundle) as the event's additional context. */
export const contextOutput = (event: AgentEvent, text: string): string => CLAUDE_CODE.output(event, text)

/** What the hook hands Claude Code: the bundle, its first part, or the budgetExceeded value naming the impacted Specs. */
export interface Rendered {
  readonly form: "bundle" | "part" | "exceeded"
  readonly text: string
  /** The number of parts, for a part. */
  readonly of: number
}

/**
 * The most useful value at `budget`: the bundle (cut as the budget needs), else part 1 of the
 * split (it stands alone and carries the boundary), else the budgetExceeded value (its scope names
 * the impacted Specs); null for diagnostics.
 */
export const renderAt =
  (facts: Facts, params: BundleParams) =>
  (budget: number): Rendered | null => {
    const asked = { ...params, budget }
    const whole = composeBundleText(facts, asked)
    if (isDiagnostics(whole.value)) return null
    if (!isBudgetExceeded(whole.value)) return { form: "bundle", text: whole.text, of: 1 }
    const plan = planParts(facts, asked)
    if (isPartsSplit(plan)) return { form: "part", text: plan.renderText(1), of: plan.of }
    return { form: "exceeded", text: whole.text, of: 1 }
  }

export interface Fitted {
  readonly rendered: Rendered
  /** The budget the value was composed at. */
  readonly budget: number
  readonly stdout: string
}

/** How many budgets fitContext tries (a bundle's text fits on the first or second). */
const TRIES = 8

/** The longest stdout `text` gives, whichever event it goes to, in the agent's unit. */
const longestOutput = (text: string, agent: Agent): number => Math.max(...AGENT_EVENTS.map((e) => agent.measure(agent.output(e, text))))

/**
 * The value whose whole stdout (the JSON object around it, with its quotes escaped) stays within
 * `ceiling`, or null. The budget measures the bundle's own text; escaping lengthens it by a share
 * no budget can know beforehand, so the budget starts at the room the object leaves and, while the
 * escaped text overshoots, comes down to the length that would fit at the share the last text had
 * (always below that text's length, so each try is smaller). Measured against the longer event
 * name, so both events give the same value for the same changes (what the session record compares).
 */
export const fitContext = (event: AgentEvent, render: (budget: number) => Rendered | null, agent: Agent = CLAUDE_CODE): Fitted | null => {
  const room = agent.ceiling - longestOutput("", agent)
  let budget = room
  for (let i = 0; i < TRIES && budget > 0; i++) {
    const rendered = render(budget)
    if (rendered === null) return null
    const escaped = longestOutput(rendered.text, agent) - longestOutput("", agent)
    if (escaped <= room) return { rendered, budget, stdout: agent.output(event, rendered.text) }
    budget = Math.min(budget - 1, Math.floor((rendered.text.length * room) / escaped))
  }
  return null
}

/**
 * The session the agent names in the event it passes on stdin (`session_id`; Copilot CLI's
 * camelCase events say `sessionId`), or null (a run by hand, input that is not the event).
 */
export const sessionOf = (input: string): string | null => {
  try {
    const event = JSON.parse(input) as { session_id?: unknown; sessionId?: unknown }
    if (typeof event !== "object" || event === null) return null
    const id = typeof event.session_id === "string" ? event.session_id : event.sessionId
    return typeof id === "string" && id !== "" ? id.replace(/\s/g, "_") : null
  } catch {
    return null
  }
}

/** The record of what a session got last: its id and the SHA-256 of the context, or "none". */
export const recordOf = (session: string, text: string | null): string =>
  `${session}\n${text === null ? "none" : createHash("sha256").update(text).digest("hex")}\n`
