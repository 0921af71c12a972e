// The server's stdin, screened line by line before effect's RPC protocol reads it. Its NDJSON
// decoder reports a line that is not JSON as a defect of its own (Effect 3's stopped the server);
// JSON-RPC 2.0 (section 5.1) answers a parse error (-32700), or an invalid request (-32600), and
// goes on serving: this module does that.
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/** A JSON-RPC error answer: the line itself (with its newline) the server writes on stdout. */
const errorLine = (id: unknown, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error: { code, message } }) + "\n"

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600

/** A message the protocol can take: an object whose `method`, when present, is a string. */
const acceptable = (message: unknown): boolean =>
  typeof message === "object" &&
  message !== null &&
  !Array.isArray(message) &&
  (!Object.hasOwn(message, "method") || typeof (message as { method?: unknown }).method === "string")

/** What to do with one line: null to pass it on (a blank one is dropped), else the answer to write. */
export const screenLine = (line: string): { readonly answer: string } | null => {
  if (line.trim() === "") return null
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return { answer: errorLine(null, PARSE_ERROR, "Parse error") }
  }
  if (Array.isArray(message)) return message.length > 0 && message.every(acceptable) ? null : { answer: errorLine(null, INVALID_REQUEST, "Invalid Request") }
  return acceptable(message) ? null : { answer: errorLine((message as { id?: unknown } | null)?.id, INVALID_REQUEST, "Invalid Request") }
}

const encoder = new TextEncoder()

/** Stdin as whole, acceptable lines; every other line answered through `reply` and left out. */
export const screened = <E, R>(stdin: Stream.Stream<Uint8Array, E, R>, reply: (answer: string) => Effect.Effect<void>) =>
  stdin.pipe(
    Stream.decodeText(),
    Stream.splitLines,
    // A line answered here goes on as a blank one, and blank lines are dropped.
    Stream.mapEffect((line) => {
      const screen = screenLine(line)
      return screen === null ? Effect.succeed(line) : Effect.as(reply(screen.answer), "")
    }),
    Stream.filter((line) => line.trim() !== ""),
    Stream.map((line) => encoder.encode(line + "\n"))
  )
