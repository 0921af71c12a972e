// Options every reading subcommand takes after its name (`specbundle bundle --root X`). Each
// value option has a placeholder (withMetavar) and one sentence: the help page prints both. The
// flags of a command that takes a request come from its fields (flags.ts, src/usecases/requests.ts);
// the three helpers below serve the commands that take none (hook, stale, example).
import * as Flag from "effect/cli/Flag"

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

export { commandFields, findingsField, outputFields } from "./fields.js"
