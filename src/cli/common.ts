// Options every reading subcommand takes after its name (`specbundle bundle --root X`).
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { excludeProblem } from "../core/discover.js"

export const common = {
  root: Options.text("root").pipe(
    Options.withDescription("Extraction root: the corpus folder (may be a sub-folder of a git repository). Default: the current folder."),
    Options.withDefault(".")
  ),
  exclude: Options.text("exclude").pipe(
    Options.withDescription("Root-relative path to leave out, matched at segment boundaries. Repeatable."),
    Options.repeated
  ),
  config: Options.text("config").pipe(
    Options.withDescription("Configuration file (default: <root>/specbundle.config.json when present)."),
    Options.optional
  ),
  strict: Options.boolean("strict").pipe(Options.withDescription("Exit 1 after printing the value when a carrier was refused.")),
  quiet: Options.boolean("quiet").pipe(Options.withDescription("Print no warnings or progress on stderr; errors still show."))
} as const

export interface CommonArgs {
  readonly root: string
  readonly exclude: ReadonlyArray<string>
  readonly config: Option.Option<string>
  readonly strict: boolean
  readonly quiet: boolean
}

/** The first refused --exclude value, as a parameter problem. */
export const excludeProblems = (args: CommonArgs): ReadonlyArray<string> =>
  args.exclude.map(excludeProblem).filter((p): p is string => p !== null)

export const optionalText = (o: Option.Option<string>): string | undefined => Option.getOrUndefined(o)

export const unit = Effect.void
