// Body lines to blocks (sdp-format.md sections 2, 4.1, 4.2, 4.4): headings, one-line list entries,
// fences, prose, blanks. Lines no section may hold are refused here, once, whatever the context.
import { CODES, type Sink } from "./markdown-findings.js"

export interface Located {
  readonly text: string
  readonly line: number
}

export type Block =
  | { readonly t: "blank"; readonly line: number }
  | { readonly t: "h2"; readonly text: string; readonly line: number }
  | { readonly t: "h3"; readonly text: string; readonly line: number }
  | { readonly t: "entry"; readonly text: string; readonly line: number }
  | { readonly t: "fence"; readonly info: string; readonly steps: ReadonlyArray<Located>; readonly line: number }
  | { readonly t: "prose"; readonly text: string; readonly line: number }
  /** A line already refused; kept so later stages know something stood there. */
  | { readonly t: "bad"; readonly line: number }

export interface Body {
  readonly title: string | null
  readonly titleLine: number
  readonly blocks: ReadonlyArray<Block>
}

const H1 = /^# [^ \t]/
const H2 = /^## [^ \t]/
const H3 = /^### [^ \t]/
const THEMATIC = /^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/
const SETEXT = /^=+[ \t]*$/
const ORDERED = /^[0-9]{1,9}[.)](?:[ \t]|$)/
const RAW_HTML = /<\/?[A-Za-z][^<>]*>|<!--|-->|<![A-Za-z[]|<\?/

/** Blanks out the content of matched backtick code spans ([L]: code spans are exempt from the HTML check). */
export const withoutCodeSpans = (s: string): string => {
  if (!s.includes("`")) return s
  let out = ""
  let i = 0
  while (i < s.length) {
    if (s[i] !== "`") {
      out += s[i++]
      continue
    }
    let n = 0
    while (s[i + n] === "`") n++
    // Find the next run of exactly n backticks.
    let j = i + n
    let close = -1
    while (j < s.length) {
      if (s[j] !== "`") {
        j++
        continue
      }
      let m = 0
      while (s[j + m] === "`") m++
      if (m === n) {
        close = j
        break
      }
      j += m
    }
    if (close === -1) {
      out += s.slice(i, i + n)
      i += n
    } else {
      out += " ".repeat(close + n - i)
      i = close + n
    }
  }
  return out
}

// Every alternative of RAW_HTML holds a `<` or is `-->`: most lines hold neither, and two native
// scans cost less than the expression tried at each of their positions.
export const hasRawHtml = (text: string): boolean =>
  (text.includes("<") || text.includes("-->")) && RAW_HTML.test(text) && RAW_HTML.test(withoutCodeSpans(text))

const HTML_MESSAGE = "raw HTML is unsupported (a tag, comment or <autolink>); use [text](url) or a bare URL, or put code in backticks"

/** Refusal message for a line that no part of a carrier body may hold, or null when it may stand. */
const refusedLine = (line: string): string | null => {
  if (line === "---") return "a --- line in the body is refused (thematic break or setext underline); remove it"
  if (THEMATIC.test(line)) return "a thematic break line is refused; remove it"
  if (SETEXT.test(line)) return "a setext underline (===) is refused; write headings with ## or ###"
  const c = line[0]
  if (c === " " || c === "\t") return "indented or continuation lines are refused; keep each entry and paragraph line at column one"
  if (c === "-") return 'a list entry is "- " followed by text on one line; nested, wrapped or "-<tab>" entries are refused'
  if ((c === "*" || c === "+") && (line.length === 1 || line[1] === " " || line[1] === "\t")) {
    return `"${c}" bullets are refused; write list entries as "- text"`
  }
  if (ORDERED.test(line)) return 'ordered lists are refused; write list entries as "- text"'
  if (c === "|") return "tables are refused; write keyed entries instead"
  if (c === ">") return "block quotes are refused; write plain paragraphs"
  if (c === "<") return HTML_MESSAGE
  if (line.startsWith("~~~")) return "fences are written with ``` and only as gwt or gwt-vocabulary"
  return null
}

const isBlank = (code: number): boolean => code === 32 || code === 9

/** The line without trailing spaces and tabs (a loop: the regular expression tried every position). */
const trimEndBlank = (line: string): string => {
  let end = line.length
  while (end > 0 && isBlank(line.charCodeAt(end - 1))) end--
  return end === line.length ? line : line.slice(0, end)
}

/** The line without its leading and trailing spaces and tabs (what `/^[ \t]+|[ \t]+$/g` removes). */
const trimBlank = (line: string): string => {
  let start = 0
  while (start < line.length && isBlank(line.charCodeAt(start))) start++
  const trimmed = trimEndBlank(line)
  return start === 0 ? trimmed : trimmed.slice(start)
}

/** Tokenizes body lines; `bodyLines[i]` is file line `firstFileLine + i`. The H1 must be the first line. */
export const tokenizeBody = (bodyLines: ReadonlyArray<string>, firstFileLine: number, sink: Sink): Body => {
  const blocks: Block[] = []
  let title: string | null = null
  let start = 0
  if (bodyLines.length > 0 && H1.test(bodyLines[0])) {
    title = trimEndBlank(bodyLines[0].slice(2))
    start = 1
  } else {
    sink.error(firstFileLine, CODES.structure, "the first body line must be an H1 title (# Title) right after the closing ---")
  }
  for (let i = start; i < bodyLines.length; i++) {
    const line = bodyLines[i]
    const fileLine = firstFileLine + i
    if (line.trim() === "") {
      blocks.push({ t: "blank", line: fileLine })
      continue
    }
    if (line[0] === "#") {
      if (H2.test(line)) blocks.push({ t: "h2", text: trimEndBlank(line.slice(3)), line: fileLine })
      else if (H3.test(line)) blocks.push({ t: "h3", text: trimEndBlank(line.slice(4)), line: fileLine })
      else {
        sink.error(
          fileLine,
          CODES.structure,
          H1.test(line)
            ? "only the first body line may be an H1; use ## for a section"
            : 'a heading is "# ", "## " or "### " at column one followed by text; other #-led lines are refused'
        )
        blocks.push({ t: "bad", line: fileLine })
      }
      continue
    }
    if (line.startsWith("```")) {
      const steps: Located[] = []
      let j = i + 1
      while (j < bodyLines.length && bodyLines[j] !== "```") {
        if (bodyLines[j] === "---") sink.error(firstFileLine + j, CODES.structure, "a --- line in the body is refused; remove it")
        steps.push({ text: bodyLines[j], line: firstFileLine + j })
        j++
      }
      if (j >= bodyLines.length) {
        sink.error(fileLine, CODES.structure, "this fence is never closed; end it with a ``` line")
        blocks.push({ t: "bad", line: fileLine })
        break
      }
      blocks.push({ t: "fence", info: line.slice(3), steps, line: fileLine })
      i = j
      continue
    }
    const refusal = refusedLine(line)
    const isEntry = refusal !== null && line[0] === "-" && line[1] === " " && line[2] !== " " && line[2] !== "\t" && line.length > 2 && !THEMATIC.test(line)
    if (refusal !== null && !isEntry) {
      sink.error(fileLine, CODES.structure, refusal)
      blocks.push({ t: "bad", line: fileLine })
      continue
    }
    const text = isEntry ? trimEndBlank(line.slice(2)) : trimEndBlank(line)
    if (hasRawHtml(text)) {
      sink.error(fileLine, CODES.structure, HTML_MESSAGE)
      blocks.push({ t: "bad", line: fileLine })
      continue
    }
    blocks.push(isEntry ? { t: "entry", text, line: fileLine } : { t: "prose", text, line: fileLine })
  }
  return { title, titleLine: firstFileLine, blocks }
}

/** Prose normalization (format 4.2): lines trimmed and joined by a space, paragraphs by a blank line. */
export const normalizeProse = (blocks: ReadonlyArray<Block>): string => {
  const paragraphs: string[] = []
  let current: string[] = []
  for (const b of blocks) {
    if (b.t === "prose") current.push(trimBlank(b.text))
    else if (current.length > 0) {
      paragraphs.push(current.join(" "))
      current = []
    }
  }
  if (current.length > 0) paragraphs.push(current.join(" "))
  return paragraphs.join("\n\n")
}
