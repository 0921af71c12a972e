// The command tree. Each subcommand lives in its own file; this one only assembles them.
import * as Command from "@effect/cli/Command"
import { bundleCommand } from "./bundle.js"
import { checkCommand } from "./check.js"
import { impactCommand } from "./impact.js"
import { hookCommand } from "./hook.js"
import { mcpCommand } from "./mcp.js"
import { staleCommand } from "./stale.js"
import { watchCommand } from "./watch.js"

export const VERSION = "0.1.0"

const root = Command.make("specbundle").pipe(
  Command.withDescription(
    "Compose deterministic, budgeted context bundles from an SDP Spec corpus and a git changeset.\n\nExit codes: 0 a value was produced (budgetExceeded included), 2 wrong parameters ({ diagnostics } on stdout), 1 any other failure."
  ),
  Command.withSubcommands([bundleCommand, impactCommand, checkCommand, watchCommand, staleCommand, hookCommand, mcpCommand])
)

export const cli = Command.run(root, { name: "specbundle", version: VERSION })
