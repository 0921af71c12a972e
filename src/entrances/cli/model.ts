// The command tree as plain data, read from the effect/cli definitions themselves (CommandSpec,
// the module's public description of a command), so the help page, the argument pre-checks and
// "did you mean" cannot drift from what the parser accepts.
import type * as Command from "effect/cli/Command"
import * as CommandSpec from "effect/cli/CommandSpec"
import * as Option from "effect/Option"

export interface OptionModel {
  /** `--budget` */
  readonly flag: string
  readonly aliases: ReadonlyArray<string>
  /** The value's placeholder (`N|TIER`, `json|pretty|ndjson`), or null for a flag that takes none. */
  readonly value: string | null
  /** The values the parser accepts (a choice option), or null when any text is taken. */
  readonly choices: ReadonlyArray<string> | null
  readonly description: string
  readonly repeatable: boolean
  readonly optional: boolean
}

export interface ArgModel {
  readonly name: string
  readonly description: string
  /** Takes any number of words (Argument.variadic): `hook run pre-push <remote> <url>`. */
  readonly repeated: boolean
  /** The words it takes (Argument.Literals), or null for any. */
  readonly choices: ReadonlyArray<string> | null
}

export interface CommandModel {
  readonly name: string
  readonly description: string
  readonly options: ReadonlyArray<OptionModel>
  readonly args: ReadonlyArray<ArgModel>
  readonly subcommands: ReadonlyArray<CommandModel>
}

const choicesOf = (type: CommandSpec.Type): ReadonlyArray<string> | null => (type._tag === "Choice" ? type.values : null)

const optionOf = (f: CommandSpec.Flag): OptionModel => {
  const choices = choicesOf(f.type)
  return {
    flag: `--${f.name}`,
    aliases: f.aliases.map((a) => (a.length === 1 ? `-${a}` : `--${a}`)),
    value: f.type._tag === "Boolean" ? null : (f.metavar ?? choices?.join("|") ?? "VALUE"),
    choices,
    description: f.description ?? "",
    repeatable: f.variadic !== undefined,
    // A default makes a flag optional too (CommandSpec counts it as required, with a fallback).
    optional: !f.required || f.fallbacks.length > 0
  }
}

const argOf = (a: CommandSpec.Argument): ArgModel => {
  const choices = choicesOf(a.type)
  const name = choices?.join("|") ?? a.metavar ?? a.name
  return a.variadic === undefined
    ? { name, description: a.description ?? "", repeated: false, choices }
    : { name: `[${name}]...`, description: a.description ?? "", repeated: true, choices }
}

const commandAt = (root: Command.Command.Any, path: ReadonlyArray<string>): CommandModel => {
  const spec = Option.getOrThrow(CommandSpec.resolve(root, path))
  return {
    name: spec.name,
    description: spec.description ?? "",
    // The built-in flags (--help, --version, ...) are the top page's own list (main.ts BUILT_INS).
    options: spec.flags.filter((f) => f.scope._tag === "Local").map(optionOf),
    args: spec.arguments.map(argOf),
    subcommands: spec.subcommands.map((s) => commandAt(root, [...path, s.name]))
  }
}

/** The model of a command (and its subcommands) built with Command.make. */
export const modelOf = (command: Command.Command.Any): CommandModel => commandAt(command, [command.name])
