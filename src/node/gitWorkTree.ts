/// <reference types="node" preserve="true" />
// The declarations name Node's types (Buffer, NodeJS.ProcessEnv): the reference keeps them in dist/types,
// so a program whose tsconfig loads no @types by default (TypeScript 7, `"types": []`) finds them.
// What git knows about the work tree under a root, asked once per work tree read (GraphReader):
// every path it does not ignore and, with a parse cache, the tracked files whose work tree bytes
// are the index's object by git's own stat cache (`git diff-files`), so that their cache entries are
// trusted by object id without an lstat each. Wherever git's "unchanged" can differ from "the same
// bytes" nothing is vouched for (docs/decisions.md, "Asking git which tracked files changed").
import * as Effect from "effect/Effect"
import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs"
import * as nodePath from "node:path"
import { normalizePrefix } from "../core/changes/changeset.js"
import type { GitError, GitOutput } from "./git.js"
import { type Git, GitEnvironment, GitMissingError, classify } from "./git.js"

export interface GitView {
  /** Every path under the root git does not ignore: tracked, or untracked and let through by its exclude rules. */
  readonly listed: ReadonlySet<string>
  /** Tracked regular files git found unchanged against the index: path -> the index's object id. */
  readonly unchanged: ReadonlyMap<string, string>
  /** Attribute files outside the root's own folders (ancestors, info/attributes, global, system): absolute, each may be missing. */
  readonly attributeFiles: ReadonlyArray<string>
  /** The root's own attribute files git lists (tracked or not): absolute; git reads one missing from the work tree from the index. */
  readonly listedAttributeFiles: ReadonlyArray<string>
}

const NOTHING: ReadonlyMap<string, string> = new Map()

// -z: names verbatim, whatever core.quotePath says; paths come relative to the root (cwd).
const LIST = ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]
// The same listing with each index entry's tag, mode, object id and stage (one process: it costs
// what the plain one costs, 40 ms on 30,000 files). -v tags assume-unchanged entries in lower case
// and skip-worktree ones S: git does not look at those files, so its answer says nothing of them.
export const LIST_STAGED = ["ls-files", "-z", "--stage", "-v", "--cached", "--others", "--exclude-standard"]
// git's stat comparison made as strict as ours whatever the repository says: a weaker checkStat or
// trustctime would miss an edit that keeps size and mtime; an fsmonitor answers from a daemon's
// events instead of stat data. Submodules are not read (nor is their dirt worth git's time).
const DIFF = [
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.checkStat=default",
  "-c",
  "core.trustctime=true",
  "diff-files",
  "-z",
  "--name-only",
  "--relative",
  "--ignore-submodules=all"
]
/** The index file and the common git folder, absolute (GitDiff's rev-parse asks them with its own questions). */
export const PLACES_OPTIONS = ["--path-format=absolute", "--git-path", "index", "--git-common-dir"]
const PLACES = ["rev-parse", ...PLACES_OPTIONS, "--show-toplevel"]
const SETTINGS = ["config", "-z", "--get-regexp", "^(core\\.(autocrlf|attributesfile)|attr\\.tree)$"]

const lines = (o: GitOutput): string[] | null => (o.code === 0 ? o.stdout.toString("utf8").split("\0") : null)

/** The index's regular files git may vouch for (path -> object id), from LIST_STAGED's records; and every listed path. */
const parseStaged = (records: ReadonlyArray<string>): { listed: Set<string>; tracked: Map<string, string> } => {
  const listed = new Set<string>()
  const tracked = new Map<string, string>()
  for (const r of records) {
    if (r === "") continue
    if (r.startsWith("? ")) {
      listed.add(r.slice(2))
      continue
    }
    // "<tag> <mode> <object> <stage>\t<path>", read by position (30,000 splits cost ~10 ms): tag
    // H (cached, neither assume-unchanged nor skip-worktree), a regular file's mode, stage 0.
    const tab = r.indexOf("\t")
    const path = r.slice(tab + 1)
    listed.add(path)
    if (r.charCodeAt(0) === 72 && r.startsWith(" 0", tab - 2) && (r.startsWith(" 100644 ", 1) || r.startsWith(" 100755 ", 1)))
      tracked.set(path, r.slice(9, tab - 2))
  }
  return { listed, tracked }
}

const falseLike = new Set(["false", "no", "off", "0"])

/**
 * Attribute files git reads besides the root's own folders, or null when the settings alone rule
 * git's answer out (core.autocrlf converts every text file; attr.tree and GIT_ATTR_SOURCE read
 * attributes from elsewhere).
 */
const outerAttributeFiles = (root: string, places: ReadonlyArray<string>, settings: ReadonlyArray<string>, env: NodeJS.ProcessEnv): string[] | null => {
  const config = new Map<string, string | null>()
  for (const s of settings) if (s !== "") config.set(s.split("\n")[0], s.includes("\n") ? s.slice(s.indexOf("\n") + 1) : null)
  const autocrlf = config.get("core.autocrlf")
  if ((autocrlf !== undefined && (autocrlf === null || !falseLike.has(autocrlf.toLowerCase()))) || config.has("attr.tree")) return null
  if (env.GIT_ATTR_SOURCE !== undefined) return null
  const [index, common, top] = places
  const realRoot = realpathSync(root)
  const inside = nodePath.relative(top, realRoot)
  if (inside.startsWith("..") || nodePath.isAbsolute(inside)) return null
  // git's racy rule compares a file's mtime with the index's: both must come from one clock.
  if (statSync(index).dev !== statSync(realRoot).dev) return null
  const files = [nodePath.join(common, "info", "attributes")]
  // The folders from the work tree's top down to the root (the root's own come from the walk).
  for (let dir = nodePath.dirname(realRoot); inside !== "" && dir.length >= top.length; dir = nodePath.dirname(dir)) {
    files.push(nodePath.join(dir, ".gitattributes"))
    if (dir === top) break
  }
  const home = env.HOME ?? ""
  const global = config.get("core.attributesfile")
  if (global === null) return null
  if (global !== undefined) files.push(global.startsWith("~/") ? nodePath.join(home, global.slice(2)) : nodePath.resolve(root, global))
  else files.push(nodePath.join(env.XDG_CONFIG_HOME || nodePath.join(home, ".config"), "git", "attributes"))
  if (!["1", "true", "yes", "on"].includes((env.GIT_ATTR_NOSYSTEM ?? "").toLowerCase())) files.push(...systemAttributes(env))
  return files
}

/** git's system attributes: <prefix>/etc/gitattributes (/etc for a git under /usr), the prefix the one of the git on PATH. */
const systemAttributes = (env: NodeJS.ProcessEnv): string[] => {
  const found = ["/etc/gitattributes"]
  for (const dir of (env.PATH ?? "").split(nodePath.delimiter)) {
    try {
      const git = realpathSync(nodePath.join(dir, "git"))
      const prefix = nodePath.dirname(nodePath.dirname(git))
      if (prefix !== "/usr") found.push(nodePath.join(prefix, "etc", "gitattributes"))
      break
    } catch {
      // not in this folder
    }
  }
  return found
}

/** Attributes that make checkout write other bytes than the blob's (or check-in read them so). */
const CONVERTING = new Set(["text", "eol", "crlf", "filter", "ident", "working-tree-encoding"])
/** Those settings that turn conversion off: safe. `binary` is the built-in macro `-diff -merge -text`. */
const HARMLESS = new Set(["-text", "-crlf", "binary"])

/**
 * Whether these attribute files (absolute paths) set no attribute that converts bytes, macros
 * included (a macro that names one counts, used or not). A missing file sets nothing unless
 * `present` says it exists (git then reads the index's copy); an unreadable one counts as
 * converting: git's view of its files cannot be checked.
 */
export const convertsNothing = (files: ReadonlyArray<string>, present: ReadonlySet<string>): boolean => {
  for (const file of files) {
    let text: string
    try {
      text = readFileSync(file, "utf8")
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if ((code === "ENOENT" || code === "ENOTDIR") && !present.has(file)) continue
      return false
    }
    for (const line of text.split("\n")) {
      const tokens = line.trim().split(/\s+/)
      if (tokens[0] === "" || tokens[0].startsWith("#")) continue
      for (const token of tokens.slice(1)) {
        if (HARMLESS.has(token)) continue
        if (CONVERTING.has(token.replace(/^[-!]/, "").replace(/=.*$/, ""))) return false
      }
    }
  }
  return true
}

/** Environment variables that point git at a repository from outside the folders above the root. */
const POINTING = ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE"]

/**
 * Whether git could find a repository for `root`: a `.git` (folder or file) in it or a folder above,
 * a folder that is itself a git folder (HEAD and objects: a bare repository, or inside `.git`), or
 * the environment naming one. Where none is, git's answer is known without asking it: four
 * processes fewer (~45 ms of CPU, each spawn forks this process) for a corpus in a plain folder.
 */
export const mayBeInRepository = (root: string, env: NodeJS.ProcessEnv): boolean => {
  if (POINTING.some((name) => (env[name] ?? "") !== "")) return true
  const exists = (path: string) => {
    try {
      lstatSync(path)
      return true
    } catch (e) {
      // Only a missing file says no; anything else (a folder we may not read) is left to git.
      return (e as NodeJS.ErrnoException).code !== "ENOENT" && (e as NodeJS.ErrnoException).code !== "ENOTDIR"
    }
  }
  for (let dir = nodePath.resolve(root); ; dir = nodePath.dirname(dir)) {
    if (exists(nodePath.join(dir, ".git"))) return true
    if (exists(nodePath.join(dir, "HEAD")) && exists(nodePath.join(dir, "objects"))) return true
    if (nodePath.dirname(dir) === dir) return false
  }
}

/**
 * Where `root` sits in its repository: the path from git's top with a trailing "/", "" at the top
 * and outside any repository (the root is then the top). Asked of git only where mayBeInRepository
 * says one may be: git's own answer follows GIT_DIR, GIT_WORK_TREE, worktrees and symlinks. A root
 * git does not take for a work tree (inside a .git folder, a bare repository) is the top too.
 */
export const repositoryPrefix = (git: Git["Service"], root: string): Effect.Effect<string, GitError> =>
  GitEnvironment.use((env) =>
    !mayBeInRepository(root, env)
      ? Effect.succeed("")
      : git.exec(root, ["rev-parse", "--show-prefix"]).pipe(
          Effect.map((o) => (o.code === 0 ? normalizePrefix(o.stdout.toString("utf8").split("\n")[0] ?? "") : "")),
          // No git: the read has already stopped inside a work tree (viewOf), so this is a plain folder.
          Effect.catchTags({ NotARepositoryError: () => Effect.succeed(""), GitMissingError: () => Effect.succeed("") })
        )
  )

/**
 * Where `root` is in a git work tree by what the file system shows, asked when git cannot run: the
 * nearest `.git` (folder or file) at or above it, up to GIT_CEILING_DIRECTORIES as git would look,
 * or the variable that names a repository from elsewhere (GIT_DIR, GIT_WORK_TREE); null for a
 * plain folder, whose files are then all read.
 */
export const workTreeMarker = (root: string, env: NodeJS.ProcessEnv): string | null => {
  for (const name of ["GIT_DIR", "GIT_WORK_TREE"]) if ((env[name] ?? "") !== "") return `${name}=${env[name]}`
  const ceilings = new Set(
    (env.GIT_CEILING_DIRECTORIES ?? "")
      .split(nodePath.delimiter)
      .filter((d) => nodePath.isAbsolute(d))
      .map((d) => nodePath.resolve(d))
  )
  for (let dir = nodePath.resolve(root); ; dir = nodePath.dirname(dir)) {
    const marker = nodePath.join(dir, ".git")
    try {
      lstatSync(marker)
      return marker
    } catch {
      // none here
    }
    // git looks in the folder it starts from, and goes up into no ceiling.
    if (nodePath.dirname(dir) === dir || ceilings.has(nodePath.dirname(dir))) return null
  }
}

/** git's answers beside the listing: diff-files (the tracked files that changed), the places (rev-parse) and the settings (config); null where one failed. */
export type GitSideAnswers = readonly [diff: GitOutput | null, places: GitOutput | null, settings: GitOutput | null]

/**
 * Asks them, three processes at once (two when `places` is PLACES's answer, asked with another question). A changeset's diff (GitDiff) starts them with its own
 * listing, so that they have answered by the time the read's walk is done (issue 38: the PR
 * bundle waited ~80 ms for diff-files after its walk on the 30,040-file bench corpora).
 */
export const askSides = (git: Git["Service"], root: string, places?: GitOutput): Effect.Effect<GitSideAnswers> => {
  // diff-files goes through a spawned process (exec with an input): simple-git refuses any
  // core.fsmonitor setting, even the one that turns it off.
  const side = (args: ReadonlyArray<string>, input?: string) => git.exec(root, args, input).pipe(Effect.orElseSucceed(() => null))
  return Effect.all([side(DIFF, ""), places === undefined ? side(PLACES) : Effect.succeed(places), side(SETTINGS)], { concurrency: "unbounded" })
}

/**
 * What git says about the work tree under `root`, or null outside a work tree or without git
 * (nothing is ignored). `vouch`: also ask which tracked files changed (a parse cache is at hand).
 * A failed listing (git refusing the repository: safe.directory) fails the read: reading on would
 * take in the ignored files; any other failure only leaves nothing vouched for. `asked`: the side
 * answers, when the changeset's diff already asked them (askSides, joined here), before any file was read.
 */
export const askGit = (
  git: Git["Service"],
  root: string,
  vouch: boolean,
  given?: ReadonlyArray<string>,
  asked?: Effect.Effect<GitSideAnswers>
): Effect.Effect<GitView | null, GitError> =>
  // The run's environment, as git gets it (an in-process run's may not be the process's).
  GitEnvironment.use((env) => viewOf(git, root, vouch, env, given, asked))

const viewOf = (
  git: Git["Service"],
  root: string,
  vouch: boolean,
  env: NodeJS.ProcessEnv,
  given?: ReadonlyArray<string>,
  asked?: Effect.Effect<GitSideAnswers>
): Effect.Effect<GitView | null, GitError> => {
  if (given === undefined && !mayBeInRepository(root, env)) return Effect.succeed(null)
  // `given`: LIST_STAGED's records, when the changeset's diff already asked for them (GitDiff).
  const listing: Effect.Effect<ReadonlyArray<string> | null, GitError> =
    given !== undefined
      ? Effect.succeed(given)
      : git.exec(root, vouch ? LIST_STAGED : LIST).pipe(
          Effect.flatMap((o) => (o.code === 0 ? Effect.succeed(lines(o)) : Effect.fail(classify(root, "ls-files", o.stderr || `exit code ${o.code}`)))),
          Effect.catchTags({
            NotARepositoryError: () => Effect.succeed(null),
            // Without git, a plain folder is read whole; a work tree's ignored files cannot be told apart: say so.
            GitMissingError: () => {
              const repository = workTreeMarker(root, env)
              return repository === null ? Effect.succeed(null) : Effect.fail(new GitMissingError({ root, repository }))
            }
          })
        )
  if (!vouch)
    return listing.pipe(
      Effect.map((records) =>
        records === null
          ? null
          : { listed: given !== undefined ? parseStaged(records).listed : new Set(records), unchanged: NOTHING, attributeFiles: [], listedAttributeFiles: [] }
      )
    )
  return Effect.all([listing, asked ?? askSides(git, root)], { concurrency: "unbounded" }).pipe(
    Effect.map(([list, [diff, places, settings]]): GitView | null => {
      if (list === null) return null
      const { listed, tracked } = parseStaged(list)
      const changed = diff === null ? null : lines(diff)
      const where = places === null || places.code !== 0 ? null : places.stdout.toString("utf8").split("\n")
      // get-regexp exits 1 when nothing is set.
      const set = settings === null ? null : settings.code === 1 ? [] : lines(settings)
      let attributeFiles: string[] | null = null
      try {
        if (changed !== null && where !== null && where.length >= 3 && set !== null) attributeFiles = outerAttributeFiles(root, where, set, env)
      } catch {
        attributeFiles = null
      }
      if (attributeFiles === null || changed === null) return { listed, unchanged: NOTHING, attributeFiles: [], listedAttributeFiles: [] }
      for (const path of changed) tracked.delete(path)
      const prefix = root.endsWith(nodePath.sep) ? root : root + nodePath.sep
      const listedAttributeFiles: string[] = []
      for (const path of listed) if (path === ".gitattributes" || path.endsWith("/.gitattributes")) listedAttributeFiles.push(prefix + path)
      return { listed, unchanged: tracked, attributeFiles, listedAttributeFiles }
    })
  )
}
