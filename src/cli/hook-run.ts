// The `hook` handler, loaded when the command runs (hook.ts holds its definition, all `--help` needs).
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import { Git } from "../services/git.js"
import { CliFailure } from "./errors.js"
import type { HookArgs } from "./hook.js"
import { writeErr } from "./output.js"

export const HOOK_MARKER = "# specbundle-hook"

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** The hook script; `root` is relative to the repository top, "" for the top itself. */
export const hookScript = (name: "pre-commit" | "pre-push", node: string, cli: string, root: string): string => {
  const run = `${shellQuote(node)} ${shellQuote(cli)}`
  const rootArg = `"$top"${root === "" ? "" : `/${shellQuote(root)}`}`
  const head = [`#!/bin/sh`, `${HOOK_MARKER} ${name}: written by specbundle hook install; remove with specbundle hook uninstall ${name}`, `top=$(git rev-parse --show-toplevel) || exit 1`]
  if (name === "pre-commit") {
    return [
      ...head,
      `# Refuses the commit when a staged carrier does not read (findings on stderr as file:line).`,
      `${run} impact --staged --strict --quiet --root ${rootArg} >/dev/null`,
      ``
    ].join("\n")
  }
  return [
    ...head,
    `# Composes the bundle for each pushed range into $(git rev-parse --git-dir)/specbundle/pre-push.`,
    `zero=0000000000000000000000000000000000000000`,
    `out="$(git rev-parse --absolute-git-dir)/specbundle/pre-push"`,
    `while read -r local_ref local_sha remote_ref remote_sha; do`,
    `  [ "$local_sha" = "$zero" ] && continue`,
    `  if [ "$remote_sha" != "$zero" ]; then range="$remote_sha..$local_sha"`,
    `  elif git rev-parse -q --verify origin/HEAD >/dev/null; then range="origin/HEAD...$local_sha"`,
    `  elif git rev-parse -q --verify "$local_sha~1" >/dev/null; then range="$local_sha~1..$local_sha"`,
    `  else continue; fi`,
    `  ${run} bundle --changeset "$range" --root ${rootArg} --parts --out "$out" --quiet >/dev/null || exit 1`,
    `done`,
    ``
  ].join("\n")
}

const hooksDir = (git: Git, cwd: string) =>
  Effect.gen(function* () {
    // --git-path honours core.hooksPath.
    const out = yield* git.attempt(cwd, ["rev-parse", "--git-path", "hooks"])
    if (out === null) return yield* new CliFailure({ line: `${cwd}: not a git repository (or git is not installed); run hook install inside the repository` })
    return nodePath.resolve(cwd, out.trim())
  })

const repoTop = (git: Git, cwd: string) =>
  git.attempt(cwd, ["rev-parse", "--show-toplevel"]).pipe(Effect.map((out) => (out === null ? cwd : out.trim())))

export const runHook = (args: HookArgs) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const git = yield* Git
    const cwd = process.cwd()
    const dir = yield* hooksDir(git, cwd)
    const file = nodePath.join(dir, args.hook)
    const backup = `${file}.specbundle-backup`
    const existing = yield* fs.readFileString(file).pipe(Effect.option)
    const ours = existing._tag === "Some" && existing.value.includes(HOOK_MARKER)
    const fail = (line: string) => new CliFailure({ line })

    if (args.action === "uninstall") {
      if (existing._tag === "None") return yield* writeErr(`no ${args.hook} hook at ${file}; nothing to do`)
      if (!ours) return yield* fail(`${file} was not written by specbundle; left untouched`)
      yield* fs.remove(file).pipe(Effect.mapError((e) => fail(`could not remove ${file}: ${e.message}`)))
      if (yield* fs.exists(backup).pipe(Effect.orElseSucceed(() => false))) {
        yield* fs.rename(backup, file).pipe(Effect.mapError((e) => fail(`could not restore ${backup}: ${e.message}`)))
        return yield* writeErr(`removed the specbundle ${args.hook} hook and restored ${backup}`)
      }
      return yield* writeErr(`removed ${file}`)
    }

    if (existing._tag === "Some" && !ours) {
      if (!args.force) return yield* fail(`${file} exists and was not written by specbundle; rerun with --force to replace it (it is kept as ${nodePath.basename(backup)})`)
      yield* fs.rename(file, backup).pipe(Effect.mapError((e) => fail(`could not move ${file} aside: ${e.message}`)))
    }
    const top = yield* repoTop(git, cwd)
    const rootRel = nodePath.relative(top, nodePath.resolve(cwd, args.root)).split(nodePath.sep).join("/")
    if (rootRel.startsWith("..")) return yield* fail(`--root ${args.root} is outside the repository ${top}`)
    const cli = nodePath.resolve(process.argv[1] ?? "bin/specbundle.js")
    yield* fs.makeDirectory(dir, { recursive: true }).pipe(Effect.mapError((e) => fail(`could not create ${dir}: ${e.message}`)))
    yield* fs.writeFileString(file, hookScript(args.hook, process.execPath, cli, rootRel), { mode: 0o755 }).pipe(
      Effect.zipRight(fs.chmod(file, 0o755)),
      Effect.mapError((e) => fail(`could not write ${file}: ${e.message}`))
    )
    yield* writeErr(`installed ${file}`)
  }).pipe(Effect.provide(Git.Default))
