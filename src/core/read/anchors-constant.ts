// The constant form of an anchor (sdp-format.md section 7.1): a top-level const initialized by
// codeAnchor/specTest/specOracle bound to the protocol package (or, self-hosting, its own modules).
import * as Result from "effect/Result"
import type { CallExpression, Expression, ObjectProperty, Program } from "oxc-parser"
import { PROTOCOL_PACKAGE } from "../protocol-package.js"
import { CODE_NAMESPACES } from "./anchors-fields.js"
import type { Problem, RawAnchor } from "./anchors-fields.js"

export const PACKAGE = PROTOCOL_PACKAGE
const TRUSTED_SPECIFIERS = new Set([PACKAGE, `${PACKAGE}/anchors`])
/** Self-hosting: the package's own builder modules (never the barrel src/index.ts). */
const TRUSTED_SELF_MODULES = new Set(["src/ids.ts", "src/model/code-anchor.ts"])

export const ANCHOR_BUILDERS = { codeAnchor: "code", specTest: "test", specOracle: "oracle" } as const
export type AnchorBuilder = keyof typeof ANCHOR_BUILDERS
/** Authoring calls that only a `.sdp.ts` carrier may hold; in a code file they are misplaced. */
export const CARRIER_BUILDERS = new Set(["spec", "pack"])
/** Id builders and the namespaces each one mints (ref and specId build Spec references). */
const ID_BUILDERS: Readonly<Record<string, ReadonlyArray<string> | null>> = {
  codeAnchorId: CODE_NAMESPACES,
  componentAnchorId: ["component"],
  testAnchorId: ["test"],
  oracleAnchorId: ["oracle"],
  specId: ["spec"],
  ref: null
}
const TARGET_FIELD: Readonly<Record<AnchorBuilder, "satisfies" | "verifies" | "models">> = {
  codeAnchor: "satisfies",
  specTest: "verifies",
  specOracle: "models"
}
const BUILDER_NAMESPACES: Readonly<Record<AnchorBuilder, ReadonlyArray<string>>> = {
  codeAnchor: CODE_NAMESPACES,
  specTest: ["test"],
  specOracle: ["oracle"]
}

export interface Bindings {
  /** local name -> the protocol export it binds. */
  readonly named: ReadonlyMap<string, string>
  /** locals bound to the whole module (namespace or default import): `sdp.codeAnchor(…)`. */
  readonly modules: ReadonlySet<string>
}

/** `../ids.js` from `src/model/x.ts` -> `src/ids.ts` (POSIX, `.js` read as `.ts`). */
const resolveRelative = (file: string, specifier: string): string => {
  const parts = file.split("/").slice(0, -1)
  for (const seg of specifier.split("/")) {
    if (seg === "..") parts.pop()
    else if (seg !== "." && seg !== "") parts.push(seg)
  }
  const path = parts.join("/")
  return path.endsWith(".js") ? `${path.slice(0, -3)}.ts` : path.endsWith(".ts") ? path : `${path}.ts`
}

export const isTrustedSource = (file: string, specifier: string, selfHosting: boolean): boolean =>
  TRUSTED_SPECIFIERS.has(specifier) ||
  (selfHosting && (specifier.startsWith("./") || specifier.startsWith("../")) && TRUSTED_SELF_MODULES.has(resolveRelative(file, specifier)))

export const collectBindings = (program: Program, file: string, selfHosting: boolean): Bindings => {
  const named = new Map<string, string>()
  const modules = new Set<string>()
  for (const statement of program.body) {
    if (statement.type !== "ImportDeclaration" || statement.importKind === "type") continue
    if (!isTrustedSource(file, statement.source.value, selfHosting)) continue
    for (const s of statement.specifiers) {
      if (s.type === "ImportSpecifier") {
        if (s.importKind === "type") continue
        const imported = s.imported.type === "Identifier" ? s.imported.name : String(s.imported.value)
        if (imported === "default") modules.add(s.local.name)
        else named.set(s.local.name, imported)
      } else {
        modules.add(s.local.name)
      }
    }
  }
  return { named, modules }
}

/** Strip what does not change a value: parentheses, `as` casts, `satisfies`. */
export const unwrap = (e: Expression): Expression => {
  let node = e
  while (node.type === "ParenthesizedExpression" || node.type === "TSAsExpression" || node.type === "TSSatisfiesExpression") {
    node = node.expression
  }
  return node
}

/** The protocol export a callee names, or null when it is not bound to the protocol. */
export const calleeName = (callee: Expression, bindings: Bindings): string | null => {
  const c = unwrap(callee)
  if (c.type === "Identifier") return bindings.named.get(c.name) ?? null
  if (c.type === "MemberExpression" && !c.computed && c.property.type === "Identifier") {
    const object = unwrap(c.object)
    if (object.type === "Identifier" && bindings.modules.has(object.name)) return c.property.name
  }
  return null
}

interface NotStatic {
  readonly message: string
  readonly code: string
}
type Static<A = string> = Result.Result<A, NotStatic>
const nonStatic = (what: string): Static<never> =>
  Result.fail({ code: "extract/non-static-envelope", message: `${what} is not static (a string literal or a one-literal id builder)` })

const literalString = (e: Expression): string | null => {
  if (e.type === "Literal" && typeof e.value === "string") return e.value
  if (e.type === "TemplateLiteral" && e.expressions.length === 0) return e.quasis[0].value.cooked ?? null
  return null
}

/** A string literal, or an id builder over one string literal whose namespace it mints. */
const staticString = (node: Expression, bindings: Bindings, what: string): Static => {
  const e = unwrap(node)
  const literal = literalString(e)
  if (literal !== null) return Result.succeed(literal)
  if (e.type !== "CallExpression") return nonStatic(what)
  const builder = calleeName(e.callee, bindings)
  if (builder === null || !(builder in ID_BUILDERS) || e.arguments.length !== 1 || e.arguments[0].type === "SpreadElement") {
    return nonStatic(what)
  }
  const value = literalString(unwrap(e.arguments[0]))
  if (value === null) return nonStatic(what)
  const namespaces = ID_BUILDERS[builder]
  const ns = value.slice(0, Math.max(0, value.indexOf(":")))
  if (namespaces !== null && !namespaces.includes(ns)) {
    return Result.fail({ code: "extract/invalid-id", message: `${builder}("${value}") must build an id in ${namespaces.map((n) => `${n}:`).join(" or ")}` })
  }
  return Result.succeed(value)
}

const staticList = (node: Expression, bindings: Bindings, what: string): Static<string[]> => {
  const e = unwrap(node)
  if (e.type !== "ArrayExpression") return Result.map(staticString(e, bindings, what), (one) => [one])
  const value: string[] = []
  for (const element of e.elements) {
    if (element === null || element.type === "SpreadElement") return nonStatic(`an item of ${what}`)
    const one = staticString(element, bindings, `an item of ${what}`)
    if (Result.isFailure(one)) return Result.fail(one.failure)
    value.push(one.success)
  }
  return Result.succeed(value)
}

const propertyName = (p: ObjectProperty): string | null => {
  if (p.computed) return null
  if (p.key.type === "Identifier") return p.key.name
  if (p.key.type === "Literal" && typeof p.key.value === "string") return p.key.value
  return null
}

const LIST_FIELDS = new Set(["satisfies", "verifies", "models", "references", "uses"])
const ALLOWED: Readonly<Record<AnchorBuilder, ReadonlySet<string>>> = {
  codeAnchor: new Set(["id", "label", "satisfies", "references", "component", "uses", "role", "layer", "context"]),
  specTest: new Set(["id", "label", "verifies"]),
  specOracle: new Set(["id", "label", "models"])
}

export interface ConstantRead {
  readonly raw: RawAnchor | null
  /** Errors refuse this anchor; warnings (a dropped non-static label) do not. */
  readonly problems: ReadonlyArray<Problem & { readonly severity: "error" | "warning" }>
}

/** Read the one fresh object literal of an anchor builder call into a raw anchor. */
export const readConstantAnchor = (call: CallExpression, builder: AnchorBuilder, bindings: Bindings, lineOf: (offset: number) => number): ConstantRead => {
  const line = lineOf(call.start)
  const problems: Array<Problem & { severity: "error" | "warning" }> = []
  const fail = (at: number, code: string, message: string) => problems.push({ line: at, code, message, severity: "error" })
  const arg = call.arguments.length === 1 && call.arguments[0].type !== "SpreadElement" ? unwrap(call.arguments[0]) : null
  if (arg === null || arg.type !== "ObjectExpression") {
    fail(line, "extract/non-static-envelope", `${builder}(…) takes exactly one object literal`)
    return { raw: null, problems }
  }
  let id: string | undefined
  let label: string | null = null
  const lists: Record<string, ReadonlyArray<string>> = {}
  const scalars: Record<string, string> = {}
  const seen = new Set<string>()
  for (const p of arg.properties) {
    const at = lineOf(p.start)
    if (p.type === "SpreadElement" || p.shorthand || p.method || p.kind !== "init") {
      fail(at, "extract/non-static-envelope", "an anchor object takes plain `name: value` properties only")
      continue
    }
    const name = propertyName(p)
    if (name === null) {
      fail(at, "extract/non-static-envelope", "a computed property name is not static")
      continue
    }
    if (seen.has(name)) {
      fail(at, "extract/non-static-envelope", `property "${name}" is written twice`)
      continue
    }
    seen.add(name)
    if (!ALLOWED[builder].has(name)) {
      fail(at, "extract/unrecognized-property", `${builder}(…) does not take "${name}": an anchor asserts a binding only`)
      continue
    }
    if (name === "label") {
      const v = staticString(p.value, bindings, "label")
      if (Result.isSuccess(v)) label = v.success
      else problems.push({ line: at, code: "extract/non-static-section", message: "label dropped: it is not a static string", severity: "warning" })
      continue
    }
    const v: Static<string | string[]> = LIST_FIELDS.has(name) ? staticList(p.value, bindings, `"${name}"`) : staticString(p.value, bindings, `"${name}"`)
    if (Result.isFailure(v)) fail(at, v.failure.code, v.failure.message)
    else if (name === "id") id = v.success as string
    else if (Array.isArray(v.success)) lists[name] = v.success
    else scalars[name] = v.success as string
  }
  if (!seen.has("id")) fail(line, "extract/non-static-envelope", `${builder}(…) needs an id`)
  const target = TARGET_FIELD[builder]
  if (builder !== "codeAnchor" && !seen.has(target)) fail(line, "extract/non-static-envelope", `${builder}(…) needs "${target}"`)
  if (id !== undefined) {
    const ns = id.slice(0, Math.max(0, id.indexOf(":")))
    if (!BUILDER_NAMESPACES[builder].includes(ns)) {
      fail(line, "extract/invalid-id", `${builder}(…) id "${id}" must be in ${BUILDER_NAMESPACES[builder].map((n) => `${n}:`).join(" or ")}`)
    }
  }
  if (problems.some((p) => p.severity === "error") || id === undefined) return { raw: null, problems }
  return { raw: { id, form: "constant", line, label, lists: lists as RawAnchor["lists"], scalars: scalars as RawAnchor["scalars"] }, problems }
}
