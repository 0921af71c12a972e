// The cheap route to a code file's anchors. Turning oxc's AST into JS objects costs about 18 bytes
// of JSON per byte of source, most of the reader's time on a large corpus, while the anchors live
// in a few top-level statements. So the whole file is parsed natively (its errors, comments and
// module records come back without the AST), and only the statements that can matter are parsed
// into objects: the imports from the protocol package and the export statements that mention one
// of their local names. Everything else is blanked to spaces (newlines kept), so every offset and
// line in the small AST is the file's own. The result must equal the whole-AST route's; whenever
// that is not certain, the caller takes the whole-AST route.
import type { Comment, EcmaScriptModule, OxcError } from "oxc-parser"
import { isTrustedSource } from "./anchors-constant.js"

/** What oxc's native parse gives without building the AST in JS. */
export interface NativeParse {
  readonly errors: ReadonlyArray<OxcError>
  readonly comments: ReadonlyArray<Comment>
  readonly module: EcmaScriptModule
  /** The AST as oxc's JSON text (`{"node":{"type":"Program",…},"fixes":[…]}`), searched, never parsed. */
  readonly programJson: string
}

/** oxc's native binding: every field a getter that hands over (and frees) its Rust-side value once. */
export type NativeParseSync = (
  file: string,
  text: string
) => { readonly errors: OxcError[]; readonly comments: Comment[]; readonly module: EcmaScriptModule; readonly program: string }

/**
 * Reads each field once. The program JSON is always taken: left unread, it stays in Rust memory
 * until a finalizer runs after some later GC (0.5 GB for 3,000 files, and slower parsing).
 */
export const nativeParse = (parseSync: NativeParseSync) => (file: string, text: string): NativeParse => {
  const result = parseSync(file, text)
  return { errors: result.errors, comments: result.comments, module: result.module, programJson: result.program }
}

const NODE_SPAN = /"start":(\d+),"end":(\d+)/g

/** The node type of a kept import or export statement, from its text (a comment after `export` falls to the check). */
const keptType = (text: string, start: number): string => {
  if (text.startsWith("import", start)) return "ImportDeclaration"
  const rest = text.slice(start + 6, start + 40).trimStart()
  return rest.startsWith("default") ? "ExportDefaultDeclaration" : rest.startsWith("*") ? "ExportAllDeclaration" : "ExportNamedDeclaration"
}

/**
 * The kept statements as AST objects, cut out of the native parse's JSON instead of parsing a
 * blanked copy again: each node's JSON ends with its own `"start":S,"end":E}` (children first) and
 * begins at the last opening of its type before that (imports and exports are top-level only, so
 * none nests in another). Both searches stay between the previous kept statement and this one.
 * null whenever anything is not as expected (a literal oxc must fix up after JSON.parse, a span
 * not found, another node read): the caller then parses the blanked text.
 */
export const keptNodesFromJson = (text: string, programJson: string, spans: ReadonlyArray<Span>): Array<Record<string, unknown>> | null => {
  if (!programJson.endsWith(',"fixes":[]}')) return null
  const nodes: Array<Record<string, unknown>> = []
  let from = 0
  for (const span of spans) {
    const marker = `"start":${span.start},"end":${span.end}}`
    const at = programJson.indexOf(marker, from)
    if (at < 0) return null
    const type = keptType(text, span.start)
    // A sliced string shares the JSON's characters: lastIndexOf then scans this window only.
    const open = programJson.slice(from, at).lastIndexOf(`{"type":"${type}"`)
    if (open < 0) return null
    const end = at + marker.length
    let node: Record<string, unknown>
    try {
      node = JSON.parse(programJson.slice(from + open, end)) as Record<string, unknown>
    } catch {
      return null
    }
    if (node.type !== type || node.start !== span.start || node.end !== span.end) return null
    nodes.push(node)
    from = end
  }
  return nodes
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

/**
 * The statements to keep: every import from a trusted source, and every export statement that
 * mentions a name such an import binds. Null when some mention sits elsewhere (a non-exported
 * const, a misplaced call, a comment): only the whole AST can tell what it is. An identifier
 * written with a `\u` escape could name a builder without mentioning it, so such text gets null too.
 */
export const keptStatements = (
  text: string,
  module: EcmaScriptModule,
  file: string,
  selfHosting: boolean
): ReadonlyArray<Span> | null => {
  const imports = module.staticImports.filter((i) => isTrustedSource(file, i.moduleRequest.value, selfHosting))
  if (imports.length === 0) return []
  if (text.includes("\\u")) return null
  const exports: ReadonlyArray<Span> = module.staticExports
  const kept = new Set<Span>(imports)
  // Type-only names too: a superset of what collectBindings binds, so no mention goes unseen.
  const locals = new Set(imports.flatMap((i) => i.entries.map((e) => e.localName.value)))
  for (const local of locals) {
    for (const offset of wordOffsets(text, local)) {
      if (containing(imports, offset) !== undefined) continue
      const statement = containing(exports, offset)
      if (statement === undefined || !text.startsWith("export", statement.start)) return null
      kept.add(statement)
    }
  }
  const spans = [...kept].sort((a, b) => a.start - b.start)
  for (let i = 1; i < spans.length; i++) if (spans[i].start < spans[i - 1].end) return null
  return spans
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
