// Options every reading subcommand takes after its name (`specbundle bundle --root X`). Each
// value option has a placeholder (withMetavar) and one sentence: the help page prints both.
import * as Flag from "effect/cli/Flag"
import type * as Option from "effect/Option"

/** A text option with a placeholder and a sentence; absent unless given. */
export const valueOption = (name: string, placeholder: string, description: string) =>
  Flag.String(name).pipe(Flag.withMetavar(placeholder), Flag.withDescription(description), Flag.optional)

/**
 * A switch: false unless given. Effect's Boolean flags are required without a default, and would
 * also take `--no-NAME` and a following `true`/`false`, which specbundle never offered.
 */
export const flag = (name: string, description: string) =>
  Flag.Boolean(name).pipe(Flag.withDescription(description), Flag.withoutNegation, Flag.withDefault(false))

/** A choice option with its default (`--format json|pretty|ndjson`). */
export const choiceOption = <const L extends ReadonlyArray<string>>(name: string, choices: L, fallback: L[number], description: string) =>
  Flag.Literals(name, choices).pipe(Flag.withDescription(description), Flag.withDefault(fallback))

export const common = {
  root: Flag.String("root").pipe(
    Flag.withMetavar("DIR"),
    Flag.withDescription("The corpus folder to read (default: the current folder); it may be a sub-folder of a git repository."),
    Flag.withDefault(".")
  ),
  exclude: Flag.String("exclude").pipe(
    Flag.withMetavar("PATH"),
    Flag.withDescription("Leave out a root-relative folder or file (a trailing / and a leading ./ are fine) or a glob such as 'drafts/**'; repeat for more."),
    Flag.atLeast(0)
  ),
  config: valueOption("config", "FILE", "Read this configuration file instead of <root>/specbundle.config.json."),
  strict: flag("strict", "Exit 1 after printing the result when a carrier was refused."),
  quiet: flag("quiet", "Print no warnings or progress on stderr; refusals still show, capped like the rest."),
  verbose: flag("verbose", "List every corpus finding on stderr instead of the first few and a tally.")
} as const

/**
 * The change a command reads (`--changeset` or `--staged`, never both: Changes.ts checks the rule).
 * One definition for bundle, impact and perspective, so their help says the same thing.
 */
export const changesetOptions = {
  changeset: valueOption(
    "changeset",
    "REV",
    "The change: REV (against the working tree, untracked files included), A..B (the graph read from B), or A...B (from the merge base)."
  ),
  staged: flag("staged", "The change is the index against HEAD, what a commit would record (a pre-commit hook).")
} as const

export interface CommonArgs {
  readonly root: string
  readonly exclude: ReadonlyArray<string>
  readonly config: Option.Option<string>
  readonly strict: boolean
  readonly quiet: boolean
  readonly verbose: boolean
}
