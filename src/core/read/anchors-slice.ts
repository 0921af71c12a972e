// The cheap route to a code file's anchors. Turning oxc's AST into JS objects costs about 18 bytes
// of JSON per byte of source, most of the reader's time on a large corpus, while the anchors live
// in a few top-level statements. So the whole file is parsed natively (its errors, comments and
// module records come back without the AST as objects), and only the statements that can matter
// become objects: the imports from the protocol package and the export statements that mention one
// of their local names, cut out of oxc's JSON text. The JSON is the JavaScript-shaped one (oxc's
// astType "js"), about a third smaller and cheaper to build: it leaves out TypeScript-only
// properties, so the import kinds are put back from the module records and a kept statement that
// may hold a parameter decorator (which that shape drops) is parsed again in full instead. The
// result must equal the whole-AST route's; whenever that is not certain, the caller takes it.
import type { Comment, EcmaScriptModule, OxcError, StaticImport } from "oxc-parser"
import { isTrustedSource } from "./anchors-constant.js"

/** What oxc's native parse gives without building the AST in JS. */
export interface NativeParse {
  readonly errors: ReadonlyArray<OxcError>
  readonly comments: ReadonlyArray<Comment>
  readonly module: EcmaScriptModule
  /** The JavaScript-shaped AST as oxc's JSON text (`{"node":{"type":"Program",…},"fixes":[…]}`), searched, never parsed whole. */
  readonly programJson: string
}

/** oxc's native binding: every field a getter that hands over (and frees) its Rust-side value once. */
export type NativeParseSync = (
  file: string,
  text: string,
  options: { readonly astType: "js" }
) => { readonly errors: OxcError[]; readonly comments: Comment[]; readonly module: EcmaScriptModule; readonly program: string }

/**
 * Reads each field once. The program JSON is always taken: left unread, it stays in Rust memory
 * until a finalizer runs after some later GC (0.5 GB for 3,000 files, and slower parsing).
 */
export const nativeParse = (parseSync: NativeParseSync) => (file: string, text: string): NativeParse => {
  const result = parseSync(file, text, { astType: "js" })
  const comments = result.comments
  // The JavaScript shape also lists a hashbang as a line comment; the TypeScript shape (and the
  // whole-AST route) does not.
  if (comments.length > 0 && comments[0].start === 0 && text.startsWith("#!")) comments.shift()
  return { errors: result.errors, comments, module: result.module, programJson: result.program }
}

const NODE_SPAN = /"start":(\d+),"end":(\d+)/g

/** The node type of a kept import or export statement, from its text (a comment after `export` falls to the check). */
const keptType = (text: string, start: number): string => {
  if (text.startsWith("import", start)) return "ImportDeclaration"
  const rest = text.slice(start + 6, start + 40).trimStart()
  return rest.startsWith("default") ? "ExportDefaultDeclaration" : rest.startsWith("*") ? "ExportAllDeclaration" : "ExportNamedDeclaration"
}

/** The number written at `at` in the JSON (digits only; -1 when none). */
const numberAt = (json: string, at: number): number => {
  let n = -1
  for (let c = json.charCodeAt(at); c >= 48 && c <= 57; c = json.charCodeAt(++at)) n = (n < 0 ? 0 : n * 10) + c - 48
  return n
}

/** Below this many characters between the bounds, a plain search is cheaper than more probes. */
const SEARCH_WINDOW = 2048

/**
 * A JSON offset at or after `from` before which every node ends by `start` and after which the
 * JSON of the statement starting at `start` lies: a binary search on the `"end":` of the next node
 * after each probe. Nodes of earlier statements end at or before `start`, while every node of an
 * import or export statement (they begin with a keyword) and of the statements after it ends
 * later, so the test splits the JSON in two. Spares a forward search through the whole JSON.
 */
const statementFloor = (json: string, from: number, start: number): number => {
  let lo = from
  // Only the statements: the Program's own fields (a hashbang node) follow its body.
  const body = json.lastIndexOf('],"sourceType":')
  let hi = body < 0 ? json.length : body
  while (hi - lo > SEARCH_WINDOW) {
    const mid = (lo + hi) >>> 1
    const at = json.indexOf('"end":', mid)
    const end = at < 0 || at >= hi ? -1 : numberAt(json, at + 6)
    if (end >= 0 && end <= start) lo = at
    else hi = mid
  }
  return lo
}

/**
 * The import kinds the JavaScript-shaped JSON leaves out, put back from oxc's module record: a
 * specifier is type-only when its entry is, and the declaration when every entry is (`import type
 * X`). collectBindings reads nothing else of them, and binds exactly what it binds on the full AST.
 */
const restoreImportKinds = (node: Record<string, unknown>, record: StaticImport | undefined): boolean => {
  if (record === undefined || !Array.isArray(node.specifiers)) return false
  const typeOnly = new Map(record.entries.map((e) => [e.localName.start, e.isType]))
  for (const specifier of node.specifiers as Array<{ type?: unknown; local?: { start?: number }; importKind?: string }>) {
    const isType = typeOnly.get(specifier.local?.start ?? -1)
    if (isType === undefined) return false
    // Only named specifiers carry a kind; `import type X` and `import type * as X` are the declaration's.
    if (specifier.type === "ImportSpecifier") specifier.importKind = isType ? "type" : "value"
  }
  node.importKind = record.entries.length > 0 && record.entries.every((e) => e.isType) ? "type" : "value"
  return true
}

/**
 * The kept statements as AST objects, cut out of the native parse's JSON instead of parsing a
 * blanked copy again: each node's JSON ends with its own `"start":S,"end":E}` (children first) and
 * begins at the last opening of its type before that (imports and exports are top-level only, so
 * none nests in another). Both searches stay between the previous kept statement and this one.
 * null whenever anything is not as expected (a literal oxc must fix up after JSON.parse, a span
 * not found, another node read, a mention the JavaScript shape dropped): the caller then parses
 * the blanked text in full.
 */
export const keptNodesFromJson = (
  text: string,
  programJson: string,
  kept: Kept,
  imports: ReadonlyArray<StaticImport>
): Array<Record<string, unknown>> | null => {
  if (!programJson.endsWith(',"fixes":[]}')) return null
  const nodes: Array<Record<string, unknown>> = []
  let from = 0
  for (const span of kept.spans) {
    const marker = `"start":${span.start},"end":${span.end}}`
    const floor = statementFloor(programJson, from, span.start)
    const at = programJson.indexOf(marker, floor)
    if (at < 0) return null
    const type = keptType(text, span.start)
    // A sliced string shares the JSON's characters: lastIndexOf then scans this window only.
    const open = programJson.slice(floor, at).lastIndexOf(`{"type":"${type}"`)
    if (open < 0) return null
    const end = at + marker.length
    let node: Record<string, unknown>
    try {
      node = JSON.parse(programJson.slice(floor + open, end)) as Record<string, unknown>
    } catch {
      return null
    }
    if (node.type !== type || node.start !== span.start || node.end !== span.end) return null
    if (type === "ImportDeclaration" && !restoreImportKinds(node, imports.find((i) => i.start === span.start))) return null
    nodes.push(node)
    from = end
  }
  return identifierStarts(nodes, kept.mentions) ? nodes : null
}

/**
 * Whether every mention is the start of an Identifier in the nodes. The JavaScript-shaped JSON
 * drops type annotations and parameter decorators; a builder call there would go unseen, but its
 * callee mentions a bound local, so a mention without its Identifier sends the file to the full parse.
 */
const identifierStarts = (nodes: ReadonlyArray<unknown>, mentions: ReadonlyArray<number>): boolean => {
  if (mentions.length === 0) return true
  const starts = new Set<number>()
  const stack: unknown[] = [...nodes]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value !== "object") continue
    if (Array.isArray(value)) {
      for (const v of value) stack.push(v)
      continue
    }
    const node = value as { type?: unknown; start?: unknown }
    if (node.type === "Identifier" && typeof node.start === "number") starts.add(node.start)
    for (const v of Object.values(node)) if (typeof v === "object") stack.push(v)
  }
  return mentions.every((m) => starts.has(m))
}

/**
 * Whether some AST node other than the Program spans the comment, i.e. whether the comment sits
 * inside a top-level statement (every node lies inside one). oxc writes each node's own
 * `"start":S,"end":E` after its children, so the Program's pair comes last; inside JSON strings
 * a quote is escaped, so the pattern matches node spans only.
 */
export const spannedByNode = (programJson: string, comment: Span): boolean => {
  const programAt = programJson.lastIndexOf('"start":')
  NODE_SPAN.lastIndex = 0
  for (let m = NODE_SPAN.exec(programJson); m !== null && m.index < programAt; m = NODE_SPAN.exec(programJson)) {
    if (Number(m[1]) <= comment.start && comment.end <= Number(m[2])) return true
  }
  return false
}

interface Span {
  readonly start: number
  readonly end: number
}

const isBlank = (text: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false
  }
  return true
}

/**
 * The comments that surely sit between top-level statements, found without the AST: those with
 * only blanks between them and the file start, the end of an import or export statement, or such
 * a comment. A statement holding one would have to start inside blanks or a comment. The rest
 * are left to spannedByNode.
 */
export const surelyTopLevel = (text: string, module: EcmaScriptModule, comments: ReadonlyArray<Span>): ReadonlySet<Span> => {
  const ends = [...module.staticImports, ...module.staticExports].map((s) => s.end).sort((a, b) => a - b)
  const sure = new Set<Span>()
  let boundary = 0
  let next = 0
  for (const comment of comments) {
    while (next < ends.length && ends[next] <= comment.start) boundary = Math.max(boundary, ends[next++])
    if (isBlank(text, boundary, comment.start)) {
      sure.add(comment)
      boundary = comment.end
    }
  }
  return sure
}

const isWordChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36

/** Offsets of `word` in `text` not inside a longer identifier-like word. */
export const wordOffsets = (text: string, word: string): number[] => {
  const found: number[] = []
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length)) {
    if ((i === 0 || !isWordChar(text.charCodeAt(i - 1))) && !isWordChar(text.charCodeAt(i + word.length))) found.push(i)
  }
  return found
}

const containing = (spans: ReadonlyArray<Span>, offset: number): Span | undefined =>
  spans.find((s) => s.start <= offset && offset < s.end)

/** What the kept route cuts: the statements, and where the names the trusted imports bind as values are mentioned. */
export interface Kept {
  /** Imports from a trusted source and the export statements mentioning their locals, in file order. */
  readonly spans: ReadonlyArray<Span>
  /** Offsets of the mentions of value-bound locals outside those imports; each must be an Identifier of the cut nodes. */
  readonly mentions: ReadonlyArray<number>
}

/**
 * The statements to keep: every import from a trusted source, and every export statement that
 * mentions a name such an import binds. Null when some mention sits elsewhere (a non-exported
 * const, a misplaced call, a comment): only the whole AST can tell what it is. An identifier
 * written with a `\u` escape could name a builder without mentioning it, so such text gets null too.
 */
export const keptStatements = (text: string, module: EcmaScriptModule, file: string, selfHosting: boolean): Kept | null => {
  const imports = module.staticImports.filter((i) => isTrustedSource(file, i.moduleRequest.value, selfHosting))
  if (imports.length === 0) return { spans: [], mentions: [] }
  if (text.includes("\\u")) return null
  const exports: ReadonlyArray<Span> = module.staticExports
  const kept = new Set<Span>(imports)
  const mentions: number[] = []
  // Type-only names too: a superset of what collectBindings binds, so no mention goes unseen.
  const locals = new Map<string, boolean>()
  for (const i of imports) for (const e of i.entries) locals.set(e.localName.value, (locals.get(e.localName.value) ?? false) || !e.isType)
  for (const [local, value] of locals) {
    for (const offset of wordOffsets(text, local)) {
      if (containing(imports, offset) !== undefined) continue
      const statement = containing(exports, offset)
      if (statement === undefined || !text.startsWith("export", statement.start)) return null
      kept.add(statement)
      if (value) mentions.push(offset)
    }
  }
  const spans = [...kept].sort((a, b) => a.start - b.start)
  for (let i = 1; i < spans.length; i++) if (spans[i].start < spans[i - 1].end) return null
  return { spans, mentions }
}

/** The text with everything outside `spans` turned to spaces, newlines kept (offsets unchanged). */
export const blankOutside = (text: string, spans: ReadonlyArray<Span>): string => {
  // Built from repeated spaces between the newlines: a per-character replace cost more than the parse.
  const blank = (from: number, to: number): string => {
    let out = ""
    for (let nl = text.indexOf("\n", from); nl !== -1 && nl < to; nl = text.indexOf("\n", from)) {
      out += " ".repeat(nl - from) + "\n"
      from = nl + 1
    }
    return out + " ".repeat(to - from)
  }
  let out = ""
  let at = 0
  for (const s of spans) {
    out += blank(at, s.start) + text.slice(s.start, s.end)
    at = s.end
  }
  return out + blank(at, text.length)
}
