// How a run ends. Handlers fail with these; exit.ts turns each into one stderr line and an exit code
// (0 a value was produced, 2 wrong parameters, 1 anything else), never a stack trace. Each holds
// what went wrong as fields, its `message` (the stderr line) is derived from them, and it carries
// its exit the way Effect's own errors do (effect/cli's CliError): `Runtime.errorExitCode`, and
// `Runtime.errorReported: false` when its line has already been said.
import * as Data from "effect/Data"
import * as Runtime from "effect/Runtime"
import type { Diagnostic } from "../../core/diagnostic.js"

/**
 * The command line refused by argv.ts or the parser: `{ diagnostics: [{ scope: "arguments",
 * problem }] }` on stdout, the problem alone on stderr, exit 2.
 */
export class ArgumentsRefused extends Data.TaggedError("ArgumentsRefused")<{ readonly problem: string }> {
  override readonly [Runtime.errorExitCode] = 2
  override get message() {
    return this.problem
  }
  get diagnostics(): ReadonlyArray<Diagnostic> {
    return [{ scope: "arguments", problem: this.problem }]
  }
}

/** What a file operation was doing, as its line says it. */
export type FileAction = "write" | "create" | "remove" | "restore" | "move-aside"

/** A file or folder could not be written, created, removed or moved: its path and the system's words. */
export class FileFailure extends Data.TaggedError("FileFailure")<{ readonly action: FileAction; readonly path: string; readonly problem: string }> {
  override readonly [Runtime.errorExitCode] = 1
  override get message() {
    return this.action === "move-aside" ? `could not move ${this.path} aside: ${this.problem}` : `could not ${this.action} ${this.path}: ${this.problem}`
  }
}

/** `--output FILE` in a folder that does not exist, or whose folder is a file. */
export class OutputFolderFailure extends Data.TaggedError("OutputFolderFailure")<{
  readonly file: string
  readonly folder: string
  readonly reason: "missing" | "not-a-folder"
}> {
  override readonly [Runtime.errorExitCode] = 1
  override get message() {
    return this.reason === "missing"
      ? `--output ${this.file}: the folder ${this.folder} does not exist.`
      : `--output ${this.file}: ${this.folder} is not a folder.`
  }
}

/** A command's own work failed past its parameters (`mcp` loading its bundle, `plugin` or `example` writing files). */
export class CommandFailure extends Data.TaggedError("CommandFailure")<{ readonly command: string; readonly problem: string }> {
  override readonly [Runtime.errorExitCode] = 1
  override get message() {
    return `${this.command}: ${this.problem}`
  }
  /** From what a thrown value says, its first line. */
  static of(command: string, thrown: unknown): CommandFailure {
    return new CommandFailure({ command, problem: String((thrown as Error)?.message ?? thrown).split("\n")[0] ?? "" })
  }
}

/** Why `hook install|uninstall|print` could not go on, each with what it names. */
export type HookRefusal =
  | { readonly _tag: "NoRepository"; readonly cwd: string; readonly gitMissing: boolean }
  | { readonly _tag: "RootOutside"; readonly root: string; readonly top: string }
  | { readonly _tag: "NotOurs"; readonly file: string }
  | { readonly _tag: "Exists"; readonly file: string; readonly backup: string }

/** A hook that could not be installed, uninstalled or printed. */
export class HookFailure extends Data.TaggedError("HookFailure")<{ readonly refusal: HookRefusal }> {
  override readonly [Runtime.errorExitCode] = 1
  override get message() {
    return refusalLine(this.refusal)
  }
}

const refusalLine = (r: HookRefusal): string => {
  switch (r._tag) {
    case "NoRepository":
      return `${r.cwd}: not a git repository${r.gitMissing ? " (or git is not installed)" : ""}; run hook install inside the repository`
    case "RootOutside":
      return `--root ${r.root} is outside the repository ${r.top}`
    case "NotOurs":
      return `${r.file} was not written by specbundle; left untouched`
    case "Exists":
      return `${r.file} exists and was not written by specbundle; rerun with --force to replace it (it is kept as ${r.backup})`
  }
}

/** The value was written; the run still ends non-zero (`check` with a refusal, `--strict`, `stale`), nothing more to say. */
export class ExitWith extends Data.TaggedError("ExitWith")<{ readonly code: number }> {
  override readonly [Runtime.errorExitCode] = this.code
  override readonly [Runtime.errorReported] = false
}

/** stdout was closed by the reader (`| head`): end quietly. */
export class StdoutClosed extends Data.TaggedError("StdoutClosed")<{}> {
  override readonly [Runtime.errorExitCode] = 0
  override readonly [Runtime.errorReported] = false
}

/** The CLI's own failures (the use cases' are UseCaseError, src/usecases/requests.ts). */
export type CliFailure = ArgumentsRefused | FileFailure | OutputFolderFailure | CommandFailure | HookFailure | ExitWith | StdoutClosed
