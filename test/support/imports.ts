// The module specifiers a TypeScript file names, read by oxc (the parser the project ships) rather than
// a regular expression, so an import split over lines, an `import()` or a `require()` is seen too.
// Type-only imports and exports count: they bind the importing layer to the other layer's types,
// which is the coupling the layering rule forbids (a type moved into an entrance would break core).
import type { Expression, Node, StringLiteral, TemplateLiteral } from "oxc-parser"
import { parseSync, Visitor } from "oxc-parser"

// A specifier written as a string or a template without substitutions; any other expression is not
// known before run time, so it names nothing here.
const literal = (node: Expression | StringLiteral | TemplateLiteral | Node): string | null =>
  node.type === "Literal" && typeof node.value === "string"
    ? node.value
    : node.type === "TemplateLiteral" && node.expressions.length === 0
      ? (node.quasis[0].value.cooked ?? null)
      : null

/** Every module specifier `source` names, in source order: static imports and `export … from`
 * (type-only ones included), `import("…")`, `require("…")`, `import x = require("…")` and
 * `import("…")` types. Throws on a parse error, so a file oxc cannot read fails loudly. */
export const specifiersOf = (filename: string, source: string): string[] => {
  const result = parseSync(filename, source)
  if (result.errors.length > 0) throw new Error(`${filename}: ${result.errors[0].message}`)
  const found: Array<{ at: number; spec: string }> = []
  const add = (at: number, node: Expression | StringLiteral | TemplateLiteral) => {
    const spec = literal(node)
    if (spec !== null) found.push({ at, spec })
  }
  // One walk over the AST rather than oxc's module record (staticImports/staticExports), which has
  // no entry for `export {} from "…"` and no `require`.
  new Visitor({
    ImportDeclaration: (node) => add(node.start, node.source),
    ExportNamedDeclaration: (node) => {
      if (node.source) add(node.start, node.source)
    },
    ExportAllDeclaration: (node) => add(node.start, node.source),
    ImportExpression: (node) => add(node.start, node.source),
    CallExpression: (node) => {
      const arg = node.arguments[0]
      if (node.callee.type === "Identifier" && node.callee.name === "require" && arg && arg.type !== "SpreadElement") add(node.start, arg)
    },
    TSExternalModuleReference: (node) => add(node.start, node.expression),
    TSImportType: (node) => add(node.start, node.source)
  }).visit(result.program)
  return found.sort((a, b) => a.at - b.at).map((f) => f.spec)
}
