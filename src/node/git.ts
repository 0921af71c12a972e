/// <reference types="node" preserve="true" />
// The declarations name Node's types (Buffer, NodeJS.ProcessEnv): the reference keeps them in dist/types,
// so a program whose tsconfig loads no @types by default (TypeScript 7, `"types": []`) finds them.
// Running git: the tagged errors, and the Git service, the one way specbundle runs git. Each call is
// `git -c core.quotePath=false ...` through simple-git's raw() with the fiber's AbortSignal
// (interruption kills the child); the one call that feeds stdin (`cat-file --batch`) is a spawned
// process behind the same `exec`. GitDiff, the reader's ignore check, the manifest's
// repository state and `hook install` all go through it, so their types say they need it and a
// test can put a double in its place.
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { spawn } from "node:child_process"
import { statSync } from "node:fs"
import type { GitRefusedError } from "./gitRefusal.js"
import { refusalOf } from "./gitRefusal.js"

export { GitRefusedError } from "./gitRefusal.js"

export class NotARepositoryError extends Data.TaggedError("NotARepositoryError")<{
  readonly folder: string
  readonly reason: string
}> {
  override get message() {
    return `${this.folder} ${this.reason}`
  }
}

/**
 * A revision that names no commit. Where git can tell why, fetching cannot help, and the line
 * says what is true instead: `before` the commit the revision steps back from (`HEAD` of
 * `HEAD~1`) when its history ends first (`first`: that commit is a first commit itself), or
 * `unborn` the branch HEAD names when it has no commit yet (an empty repository).
 */
export class UnknownRevisionError extends Data.TaggedError("UnknownRevisionError")<{
  readonly revision: string
  readonly before?: string
  readonly first?: boolean
  readonly unborn?: string
}> {
  override get message() {
    const staged = "for what a first commit records, run with --staged before committing it"
    if (this.unborn !== undefined) {
      return `unknown revision "${this.revision}": there is no commit yet (the branch ${this.unborn} is unborn); ${staged}`
    }
    if (this.before !== undefined) {
      return this.first === true
        ? `unknown revision "${this.revision}": ${this.before} is the first commit, there is no commit before it; ${staged}`
        : `unknown revision "${this.revision}": the history of ${this.before} ends before it (git log --oneline ${this.before} lists its commits)`
    }
    return `unknown revision "${this.revision}": git does not know it in this repository; look it up with git log --oneline (or git branch -a), or fetch it with git fetch`
  }
}

export class ShallowCloneError extends Data.TaggedError("ShallowCloneError")<{ readonly revision: string }> {
  override get message() {
    return `"${this.revision}" lies beyond the history of this shallow clone; fetch more history (git fetch --deepen=N or --unshallow)`
  }
}

/**
 * No git to run. `root` and `repository`: a work tree's read (check, list, a Pack's bundle), whose
 * root is inside a git work tree (`repository`: the folder holding its `.git`, or the variable
 * naming one): without git the files it ignores cannot be left out, so nothing is read.
 */
export class GitMissingError extends Data.TaggedError("GitMissingError")<{ readonly root?: string; readonly repository?: string }> {
  override get message() {
    if (this.root !== undefined && this.repository !== undefined)
      return `git is not installed or not on PATH, and the root ${this.root} is inside a git work tree (${this.repository}): specbundle needs git to leave out the files git ignores; install git or put it on PATH`
    return "git is not installed or not on PATH; specbundle needs it to read changesets"
  }
}

export class GitFailedError extends Data.TaggedError("GitFailedError")<{ readonly command: string; readonly detail: string }> {
  override get message() {
    return `git ${this.command} failed: ${this.detail}`
  }
}

/** `--staged` while the index holds a conflict: there is no staged content to read for those paths. */
export class UnmergedPathError extends Data.TaggedError("UnmergedPathError")<{ readonly paths: ReadonlyArray<string> }> {
  override get message() {
    return `${this.paths.join(", ")}: unmerged (an open merge conflict); resolve the merge first`
  }
}

/** Refused before git saw it (a value starting with "-", an empty side, a line break). */
export class InvalidRevisionError extends Data.TaggedError("InvalidRevisionError")<{
  readonly revision: string
  readonly problem: string
}> {
  override get message() {
    return this.problem
  }
}

export type GitError = NotARepositoryError | UnknownRevisionError | ShallowCloneError | GitMissingError | GitFailedError | UnmergedPathError | GitRefusedError

/** `<object> SP <type> SP <size> LF <bytes> LF`, or `<name> SP missing LF`. */
export const parseBatch = (buffer: Buffer): Map<string, Uint8Array> => {
  const blobs = new Map<string, Uint8Array>()
  let at = 0
  while (at < buffer.length) {
    const eol = buffer.indexOf(10, at)
    if (eol < 0) throw new Error("truncated cat-file output")
    const header = buffer.subarray(at, eol).toString("utf8").split(" ")
    at = eol + 1
    if (header[1] === "missing" || header.length < 3) continue
    const size = Number(header[2])
    blobs.set(header[0], new Uint8Array(buffer.subarray(at, at + size)))
    at += size + 1
  }
  return blobs
}

/** What one git process gave: its exit code, stdout bytes and stderr text. */
export interface GitOutput {
  readonly code: number
  readonly stdout: Buffer
  readonly stderr: string
}

/** Options for every call: names verbatim (no C-quoting), whatever the user's configuration. */
const CONFIG = ["core.quotePath=false"]

/**
 * The environment every git call gets: the caller's (a hook's GIT_INDEX_FILE, GIT_DIR, a job's
 * GIT_CONFIG_* and safe.directory all pass through), with git's messages in its own words
 * (`LC_ALL=C`, no `LANGUAGE`, which gettext reads before the locale): the refusal and "not a
 * repository" lines are recognised by their English text, and a translated one lost its
 * `safe.directory` hint. No prompt may wait on a terminal (`GIT_TERMINAL_PROMPT=0`).
 */
export const gitEnv = (base: NodeJS.ProcessEnv): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(base)) if (v !== undefined && k !== "LANGUAGE" && !k.startsWith("LC_")) env[k] = v
  env.LC_ALL = "C"
  env.GIT_TERMINAL_PROMPT = "0"
  return env
}

/**
 * The environment git's is made from (gitEnv): this process's unless a caller provides another,
 * as the CLI does with its run's environment (a test's run in process has its own).
 */
export const GitEnvironment = Context.Reference<NodeJS.ProcessEnv>("specbundle/GitEnvironment", { defaultValue: () => process.env })

/**
 * simple-git refuses an explicit environment that holds an editor, pager, askpass, ssh or config
 * variable unless told otherwise. git inherited all of them before the environment was set, and
 * every argument is ours (revisions go behind --end-of-options and never start with "-"), so the
 * caller's variables keep passing through as they did.
 */
const INHERITED = {
  allowUnsafeEditor: true,
  allowUnsafeAskPass: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeDiffExternal: true,
  allowUnsafePager: true,
  allowUnsafeGitProxy: true,
  allowUnsafeTemplateDir: true,
  allowUnsafeSshCommand: true
} as const

const firstLine = (text: string): string =>
  text
    .split("\n")
    .map((l) => l.replace(/^(fatal|error): /, "").trim())
    .find((l) => l !== "") ?? "no message"

/** The tagged error for what git said on stderr. */
export const classify = (cwd: string, command: string, text: string): GitError => {
  if (/not a git repository/i.test(text)) return new NotARepositoryError({ folder: cwd, reason: "is not inside a git repository" })
  // Not "not a repository": git saw one and will not work in it (safe.directory).
  const refused = refusalOf(cwd, text)
  if (refused !== null) return refused
  return new GitFailedError({ command, detail: firstLine(text) })
}

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

const importSimpleGit = () => import("simple-git")
/** simple-git, loaded by the first git call: `--help` and runs that never ask git do not evaluate it. */
let simpleGitModule: ReturnType<typeof importSimpleGit> | undefined
const loadSimpleGit = () => (simpleGitModule ??= importSimpleGit())

/** A non-zero exit as simple-git's GitError, with what the caller needs to tell failures apart. */
interface ExitError extends Error {
  readonly exitCode: number
  readonly stdout: Buffer
  readonly stderr: string
}
const isExitError = (e: unknown): e is ExitError => e instanceof Error && typeof (e as Partial<ExitError>).exitCode === "number"

const EMPTY = Buffer.alloc(0)

/** git as simple-git runs it in `cwd`; interruption aborts the call (simple-git's `abort` kills the child). */
const raw = (cwd: string, args: ReadonlyArray<string>, base: NodeJS.ProcessEnv): Effect.Effect<string, GitError | ExitError> =>
  Effect.tryPromise({
    try: async (signal) => {
      const sg = await loadSimpleGit()
      const git = sg.simpleGit({
        baseDir: cwd,
        abort: signal,
        config: CONFIG,
        unsafe: INHERITED,
        // Every non-zero exit is an error carrying its code and both streams (simple-git's own
        // errors fire only when stderr is not empty, and mix stdout into the message).
        errors: (error, result) =>
          result.exitCode === 0 || error instanceof sg.GitPluginError
            ? error
            : Object.assign(new sg.GitError(undefined, Buffer.concat(result.stdErr).toString("utf8")), {
                exitCode: result.exitCode,
                stdout: Buffer.concat(result.stdOut),
                stderr: Buffer.concat(result.stdErr).toString("utf8")
              })
      })
      // simple-git waits 50 ms more after a git that printed nothing (its completion plugin, for
      // streams whose last data came after "close"); an empty chunk at stdout's end says it all
      // arrived, so a silent `ls-files -u` or `rev-parse --verify --quiet` costs no pause.
      git.env(gitEnv(base))
      git.outputHandler((_command, stdout) => stdout.once("end", () => stdout.emit("data", EMPTY)))
      return git.raw([...args])
    },
    catch: (e): GitError | ExitError => {
      if (isExitError(e)) {
        // spawn's own failure (no git on PATH) comes back as a negative exit with the error's stack.
        if (e.exitCode < 0 && /ENOENT/.test(e.stderr)) return new GitMissingError({})
        return e
      }
      return new GitFailedError({ command: args[0] ?? "", detail: e instanceof Error ? e.message : String(e) })
    }
  })

/**
 * Runs git once; fails only when it cannot start (no git, no such folder). Through simple-git, or,
 * with `input` for its stdin (`cat-file --batch`), a spawned process (withInput).
 */
const exec = (cwd: string, args: ReadonlyArray<string>, input?: string): Effect.Effect<GitOutput, GitError> =>
  GitEnvironment.use((base) =>
    // A missing cwd would read as a missing program: tell the two apart first.
    !isFolder(cwd)
      ? Effect.fail(new NotARepositoryError({ folder: cwd, reason: "does not exist" }))
      : input !== undefined
        ? withInput(cwd, args, input, base)
        : raw(cwd, args, base).pipe(
            Effect.map((stdout): GitOutput => ({ code: 0, stdout: Buffer.from(stdout, "utf8"), stderr: "" })),
            Effect.catchIf(isExitError, (e) => Effect.succeed<GitOutput>({ code: e.exitCode, stdout: e.stdout, stderr: e.stderr }))
          )
  )

/**
 * git with `input` on its stdin (`cat-file --batch`), stdout as bytes: a spawned process, since
 * simple-git 3 never writes to a child's stdin (docs/decisions.md, "git through simple-git").
 * The fiber's AbortSignal kills the child on interruption.
 */
const withInput = (cwd: string, args: ReadonlyArray<string>, input: string, base: NodeJS.ProcessEnv): Effect.Effect<GitOutput, GitError> =>
  Effect.callback<GitOutput, GitError>((resume, signal) => {
    const child = spawn("git", ["-c", ...CONFIG, ...args], { cwd, env: gitEnv(base), signal, stdio: ["pipe", "pipe", "pipe"] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on("data", (c: Buffer) => out.push(c))
    child.stderr.on("data", (c: Buffer) => err.push(c))
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (signal.aborted) return
      resume(Effect.fail(e.code === "ENOENT" ? new GitMissingError({}) : new GitFailedError({ command: args[0] ?? "", detail: e.message })))
    })
    child.on("close", (code) => resume(Effect.succeed({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") })))
    child.stdin.on("error", () => undefined)
    child.stdin.end(input)
  })

/**
 * Runs one git command and gives its stdout as UTF-8. A non-zero exit with a message on stderr is
 * a GitError; a silent non-zero exit (`rev-parse --verify --quiet`, `merge-base` without a common
 * ancestor) gives the (empty) stdout, which the caller reads as "no such thing".
 */
const run = (cwd: string, args: ReadonlyArray<string>): Effect.Effect<string, GitError> =>
  GitEnvironment.use((base) =>
    !isFolder(cwd)
      ? Effect.fail(new NotARepositoryError({ folder: cwd, reason: "does not exist" }))
      : raw(cwd, args, base).pipe(
          Effect.catchIf(isExitError, (e) =>
            e.stderr.trim() !== "" ? Effect.fail(classify(cwd, args[0] ?? "", e.stderr)) : Effect.succeed(e.stdout.toString("utf8"))
          )
        )
  )

/** stdout of a command that succeeded, or null for any failure (no repository, no git). */
const attempt = (cwd: string, args: ReadonlyArray<string>): Effect.Effect<string | null> =>
  exec(cwd, args).pipe(
    Effect.map((o) => (o.code === 0 ? o.stdout.toString("utf8") : null)),
    Effect.orElseSucceed(() => null)
  )

const live = { exec, run, attempt } as const

export class Git extends Context.Service<Git, typeof live>()("specbundle/Git") {
  /** The one implementation: git as a child process. */
  static readonly Default: Layer.Layer<Git> = Layer.succeed(this, live)
}
