// Claude Code's hooks (issue 40), as plain functions: the `.claude/settings.json` snippet `hook
// print session-start|user-prompt-submit --manager claude-code` prints, the one JSON object the
// hook prints for Claude Code, fitting the bundle under what Claude Code takes whole, and the
// record that keeps a prompt from getting the context the session already has. hook-agent-run.ts
// runs them (`hook run session-start|user-prompt-submit`).
//
// Claude Code runs a hook's `command` with a shell in the project, passes the event as JSON on
// stdin, and for SessionStart and UserPromptSubmit adds the stdout of an exit-0 hook to the model's
// context; stderr of an exit-0 hook goes to its debug log only. A stdout that starts with `{` is
// read as the hook's JSON output, so a bare bundle would be refused as an unknown shape: the
// bundle travels as `hookSpecificOutput.additionalContext`. Up to 10,000 characters arrive whole.
import { createHash } from "node:crypto"
import type { BundleParams } from "../../core/bundle/index.js"
import { composeBundleText, isBudgetExceeded, isDiagnostics, isPartsSplit, planParts } from "../../core/bundle/index.js"
import type { Facts } from "../../core/model.js"
import { guardedLine } from "./hook-print.js"

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

/** The sh line Claude Code runs: in the project, specbundle from node_modules/.bin or PATH, else one line on stderr and status 0. */
export const agentCommand = (event: AgentEvent, root: string): string =>
  `cd "\${CLAUDE_PROJECT_DIR:-.}" || exit 0; ${guardedLine(event, root, "", "added no context")}`

/** The settings snippet for `events` (one object, one key per event); `root` is relative to the project folder ("" for it). */
export const claudeCodeSnippet = (events: ReadonlyArray<AgentEvent>, root: string): string => {
  const hooks: Record<string, unknown> = {}
  for (const event of AGENT_EVENTS.filter((e) => events.includes(e))) {
    const handler = { type: "command", command: agentCommand(event, root), timeout: HOOK_TIMEOUT_SECONDS }
    hooks[EVENT_NAMES[event]] = [event === "session-start" ? { matcher: SESSION_SOURCES, hooks: [handler] } : { hooks: [handler] }]
  }
  return `${JSON.stringify({ hooks }, null, 2)}\n`
}

/**
 * What `hook print HOOK [MORE...] --manager M` asks for when a Claude Code hook is involved: the
 * events, or the one problem (exit 2); null when neither the manager nor a name is Claude Code's.
 */
export const printedEvents = (
  hook: string,
  more: ReadonlyArray<string>,
  manager: string
): { readonly events: ReadonlyArray<AgentEvent> } | { readonly problem: string } | null => {
  const names = [hook, ...more]
  if (manager === "claude-code") {
    const other = names.find((n) => !isAgentEvent(n))
    if (other !== undefined) return { problem: `--manager claude-code prints the Claude Code hooks session-start and user-prompt-submit, not "${other}".` }
    return { events: AGENT_EVENTS.filter((e) => names.includes(e)) }
  }
  const event = names.find(isAgentEvent)
  return event === undefined ? null : { problem: `${event} is a Claude Code hook (for .claude/settings.json), not a git hook: give --manager claude-code.` }
}

/** Why `hook install|uninstall EVENT` cannot take a Claude Code hook. */
export const notGitHook = (event: AgentEvent, action: string): string =>
  `${event} is a Claude Code hook (for .claude/settings.json), not a git hook to ${action}: print it with specbundle hook print ${event} --manager claude-code.`

/** The one JSON object the hook prints: `text` (the bundle) as the event's additional context. */
export const contextOutput = (event: AgentEvent, text: string): string =>
  `${JSON.stringify({ hookSpecificOutput: { hookEventName: EVENT_NAMES[event], additionalContext: text } })}\n`

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

/** The longest stdout `text` gives, whichever event it goes to. */
const longestOutput = (text: string): number => Math.max(...AGENT_EVENTS.map((e) => contextOutput(e, text).length))

/**
 * The value whose whole stdout (the JSON object around it, with its quotes escaped) stays within
 * `ceiling`, or null. The budget measures the bundle's own text; escaping lengthens it by a share
 * no budget can know beforehand, so the budget starts at the room the object leaves and, while the
 * escaped text overshoots, comes down to the length that would fit at the share the last text had
 * (always below that text's length, so each try is smaller). Measured against the longer event
 * name, so both events give the same value for the same changes (what the session record compares).
 */
export const fitContext = (event: AgentEvent, render: (budget: number) => Rendered | null, ceiling: number = CONTEXT_CEILING): Fitted | null => {
  const room = ceiling - longestOutput("")
  let budget = room
  for (let i = 0; i < TRIES && budget > 0; i++) {
    const rendered = render(budget)
    if (rendered === null) return null
    const escaped = longestOutput(rendered.text) - longestOutput("")
    if (escaped <= room) return { rendered, budget, stdout: contextOutput(event, rendered.text) }
    budget = Math.min(budget - 1, Math.floor((rendered.text.length * room) / escaped))
  }
  return null
}

/** The session Claude Code names in the event it passes on stdin, or null (a run by hand, input that is not the event). */
export const sessionOf = (input: string): string | null => {
  try {
    const event = JSON.parse(input) as { session_id?: unknown }
    return typeof event === "object" && event !== null && typeof event.session_id === "string" && event.session_id !== ""
      ? event.session_id.replace(/\s/g, "_")
      : null
  } catch {
    return null
  }
}

/** The record of what a session got last: its id and the SHA-256 of the context, or "none". */
export const recordOf = (session: string, text: string | null): string =>
  `${session}\n${text === null ? "none" : createHash("sha256").update(text).digest("hex")}\n`
