// Checking parsed JSON against a Schema, for a user: what its shape alone refuses before the
// Schema sees it, and a decoding error as the one line a user reads (the path of the first refused
// key, then why). Used by the configuration file and the manifest.
import type * as ParseResult from "effect/ParseResult"
import { ArrayFormatter } from "effect/ParseResult"

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

/**
 * The first issue as `path: why`. `explain` may word a refused value itself (a union's members
 * name only one branch each); null leaves the Schema's message.
 */
export const schemaLine = (error: ParseResult.ParseError, explain: (path: ReadonlyArray<PropertyKey>) => string | null = () => null): string => {
  const [issue] = ArrayFormatter.formatErrorSync(error)
  const path = issue.path.map(String).join(".")
  const message = explain(issue.path) ?? issue.message.replace(/\s+/g, " ")
  return path === "" ? message : `${path}: ${issue._tag === "Unexpected" ? "unknown key" : message}`
}
