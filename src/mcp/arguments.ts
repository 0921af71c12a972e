// A tool's arguments decoded by its Schema, and each wrong parameter told as one diagnostic, scoped
// by its name (as the CLI scopes by the flag). Effect's formatter gives one issue per union member
// (`Expected string`, `Expected number`, `Expected undefined` for an optional `budget: true`):
// those are grouped by parameter and said once, in the words of the tool's input schema.
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import type { Diagnostic } from "../services/requests.js"

/** What a parameter takes, as the agent reads it: "a string", "a number", "\"json\"", "an array of strings". */
const expected = (ast: AST.AST): ReadonlyArray<string> => {
  switch (ast._tag) {
    case "StringKeyword":
      return ["a string"]
    case "NumberKeyword":
      return ["a number"]
    case "BooleanKeyword":
      return ["a boolean"]
    case "Literal":
      return [JSON.stringify(ast.literal)]
    case "UndefinedKeyword":
      return []
    case "Union":
      return ast.types.flatMap(expected)
    case "TupleType":
      return [ast.rest.length === 1 && ast.rest[0].type._tag === "StringKeyword" ? "an array of strings" : "an array"]
    default:
      return [String(ast)]
  }
}

const either = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? (words[0] ?? "nothing") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** One diagnostic per wrong parameter, in the schema's order (unknown names last). */
export const argumentProblems = (ast: AST.AST, payload: unknown, issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>): Diagnostic[] => {
  const fields = AST.getPropertySignatures(ast)
  const byName = new Map<string, ParseResult.ArrayFormatterIssue[]>()
  for (const issue of issues) {
    const name = issue.path.length > 0 ? String(issue.path[0]) : ""
    byName.set(name, [...(byName.get(name) ?? []), issue])
  }
  const rank = (name: string) => {
    const i = fields.findIndex((f) => f.name === name)
    return i === -1 ? fields.length : i
  }
  return [...byName]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, found]): Diagnostic => {
      if (name === "") return { scope: "arguments", problem: `Expected an object of parameters, got ${shown(payload)}.` }
      const field = fields.find((f) => f.name === name)
      if (field === undefined || found.some((i) => i._tag === "Unexpected")) {
        return { scope: name, problem: `Unknown parameter; the tool takes ${fields.map((f) => String(f.name)).join(", ")}.` }
      }
      const takes = either(expected(field.type))
      if (found.some((i) => i._tag === "Missing")) return { scope: name, problem: `Missing: expected ${takes}.` }
      return { scope: name, problem: `Expected ${takes}, got ${shown((payload as Record<string, unknown>)[name])}.` }
    })
}

/** The arguments decoded, or the diagnostics: every wrong parameter, each once. */
export const decodeArguments = <A, I>(schema: Schema.Schema<A, I>, payload: unknown): Either.Either<A, Diagnostic[]> =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })(payload ?? {}).pipe(
    Either.mapLeft((e) => argumentProblems(schema.ast, payload ?? {}, ParseResult.ArrayFormatter.formatErrorSync(e)))
  )
