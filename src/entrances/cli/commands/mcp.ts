// `specbundle mcp`: a Model Context Protocol server over stdio (tools: bundle, impact, check, list).
// The server is its own bundle, loaded by mcp-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import type * as Effect from "effect/Effect"
import { text } from "../../../usecases/fields.js"
import type { Args } from "../flags.js"
import { flagsOf } from "../flags.js"

const mcpFields = {
  http: text({
    description: "Serve MCP over HTTP at http://127.0.0.1:PORT/mcp instead of stdin/stdout (127.0.0.1 only; 0: a free port, named on stderr).",
    value: "PORT"
  })
}

export type McpArgs = Args<typeof mcpFields>

/** The `mcp` command given its handler (main.ts passes it, loaded when the command runs: handlers/mcp-run.ts). */
export const mcpCommand = <E, R>(handler: (args: McpArgs) => Effect.Effect<void, E, R>) =>
  Command.make("mcp", flagsOf(mcpFields), handler).pipe(
    Command.withDescription(
      [
        "Serve the use cases to agents as a Model Context Protocol server on stdin/stdout. Tools: bundle (the whole value, one part, or the part count), impact (a changeset's report), check (findings), list (Packs and Specs).",
        "Each call answers for the corpus as it is then; the server keeps what it read warm and reads again only what changed. Results are the bytes the CLI prints, wrong parameters a tool error holding the { diagnostics } value. Relative roots resolve against the folder the server started in. The server ends, exit 0, when stdin ends.",
        "With --http PORT it serves the same tools over MCP's Streamable HTTP transport at http://127.0.0.1:PORT/mcp (stateless for MCP 2026-07-28), for a review bot or an IDE on the same machine: it listens on 127.0.0.1 only and refuses a request whose Host or Origin names another place. It serves until interrupted (Ctrl-C: exit 130).",
        'An MCP client\'s configuration, in a project that installed specbundle (npx runs its node_modules/.bin/specbundle): { "command": "npx", "args": ["specbundle", "mcp"] }. Installed globally (npm install -g): { "command": "specbundle", "args": ["mcp"] }'
      ].join("\n")
    )
  )

/** Run as written, it serves until stdin ends (test/cli/help.test.ts closes it at once). */
export const mcpExamples = ["specbundle mcp"]
