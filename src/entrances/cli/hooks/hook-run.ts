// The `hook` handler, loaded when the command runs (hook.ts holds its definition, all `--help` needs).
import * as FileSystem from "effect/FileSystem"
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { Repository } from "../../../usecases/Repository.js"
import { FileFailure, HookFailure } from "../errors.js"
import type { HookArgs } from "../commands/hook.js"
import { problems } from "../../../usecases/requests.js"
import { agentSnippet, isAgentEvent, isAgentManager, notGitHook, printedEvents } from "./agents.js"
import type { HookManager, HookName } from "./print.js"
import { SKIPPED, hookSnippet, printedHooks, shellQuote } from "./print.js"
import { Invocation } from "../invocation.js"
import { writeErr, writeOut } from "../output/output.js"

export const HOOK_MARKER = "# specbundle-hook"

/** ` --root R` for `hook run` in an installed hook: under "$top". */
const rootArg = (root: string): string => ` --root "$top"${root === "" ? "" : `/${shellQuote(root)}`}`

const PURPOSE: Record<HookName, string> = {
  "pre-commit": "# Refuses the commit only when a carrier staged in it does not read (file:line on stderr).",
  "pre-push": "# Composes the bundle for each pushed range into $(git rev-parse --git-dir)/specbundle/<remote>/; never blocks a push."
}

/**
 * The hook script. `cli`: the installing specbundle's loader, for a hook in .git/hooks (this clone
 * only); null for a hook folder inside the work tree (committed for the team: no machine paths,
 * specbundle from node_modules/.bin or PATH). A missing specbundle or node never blocks: one line, exit 0.
 */
export const hookScript = (name: HookName, root: string, cli: { readonly node: string; readonly script: string } | null): string => {
  const reinstall = `specbundle hook install ${name}${root === "" ? "" : ` --root ${shellQuote(root)}`}`
  const head = [
    `#!/bin/sh`,
    `${HOOK_MARKER} ${name}: written by specbundle hook install; remove with specbundle hook uninstall ${name}`,
    PURPOSE[name],
    `top=$(git rev-parse --show-toplevel) || exit 0`
  ]
  if (cli === null) {
    return [
      ...head,
      `PATH="$top/node_modules/.bin:$PATH"`,
      `if ! command -v specbundle >/dev/null 2>&1; then`,
      `  echo "specbundle: not found on PATH or in node_modules/.bin, so the ${name} hook ${SKIPPED[name]} (install specbundle, or see specbundle hook print ${name})" >&2`,
      `  exit 0`,
      `fi`,
      `exec specbundle hook run ${name}${rootArg(root)} "$@"`,
      ``
    ].join("\n")
  }
  return [
    ...head,
    `cli=${shellQuote(cli.script)}`,
    `if [ ! -f "$cli" ]; then`,
    `  echo "specbundle: $cli is gone, so the ${name} hook ${SKIPPED[name]}; reinstall the hook with: ${reinstall}" >&2`,
    `  exit 0`,
    `fi`,
    // The Node that installed the hook, or the one on PATH after an upgrade moved it.
    `node=${shellQuote(cli.node)}`,
    `[ -x "$node" ] || node=$(command -v node) || { echo "specbundle: node is not on PATH, so the ${name} hook ${SKIPPED[name]}" >&2; exit 0; }`,
    `exec "$node" "$cli" hook run ${name}${rootArg(root)} "$@"`,
    ``
  ].join("\n")
}

const hooksDir = (repository: Repository["Service"], cwd: string) =>
  Effect.gen(function* () {
    // --git-path honours core.hooksPath.
    const out = yield* repository.hooksPath(cwd).pipe(
      // git refusing the repository (safe.directory) keeps its own line; anything else: not a repository.
      Effect.mapError((e) => (e._tag === "GitRefusedError" ? e : new HookFailure({ refusal: { _tag: "NoRepository", cwd, gitMissing: true } })))
    )
    if (out === "") return yield* new HookFailure({ refusal: { _tag: "NoRepository", cwd, gitMissing: false } })
    return nodePath.resolve(cwd, out)
  })

const repoTop = (repository: Repository["Service"], cwd: string) => repository.top(cwd).pipe(Effect.map((top) => top ?? cwd))

/** The root relative to the repository top ("" for the top), or a failure when it lies outside. */
const rootInRepo = (git: Repository["Service"], cwd: string, root: string) =>
  Effect.gen(function* () {
    const top = yield* repoTop(git, cwd)
    const rel = nodePath.relative(top, nodePath.resolve(cwd, root)).split(nodePath.sep).join("/")
    if (rel.startsWith("..") || nodePath.isAbsolute(rel)) return yield* new HookFailure({ refusal: { _tag: "RootOutside", root, top } })
    return { top, rel }
  })

export const runHook = (args: HookArgs) =>
  Effect.gen(function* () {
    if (args.action === "run") {
      // The agents' hooks: never exit 2 (UserPromptSubmit would drop the prompt), so extra arguments are let be.
      // Without --manager (husky, the default) it answers Claude Code, as the hooks printed before --manager codex did.
      if (isAgentEvent(args.hook)) {
        const agent = yield* Effect.promise(() => import("./agent-run.js"))
        return yield* agent.runAgentHook(args.hook, args.root, isAgentManager(args.manager) ? args.manager : "claude-code")
      }
      if (args.hook === "pre-commit") {
        const check = yield* Effect.promise(() => import("./pre-commit.js"))
        return yield* check.runPreCommit(args.root)
      }
      const push = yield* Effect.promise(() => import("./pre-push.js"))
      return yield* push.runPrePush(args.root, args.gitArgs, args.manager === "lefthook" ? "lefthook" : "husky")
    }
    const invocation = yield* Invocation
    const cwd = invocation.cwd
    if (args.action === "print") {
      // `hook print pre-commit pre-push`: the second hook arrives as a GIT_ARG.
      const agent = printedEvents(args.hook, args.gitArgs, args.manager)
      if (agent !== null && "problem" in agent) return yield* problems([{ scope: "arguments", problem: agent.problem }])
      const git = yield* Repository
      if (agent !== null) {
        // Claude Code and Gemini CLI run the hook in the project folder (where .claude/ or .gemini/ is):
        // the root is relative to it. Codex and Copilot CLI read their file at the repository top.
        const { rel: fromTop } = yield* rootInRepo(git, cwd, args.root)
        const rel = agent.agent.fromTop ? fromTop : nodePath.relative(cwd, nodePath.resolve(cwd, args.root)).split(nodePath.sep).join("/")
        if (agent.note !== null) yield* writeErr(`specbundle: ${agent.note}`)
        return yield* writeOut(agentSnippet(agent.events, rel, agent.agent))
      }
      const asked = printedHooks(args.hook as HookName, args.gitArgs, args.manager as HookManager)
      if ("problem" in asked) return yield* problems([{ scope: "arguments", problem: asked.problem }])
      const { rel } = yield* rootInRepo(git, cwd, args.root)
      return yield* writeOut(hookSnippet(asked.hooks, rel, args.manager as HookManager))
    }
    if (isAgentEvent(args.hook)) return yield* problems([{ scope: "arguments", problem: notGitHook(args.hook, args.action) }])
    const hook: HookName = args.hook
    const fs = yield* FileSystem.FileSystem
    const git = yield* Repository
    const dir = yield* hooksDir(git, cwd)
    const file = nodePath.join(dir, hook)
    const backup = `${file}.specbundle-backup`
    const existing = yield* fs.readFileString(file).pipe(Effect.option)
    const ours = existing._tag === "Some" && existing.value.includes(HOOK_MARKER)

    if (args.action === "uninstall") {
      if (existing._tag === "None") return yield* writeErr(`no ${hook} hook at ${file}; nothing to do`)
      if (!ours) return yield* new HookFailure({ refusal: { _tag: "NotOurs", file } })
      yield* fs.remove(file).pipe(Effect.mapError((e) => new FileFailure({ action: "remove", path: file, problem: e.message })))
      if (yield* fs.exists(backup).pipe(Effect.orElseSucceed(() => false))) {
        yield* fs.rename(backup, file).pipe(Effect.mapError((e) => new FileFailure({ action: "restore", path: backup, problem: e.message })))
        return yield* writeErr(`removed the specbundle ${hook} hook and restored ${backup}`)
      }
      return yield* writeErr(`removed ${file}`)
    }

    if (existing._tag === "Some" && !ours) {
      if (!args.force) return yield* new HookFailure({ refusal: { _tag: "Exists", file, backup: nodePath.basename(backup) } })
      yield* fs.rename(file, backup).pipe(Effect.mapError((e) => new FileFailure({ action: "move-aside", path: file, problem: e.message })))
    }
    const { top, rel } = yield* rootInRepo(git, cwd, args.root)
    // A hook folder inside the work tree (husky's .husky/, a committed core.hooksPath) is shared:
    // it gets no machine paths.
    const inTree = nodePath.relative(top, dir).split(nodePath.sep)
    const shared = inTree[0] !== ".." && !nodePath.isAbsolute(inTree.join("/")) && inTree[0] !== ".git"
    const cli = shared ? null : { node: invocation.node, script: invocation.script }
    yield* fs.makeDirectory(dir, { recursive: true }).pipe(Effect.mapError((e) => new FileFailure({ action: "create", path: dir, problem: e.message })))
    yield* fs.writeFileString(file, hookScript(hook, rel, cli), { mode: 0o755 }).pipe(
      Effect.andThen(fs.chmod(file, 0o755)),
      Effect.mapError((e) => new FileFailure({ action: "write", path: file, problem: e.message }))
    )
    yield* writeErr(`installed ${file}${shared ? " (inside the work tree: it runs specbundle from node_modules/.bin or PATH, no machine paths)" : ""}`)
  }).pipe(Effect.provide(Repository.Default))
