// Text that goes into GitHub-flavoured Markdown from the corpus (titles, paths, ids): made inert so
// it cannot open HTML, a code span, a link, emphasis, a mention or a new table cell. Pure.
import { isId } from "../ids.js"

/** Longest piece of corpus text shown in one place; the rest is cut with an ellipsis. */
export const MAX_TEXT = 200

// Backslash escapes for the inline punctuation Markdown acts on; `|` splits a table cell even
// inside a code span, so it is escaped too. Block markers (#, -, +, >) only act at a line start,
// which inline text never is here.
const BACKSLASHED = /[\\`*_[\]|~]/g
// Entities where a backslash is not enough: raw HTML, entity references, @mentions (which would
// notify people from a bot comment), #references, and the `://` and `www.` that GFM autolinks.
const ENTITIES: Readonly<Record<string, string>> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "@": "&#64;", "#": "&#35;" }

/** One line, no control characters (a newline would end the table row). */
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim()

/** Cuts at `max` code units without splitting a surrogate pair. */
const cut = (text: string, max: number): string => {
  if (text.length <= max) return text
  let end = max - 1
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end)}…`
}

/** Corpus text as inert inline Markdown on one line, at most `max` characters of source text. */
export const mdText = (text: string, max = MAX_TEXT): string =>
  cut(oneLine(text), max)
    .replace(BACKSLASHED, (c) => `\\${c}`)
    .replace(/[<>&"@#]/g, (c) => ENTITIES[c])
    .replace(/:\/\//g, "&#58;//")
    .replace(/(^|[^A-Za-z0-9])(www)\./gi, "$1$2&#46;")

/** A code span for short plain text (a changeset label), else the text escaped. */
export const mdCode = (text: string): string => (/^[^`|\u0000-\u001f\u007f]{1,200}$/.test(text) ? `\`${text}\`` : mdText(text))

/** An id in a code span when it has the id grammar (no backtick or pipe can occur), else as text. */
export const mdId = (id: string): string => (isId(id) ? `\`${id}\`` : mdText(id))

/** A link destination: every byte outside a safe set percent-encoded (spaces, parentheses, <>). */
export const urlPath = (path: string): string =>
  /^[A-Za-z0-9._~/-]*$/.test(path)
    ? path
    : [...new TextEncoder().encode(path)]
        .map((b) => {
          const c = String.fromCharCode(b)
          return /[A-Za-z0-9._~/-]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`
        })
        .join("")
