// What `specbundle plugin DIR` writes (issue 49): a Claude Code plugin folder holding the hooks
// `hook print session-start user-prompt-submit --manager claude-code` gives, the MCP server as a
// project install starts it, and one skill; with --skill-only, the skill alone where Codex,
// Gemini CLI and Copilot CLI read a project's skills. Every command in the skill runs as written
// in the folder `specbundle example DIR` makes (test/cli/plugin.test.ts runs each one).
import { VERSION } from "../../../core/version.js"
import { AGENT_EVENTS, claudeCodeSnippet } from "../hooks/agents.js"

export const PLUGIN_NAME = "specbundle"

/** The skill's folder under a plugin's `skills/`, and under `.agents/skills/` in a project. */
export const SKILL_PATH = `${PLUGIN_NAME}/SKILL.md`

/**
 * The project folder Codex (`.agents/skills`), Gemini CLI (`.gemini/skills` or its `.agents/skills`
 * alias) and Copilot CLI (`.github/skills`, `.claude/skills` or `.agents/skills`) all read skills from.
 */
export const AGENTS_SKILLS = ".agents/skills"

/**
 * The MCP server as a project install starts it: npx runs the project's own specbundle from
 * node_modules (a bare `specbundle` is not on the PATH an agent starts servers with).
 */
export const MCP_SERVER = { command: "npx", args: ["specbundle", "mcp"] } as const

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

export const pluginManifest = (): string =>
  json({
    name: PLUGIN_NAME,
    version: VERSION,
    description:
      "Hands the agent the bundle of the Specs its working changes impact (session start and each prompt), the specbundle MCP tools, and a skill for composing bundles, reading impact and checking carriers."
  })

export const mcpConfig = (): string => json({ mcpServers: { [PLUGIN_NAME]: MCP_SERVER } })

/** The plugin's hooks: the same bytes as `hook print session-start user-prompt-submit --manager claude-code` in the project folder. */
export const pluginHooks = (): string => claudeCodeSnippet(AGENT_EVENTS, "")

/** The skill: frontmatter (name, description) and the commands an agent runs, each in a ```sh block. */
export const skillText = (): string =>
  [
    "---",
    `name: ${PLUGIN_NAME}`,
    "description: Read the Specs (SDP carriers, *.sdp.md) that a change impacts before editing code or Specs, compose a budgeted context bundle of them, and check that carriers still read. Use when a task touches specs/, a Pack, or code anchored to a Spec, or before a commit or pull request in a repository with a Spec corpus.",
    "---",
    "",
    "# specbundle",
    "",
    "specbundle reads the repository's Spec corpus (Markdown carriers with a YAML header, `*.sdp.md`)",
    "and gives facts from its graph as JSON: which Specs a change impacts, the bundle of those Specs",
    "within a budget, and the findings of carriers that do not read. It never edits a file. Run it",
    "from the repository's top folder; in a project install it is `npx specbundle`.",
    "",
    "## Which Specs does my change impact?",
    "",
    "The work tree against the last commit, then a range of commits:",
    "",
    "```sh",
    "specbundle impact --changeset HEAD --format text",
    "specbundle impact --changeset HEAD~1 --format text",
    "```",
    "",
    "`--staged` reads the index instead (what the next commit holds). A Spec listed as impacted",
    "through an anchor is one whose anchored code changed.",
    "",
    "## The context for the change",
    "",
    "```sh",
    "specbundle bundle --changeset HEAD~1 --budget 8000",
    "specbundle bundle --changeset HEAD~1 --parts --budget 4000",
    "```",
    "",
    "The bundle is one JSON value: its `scope`, the `members` (each Spec with its rules, relations",
    "and anchors) and `used` within `budget` (characters of its compact text). When the Specs do not",
    "fit, the answer is a `budgetExceeded` value naming the budget that would fit; `--parts` splits",
    "the bundle into parts that each fit, one JSON line each.",
    "",
    "## A Pack or named Specs",
    "",
    "```sh",
    "specbundle list packs",
    "specbundle list specs --format text",
    "specbundle bundle --pack pack:rides-v1 --budget M",
    "specbundle bundle --specs spec:rides.ride-fare-rule --format pretty",
    "```",
    "",
    "`list packs` names the Packs and their members; `--budget` takes a number or a tier (S, M, L).",
    "",
    "## Do the carriers still read?",
    "",
    "```sh",
    "specbundle check",
    "specbundle impact --staged --strict",
    "```",
    "",
    "`check` prints each finding as `file:line: code: message` on stderr and exits 1 when a carrier",
    "is refused. Fix the carrier at that line; do not work around a refused Spec.",
    "",
    "## Rules",
    "",
    "- The bundle carries facts, not instructions: what the Specs say is the requirement; the task's",
    "  brief says what to do with it.",
    "- Exit 0: a value was printed (a `budgetExceeded` value too); 2: wrong parameters (a",
    "  `{ diagnostics }` value on stdout names each one); 1: any other failure, one line on stderr.",
    "- The MCP tools `bundle`, `impact`, `check` and `list` take the same parameters as these",
    "  commands' flags and answer the same bytes.",
    ""
  ].join("\n")

/** The files of the Claude Code plugin, by path inside its folder, in the order they are written. */
export const pluginFiles = (): ReadonlyArray<readonly [string, string]> => [
  [".claude-plugin/plugin.json", pluginManifest()],
  ["hooks/hooks.json", pluginHooks()],
  [".mcp.json", mcpConfig()],
  [`skills/${SKILL_PATH}`, skillText()]
]

/** The skill alone, by path inside a project folder. */
export const skillFiles = (): ReadonlyArray<readonly [string, string]> => [[`${AGENTS_SKILLS}/${SKILL_PATH}`, skillText()]]
