// The command tree. Each subcommand lives in its own file; this one only assembles them, and
// gives the help pages (help.ts) the tree as data (model.ts) with each command's examples.
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { bundleCommand, bundleExamples } from "./commands/bundle.js"
import { checkCommand, checkExamples } from "./commands/check.js"
import { driftCommand, driftExamples } from "./commands/drift.js"
import { exampleCommand, exampleExamples } from "./commands/example.js"
import type { HelpInput } from "./help.js"
import { hookCommand, hookExamples } from "./commands/hook.js"
import { impactCommand, impactExamples } from "./commands/impact.js"
import { listCommand, listExamples } from "./commands/list.js"
import { VERSION } from "../../core/version.js"
import { mcpCommand, mcpExamples } from "./commands/mcp.js"
import { type CommandModel, modelOf } from "./model.js"
import { perspectiveCommand, perspectiveExamples } from "./commands/perspective.js"
import { pluginCommand, pluginExamples } from "./commands/plugin.js"
import { staleCommand, staleExamples } from "./commands/stale.js"
import { watchCommand, watchExamples } from "./commands/watch.js"

export { VERSION }
export const PROGRAM = "specbundle"

export const root = Command.make(PROGRAM).pipe(
  Command.withDescription(
    "Compose deterministic, budgeted context bundles from an SDP Spec corpus and a git changeset.\nExit codes: 0 a value was produced (budgetExceeded included), 2 wrong parameters ({ diagnostics } on stdout), 1 any other failure."
  ),
  Command.withSubcommands([
    bundleCommand((args) => Effect.promise(() => import("./handlers/bundle-run.js")).pipe(Effect.flatMap((run) => run.runBundle(args)))),
    perspectiveCommand((args) => Effect.promise(() => import("./handlers/perspective-run.js")).pipe(Effect.flatMap((run) => run.runPerspective(args)))),
    impactCommand((args) => Effect.promise(() => import("./handlers/impact-run.js")).pipe(Effect.flatMap((run) => run.runImpactCommand(args)))),
    driftCommand((args) => Effect.promise(() => import("./handlers/drift-run.js")).pipe(Effect.flatMap((run) => run.runDrift(args)))),
    checkCommand((args) => Effect.promise(() => import("./handlers/check-run.js")).pipe(Effect.flatMap((run) => run.runCheck(args)))),
    listCommand((args) => Effect.promise(() => import("./handlers/list-run.js")).pipe(Effect.flatMap((run) => run.runList(args)))),
    watchCommand((args) => Effect.promise(() => import("./handlers/watch-run.js")).pipe(Effect.flatMap((run) => run.runWatch(args)))),
    staleCommand((args) => Effect.promise(() => import("./handlers/stale-run.js")).pipe(Effect.flatMap((run) => run.runStale(args)))),
    hookCommand((args) => Effect.promise(() => import("./hooks/hook-run.js")).pipe(Effect.flatMap((run) => run.runHook(args)))),
    mcpCommand((args) => Effect.promise(() => import("./handlers/mcp-run.js")).pipe(Effect.flatMap((run) => run.runMcp(args)))),
    pluginCommand((args) => Effect.promise(() => import("./handlers/plugin-run.js")).pipe(Effect.flatMap((run) => run.runPlugin(args)))),
    exampleCommand((args) => Effect.promise(() => import("./handlers/example-run.js")).pipe(Effect.flatMap((run) => run.runExample(args))))
  ])
)

/**
 * The command tree as JSON text, inlined by the build (scripts/build.mjs) from this file's own
 * `modelOf(root)`, as the front bundle's help pages are: parsing it costs ~0.1 ms where walking
 * effect/cli's tree costs ~0.7 ms of every run (the argument pre-checks need it). Unbundled (tests,
 * the build's own evaluation) there is none, and the tree is walked.
 */
declare const SPECBUNDLE_MODEL_JSON: string | undefined

/** The tree the parser runs, as data. */
export const model = (): CommandModel => (typeof SPECBUNDLE_MODEL_JSON === "string" ? (JSON.parse(SPECBUNDLE_MODEL_JSON) as CommandModel) : modelOf(root))

/** Each example runs as written in a copy of examples/bike-dock with its history (test/cli/help.test.ts). */
export const EXAMPLES: Readonly<Record<string, ReadonlyArray<string>>> = {
  bundle: bundleExamples,
  perspective: perspectiveExamples,
  impact: impactExamples,
  drift: driftExamples,
  check: checkExamples,
  list: listExamples,
  watch: watchExamples,
  stale: staleExamples,
  hook: hookExamples,
  mcp: mcpExamples,
  plugin: pluginExamples,
  example: exampleExamples
}

/** What effect/cli adds at the top level, as the top help page lists it. */
export const BUILT_INS: HelpInput["builtIns"] = [
  { label: "-h, --help", description: "Show this page; after a command, that command's page (specbundle bundle --help)." },
  { label: "-v, -V, --version", description: "Print the version number." },
  { label: "--completions bash|zsh|fish|sh", description: "Print a completion script for the shell (see README.md)." },
  { label: "--wizard", description: "Build a command line by answering questions (needs a terminal on stdin)." }
]
