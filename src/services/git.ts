// Running git: the tagged errors, one simple-git call per command, and one `cat-file --batch`
// process for many blobs. Every call takes the fiber's AbortSignal, so interruption kills the child.
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"

export class NotARepositoryError extends Data.TaggedError("NotARepositoryError")<{
  readonly folder: string
  readonly reason: string
}> {
  override get message() {
    return `${this.folder} ${this.reason}`
  }
}

export class UnknownRevisionError extends Data.TaggedError("UnknownRevisionError")<{ readonly revision: string }> {
  override get message() {
    return `unknown revision "${this.revision}": git does not know it in this repository`
  }
}

export class ShallowCloneError extends Data.TaggedError("ShallowCloneError")<{ readonly revision: string }> {
  override get message() {
    return `"${this.revision}" lies beyond the history of this shallow clone; fetch more history (git fetch --deepen=N or --unshallow)`
  }
}

export class GitMissingError extends Data.TaggedError("GitMissingError")<{}> {
  override get message() {
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

export type GitError = NotARepositoryError | UnknownRevisionError | ShallowCloneError | GitMissingError | GitFailedError | UnmergedPathError

const firstLine = (text: string): string =>
  text
    .split("\n")
    .map((l) => l.replace(/^(fatal|error): /, "").trim())
    .find((l) => l !== "") ?? "no message"

const classify = (cwd: string, args: ReadonlyArray<string>, error: unknown): GitError => {
  const text = error instanceof Error ? error.message : String(error)
  if (/spawn \S+ ENOENT/.test(text)) return new GitMissingError()
  if (/directory that does not exist/.test(text)) return new NotARepositoryError({ folder: cwd, reason: "does not exist" })
  if (/not a git repository/i.test(text)) return new NotARepositoryError({ folder: cwd, reason: "is not inside a git repository" })
  return new GitFailedError({ command: args[0] ?? "", detail: firstLine(text) })
}

/** Options for every call: names verbatim (no C-quoting), whatever the user's configuration. */
const CONFIG = ["core.quotePath=false"]

/** Runs one git command in `cwd` and returns its stdout (UTF-8). */
export const runGit = (cwd: string, args: ReadonlyArray<string>): Effect.Effect<string, GitError> =>
  Effect.tryPromise({
    // simple-git loads on first use: commands that never touch git do not pay for it at start-up.
    try: async (signal) => (await import("simple-git")).simpleGit({ baseDir: cwd, abort: signal, config: CONFIG }).raw([...args]),
    catch: (e) => classify(cwd, args, e)
  })

/**
 * Reads many objects with one `git cat-file --batch` process. Returns object name -> bytes; a
 * missing object is simply absent.
 */
export const readBlobs = (cwd: string, objects: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, Uint8Array>, GitError> => {
  const unique = [...new Set(objects)]
  if (unique.length === 0) return Effect.succeed(new Map())
  return Effect.tryPromise({
    try: (signal) =>
      new Promise<Buffer>((resolve, reject) => {
        const child = spawn("git", ["-c", "core.quotePath=false", "cat-file", "--batch"], {
          cwd,
          signal,
          stdio: ["pipe", "pipe", "pipe"]
        })
        const out: Buffer[] = []
        const err: Buffer[] = []
        child.stdout.on("data", (c: Buffer) => out.push(c))
        child.stderr.on("data", (c: Buffer) => err.push(c))
        child.on("error", reject)
        child.on("close", (code) => {
          if (code === 0) resolve(Buffer.concat(out))
          else reject(new Error(Buffer.concat(err).toString("utf8") || `exit code ${code}`))
        })
        child.stdin.on("error", () => undefined)
        child.stdin.end(unique.join("\n") + "\n")
      }),
    catch: (e) => classify(cwd, ["cat-file"], e)
  }).pipe(Effect.flatMap((buffer) => Effect.try({ try: () => parseBatch(buffer), catch: (e) => classify(cwd, ["cat-file"], e) })))
}

/** `<object> SP <type> SP <size> LF <bytes> LF`, or `<name> SP missing LF`. */
const parseBatch = (buffer: Buffer): Map<string, Uint8Array> => {
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
