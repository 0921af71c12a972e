// A request's fields as Effect Schemas that also carry what each entrance needs to offer them: the
// description (the library's and the MCP tool's words) and, for the command line, the flag's name,
// placeholder, words and default. The CLI (src/entrances/cli/flags.ts) and the MCP server
// (src/entrances/mcp/parameters.ts) derive their parameters from these, so a field is written once.
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"

/** The annotation key that holds a field's FieldSpec (JSON Schema output leaves unknown keys out). */
export const FIELD = "specbundle/field"

export interface FieldSpec {
  /** What the field is, in the library's and the MCP tool's words (the JSON Schema's description). */
  readonly description: string
  /** The help page's sentence when it differs from the description (it names flags, not parameters). */
  readonly help?: string
  /** The placeholder on the help page (ID, N|TIER, DIR); a choice shows its list. */
  readonly value?: string
  /** The flag's name when it is not the field's name in kebab case. */
  readonly flag?: string
  /** A one-letter alias (`-o`). */
  readonly alias?: string
  /** What the entrances take when the field is absent (the CLI's default, the MCP tool's fill). */
  readonly default?: string
  /** On the command line, a word after the command (`list packs`), not a flag. */
  readonly argument?: boolean
  /**
   * A list on the command line: comma-separated in one value (`--specs a,b`), a repeated flag
   * (`--exclude`), or read from a file named by the flag, one item a line (`-`: stdin; `linesFrom`).
   */
  readonly list?: "comma" | "repeat" | "file"
  /**
   * A choice the command line takes as text: the use case's own check words a wrong value (a `{
   * diagnostics }` value, exit 2), as it does for the MCP tool and the configuration file.
   */
  readonly text?: boolean
  /** The MCP tool's name and words for the field, when they differ; false: not a parameter of the tool. */
  readonly mcp?: false | { readonly name?: string; readonly description?: string }
}

// `annotate` rebuilds a schema of its own type (its "~rebuild.out"), which a generic S cannot name.
const field = <S extends Schema.Top>(schema: S, spec: FieldSpec): S => schema.annotate({ description: spec.description, [FIELD]: spec }) as S

/** Text; absent unless given. */
export const text = (spec: FieldSpec) => Schema.optionalKey(field(Schema.String, spec))
/** Text that every request has (the CLI and the MCP tool fill `spec.default` when it is left out). */
export const requiredText = (spec: FieldSpec & { readonly default: string }) => field(Schema.String, spec)
/** A list of text values. */
export const texts = (spec: FieldSpec & { readonly list: "comma" | "repeat" }) => Schema.optionalKey(field(Schema.Array(Schema.String), spec))
/** Text or a JSON number (a budget, a part): the number's text means the same; finite, as JSON numbers are. */
export const textOrNumber = (spec: FieldSpec) => Schema.optionalKey(field(Schema.Union([Schema.String, Schema.Finite]), spec))
/** A switch: false unless given. */
export const toggle = (spec: FieldSpec) => Schema.optionalKey(field(Schema.Boolean, spec))
/**
 * A list the command line reads from a file (`--paths-from FILE|-`, one item a line; the handler
 * reads it), and the MCP tool takes as an array: there the flag gives the FILE (a type tag,
 * nothing at run time).
 */
export type FromFile<S> = S & { readonly "~fromFile": true }
/** A list of text values that the command line reads from a file named by the flag (`spec.list` is "file"). */
export const linesFrom = (spec: FieldSpec) =>
  Schema.optionalKey(field(Schema.Array(Schema.String), { ...spec, list: "file" })) as FromFile<Schema.optionalKey<Schema.$Array<Schema.String>>>
/** A field with a `spec.default` the entrances fill when it is left out: there it is never undefined (a type tag, nothing at run time). */
export type Defaulted<S> = S & { readonly "~default": true }

/** One of `choices`; absent unless given, or `spec.default` in the entrances. */
export function choice<const L extends ReadonlyArray<string>>(
  choices: L,
  spec: FieldSpec & { readonly default: L[number] }
): Defaulted<Schema.optionalKey<Schema.Literals<L>>>
export function choice<const L extends ReadonlyArray<string>>(choices: L, spec: FieldSpec): Schema.optionalKey<Schema.Literals<L>>
export function choice<const L extends ReadonlyArray<string>>(choices: L, spec: FieldSpec) {
  return Schema.optionalKey(field(Schema.Literals(choices), spec))
}
/** One of `choices`, always given (an argument such as `list packs|specs`). */
export const requiredChoice = <const L extends ReadonlyArray<string>>(choices: L, spec: FieldSpec) => field(Schema.Literals(choices), spec)

/** What a field is, as the derivers read it from its Schema. */
export type FieldKind = "text" | "texts" | "textOrNumber" | "toggle" | "choice"

export interface FieldInfo {
  readonly spec: FieldSpec
  readonly kind: FieldKind
  /** A choice's values, in order. */
  readonly choices: ReadonlyArray<string>
  /** Left out of a request unless given (`optionalKey`). */
  readonly optional: boolean
}

const kindOf = (ast: SchemaAST.AST): FieldKind => {
  switch (ast._tag) {
    case "String":
      return "text"
    case "Boolean":
      return "toggle"
    case "Arrays":
      return "texts"
    case "Literal":
      return "choice"
    case "Union":
      return ast.types.every((t) => t._tag === "Literal") ? "choice" : "textOrNumber"
    default:
      throw new Error(`a request field is text, texts, a number or a choice, not ${ast._tag}`)
  }
}

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<string> =>
  ast._tag === "Literal" ? [String(ast.literal)] : ast._tag === "Union" ? ast.types.flatMap(literalsOf) : []

/** A field's spec and kind; a field built without the constructors above is a programming error. */
export const fieldInfo = (name: string, schema: Schema.Top): FieldInfo => {
  const spec = SchemaAST.resolve(schema.ast)?.[FIELD] as FieldSpec | undefined
  if (spec === undefined) throw new Error(`request field ${name} has no FieldSpec`)
  const kind = kindOf(schema.ast)
  return { spec, kind, choices: kind === "choice" ? literalsOf(schema.ast) : [], optional: schema.ast.context?.isOptional === true }
}
