// `specbundle hook install|uninstall|print|run pre-commit|pre-push|session-start|user-prompt-submit`:
// git hooks that run this very specbundle (no registry fallback), the command line for hook
// managers and the agents' hook files (hooks/agents.ts), and what the hooks run. A hook specbundle
// did not write is never touched. The handler loads from hook-run.ts when the command runs.
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import type * as Effect from "effect/Effect"
import { choiceOption, flag } from "./common.js"

const action = Argument.Literals("ACTION", ["install", "uninstall", "print", "run"]).pipe(
  Argument.withDescription(
    "install writes the hook; uninstall removes one specbundle wrote (restoring a backup it finds); print shows the hook's command line for hook managers; run is what the hook itself runs."
  )
)
const hookName = Argument.Literals("HOOK", ["pre-commit", "pre-push", "session-start", "user-prompt-submit"]).pipe(
  Argument.withDescription(
    "pre-commit checks the staged carriers; pre-push composes the bundle of the pushed range. session-start and user-prompt-submit are an agent's (print them with --manager claude-code, codex, gemini or copilot): they give the agent the bundle of the working changes."
  )
)
// What git hands a hook (pre-push: the remote's name and URL), passed on by `run`.
const gitArgs = Argument.String("GIT_ARG").pipe(Argument.variadic())
const force = flag("force", "Replace a hook specbundle did not write, keeping it as <hook>.specbundle-backup.")
// Named MANAGER in the usage (the seven choices would run past 80 columns); the sentence lists them.
const manager = choiceOption(
  "manager",
  ["husky", "lefthook", "pre-commit", "claude-code", "codex", "gemini", "copilot"],
  "husky",
  "One of husky, lefthook, pre-commit, claude-code, codex, gemini, copilot (default husky). For print: the hook manager the text is for. husky: the line for .husky/<hook> (any sh hook file); lefthook: the lefthook.yml entry (pre-push needs use_stdin: true); pre-commit: the .pre-commit-config.yaml entry (pre-commit 3.2 or later). Each runs specbundle from node_modules/.bin or PATH, and when it is missing says so in one line and lets git go on. For session-start and user-prompt-submit, the agent's hooks file: claude-code .claude/settings.json, codex .codex/hooks.json, gemini .gemini/settings.json (user-prompt-submit is BeforeAgent), copilot .github/hooks/specbundle.json (session-start only: Copilot CLI reads nothing a prompt hook prints); a missing specbundle, no change or no corpus adds nothing and never fails the session. For run: the manager or agent that runs the hook (its output shape)."
).pipe(Flag.withMetavar("MANAGER"))
const root = Flag.String("root").pipe(
  Flag.withMetavar("DIR"),
  Flag.withDescription("The corpus folder the hook reads (default: the repository top; for claude-code, the project folder where you print it)."),
  Flag.withDefault(".")
)

export interface HookArgs {
  readonly action: "install" | "uninstall" | "print" | "run"
  readonly hook: "pre-commit" | "pre-push" | "session-start" | "user-prompt-submit"
  readonly gitArgs: ReadonlyArray<string>
  readonly force: boolean
  readonly root: string
  readonly manager: "husky" | "lefthook" | "pre-commit" | "claude-code" | "codex" | "gemini" | "copilot"
}

/**
 * The `hook` command given its handler: main.ts passes the handler, loaded when the command runs
 * (hook-run.ts), so this definition holds all `--help` needs and the handler imports its arguments' type from here.
 */
export const hookCommand = <E, R>(handler: (args: HookArgs) => Effect.Effect<void, E, R>) =>
  Command.make("hook", { action, hook: hookName, gitArgs, force, root, manager }, handler).pipe(
    Command.withDescription(
      "Install, print or remove a git hook that runs this specbundle (into core.hooksPath when set). pre-commit refuses a commit only when a carrier staged in it does not read; carriers refused elsewhere are one tally line. pre-push composes the bundle for the pushed range into .git/specbundle/<remote>/ and never blocks a push. print gives what to commit for a hook manager (--manager husky, lefthook or pre-commit), without machine paths; print pre-commit pre-push gives one lefthook.yml or .pre-commit-config.yaml with both hooks. A hook specbundle did not write is left alone unless --force (then kept as <hook>.specbundle-backup). print session-start user-prompt-submit --manager claude-code gives the hooks for .claude/settings.json (--manager codex, gemini or copilot: that agent's hooks file): each hands the agent the bundle of the work tree against HEAD, within what the agent takes whole, or nothing at all."
    )
  )

export const hookExamples = [
  "specbundle hook install pre-commit",
  "specbundle hook print pre-push --manager lefthook",
  "specbundle hook print pre-commit pre-push --manager pre-commit",
  "specbundle hook print session-start user-prompt-submit --manager claude-code",
  "specbundle hook print session-start user-prompt-submit --manager codex",
  "specbundle hook uninstall pre-commit"
]
