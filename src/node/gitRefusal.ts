// git refusing a repository it can read: the ownership check (safe.directory), common in CI
// containers where the checkout belongs to another user. It is told apart from "not a git
// repository" so that no caller takes it for a plain folder (and reads files git would ignore).
import * as Data from "effect/Data"

export class GitRefusedError extends Data.TaggedError("GitRefusedError")<{
  /** The repository git names (or the folder git ran in). */
  readonly repository: string
  /** git's reason, its first line without "fatal: ". */
  readonly reason: string
  /** The command that lets git in, as git itself prints it. */
  readonly fix: string
}> {
  override get message() {
    return `git refuses the repository ${this.repository}: ${this.reason} (it belongs to another user); if you trust it, run: ${this.fix}`
  }
}

// git 2.35.2+: "detected dubious ownership in repository at '<dir>'"; 2.35.2-2.36: "unsafe repository ('<dir>' is owned by someone else)".
const DUBIOUS = /(detected dubious ownership in repository at '([^'\n]*)')|(unsafe repository \('([^'\n]*)' is owned by someone else\))/

/** The refusal git's stderr reports, or null when it reports something else. */
export const refusalOf = (cwd: string, stderr: string): GitRefusedError | null => {
  const m = DUBIOUS.exec(stderr)
  if (m === null) return null
  const repository = m[2] ?? m[4] ?? cwd
  // git prints the exact command (with the path it checked); fall back to building it.
  const fix = /git config --global --add safe\.directory [^\n]+/.exec(stderr)?.[0].trim() ?? `git config --global --add safe.directory ${repository}`
  return new GitRefusedError({ repository, reason: (m[1] ?? m[3]).replace(/ in repository at '.*'$| \('.*'\)$/, ""), fix })
}
