// Reading the Markdown impact report back with a real parser (marked's lexer, GFM on): the tables'
// rows as plain cell text, and the inline token types each cell holds.
import { marked } from "marked"
import type { Token, Tokens } from "marked"

const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"' }

/** Decodes the entities the renderer writes (named and numeric). */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#\d+|[a-z]+);/g, (all, name: string) => (name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : (ENTITIES[name] ?? all)))

/** Every token, depth first (tables' cells and lists' items included). */
export const allTokens = (tokens: ReadonlyArray<Token>): Token[] => {
  const out: Token[] = []
  const walk = (ts: ReadonlyArray<Token>) => {
    for (const t of ts) {
      out.push(t)
      if (t.type === "table") {
        const table = t as Tokens.Table
        for (const cell of [...table.header, ...table.rows.flat()]) walk(cell.tokens)
      }
      if ("tokens" in t && Array.isArray(t.tokens)) walk(t.tokens)
      if ("items" in t && Array.isArray(t.items)) walk(t.items)
    }
  }
  walk(tokens)
  return out
}

export interface Cell {
  /** The cell as a reader sees it: escapes resolved, entities decoded. */
  readonly text: string
  readonly types: ReadonlyArray<string>
  readonly tokens: ReadonlyArray<Token>
}

const plain = (tokens: ReadonlyArray<Token>): string =>
  tokens
    .map((t) => {
      if (t.type === "html") return (t as Tokens.HTML).text === "<br>" ? "\n" : (t as Tokens.HTML).text
      if ("tokens" in t && Array.isArray(t.tokens) && t.type !== "text") return plain(t.tokens)
      return decodeEntities((t as Tokens.Text).text)
    })
    .join("")

/** The rows of every table in the text, in order, each cell read back. */
export const tableRows = (markdown: string): Cell[][] =>
  marked
    .lexer(markdown, { gfm: true })
    .filter((t): t is Tokens.Table => t.type === "table")
    .flatMap((t) => t.rows.map((row) => row.map((c) => ({ text: plain(c.tokens), types: c.tokens.map((k) => k.type), tokens: c.tokens }))))

export const tables = (markdown: string): Tokens.Table[] => marked.lexer(markdown, { gfm: true }).filter((t): t is Tokens.Table => t.type === "table")

export const lex = (markdown: string): Token[] => marked.lexer(markdown, { gfm: true })
