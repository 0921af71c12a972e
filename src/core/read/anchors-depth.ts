// Guards before oxc-parser (0.159), found by fuzzing; a text that trips one is not parsed:
// - its recursive descent has no depth limit: a deeply nested expression overflows the native
//   stack with a SIGSEGV no try/catch can stop (oxc issue 24375; measured: ~3,400 levels of `{a:`,
//   ~6,000 of `(`, ~6,700 of `a:` labels or `if(a)`, ~29,000 of `!` or `typeof`, and `@@@…`; and
//   `a<B,c<B,…`, where each `<` may open type arguments and the commas stay inside them: ~5,000
//   levels on the main thread, ~3,000 in a worker thread, whose stack is half as deep);
// - every error carries a code frame built in Rust, as long as the error's line: 100,000 stray `\`
//   escapes exhaust the heap (a fatal abort) or take minutes, and so does a 100,000-character line
//   of `,s,s,…` (50,000 parse errors, each framing the whole line: seed 1783931914).
// One pass, over-approximating: a false alarm costs one file's anchors with a finding, never the run.

/** Far below every measured crash depth and far above real code (max ~400 in node_modules). */
export const MAX_NESTING = 1000
/** `\` outside strings and comments is a lexer error (or a rare identifier escape); 1,000 cost < 0.1 s. */
export const MAX_STRAY_ESCAPES = 1000
/**
 * Code frames a file's parse errors may cost, at most (see worstFrameBytes): ~1 s on the JSON
 * route. Real code stays below it: in this repository's node_modules the largest is effect's
 * Effect.ts (935 KB: 4e7); only two embedded bundles, each one 3 MB line, pass it.
 */
export const MAX_FRAME_BYTES = 100_000_000
/** Keyword chains (`typeof typeof …`, `await await …`) need many more levels to crash. */
const WORDS_PER_NESTING = 10

// Character classes for the one-pass scan, by UTF-16 code unit (the scan runs over every
// candidate file, so it indexes a table instead of testing sets and regular expressions).
const OPEN = 1
const CLOSE = 2
/** Nests without brackets (labels, ternaries, arrows, assignments, unary operators, decorators, if (…)). */
const CHAIN = 4
/** Where a bracket-free chain surely ends. */
const BREAK = 8
const WORD_START = 16
const WORD = 32
/** Where a run of `<` that may open type arguments surely ends (a comma does not end one). */
const ANGLE_BREAK = 64
const LESS_THAN = 60
/** The characters of class CHAIN, one string each. */
const CHAIN_CHARACTERS = [..."([{:?=!~<-+@"]
const CLASS = new Uint8Array(128)
for (const c of "([{") CLASS[c.charCodeAt(0)] |= OPEN
for (const c of ")]}") CLASS[c.charCodeAt(0)] |= CLOSE
for (const c of CHAIN_CHARACTERS) CLASS[c.charCodeAt(0)] |= CHAIN
for (const c of ";,}") CLASS[c.charCodeAt(0)] |= BREAK
for (const c of ";})]>") CLASS[c.charCodeAt(0)] |= ANGLE_BREAK
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (/[A-Za-z_$]/.test(ch)) CLASS[c] |= WORD_START | WORD
  else if (/[0-9]/.test(ch)) CLASS[c] |= WORD
}
const classOf = (code: number): number => (code < 128 ? CLASS[code] : 0)
const NEWLINE = 10

/** A line that starts a declaration or a return: reserved words, so no bracket-free chain runs through them. */
const STATEMENT_START = /[ \t]*(?:export|import|const|let|var|function|class|interface|enum|return)\b/y

const startsStatement = (text: string, at: number): boolean => {
  STATEMENT_START.lastIndex = at
  return STATEMENT_START.test(text)
}

/**
 * The deepest nesting the text may ask of the parser, stopping early past `limit`: the bracket
 * depth, the longest run of nesting tokens with no `;`, `,`, `}` or declaration line between
 * them, the longest run of `<` with no `;`, `}`, `)`, `]`, `>` or declaration line between them,
 * or a tenth of the words in a run of nesting tokens.
 */
export const nestingDepth = (text: string, limit = MAX_NESTING): number => {
  let depth = 0
  let max = 0
  let chain = 0
  let angles = 0
  let words = 0
  let previous = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const cls = classOf(code)
    const statement = code === NEWLINE && startsStatement(text, i + 1)
    if (cls & OPEN) {
      if (++depth > max && (max = depth) > limit) return max
    } else if (cls & CLOSE && depth > 0) depth--
    if (code === LESS_THAN) {
      if (++angles > max && (max = angles) > limit) return max
    } else if (cls & ANGLE_BREAK || statement) angles = 0
    if (cls & CHAIN) {
      if (++chain > max && (max = chain) > limit) return max
    } else if (cls & BREAK || statement) {
      chain = 0
      words = 0
    } else if (cls & WORD_START && !(previous & WORD) && ++words > WORDS_PER_NESTING * limit) {
      return Math.ceil(words / WORDS_PER_NESTING)
    }
    previous = cls
  }
  return max
}

/**
 * Backslashes outside string literals, template text and comments (regular expressions count:
 * telling them from division needs a parser, and over-counting is the safe side).
 */
export const strayEscapes = (text: string, limit = MAX_STRAY_ESCAPES): number => {
  let count = 0
  // Template nesting: each entry counts the `{` open inside one `${ … }`.
  const templates: number[] = []
  let i = 0
  const n = text.length
  const skipQuoted = (quote: string) => {
    for (i++; i < n && text[i] !== quote && text[i] !== "\n"; i++) if (text[i] === "\\") i++
  }
  /** Template text from i (just past a backtick or `}`) to the closing backtick or the next `${`. */
  const skipTemplateText = () => {
    for (; i < n; i++) {
      if (text[i] === "\\") i++
      else if (text[i] === "`") return
      else if (text[i] === "$" && text[i + 1] === "{") {
        templates.push(0)
        i++
        return
      }
    }
  }
  for (; i < n && count <= limit; i++) {
    const c = text[i]
    if (c === "'" || c === '"') skipQuoted(c)
    else if (c === "`") {
      i++
      skipTemplateText()
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2)
      i = end < 0 ? n : end + 1
    } else if (c === "{" && templates.length > 0) templates[templates.length - 1]++
    else if (c === "}" && templates.length > 0) {
      if (templates[templates.length - 1]-- === 0) {
        templates.pop()
        i++
        skipTemplateText()
      }
    } else if (c === "\\") count++
  }
  return count
}

/**
 * The most code-frame bytes the file's parse errors could cost. A frame shows the error's line
 * with one line either side. Errors come from token boundaries, so a line holds at most one more
 * than its characters outside identifiers and numbers (measured: runs of `,s` or `\0` give one
 * error each; a long run of letters and digits, such as a base64 string, counts none).
 */
export const worstFrameBytes = (text: string): number => {
  let total = 0
  let previous = 0
  let current = -1
  let currentErrors = 0
  let errors = 1
  let lineStart = 0
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : NEWLINE
    if (code !== NEWLINE) {
      if (!(classOf(code) & WORD)) errors++
      continue
    }
    const next = i - lineStart
    if (current >= 0) total += currentErrors * (previous + current + next)
    previous = Math.max(current, 0)
    current = next
    currentErrors = errors
    errors = 1
    lineStart = i + 1
  }
  return total + currentErrors * (previous + current)
}

/**
 * How many characters may nest (CHAIN includes the brackets): nestingDepth never exceeds it. One
 * native scan a character (~230 hits in a 4 KB file) instead of a table lookup a code unit: ~2.3x
 * quicker over the bench corpus's 4,000 anchored files (16 M code units).
 */
const chainCharacters = (text: string): number => {
  let n = 0
  for (const c of CHAIN_CHARACTERS) for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) n++
  return n
}

const count = (text: string, char: string): number => {
  let n = 0
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++
  return n
}

/** Why the text must not reach the parser, or null when it may. */
export const parseHazard = (text: string): string | null => {
  // Cheap bounds first (the full scans cost more on every ordinary file): a word run needs a
  // non-word character between words, so it cannot pass its limit in a short text.
  const mayNestDeep = text.length > 2 * WORDS_PER_NESTING * MAX_NESTING || chainCharacters(text) > MAX_NESTING
  if (mayNestDeep) {
    const depth = nestingDepth(text)
    if (depth > MAX_NESTING) return `the file nests deeper than ${MAX_NESTING} levels`
  }
  // At most (n + 1) n for n characters (a frame's three lines are part of the text): a text
  // under 10,000 needs no count.
  if ((text.length + 1) * text.length > MAX_FRAME_BYTES) {
    const frames = worstFrameBytes(text)
    if (frames > MAX_FRAME_BYTES) {
      return `the file's lines are so long that its parse errors could take ${frames} bytes of code frames (the limit is ${MAX_FRAME_BYTES})`
    }
  }
  // Stray escapes are some of all backslashes. (Their code frames on a long line are bounded above.)
  if (count(text, "\\") <= MAX_STRAY_ESCAPES) return null
  if (strayEscapes(text) > MAX_STRAY_ESCAPES) return `the file holds more than ${MAX_STRAY_ESCAPES} backslashes outside strings and comments`
  return null
}
