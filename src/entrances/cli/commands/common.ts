// Options every reading subcommand takes after its name (`specbundle bundle --root X`). Each
// value option has a placeholder (withMetavar) and one sentence: the help page prints both. The
// flags of a command that takes a request come from its fields (flags.ts, src/usecases/requests.ts);
// the three helpers below serve the commands that take none (hook, stale, example).
import * as Flag from "effect/cli/Flag"
import { choice, toggle } from "../../../usecases/fields.js"
import type { corpusFields } from "../../../usecases/requests.js"

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

/** The switches every reading command takes besides the request: how it reports on stderr and exits. */
export const outputFields = {
  strict: toggle({ description: "Exit 1 after printing the result when a carrier was refused." }),
  quiet: toggle({ description: "Print no warnings or progress on stderr; refusals still show, capped like the rest." }),
  verbose: toggle({ description: "List every corpus finding on stderr instead of the first few and a tally." })
}

/** `--findings text|github`: how bundle and impact write corpus findings on stderr (output.ts writeFindings). */
export const findingsField = {
  findings: choice(["text", "github"], {
    description: "Write corpus findings on stderr as text lines, or as GitHub workflow commands (annotations).",
    default: "text"
  })
}

/** A command's fields: the corpus's (root, exclude, config), the output switches, then the rest of the request's and the command's own. */
export const commandFields = <F extends typeof corpusFields>(request: F) => {
  const { root, exclude, config, ...rest } = request
  return { root, exclude, config, ...outputFields, ...rest }
}
