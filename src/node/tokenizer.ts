// Loads the counter for one encoding: gpt-tokenizer, built by scripts/build.mjs into a bundle of its
// own per encoding (bin/specbundle-tokens-<encoding>.cjs), which the CLI and the MCP server require
// from beside their own bundle only when a request names an encoding. Nothing else loads it, so a
// run without `--tokens` neither reads nor parses its 1-3 MB of ranks (docs/decisions.md).
import * as Data from "effect/Data"
import * as nodePath from "node:path"
import type { CountTokens, Encoding } from "../core/tokens.js"

export const tokenizerFile = (encoding: Encoding): string => `specbundle-tokens-${encoding}.cjs`

type Options = { readonly disallowedSpecial: ReadonlySet<string> }

/** What the bundle exports: gpt-tokenizer's countTokens and isWithinTokenLimit for its encoding. */
interface TokenizerBundle {
  readonly countTokens: (text: string, options: Options) => number
  /** The count, or false as soon as it passes the limit (the encoder stops there). */
  readonly isWithinTokenLimit: (text: string, limit: number, options: Options) => number | false
}

// A corpus's text is data: a special token's text (`<|endoftext|>`) counts as the plain text it
// is, where gpt-tokenizer's default would throw on it.
const ORDINARY = { disallowedSpecial: new Set<string>() }

/** The tokenizer bundle for `encoding` could not be loaded: its file, and `missing` or what loading it threw. */
export class TokenizerUnavailable extends Data.TaggedError("TokenizerUnavailable")<{
  readonly encoding: Encoding
  /** The request field that asked for it, as the entrance cites it (`--tokens` on the command line). */
  readonly cited: string
  readonly file: string
  readonly why: { readonly _tag: "Missing" } | { readonly _tag: "Failed"; readonly problem: string }
}> {
  override get message() {
    const why = this.why._tag === "Missing" ? "is missing (reinstall specbundle, or run npm run build in a clone)" : `did not load: ${this.why.problem}`
    return `${this.cited} ${this.encoding}: the tokenizer ${this.file} ${why}`
  }
}

/** The counter, or why it could not load (a build or install without the file). */
export const loadTokenizer = (encoding: Encoding, dir: string, cited: string): CountTokens | TokenizerUnavailable => {
  const file = nodePath.join(dir, tokenizerFile(encoding))
  try {
    const { countTokens, isWithinTokenLimit } = require(file) as TokenizerBundle
    return (text, limit) => {
      if (limit === undefined || !Number.isFinite(limit)) return countTokens(text, ORDINARY)
      const within = isWithinTokenLimit(text, limit, ORDINARY)
      return within === false ? limit + 1 : within
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code
    const why =
      code === "MODULE_NOT_FOUND" ? { _tag: "Missing" as const } : { _tag: "Failed" as const, problem: String((e as Error)?.message ?? e).split("\n")[0] ?? "" }
    return new TokenizerUnavailable({ encoding, cited, file, why })
  }
}
