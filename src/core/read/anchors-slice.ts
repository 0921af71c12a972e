// The cheap route to a code file's anchors. Building the whole AST as JS objects is most of the
// reader's time on a large corpus, while the anchors live in a few top-level statements. So the
// parser first gives an outline of the file without the AST as objects (its errors, comments,
// module records and top-level statement spans; src/node/oxcRaw.ts), and only the statements
// that can matter become objects: the imports from the protocol package and the export statements
// that mention one of their local names, parsed again from a copy with everything else blanked to
// spaces (blankOutside), so every offset in the small AST is the file's own (lines come from
// those offsets in the original text). The result must equal the whole-AST route's; whenever
// that is not certain, the caller takes that route.
import type { Program } from "oxc-parser"
import { isTrustedSource } from "./anchors-constant.js"

export interface Span {
  readonly start: number
  readonly end: number
}

/** A comment as oxc gives it: `value` is the text between the delimiters. */
export interface OutlineComment extends Span {
  readonly type: "Line" | "Block"
  readonly value: string
}

export interface OutlineError {
  readonly severity: string
  readonly message: string
  readonly labels: ReadonlyArray<Span>
}

/** A static import: where it stands, what it imports from, the names it binds. */
export interface OutlineImport extends Span {
  readonly source: string
  readonly entries: ReadonlyArray<{ readonly local: string; readonly isType: boolean }>
}

/** What a parse gives without the AST as objects. Offsets are UTF-16, like JS strings. */
export interface Outline {
  readonly errors: ReadonlyArray<OutlineError>
  readonly comments: ReadonlyArray<OutlineComment>
  readonly imports: ReadonlyArray<OutlineImport>
  /** Every top-level export statement. */
  readonly exports: ReadonlyArray<Span>
  /** Every top-level statement, in file order. */
  readonly statements: ReadonlyArray<Span>
}

/** The parses of the cheap route (src/node/oxcRaw.ts). */
export interface OutlineParser {
  /** null when this text cannot take the route (too large for the parser's buffer). */
  readonly outline: (file: string, text: string) => Outline | null
  /** The AST of a text holding only the kept statements (the rest blanked), TypeScript-shaped. */
  readonly parseKept: (file: string, text: string) => { readonly errors: ReadonlyArray<unknown>; readonly program: Program }
}

/** The last of the sorted, disjoint `spans` that starts at or before `offset` (binary search). */
const lastStartingBy = <S extends Span>(spans: ReadonlyArray<S>, offset: number): S | undefined => {
  let lo = 0
  let hi = spans.length - 1
  let best: S | undefined
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (spans[mid].start <= offset) {
      best = spans[mid]
      lo = mid + 1
    } else hi = mid - 1
  }
  return best
}

/** Whether a span sits inside one of the sorted, disjoint `spans`. */
export const insideSpans = (spans: ReadonlyArray<Span>, span: Span): boolean => {
  const around = lastStartingBy(spans, span.start)
  return around !== undefined && span.end <= around.end
}

/** The one of the sorted, disjoint `spans` that holds `offset`. */
const containing = <S extends Span>(spans: ReadonlyArray<S>, offset: number): S | undefined => {
  const around = lastStartingBy(spans, offset)
  return around !== undefined && offset < around.end ? around : undefined
}

/** Whether `span` is exactly one of the sorted, disjoint `spans`. */
const isOneOf = (spans: ReadonlyArray<Span>, span: Span): boolean => {
  const same = lastStartingBy(spans, span.start)
  return same !== undefined && same.start === span.start && same.end === span.end
}

const isBlank = (text: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false
  }
  return true
}

/**
 * The comments that surely sit between top-level statements, found without the statements: those
 * with only blanks between them and the file start, the end of an import or export statement, or
 * such a comment. A statement holding one would have to start inside blanks or a comment. The
 * rest are looked up in the statement spans.
 */
export const surelyTopLevel = (text: string, outline: Outline): ReadonlySet<Span> => {
  const ends = [...outline.imports, ...outline.exports].map((s) => s.end).sort((a, b) => a - b)
  const sure = new Set<Span>()
  let boundary = 0
  let next = 0
  for (const comment of outline.comments) {
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
export const wordOffsets = (text: string, word: string): ReadonlyArray<number> => findWord(text, word)

/** A word's offsets in one text (as wordOffsets), each word found once. */
export type Words = (word: string) => ReadonlyArray<number>

/** The offsets of words in `text`, each remembered for this text's read: the kept-statement search and the misplaced-call check ask the same. */
export const wordIndex = (text: string): Words => {
  const offsets = new Map<string, ReadonlyArray<number>>()
  return (word) => {
    let found = offsets.get(word)
    if (found === undefined) offsets.set(word, (found = findWord(text, word)))
    return found
  }
}

const findWord = (text: string, word: string): number[] => {
  const found: number[] = []
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length)) {
    if ((i === 0 || !isWordChar(text.charCodeAt(i - 1))) && !isWordChar(text.charCodeAt(i + word.length))) found.push(i)
  }
  return found
}

/**
 * The statements to keep: every import from a trusted source, and every export statement that
 * mentions a name such an import binds. Null when some mention sits elsewhere (a non-exported
 * const, a misplaced call, a comment): only the whole AST can tell what it is. An identifier
 * written with a `\u` escape could name a builder without mentioning it, so such text gets null too.
 */
export const keptStatements = (
  text: string,
  outline: Outline,
  file: string,
  selfHosting: boolean,
  words: Words = wordIndex(text)
): ReadonlyArray<Span> | null => {
  const imports = outline.imports.filter((i) => isTrustedSource(file, i.source, selfHosting))
  if (imports.length === 0) return []
  if (text.includes("\\u")) return null
  const kept = new Set<Span>(imports)
  // Type-only names too: a superset of what collectBindings binds, so no mention goes unseen.
  const locals = new Set(imports.flatMap((i) => i.entries.map((e) => e.local)))
  for (const local of locals) {
    for (const offset of words(local)) {
      if (containing(imports, offset) !== undefined) continue
      const statement = containing(outline.exports, offset)
      if (statement === undefined || !text.startsWith("export", statement.start)) return null
      kept.add(statement)
    }
  }
  const spans = [...kept].sort((a, b) => a.start - b.start)
  for (let i = 1; i < spans.length; i++) if (spans[i].start < spans[i - 1].end) return null
  // Each must be a top-level statement itself: oxc 0.159 records `label: export const …` as an
  // export without an error, while the whole AST holds a labeled statement (found by fuzzing).
  for (const span of spans) if (!isOneOf(outline.statements, span)) return null
  return spans
}

/**
 * The text with everything outside `spans` turned to spaces, offsets unchanged. A gap that held a
 * line break ends in one, so the statements stay apart for automatic semicolon insertion; lines
 * are otherwise not kept (lines come from offsets in the original text).
 */
export const blankOutside = (text: string, spans: ReadonlyArray<Span>): string => {
  const gap = (from: number, to: number): string => {
    if (to <= from) return ""
    return text.lastIndexOf("\n", to - 1) >= from ? " ".repeat(to - from - 1) + "\n" : " ".repeat(to - from)
  }
  let out = ""
  let at = 0
  for (const s of spans) {
    out += gap(at, s.start) + text.slice(s.start, s.end)
    at = s.end
  }
  return out + gap(at, text.length)
}
