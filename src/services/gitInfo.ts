// The two facts a manifest records about the repository the corpus sits in. Outside a repository
// (or without git) both are null: a manifest never requires git.
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"

/** Runs git and gives its stdout, or null when it failed (no repository, no git). */
export const git = (cwd: string, args: ReadonlyArray<string>): Effect.Effect<string | null> =>
  Effect.async<string | null>((resume) => {
    const child = execFile("git", ["-c", "core.quotePath=false", ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) =>
      resume(Effect.succeed(err ? null : stdout))
    )
    return Effect.sync(() => child.kill())
  })

export interface RepoState {
  readonly commit: string | null
  readonly dirty: boolean | null
}

export const repoState = (root: string): Effect.Effect<RepoState> =>
  Effect.gen(function* () {
    const head = yield* git(root, ["rev-parse", "--verify", "--quiet", "HEAD"])
    if (head === null) return { commit: null, dirty: null }
    const status = yield* git(root, ["status", "--porcelain", "-z", "--", "."])
    return { commit: head.trim(), dirty: status === null ? null : status.length > 0 }
  })
