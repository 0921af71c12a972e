// A tool's arguments decoded by its Schema, and each wrong parameter told as one diagnostic, scoped
// by its name (as the CLI scopes by the flag). Effect's issues come as a tree (a union's members,
// an array's elements, a missing or unexpected key): they are grouped by parameter and said once,
// in the words of the tool's input schema.
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import type { Diagnostic } from "../../usecases/requests.js"

/** What a parameter takes, as the agent reads it: "a string", "a number", "\"json\"", "an array of strings". */
const expected = (ast: AST.AST): ReadonlyArray<string> => {
  switch (ast._tag) {
    case "String":
      return ["a string"]
    case "Number":
      return ["a number"]
    case "Boolean":
      return ["a boolean"]
    case "Literal":
      return [JSON.stringify(ast.literal)]
    case "Undefined":
      return []
    case "Union":
      return ast.types.flatMap(expected)
    case "Arrays":
      return [ast.elements.length === 0 && ast.rest.length === 1 && ast.rest[0]._tag === "String" ? "an array of strings" : "an array"]
    default:
      return [String(ast._tag)]
  }
}

const either = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? (words[0] ?? "nothing") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

type Found = "Missing" | "Unexpected" | "Invalid"

/** The issue tree's leaves: the parameter each is about ("" for the payload itself) and what went wrong. */
const leaves = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, out: Array<readonly [string, Found]>): void => {
  switch (issue._tag) {
    case "Pointer":
      leaves(issue.issue, [...path, ...issue.path], out)
      return
    case "Filter":
    case "Encoding":
      leaves(issue.issue, path, out)
      return
    case "Composite":
    case "AnyOf":
      if (issue.issues.length > 0) {
        for (const i of issue.issues) leaves(i, path, out)
        return
      }
      break
  }
  const name = path.length > 0 ? String(path[0]) : ""
  out.push([name, issue._tag === "MissingKey" ? "Missing" : issue._tag === "UnexpectedKey" ? "Unexpected" : "Invalid"])
}

/** One diagnostic per wrong parameter, in the schema's order (unknown names last). */
export const argumentProblems = (ast: AST.AST, payload: unknown, issue: SchemaIssue.Issue): Diagnostic[] => {
  const fields = ast._tag === "Objects" ? ast.propertySignatures : []
  const byName = new Map<string, Found[]>()
  const found: Array<readonly [string, Found]> = []
  leaves(issue, [], found)
  for (const [name, kind] of found) byName.set(name, [...(byName.get(name) ?? []), kind])
  const rank = (name: string) => {
    const i = fields.findIndex((f) => f.name === name)
    return i === -1 ? fields.length : i
  }
  return [...byName]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, kinds]): Diagnostic => {
      if (name === "") return { scope: "arguments", problem: `Expected an object of parameters, got ${shown(payload)}.` }
      const field = fields.find((f) => f.name === name)
      if (field === undefined || kinds.includes("Unexpected")) {
        return { scope: name, problem: `Unknown parameter; the tool takes ${fields.map((f) => String(f.name)).join(", ")}.` }
      }
      const takes = either(expected(field.type))
      if (kinds.includes("Missing")) return { scope: name, problem: `Missing: expected ${takes}.` }
      return { scope: name, problem: `Expected ${takes}, got ${shown((payload as Record<string, unknown>)[name])}.` }
    })
}

/** The arguments decoded, or the diagnostics: every wrong parameter, each once. */
export const decodeArguments = <A>(schema: Schema.ConstraintDecoder<A>, payload: unknown): Result.Result<A, Diagnostic[]> =>
  Result.mapError(SchemaParser.decodeUnknownResult(schema, { onExcessProperty: "error", errors: "all" })(payload ?? {}), (issue) =>
    argumentProblems(schema.ast, payload ?? {}, issue)
  )
