// Options every reading subcommand takes after its name (`specbundle bundle --root X`). Each
// value option has a placeholder (withPseudoName) and one sentence: the help page prints both.
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** A text option with a placeholder and a sentence; absent unless given. */
export const valueOption = (name: string, placeholder: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(placeholder), Options.withDescription(description), Options.optional)

export const flag = (name: string, description: string) => Options.boolean(name).pipe(Options.withDescription(description))

export const common = {
  root: Options.text("root").pipe(
    Options.withPseudoName("DIR"),
    Options.withDescription("The corpus folder to read (default: the current folder); it may be a sub-folder of a git repository."),
    Options.withDefault(".")
  ),
  exclude: Options.text("exclude").pipe(
    Options.withPseudoName("PATH"),
    Options.withDescription(
      "Leave out a root-relative folder or file (a trailing / and a leading ./ are fine) or a glob such as 'drafts/**'; repeat for more."
    ),
    Options.repeated
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

export const optionalText = (o: Option.Option<string>): string | undefined => Option.getOrUndefined(o)

export const unit = Effect.void
