// The use cases' inputs and failures, as plain data: what every entrance (the CLI, the MCP server,
// a program importing the library) builds from its own input. Text values stay text, as the user
// gave them, so the composer's rules judge them the same way whichever entrance they came through.
import * as Data from "effect/Data"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { DECLARATIONS, DEFAULT_BUDGET } from "../core/bundle/types.js"
import { DEFAULT_TIERS } from "../core/config.js"
import type { Diagnostic } from "../core/diagnostic.js"
import { ENCODINGS } from "../core/encodings.js"
import { BUILT_IN_PERSPECTIVES } from "../core/graph/perspective.js"
import { CHECK_FORMATS, IMPACT_FORMATS, LIST_FORMATS, LIST_SUBJECTS } from "../core/render/outputs.js"
import type { ReadError } from "../services/GraphReader.js"
import type { GitError, InvalidRevisionError } from "../node/git.js"
import type { TokenizerUnavailable } from "../node/tokenizer.js"
import { choice, linesFrom, requiredChoice, requiredText, text, textOrNumber, texts, toggle } from "./fields.js"

// Each request is one Schema (fields.ts: a field's description, and its flag, placeholder and
// default on the command line): the CLI's flags and help, the MCP tools' parameters and their JSON
// Schema, and the library's request types are built from these. The fields are grouped as the
// requests share them, in the order the help pages and the tools list them.

/** Where the corpus is and how to read it; every request has these. */
export const corpusFields = {
  root: requiredText({
    description: "The corpus folder (default: the server's).",
    help: "The corpus folder to read (default: the current folder); it may be a sub-folder of a git repository.",
    value: "DIR",
    default: "."
  }),
  exclude: texts({
    description: "Root-relative paths or globs to leave out.",
    help: "Leave out a root-relative folder or file (a trailing / and a leading ./ are fine) or a glob such as 'drafts/**'; repeat for more.",
    value: "PATH",
    list: "repeat"
  }),
  config: text({
    description: "Configuration file (default: <root>/specbundle.config.json).",
    help: "Read this configuration file instead of <root>/specbundle.config.json.",
    value: "FILE"
  })
}

/** A changeset: REV, A..B or A...B as text, or the staged changes (never both: Changes.ts checks the rule). */
export const changesetFields = {
  changeset: text({
    description: "A changeset: REV (against the working tree), A..B or A...B.",
    help: "The change: REV (against the working tree, untracked files included), A..B (the graph read from B), or A...B (from the merge base).",
    value: "REV"
  }),
  staged: toggle({
    description: "The staged changes (the index against HEAD).",
    help: "The change is the index against HEAD, what a commit would record (a pre-commit hook)."
  })
}

const tiers = Object.keys(DEFAULT_TIERS)
const builtIn = Object.keys(BUILT_IN_PERSPECTIVES).join(", ")

/**
 * A bundle's scope (a Pack with optional members or a perspective, a Specs list, or a changeset)
 * and the composer's parameters. Text values stay text, as the user gave them, so the composer's
 * rules judge them the same way whichever entrance they came through.
 */
export const BundleRequest = Schema.Struct({
  ...corpusFields,
  pack: text({
    description: "Scope: a Pack id; members come in manifest order.",
    help: "Bundle the members of this Pack, in the Pack's order (specbundle list packs names them).",
    value: "ID"
  }),
  members: texts({
    description: "With pack: an ordered subset of its members.",
    help: "With --pack: bundle only these members, in this order, comma-separated.",
    value: "ID,...",
    list: "comma"
  }),
  perspective: text({
    description: "With pack: a perspective (built-in or configured) choosing the members.",
    help: `With --pack: bundle the members a perspective selects (${builtIn}, or one the configuration names).`,
    value: "NAME"
  }),
  specs: texts({
    description: "Scope: an ordered list of Spec ids.",
    help: "Bundle these Specs, in this order, comma-separated (specbundle list specs names them).",
    value: "ID,...",
    list: "comma"
  }),
  ...changesetFields,
  budget: textOrNumber({
    description: `Hard limit in UTF-16 code units, or a tier (${tiers.join(", ")}); default ${DEFAULT_BUDGET}.`,
    help: `Hard limit in UTF-16 code units of the compact JSON, or a tier: ${tiers.map((t) => `${t} ${DEFAULT_TIERS[t]}`).join(", ")} (default ${DEFAULT_BUDGET}).`,
    value: "N|TIER"
  }),
  profile: text({
    description: "A named set of bundle parameters from the configuration file.",
    help: "Take budget, declarations and excludes from this profile of the configuration file.",
    value: "NAME"
  }),
  declarations: choice(DECLARATIONS, {
    description: `${DECLARATIONS.join(" (default) or ")}.`,
    help: "addresses lets the last cut replace pinned declarations by their addresses (default whole).",
    text: true
  }),
  part: textOrNumber({
    description: "Return only this 1-based part of the split bundle.",
    help: "Print only part K (1-based) of the split bundle.",
    value: "K"
  }),
  parts: toggle({
    description: "Every part of the split bundle (here only checked against part).",
    help: "Print every part, one compact JSON value per line, part 1 first.",
    mcp: { name: "count", description: 'Return the part count, {"parts":N}, instead of a value.' }
  })
})
export type BundleRequest = typeof BundleRequest.Type

/** Token counts of a bundle's parts: the entrances count them (src/core/tokens.ts), not the use case. */
export const tokenFields = {
  tokens: choice(ENCODINGS, {
    description: "Count each part's tokens in this encoding (a text item after the value; with count, beside parts).",
    help: "Count each part's exact tokens in this encoding: on stderr, and in manifest.json with --out. The value and its budget stay in code units."
  }),
  budgetTokens: textOrNumber({
    description: "With tokens, instead of budget: the tokens every part must fit in (a text item gives the budget found).",
    help: "With --tokens, instead of --budget: the largest code-unit budget at which every part counts at most N tokens (found by counting; stderr says which).",
    value: "N"
  })
}

/** Which Specs a changeset impacts, and how the report is rendered (src/core/render/outputs.ts impactOutput). */
export const ImpactRequest = Schema.Struct({
  ...corpusFields,
  ...changesetFields,
  paths: linesFrom({
    description: "Instead of a changeset: the changed paths from the repository's top; the graph from the work tree (a path it lacks is deleted).",
    help: "Instead of --changeset: read the changed paths from FILE (- for stdin), one a line, relative to the repository's top; the Specs a change to exactly those paths impacts, the graph read from the work tree. A path the work tree lacks counts as deleted and, with no base to read it from, impacts nothing by itself (coverage unknown).",
    flag: "paths-from",
    value: "FILE|-"
  }),
  format: choice(IMPACT_FORMATS, {
    description: "json (default), text (for people), markdown (a pull-request comment) or gitlab (Code Quality).",
    help: "json: compact JSON on one line; text: the counts, then the detail, for people; markdown: for a pull-request comment; gitlab: a GitLab Code Quality report (findings, lost bindings, at-risk nodes).",
    default: "json"
  }),
  drift: toggle({
    description: "Add the Specs this change leaves drifted (a history pass).",
    help: "Add a drift section: the Specs this change leaves drifted and the accept command (A..B, A...B: as drift --changeset; REV: REV..HEAD; --staged: what its commit would drift). Costs a pass over the history."
  }),
  linkBase: text({
    description: "With format markdown: a URL before every file link, such as https://github.com/O/R/blob/SHA/.",
    help: "With --format markdown: put URL, an http(s) URL such as https://github.com/OWNER/REPO/blob/SHA/ (a missing trailing / is added), before every file link; in a GitLab CI job it defaults to the pipeline commit's -/blob/SHA/.",
    value: "URL"
  })
})
export type ImpactRequest = typeof ImpactRequest.Type

/** Every finding of the corpus, in a format (src/core/render/outputs.ts checkOutput). */
export const CheckRequest = Schema.Struct({
  ...corpusFields,
  format: choice(CHECK_FORMATS, {
    description: "text (default): file:line: code: message lines and the counts; else as check --format prints.",
    help: "text: file:line: code: message lines on stderr; json, github (workflow commands), sarif (SARIF 2.1.0) or gitlab (a GitLab Code Quality report): every finding on stdout.",
    default: "text"
  })
})
export type CheckRequest = typeof CheckRequest.Type

/** The corpus's Packs or Specs (src/core/render/outputs.ts listOutput). */
export const ListRequest = Schema.Struct({
  ...corpusFields,
  what: requiredChoice(LIST_SUBJECTS, {
    description: "packs (title, member count) or specs (kind, title).",
    value: "WHAT",
    argument: true
  }),
  format: choice(LIST_FORMATS, {
    description: "text (default): one id a line with what it is; or json.",
    help: "text: one id a line with what it is; json: one compact JSON value.",
    default: "text"
  })
})
export type ListRequest = typeof ListRequest.Type

export const MEMBERS_FORMATS = ["lines", "json"] as const

/** The members a perspective selects from a Pack, the very list `bundle --pack ID --perspective NAME` composes. */
export const MembersRequest = Schema.Struct({
  ...corpusFields,
  pack: text({
    description: "The Pack whose members the perspective filters.",
    help: "The Pack whose members the perspective filters (specbundle list packs names them).",
    value: "ID"
  }),
  ...changesetFields,
  format: choice(MEMBERS_FORMATS, {
    description: "lines: one member id per line; json: { pack, members, perspective } (and changeset) on one line.",
    default: "lines"
  }),
  name: text({ description: "The perspective: a built-in or one the configuration names.", value: "NAME", argument: true })
})
export type MembersRequest = typeof MembersRequest.Type

/** Where the corpus is and how to read it: what `check` and `list` read. */
export const CorpusRequest = Schema.Struct(corpusFields)
export type CorpusRequest = typeof CorpusRequest.Type

/** A changeset: REV, A..B or A...B as text, or the staged changes. */
export const ChangesetRequest = Schema.Struct(changesetFields)
export type ChangesetRequest = typeof ChangesetRequest.Type

/** The fields of `value` a request Schema declares, those given: what an entrance hands a use case. */
export const requestOf = <F extends Schema.Struct.Fields>(request: Schema.Struct<F>, value: object): Schema.Struct.Type<F> =>
  Object.fromEntries(
    Object.keys(request.fields)
      .map((k) => [k, (value as Record<string, unknown>)[k]] as const)
      .filter(([, v]) => v !== undefined)
  ) as Schema.Struct.Type<F>

export type { Diagnostic }

/** Wrong parameters (exit 2 in the CLI, and for a program run with Effect's runMain): the `{ diagnostics }` value. */
export class ParameterProblems extends Data.TaggedError("ParameterProblems")<{ readonly diagnostics: ReadonlyArray<Diagnostic> }> {
  override readonly [Runtime.errorExitCode] = 2
  /** The one line the CLI prints on stderr. */
  override get message() {
    return this.diagnostics.map((d) => `${d.scope}: ${d.problem}`).join("; ")
  }
  /** The value the CLI prints on stdout. */
  get value(): string {
    return JSON.stringify({ diagnostics: this.diagnostics })
  }
}

/**
 * What is wrong with a configuration file: `missing` (named, not there), `folder` (a folder),
 * `unreadable`, `invalid` (its content), `unknown-profile` (the profile asked for is not in it),
 * `exclude` (an exclude it gives is refused).
 */
export type ConfigReason = "missing" | "folder" | "unreadable" | "invalid" | "unknown-profile" | "exclude"

/** A configuration file that is missing, unreadable or wrong: its path (null: none was read), why, and the problem's words (exit 1 in the CLI). */
export class ConfigError extends Data.TaggedError("ConfigError")<{ readonly path: string | null; readonly reason: ConfigReason; readonly problem: string }> {
  override get message() {
    const where = this.path ?? (this.reason === "unknown-profile" ? "--profile" : "configuration")
    return `${where}: ${this.reason === "exclude" ? "exclude: " : ""}${this.problem}`
  }
}

/** Why drift cannot answer: HEAD names no commit yet, or the reviews file could not be written. */
export type DriftTrouble = { readonly _tag: "Unborn"; readonly top: string } | { readonly _tag: "Unwritable"; readonly path: string; readonly problem: string }

/** Drift's own failure (exit 1 in the CLI), its fields the trouble; `message` says it in one line. */
export class DriftFailure extends Data.TaggedError("DriftFailure")<{ readonly trouble: DriftTrouble }> {
  override get message() {
    const t = this.trouble
    return t._tag === "Unborn"
      ? `${t.top}: HEAD names no commit yet; drift reads the history of commits (commit first)`
      : `${t.path}: could not write (${t.problem})`
  }
}

/**
 * Every failure of a use case, each tagged so a program can `Effect.catchTag` it and each with its
 * one-line `message` (the CLI's stderr line): wrong parameters (a malformed revision among them),
 * a configuration file, the corpus read, git's own (unknown revision, refused repository, ...),
 * and a tokenizer that would not load (`tokens`).
 */
export type UseCaseError = ParameterProblems | ConfigError | ReadError | GitError | TokenizerUnavailable | DriftFailure

export type { GitError, InvalidRevisionError, ReadError, TokenizerUnavailable }

export const problems = (diagnostics: ReadonlyArray<Diagnostic>) => new ParameterProblems({ diagnostics })
