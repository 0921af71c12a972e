// The comment form of an anchor (sdp-format.md section 7.2): a top-level `/** … */` block with
// reserved `@sdp…` tags. camelCase (`@sdpAnchor`) is current; kebab (`@sdp-anchor`) is accepted too.
import type { AnchorField, Problem, RawAnchor } from "./anchors-fields.js"

const INVALID = "extract/invalid-anchor-comment"
type Tag = "anchor" | AnchorField
const TAGS = new Set<string>(["anchor", "label", "satisfies", "verifies", "models", "component", "uses", "references", "role", "layer", "context"])
const LIST_TAGS = new Set(["satisfies", "verifies", "models", "references", "uses"])
const SCALAR_TAGS = new Set(["component", "role", "layer", "context"])

/** `@sdpFoo` / `@sdp-foo` -> "foo"; null when the tag is not in the reserved family at all. */
const reservedName = (tag: string): string | null => {
  if (tag.startsWith("sdp-")) return tag.slice(4)
  if (/^sdp[A-Z]/.test(tag)) return tag[3].toLowerCase() + tag.slice(4)
  if (tag === "sdp") return ""
  return null
}

/** The text of each line of a block comment value, without the leading `*` decoration. */
const blockLines = (value: string): ReadonlyArray<string> => value.split("\n").map((l) => l.replace(/^\s*\*?/, "").trim())

/** Whether a block comment value carries any reserved tag (a candidate anchor). */
export const hasReservedTag = (value: string): boolean =>
  // Every reserved tag starts "@sdp": most blocks (ordinary JSDoc) end at this check.
  value.includes("@sdp") &&
  blockLines(value).some((l) => {
    const m = /^@([A-Za-z][\w-]*)/.exec(l)
    return m !== null && reservedName(m[1]) !== null
  })

/**
 * Read one top-level JSDoc block that carries reserved tags. `value` is the comment text between
 * `/*` and `*\/` (so it starts with the JSDoc's second `*`), `line` the block's first line.
 */
export const readCommentBlock = (value: string, line: number): { raw: RawAnchor | null; problems: Problem[] } => {
  const problems: Problem[] = []
  const fail = (at: number, message: string) => problems.push({ line: at, code: INVALID, message })
  const values = new Map<Tag, string>()
  let anchors = 0
  let inTags = false
  blockLines(value).forEach((text, i) => {
    const at = line + i
    const m = /^@([A-Za-z][\w-]*)(?:\s+(.*))?$/.exec(text)
    if (m === null) {
      if (inTags && text !== "") fail(at, `"${text}" continues after the reserved tags; prose must precede them`)
      return
    }
    const name = reservedName(m[1])
    if (name === null) return // an ordinary TSDoc tag: ignored
    inTags = true
    if (!TAGS.has(name)) {
      fail(at, `"@${m[1]}" is not a reserved anchor tag`)
      return
    }
    const tag = name as Tag
    const tagValue = (m[2] ?? "").trim()
    if (tag === "anchor") anchors++
    if (values.has(tag)) {
      fail(at, tag === "anchor" ? "a block holds exactly one @sdpAnchor; this is a second one" : `"@${m[1]}" is written twice in one block`)
    } else if (tagValue === "") fail(at, `"@${m[1]}" has no value`)
    else values.set(tag, tagValue)
  })
  if (anchors === 0) fail(line, "a block with reserved @sdp… tags needs one @sdpAnchor <id>")
  const id = values.get("anchor")
  if (problems.length > 0 || id === undefined) return { raw: null, problems }

  const lists: Record<string, ReadonlyArray<string>> = {}
  const scalars: Record<string, string> = {}
  for (const [tag, tagValue] of values) {
    if (LIST_TAGS.has(tag)) {
      const items = tagValue.split(",").map((s) => s.trim())
      if (items.some((s) => s === "")) fail(line, `the ${tag} tag has an empty list item`)
      lists[tag] = items
    } else if (SCALAR_TAGS.has(tag)) {
      if (/\s/.test(tagValue)) fail(line, `the ${tag} tag takes one value, got "${tagValue}"`)
      scalars[tag] = tagValue
    }
  }
  if (problems.length > 0) return { raw: null, problems }
  if (/\s/.test(id)) return { raw: null, problems: [{ line, code: INVALID, message: `@sdpAnchor takes one id, got "${id}"` }] }
  return { raw: { id, form: "comment", line, label: values.get("label") ?? null, lists, scalars }, problems }
}
