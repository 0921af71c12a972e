// A fast path for frontmatter YAML. yaml's parseDocument costs ~80 us a frontmatter, a fifth of a
// large `bundle` run, and nearly every frontmatter is a small block mapping of plain words. This
// reads that strict subset by hand and returns the very tree readFrontmatterYaml builds (same nodes,
// `plain` flags and lines). Anything outside the subset, and anything the policy would report
// (non-text plain values, empty values, duplicate keys, limits), gives undefined: the full path is
// the fallback and owns every error message, so nothing here reports.
//
// The subset, one construct a line, in printable ASCII (a tab or any other character falls back):
//   key: value     key: {}     key:  (then a deeper map, a deeper `- ` list, or a `- ` list at the
//   key's own indent)     - value     blank lines and whole-line # comments.
// A key is a plain word; a value is a plain scalar that reads as itself on one line.
import type { YEntry, YMap, YNode, YSeq, YStr } from "./markdown-yaml-tree.js"
import { CORE_NON_STRING, MAX_DEPTH, MAX_NODES, MAX_SCALAR_BYTES } from "./markdown-yaml-tree.js"

interface Tok {
  readonly indent: number
  readonly line: number
  /** null for a `- value` line. */
  readonly key: string | null
  /** The text after `key: ` or `- `; undefined for a bare `key:`. */
  readonly rest: string | undefined
}

const KEY_LINE = /^( *)([A-Za-z_][A-Za-z0-9_.-]{0,255}):(?: (.*))?$/
const ITEM_LINE = /^( *)- (.*)$/
const SKIP_LINE = /^(?: *#.*)?$/
/** No tab, no control character, nothing non-ASCII: those fall back whole. */
const PRINTABLE_ASCII = /^[\n -~]*$/
/** No leading indicator or space, not ending in space or `:` (the text is already printable ASCII). */
const SAFE_PLAIN = /^[^-?:,[\]{}#&*!|>'"%@` ](?:.*[^ :])?$/

const isSafeValue = (v: string): boolean =>
  v.length <= MAX_SCALAR_BYTES && SAFE_PLAIN.test(v) && !v.includes(": ") && !v.includes(" #") && !CORE_NON_STRING.test(v)

/** The root of `text` (first line = file line `firstFileLine`), null when empty, undefined to fall back. */
export const readSimpleFrontmatter = (text: string, firstFileLine: number): YNode | null | undefined => {
  if (!PRINTABLE_ASCII.test(text)) return undefined
  const toks: Tok[] = []
  const lines = text.split("\n")
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]
    if (SKIP_LINE.test(raw)) continue
    const line = n + firstFileLine
    const k = KEY_LINE.exec(raw)
    if (k !== null) toks.push({ indent: k[1].length, line, key: k[2], rest: k[3] })
    else {
      const it = ITEM_LINE.exec(raw)
      if (it === null) return undefined
      toks.push({ indent: it[1].length, line, key: null, rest: it[2] })
    }
  }
  if (toks.length === 0) return null

  let i = 0
  let nodes = 0
  const scalar = (v: string, line: number): YStr | undefined => {
    nodes++
    return isSafeValue(v) ? { t: "str", value: v, plain: true, line } : undefined
  }
  // `relations: {}`, the one flow collection written in practice (a Spec with no relations).
  const emptyMap = (line: number, depth: number): YMap | undefined => (++nodes > MAX_NODES || depth > MAX_DEPTH ? undefined : { t: "map", entries: [], line })
  // The block under a bare `key:` at `indent`: a deeper map or list, or a list at the same indent.
  const nested = (indent: number, depth: number): YNode | undefined => {
    const t = toks[i]
    if (t === undefined || t.indent < indent || (t.indent === indent && t.key !== null)) return undefined
    return t.key === null ? seq(t.indent, depth) : map(t.indent, depth)
  }
  const seq = (indent: number, depth: number): YSeq | undefined => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return undefined
    const items: YNode[] = []
    const line = toks[i].line
    for (let t = toks[i]; t !== undefined && t.indent === indent && t.key === null; t = toks[++i]) {
      const item = scalar(t.rest ?? "", t.line)
      if (item === undefined) return undefined
      items.push(item)
    }
    return { t: "seq", items, line }
  }
  const map = (indent: number, depth: number): YMap | undefined => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return undefined
    const entries: YEntry[] = []
    const seen = new Set<string>()
    const line = toks[i].line
    for (let t = toks[i]; t !== undefined && t.indent === indent && t.key !== null; t = toks[i]) {
      i++
      nodes++
      if (seen.has(t.key)) return undefined
      seen.add(t.key)
      const value = t.rest === undefined ? nested(indent, depth + 1) : t.rest === "{}" ? emptyMap(t.line, depth + 1) : scalar(t.rest, t.line)
      if (value === undefined) return undefined
      entries.push({ key: t.key, keyLine: t.line, value })
    }
    // What stops a block must close it: a shallower line, never a deeper one or a `- ` item here.
    return i < toks.length && toks[i].indent >= indent ? undefined : { t: "map", entries, line }
  }

  if (toks[0].indent !== 0 || toks[0].key === null) return undefined
  const root = map(0, 1)
  return root === undefined || i < toks.length || nodes > MAX_NODES ? undefined : root
}
