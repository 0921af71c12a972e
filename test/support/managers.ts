// Hook managers as they run a hook, without installing them (test/cli/hook-managers.test.ts): what
// `specbundle hook print --manager M` gives is committed where M reads it, and a stand-in for M's
// installed git hook runs it the way M does.
//   - husky (v9): git runs .husky/_/<hook>, which runs `sh -e .husky/<hook> "$@"` (git's arguments
//     and stdin passed on).
//   - lefthook: git runs `lefthook run <hook> "$@"`, which puts the arguments into `run:` ({0} all,
//     {1}, {2}, ... each, unquoted), runs it with `sh -c`, and passes stdin only with
//     `use_stdin: true` (else the command's stdin holds nothing).
//   - pre-commit framework: reads git's pre-push stdin itself and decides the range (hook_impl.py
//     _pre_push_ns: the remote's tip when it exists here, else the parent of the oldest commit
//     `--not --remotes=<remote>`, none for a first push), then runs `entry` without a shell, with
//     PRE_COMMIT_FROM_REF / TO_REF / REMOTE_NAME / REMOTE_URL / LOCAL_BRANCH / REMOTE_BRANCH.
import * as fs from "node:fs"
import * as path from "node:path"
import { parse } from "yaml"

const write = (file: string, text: string, mode = 0o644) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text, { mode })
}

/** husky: the printed line in .husky/<hook>, run through a stand-in for husky's .husky/_/<hook>. */
export const husky = (dir: string, hook: string, printed: string, git: (...args: string[]) => unknown) => {
  write(path.join(dir, ".husky", hook), printed)
  write(path.join(dir, ".husky", "_", hook), `#!/bin/sh\nexec sh -e "$(dirname "$0")/../${hook}" "$@"\n`, 0o755)
  git("config", "core.hooksPath", ".husky/_")
}

const LEFTHOOK = `const { spawnSync } = require("node:child_process")
const { run, useStdin } = JSON.parse(process.argv[2])
const args = process.argv.slice(3)
let command = run.split("{0}").join(args.join(" "))
args.forEach((a, i) => (command = command.split("{" + (i + 1) + "}").join(a)))
const r = spawnSync("sh", ["-c", command], { stdio: [useStdin ? "inherit" : "ignore", "inherit", "inherit"] })
process.exit(r.status ?? 1)
`

/** lefthook: the printed lefthook.yml entry, run as `lefthook run` runs it. */
export const lefthook = (dir: string, hook: string, printed: string) => {
  const config = parse(printed) as Record<string, { commands: { specbundle: { run: string; use_stdin?: boolean } } }>
  const { run, use_stdin } = config[hook].commands.specbundle
  const runner = path.join(dir, ".git", "lefthook-standin.cjs")
  write(runner, LEFTHOOK)
  const json = JSON.stringify({ run, useStdin: use_stdin === true }).replace(/'/g, `'\\''`)
  write(path.join(dir, ".git", "hooks", hook), `#!/bin/sh\nexec node ${runner} '${json}' "$@"\n`, 0o755)
}

const PRE_COMMIT = `const { execFileSync, spawnSync } = require("node:child_process")
const { entry, hook } = JSON.parse(process.argv[2])
const [remote, url] = process.argv.slice(3)
const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).trim()
const env = { ...process.env }
let decided = false
if (hook === "pre-push") {
  const stdin = require("node:fs").readFileSync(0, "utf8")
  env.PRE_COMMIT_REMOTE_NAME = remote
  env.PRE_COMMIT_REMOTE_URL = url
  for (const line of stdin.split("\\n").filter((l) => l.trim() !== "")) {
    const [localBranch, localSha, remoteBranch, remoteSha] = line.trim().split(/\\s+/)
    if (/^0+$/.test(localSha)) continue
    const set = (from) => Object.assign(env, { PRE_COMMIT_FROM_REF: from, PRE_COMMIT_TO_REF: localSha, PRE_COMMIT_LOCAL_BRANCH: localBranch, PRE_COMMIT_REMOTE_BRANCH: remoteBranch })
    if (!/^0+$/.test(remoteSha) && spawnSync("git", ["cat-file", "-e", remoteSha + "^{commit}"]).status === 0) { set(remoteSha); decided = true; break }
    const ancestors = git("rev-list", localSha, "--topo-order", "--reverse", "--not", "--remotes=" + remote)
    if (ancestors === "") continue
    const first = ancestors.split("\\n")[0]
    // A root commit among them: the whole history is pushed ("all files"), no range.
    if (!git("rev-list", "--max-parents=0", localSha).split("\\n").includes(first)) set(git("rev-parse", first + "^"))
    decided = true
    break
  }
  // Nothing to push: the framework runs no hook.
  if (!decided && env.PRE_COMMIT_FROM_REF === undefined) process.exit(0)
}
const [program, ...args] = entry.split(/\\s+/)
const r = spawnSync(program, args, { stdio: ["ignore", "inherit", "inherit"], env })
process.exit(r.status ?? 1)
`

/** pre-commit framework: the printed .pre-commit-config.yaml entry, run as the framework runs it. */
export const preCommit = (dir: string, hook: string, printed: string) => {
  const config = parse(printed) as {
    repos: Array<{ repo: string; hooks: Array<{ entry: string; language: string; stages: string[]; pass_filenames: boolean; always_run: boolean }> }>
  }
  const [entry] = config.repos[0].hooks
  // What the stand-in honours: a local system hook of this stage that takes no file names.
  if (config.repos[0].repo !== "local" || entry.language !== "system" || !entry.stages.includes(hook) || entry.pass_filenames !== false) {
    throw new Error(`not a hook the stand-in runs: ${printed}`)
  }
  const runner = path.join(dir, ".git", "pre-commit-standin.cjs")
  write(runner, PRE_COMMIT)
  const json = JSON.stringify({ entry: entry.entry, hook }).replace(/'/g, `'\\''`)
  write(path.join(dir, ".git", "hooks", hook), `#!/bin/sh\nexec node ${runner} '${json}' "$@"\n`, 0o755)
}
