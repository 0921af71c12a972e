// Checking parsed JSON against a Schema, for a user: what its shape alone refuses before the
// Schema sees it, and a decoding error as the one line a user reads (the path of the first refused
// key, then why). Used by the configuration file and the manifest.
//
// The lines are the project's, not Effect's: Effect 4 words its issues differently from Effect 3
// ("Missing key", "got"), and these lines are part of the CLI's output. A schema says what its own
// values are called through the annotations below; everything else is worded here.
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import type * as SchemaIssue from "effect/SchemaIssue"

/** Annotation: a wrong value here reads "expected <words>, got <its kind>" (see `Expected`). */
export const WORDS = "specbundle/words"
/** Annotation: any problem inside this schema (a union of forms) reads as this one message, at its path. */
export const MESSAGE = "specbundle/message"
/** Annotation (on a check): how the checked type is named inside another type's description ("Int"). */
export const TYPE_NAME = "specbundle/typeName"

/** Parse options: unknown keys refused, the first problem only. */
export const STRICT: SchemaAST.ParseOptions = { onExcessProperty: "error", errors: "first" }

/** How a value of the wrong kind is described; `words` come from the schema's WORDS annotation. */
export type Expected = (words: string, actual: unknown) => string

/**
 * What the parsed JSON's shape alone refuses, as a message naming the path; null when nothing: a
 * `__proto__` key anywhere (no merge may reach a prototype), or a value nested deeper than
 * `maxDepth`. Checked before the Schema: its messages print a refused value recursively, and
 * thousands of nested arrays overflowed the stack (an internal error instead of a line naming the
 * key). One walk, with a stack of its own.
 */
export const shapeProblem = (json: unknown, maxDepth: number): string | null => {
  const stack: Array<[unknown, string, number]> = [[json, "", 0]]
  while (stack.length > 0) {
    const [value, at, depth] = stack.pop()!
    if (value === null || typeof value !== "object") continue
    if (depth >= maxDepth) return `${at}: nests deeper than ${maxDepth} levels; no key takes more than four`
    for (const [key, child] of Object.entries(value)) {
      const path = at === "" ? key : `${at}.${key}`
      if (key === "__proto__") return `${path}: "__proto__" is not allowed as a key`
      stack.push([child, path, depth + 1])
    }
  }
  return null
}

/** The annotations a node carries: its own, and (Effect 4 puts them there) its last check's. */
const annotationsOf = (ast: SchemaAST.AST): Record<string, unknown> => ({ ...ast.annotations, ...ast.checks?.[ast.checks.length - 1]?.annotations })
const stringAt = (annotations: Record<string, unknown> | undefined, key: string): string | undefined =>
  typeof annotations?.[key] === "string" ? (annotations[key] as string) : undefined

/** The value at `path` inside the parsed JSON. */
const valueAt = (json: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), json)

/** A refused value as the line quotes it: compact JSON. */
const quoted = (value: unknown): string => {
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text
}

/** The type's name as the line spells it: its identifier, its check's name, or its structure. */
export const typeName = (ast: SchemaAST.AST): string => {
  const own = stringAt(ast.annotations, "identifier")
  if (own !== undefined) return own
  const last = ast.checks?.[ast.checks.length - 1]?.annotations
  const checked = stringAt(last, TYPE_NAME) ?? stringAt(last, "expected")
  return checked ?? baseName(ast)
}

/** The type without its checks: what a value of the wrong kind was expected to be. */
const baseName = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
      return "string"
    case "Number":
      return "number"
    case "Boolean":
      return "boolean"
    case "Null":
      return "null"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Union":
      return ast.types.map(typeName).join(" | ")
    case "Arrays":
      return ast.elements.length === 0 && ast.rest.length === 1
        ? `ReadonlyArray<${typeName(ast.rest[0])}>`
        : `readonly [${ast.elements.map(typeName).join(", ")}]`
    case "Objects": {
      const fields = ast.propertySignatures.map((p) => {
        const optional = p.type.context?.isOptional === true
        return `readonly ${String(p.name)}${optional ? "?" : ""}: ${typeName(p.type)}${optional ? " | undefined" : ""}`
      })
      return `{ ${fields.join("; ")} }`
    }
    default:
      return ast._tag
  }
}

/**
 * The first issue as `path: why`. `explain` may word a refused value itself (a union's members
 * name only one branch each); null leaves the schema's words. `expected` words a value of the wrong
 * kind where the schema names it (WORDS); elsewhere the line is "Expected <type>, actual <value>".
 */
export const schemaLine = (
  issue: SchemaIssue.Issue,
  json: unknown,
  explain: (path: ReadonlyArray<PropertyKey>) => string | null = () => null,
  expected?: Expected
): string => {
  const { path, message } = firstProblem(issue, [], json, expected)
  const at = path.map(String).join(".")
  const why = message === "unknown key" ? message : (explain(path) ?? message).replace(/\s+/g, " ")
  return at === "" ? why : `${at}: ${why}`
}

interface Problem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * Down the issue tree to the first problem; `node` is the schema the issue is about (a check's
 * issue sits under its schema's). A MESSAGE annotation on the way answers for all below it.
 */
const firstProblem = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey>,
  json: unknown,
  expected: Expected | undefined,
  node?: SchemaAST.AST
): Problem => {
  const actual = () => valueAt(json, path)
  const words = (ast: SchemaAST.AST | undefined): string | undefined => {
    const w = ast === undefined ? undefined : stringAt(annotationsOf(ast), WORDS)
    return w !== undefined && expected !== undefined ? expected(w, actual()) : undefined
  }
  if (issue._tag === "Composite" || issue._tag === "AnyOf" || issue._tag === "InvalidType") {
    const message = stringAt(annotationsOf(issue.ast), MESSAGE)
    if (message !== undefined) return { path, message }
  }
  switch (issue._tag) {
    case "Pointer":
      return firstProblem(issue.issue, [...path, ...issue.path], json, expected)
    case "Encoding":
      return firstProblem(issue.issue, path, json, expected, node)
    case "Composite":
      return firstProblem(issue.issues[0], path, json, expected, issue.ast)
    case "AnyOf": {
      if (issue.issues.length > 0) return firstProblem(issue.issues[0], path, json, expected)
      // No member takes a value of this kind: the first member says why, as Effect 3 worded it (a
      // union's own WORDS never showed; `explain` words the unions whose key it knows).
      const first = Schema.make<Schema.Codec<unknown, unknown>>(issue.ast.types[0])
      const result = Schema.decodeUnknownResult(first, STRICT)(actual())
      return Result.isFailure(result)
        ? firstProblem(result.failure.issue, path, json, expected)
        : { path, message: `Expected ${typeName(issue.ast)}, actual ${quoted(actual())}` }
    }
    case "Filter": {
      const own = words(node)
      if (own !== undefined) return { path, message: own }
      const name = stringAt(issue.filter.annotations, "expected") ?? "a valid value"
      return { path, message: `Expected ${name}, actual ${quoted(actual())}` }
    }
    case "MissingKey":
      return { path, message: "is missing" }
    case "UnexpectedKey":
      return { path, message: "unknown key" }
    case "InvalidType":
      // A checked type refuses a value of another kind by its base type's name ("Expected string").
      return {
        path,
        message: words(issue.ast) ?? `Expected ${stringAt(issue.ast.annotations, "identifier") ?? baseName(issue.ast)}, actual ${quoted(actual())}`
      }
    default:
      return { path, message: words(node) ?? `Expected ${node === undefined ? "a valid value" : typeName(node)}, actual ${quoted(actual())}` }
  }
}
