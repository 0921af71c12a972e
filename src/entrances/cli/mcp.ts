// `specbundle mcp`: a Model Context Protocol server over stdio (tools: bundle, impact, check, list).
// The server is its own bundle, loaded by mcp-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"

export const mcpCommand = Command.make("mcp", {}, () => Effect.promise(() => import("./mcp-run.js")).pipe(Effect.flatMap((run) => run.runMcp))).pipe(
  Command.withDescription(
    [
      "Serve the use cases to agents as a Model Context Protocol server on stdin/stdout. Tools: bundle (the whole value, one part, or the part count), impact (a changeset's report), check (findings), list (Packs and Specs).",
      "Each call answers for the corpus as it is then; the server keeps what it read warm and reads again only what changed. Results are the bytes the CLI prints, wrong parameters a tool error holding the { diagnostics } value. Relative roots resolve against the folder the server started in. The server ends, exit 0, when stdin ends.",
      'An MCP client\'s configuration, in a project that installed specbundle (npx runs its node_modules/.bin/specbundle): { "command": "npx", "args": ["specbundle", "mcp"] }. Installed globally (npm install -g): { "command": "specbundle", "args": ["mcp"] }'
    ].join("\n")
  )
)

/** Run as written, it serves until stdin ends (test/cli/help.test.ts closes it at once). */
export const mcpExamples = ["specbundle mcp"]
