// A guard before oxc-parser: its recursive descent has no depth limit, and a deeply nested
// expression overflows the native stack with a SIGSEGV that no try/catch can stop (oxc issue
// 24375; measured on 0.159: ~3,400 levels of `{a:`, ~6,000 of `(`, ~6,700 of `a:` labels or of
// `if(a)`). One pass over the text, over-approximating (strings and comments count too): a false
// alarm costs one file's anchors with a finding, never the whole run.

/** Far below every measured crash depth and far above real code. */
export const MAX_NESTING = 1000

const OPEN = new Set(["(", "[", "{"])
const CLOSE = new Set([")", "]", "}"])
/** Tokens that nest without brackets (labels, ternaries, arrows, assignments, unary operators, if (…)). */
const CHAIN = new Set(["(", "[", "{", ":", "?", "=", "!", "~", "<"])
/** Where a bracket-free chain surely ends. */
const BREAK = new Set([";", ",", "}"])

/**
 * The deepest nesting the text may ask of the parser, stopping early past `limit`: the bracket
 * depth, or the longest run of nesting tokens with no `;`, `,` or `}` between them.
 */
export const nestingDepth = (text: string, limit = MAX_NESTING): number => {
  let depth = 0
  let max = 0
  let chain = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (OPEN.has(c)) {
      if (++depth > max && (max = depth) > limit) return max
    } else if (CLOSE.has(c) && depth > 0) depth--
    if (CHAIN.has(c)) {
      if (++chain > max && (max = chain) > limit) return max
    } else if (BREAK.has(c)) chain = 0
  }
  return max
}
