// The use cases' inputs and failures, as plain data: what every entrance (the CLI, the MCP server,
// a program importing the library) builds from its own input. Text values stay text, as the user
// gave them, so the composer's rules judge them the same way whichever entrance they came through.
import * as Data from "effect/Data"
import type { Diagnostic } from "../core/diagnostic.js"
import type { ReadError } from "../services/GraphReader.js"
import type { GitError, InvalidRevisionError } from "../node/git.js"

/** Where the corpus is and how to read it; every request has these. */
export interface CorpusRequest {
  /** The extraction root (relative paths resolve against the current folder). */
  readonly root: string
  /** Root-relative paths to leave out (added to the configuration's). */
  readonly exclude?: ReadonlyArray<string>
  /** A configuration file; default `<root>/specbundle.config.json` when present. */
  readonly config?: string
}

/** A changeset: REV, A..B or A...B as text, or the staged changes. */
export interface ChangesetRequest {
  readonly changeset?: string
  readonly staged?: boolean
}

/** One scope (a Pack with optional members, a Specs list, or a changeset) and the composer's parameters. */
export interface BundleRequest extends CorpusRequest, ChangesetRequest {
  readonly pack?: string
  /** A perspective (built-in or the configuration's) that chooses the Pack's members. */
  readonly perspective?: string
  readonly members?: ReadonlyArray<string>
  readonly specs?: ReadonlyArray<string>
  /** Code units or a tier name (S, M, L, or the configuration's). */
  readonly budget?: string
  /** A named set of parameters from the configuration file. */
  readonly profile?: string
  /** "whole" or "addresses". */
  readonly declarations?: string
  /** One 1-based part, as text. */
  readonly part?: string
  /** The caller wants every part (only checked against `part`). */
  readonly parts?: boolean
}

export interface ImpactRequest extends CorpusRequest, ChangesetRequest {}

export type { Diagnostic }

/** Wrong parameters (exit 2 in the CLI): the `{ diagnostics }` value. */
export class ParameterProblems extends Data.TaggedError("ParameterProblems")<{ readonly diagnostics: ReadonlyArray<Diagnostic> }> {
  /** The one line the CLI prints on stderr. */
  override get message() {
    return this.diagnostics.map((d) => `${d.scope}: ${d.problem}`).join("; ")
  }
  /** The value the CLI prints on stdout. */
  get value(): string {
    return JSON.stringify({ diagnostics: this.diagnostics })
  }
}

/** A configuration file that is missing, unreadable or wrong (its path first), as one line (exit 1 in the CLI). */
export class ConfigError extends Data.TaggedError("ConfigError")<{ readonly line: string }> {
  override get message() {
    return this.line
  }
}

/** A failure no better tag names, as one line (exit 1 in the CLI); the use cases themselves no longer fail with it. */
export class RunFailure extends Data.TaggedError("RunFailure")<{ readonly line: string }> {
  override get message() {
    return this.line
  }
}

/**
 * Every failure of a use case, each tagged so a program can `Effect.catchTag` it and each with its
 * one-line `message` (the CLI's stderr line): wrong parameters (a malformed revision among them),
 * a configuration file, the corpus read, and git's own (unknown revision, refused repository, ...).
 */
export type UseCaseError = ParameterProblems | ConfigError | ReadError | GitError

export type { GitError, InvalidRevisionError, ReadError }

export const problems = (diagnostics: ReadonlyArray<Diagnostic>) => new ParameterProblems({ diagnostics })
