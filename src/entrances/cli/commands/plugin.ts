// `specbundle plugin DIR`: writes a Claude Code plugin folder (the agent hooks, the MCP server, a
// skill) into DIR; with --skill-only, the skill alone into the project folder DIR where Codex,
// Gemini CLI and Copilot CLI read skills. The handler loads from plugin-run.ts when it runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { flag } from "./common.js"

export interface PluginArgs {
  readonly dir: string
  readonly skillOnly: boolean
}

const options = {
  dir: Argument.String("DIR").pipe(
    Argument.withDescription("A new or empty folder for the plugin; with --skill-only, the project folder (the repository top).")
  ),
  skillOnly: flag(
    "skill-only",
    "Write only the skill, to DIR/.agents/skills/specbundle/SKILL.md, where Codex, Gemini CLI and Copilot CLI read a project's skills."
  )
}

/**
 * The `plugin` command given its handler: main.ts passes the handler, loaded when the command runs
 * (plugin-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const pluginCommand = <E, R>(handler: (args: PluginArgs) => Effect.Effect<void, E, R>) =>
  Command.make("plugin", options, handler).pipe(
    Command.withDescription(
      "Write a Claude Code plugin into DIR: .claude-plugin/plugin.json, hooks/hooks.json (the hooks hook print session-start user-prompt-submit --manager claude-code gives), .mcp.json (specbundle mcp through npx, which finds a project install) and skills/specbundle/SKILL.md (when and how to run specbundle, every command runnable in the example corpus). Install it with claude --plugin-dir DIR, or add it to a marketplace. Prints each file written on stdout. Exit 0 when written; 2 when DIR is a file or a folder that is not empty (with --skill-only: when the skill is there already); 1 when a file cannot be written."
    )
  )

export const pluginExamples = ["specbundle plugin specbundle-plugin", "specbundle plugin . --skill-only"]
