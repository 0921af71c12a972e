// `specbundle hook install|uninstall pre-commit|pre-push`: hooks that run this very specbundle by
// absolute path (no registry fallback). A hook specbundle did not write is never touched. The
// handler loads from hook-run.ts when the command runs.
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"

const action = Args.choice([["install", "install"], ["uninstall", "uninstall"]] as const, { name: "ACTION" }).pipe(
  Args.withDescription("install writes the hook; uninstall removes one specbundle wrote (restoring a backup it finds).")
)
const hookName = Args.choice([["pre-commit", "pre-commit"], ["pre-push", "pre-push"]] as const, { name: "HOOK" }).pipe(
  Args.withDescription("pre-commit checks the staged carriers; pre-push composes the bundle of the pushed range.")
)
const force = Options.boolean("force").pipe(Options.withDescription("Replace a hook specbundle did not write, keeping it as <hook>.specbundle-backup."))
const root = Options.text("root").pipe(
  Options.withPseudoName("DIR"),
  Options.withDescription("The corpus folder the hook reads (default: the repository top)."),
  Options.withDefault(".")
)

export interface HookArgs {
  readonly action: "install" | "uninstall"
  readonly hook: "pre-commit" | "pre-push"
  readonly force: boolean
  readonly root: string
}

export const hookCommand = Command.make("hook", { action, hook: hookName, force, root }, (args) =>
  Effect.promise(() => import("./hook-run.js")).pipe(Effect.flatMap((run) => run.runHook(args)))
).pipe(
  Command.withDescription(
    "Install or remove a git hook that runs this specbundle. pre-commit refuses a commit whose staged carriers do not read; pre-push composes the bundle for the pushed range. Honours core.hooksPath. A hook specbundle did not write is left alone unless --force (then kept as <hook>.specbundle-backup)."
  )
)

export const hookExamples = ["specbundle hook install pre-commit", "specbundle hook uninstall pre-commit"]
