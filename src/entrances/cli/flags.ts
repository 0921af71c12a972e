// A command's flags and arguments built from request fields (src/usecases/fields.ts): the name is
// the field's in kebab case, the placeholder and the sentence its spec's, and the parsed value the
// request's own (an absent option is `undefined`, a comma list an array), so a handler's arguments
// are a request. The help pages read these flags back (model.ts), so they follow too.
import * as Argument from "effect/cli/Argument"
import * as Flag from "effect/cli/Flag"
import type * as Param from "effect/cli/Param"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import type { Defaulted, FromFile } from "../../usecases/fields.js"
import { fieldInfo } from "../../usecases/fields.js"
import { FLAG_NAMES, kebab } from "./flag-names.js"

/** The value a field's flag gives the handler: the request's type; `undefined` when left out, unless a default or a switch's false fills it. */
type Value<S> =
  S extends FromFile<unknown>
    ? string | undefined
    : S extends Defaulted<Schema.optionalKey<infer I>>
      ? I["Type"]
      : S extends Schema.optionalKey<infer I>
        ? I["Type"] extends boolean
          ? boolean
          : I["Type"] | undefined
        : S extends Schema.Top
          ? S["Type"]
          : never

/** A handler's arguments for these fields. */
export type Args<F extends Schema.Struct.Fields> = { readonly [K in keyof F]: Value<F[K]> }

type Params<F extends Schema.Struct.Fields> = { readonly [K in keyof F]: Param.Param<Param.ParamKind, Value<F[K]>> }

export { FLAG_NAMES }

const absentIsUndefined = Option.getOrUndefined
/** `a, b,,c` -> ["a", "b", "", "c"]: empty ids stay, for the composer's own words about them. */
const commaList = (value: Option.Option<string>) => (Option.isSome(value) ? value.value.split(",").map((s) => s.trim()) : undefined)

const argumentOf = (name: string, schema: Schema.Top): Param.Param<Param.ParamKind, unknown> => {
  const { spec, kind, choices, optional } = fieldInfo(name, schema)
  const placeholder = spec.value ?? name.toUpperCase()
  const arg = (kind === "choice" ? Argument.Literals(placeholder, choices) : Argument.String(placeholder)).pipe(
    Argument.withDescription(spec.help ?? spec.description)
  )
  return optional ? arg.pipe(Argument.optional, Argument.map(absentIsUndefined)) : arg
}

const flagOf = (name: string, schema: Schema.Top): Param.Param<Param.ParamKind, unknown> => {
  const { spec, kind, choices } = fieldInfo(name, schema)
  if (spec.argument === true) return argumentOf(name, schema)
  const flagName = spec.flag ?? kebab(name)
  const described = <A>(f: Flag.Flag<A>) => {
    const named = spec.alias === undefined ? f : f.pipe(Flag.withAlias(spec.alias))
    return named.pipe(Flag.withDescription(spec.help ?? spec.description))
  }
  /** Text with its placeholder: a choice the use case judges shows its list. */
  const valued = () => Flag.String(flagName).pipe(Flag.withMetavar(spec.value ?? choices.join("|")), described)
  switch (kind) {
    // Effect's Boolean flags are required without a default, and would also take `--no-NAME` and a
    // following `true`/`false`, which specbundle never offered.
    case "toggle":
      return Flag.Boolean(flagName).pipe(described, Flag.withoutNegation, Flag.withDefault(false))
    case "choice":
      if (spec.text === true) return valued().pipe(Flag.optional, Flag.map(absentIsUndefined))
      return spec.default !== undefined
        ? Flag.Literals(flagName, choices).pipe(described, Flag.withDefault(spec.default))
        : Flag.Literals(flagName, choices).pipe(described, Flag.optional, Flag.map(absentIsUndefined))
    case "texts":
      // A list read from a file: the flag gives the FILE (or -), the handler reads its lines.
      if (spec.list === "file") return valued().pipe(Flag.optional, Flag.map(absentIsUndefined))
      return spec.list === "repeat" ? valued().pipe(Flag.atLeast(0)) : valued().pipe(Flag.optional, Flag.map(commaList))
    case "text":
    case "textOrNumber":
      return spec.default !== undefined ? valued().pipe(Flag.withDefault(spec.default)) : valued().pipe(Flag.optional, Flag.map(absentIsUndefined))
  }
}

/**
 * The flags (and arguments) of these fields, in their order. A choice the command line takes as
 * text (`--declarations`) is handed on as typed: the use case checks every value again
 * (src/core/bundle/params.ts), so a wrong one is its `{ diagnostics }` value, exit 2.
 */
export const flagsOf = <F extends Schema.Struct.Fields>(fields: F): Params<F> =>
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, flagOf(name, schema as Schema.Top)])) as Params<F>
