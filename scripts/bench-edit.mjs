// The hook after a one-file staged edit (bench-cpu.mjs `--scenario hook-edit`): a copy of a
// git-hosted bench corpus whose index is edited between rounds. Apart from bench-corpus.mjs: its
// text is part of the corpora's cache key, and a corpus built again is a long wait for everyone.
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { ISSUE50_EXTRAS, changedOf } from "./bench-corpus.mjs"

const git = (cwd, args) =>
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8"
  })
const log = (line) => process.stderr.write(`bench: ${line}\n`)

/**
 * A copy of a git-hosted corpus (`git clone --shared`, cached beside it as `${dir}-edit`) with the
 * same staged change and untracked files, for runs that edit and stage a file between rounds
 * (bench-cpu.mjs `--scenario hook-edit`): the shared corpus's index is never touched.
 */
export const editableCopy = (dir) => {
  const copy = `${dir}-edit`
  const done = path.join(copy, ".git", "specbundle-bench-ready")
  if (existsSync(done)) return copy
  log(`cloning ${dir} for edits between rounds`)
  const tmp = `${copy}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  git(path.dirname(dir), ["clone", "-q", "--shared", dir, tmp])
  const changed = changedOf(dir) ?? { staged: [] }
  for (const f of changed.staged) cpSync(path.join(dir, f), path.join(tmp, f))
  if (changed.staged.length > 0) git(tmp, ["add", "--", ...changed.staged])
  for (const [file, text] of Object.entries(ISSUE50_EXTRAS.untracked)) {
    if (!existsSync(path.join(dir, file))) continue
    mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true })
    writeFileSync(path.join(tmp, file), text)
  }
  writeFileSync(path.join(tmp, ".git", "specbundle-bench-ready"), `${JSON.stringify(changed)}\n`)
  rmSync(copy, { recursive: true, force: true })
  renameSync(tmp, copy)
  return copy
}

/** Edits the first staged Spec of an editableCopy (its title names round `n`) and stages it: the index changes, one file of it. */
export const stageEdit = (dir, n) => {
  const file = (changedOf(dir)?.staged ?? []).find((f) => f.endsWith(".md"))
  if (file === undefined) throw new Error(`bench: ${dir} holds no staged Spec to edit`)
  const text = readFileSync(path.join(dir, file), "utf8")
  writeFileSync(path.join(dir, file), text.replace(/^# (.*?)(?: \(round \d+\))?$/m, `# $1 (round ${n})`))
  git(dir, ["add", "--", file])
}
