// What the git hooks (and watch) ask of the repository they run in: its git dir, its hooks folder
// and top, the commits a push adds, the paths a stopped merge left unmerged, the git folders. The hooks (src/entrances/cli/
// hook-*.ts) decide what to compose and say; this use case is their one way to git (through the
// Git service: simple-git, LC_ALL=C, the run's environment).
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as nodePath from "node:path"
import { Git, type GitError } from "../node/git.js"
import { refusalOf } from "../node/gitRefusal.js"

/** A git dir, or why there is none: git's own refusal of the repository (safe.directory), else null (no repository, no git). */
export type GitDirAnswer = { readonly dir: string } | { readonly refusal: string | null }

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const git = yield* Git
  /** git's stdout trimmed, or null for any failure or an empty answer. */
  const answer = (cwd: string, args: ReadonlyArray<string>) => Effect.map(git.attempt(cwd, args), (out) => (out === null ? null : out.trim() || null))

  /** The repository's git dir (absolute), or why there is none. */
  const gitDir = (cwd: string): Effect.Effect<GitDirAnswer> =>
    git.exec(cwd, ["rev-parse", "--absolute-git-dir"]).pipe(
      Effect.map((o): GitDirAnswer => (o.code === 0 ? { dir: o.stdout.toString("utf8").trim() } : { refusal: refusalOf(cwd, o.stderr)?.message ?? null })),
      Effect.orElseSucceed((): GitDirAnswer => ({ refusal: null }))
    )

  /** The git dir (absolute) when there is one, else null. */
  const gitDirOrNull = (cwd: string): Effect.Effect<string | null> => answer(cwd, ["rev-parse", "--absolute-git-dir"])

  /** The hooks folder as git reports it (core.hooksPath honoured), relative to `cwd` or absolute; "" outside a repository. */
  const hooksPath = (cwd: string): Effect.Effect<string, GitError> => Effect.map(git.run(cwd, ["rev-parse", "--git-path", "hooks"]), (out) => out.trim())

  /** The work tree's top, or null outside one. */
  const top = (cwd: string): Effect.Effect<string | null> => answer(cwd, ["rev-parse", "--show-toplevel"])

  /** The commit `sha` names (a tag object peeled), or null when it names none this clone has. */
  const commitOf = (cwd: string, sha: string): Effect.Effect<string | null> =>
    answer(cwd, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${sha}^{commit}`])

  /**
   * The commits of `commit` no remote-tracking ref holds, oldest first, each with its parents (`rev-list
   * --parents` lines: the id, then its parents), or null when git cannot list them.
   */
  const unpushed = (cwd: string, commit: string): Effect.Effect<ReadonlyArray<ReadonlyArray<string>> | null> =>
    Effect.map(git.attempt(cwd, ["rev-list", "--topo-order", "--reverse", "--parents", commit, "--not", "--remotes"]), (out) =>
      out === null
        ? null
        : out
            .split("\n")
            .map((line) => line.trim())
            .filter((line) => line !== "")
            .map((line) => line.split(" "))
    )

  /** The paths a stopped merge, rebase, cherry-pick or revert left unmerged (none when git cannot tell). */
  const unmerged = (cwd: string): Effect.Effect<ReadonlyArray<string>> =>
    Effect.map(git.attempt(cwd, ["diff", "--name-only", "--diff-filter=U"]), (out) => out?.split("\n").filter((l) => l !== "") ?? [])

  /** The git folder and the common git folder (they differ in a linked work tree), or null outside a repository: what `watch` watches besides the tree. */
  const gitFolders = (root: string): Effect.Effect<{ readonly gitDir: string; readonly commonDir: string } | null> =>
    Effect.map(git.attempt(root, ["rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir"]), (out) => {
      const [gitDir, commonDir] = (out ?? "").split("\n")
      return gitDir !== undefined && commonDir !== undefined && nodePath.isAbsolute(gitDir) && nodePath.isAbsolute(commonDir) ? { gitDir, commonDir } : null
    })

  return { gitDir, gitDirOrNull, hooksPath, top, commitOf, unpushed, unmerged, gitFolders } as const
})

export class Repository extends Context.Service<Repository, Effect.Success<typeof make>>()("specbundle/Repository") {
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Repository, never, Git> = Layer.effect(this, make)
  /** The live service with git under it. */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Git.Default))
}
