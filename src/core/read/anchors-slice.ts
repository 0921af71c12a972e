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
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, " ")
  let out = ""
  let at = 0
  for (const s of spans) {
    out += blank(at, s.start) + text.slice(s.start, s.end)
    at = s.end
  }
  return out + blank(at, text.length)
}
