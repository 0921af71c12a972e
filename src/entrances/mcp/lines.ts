// The server's stdin, screened line by line before effect's RPC protocol reads it. Its NDJSON
// decoder reports a line that is not JSON as a defect of its own (Effect 3's stopped the server);
// JSON-RPC 2.0 (section 5.1) answers a parse error (-32700), or an invalid request (-32600), and
// goes on serving: this module does that.
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const isId = (id: unknown): boolean => typeof id === "string" || typeof id === "number"

/** A JSON-RPC error answer: the line itself (with its newline) the server writes on stdout. */
const errorLine = (id: unknown, code: number, message: string, data?: string): string =>
  JSON.stringify({ jsonrpc: "2.0", id: isId(id) ? id : null, error: { code, message, ...(data === undefined ? {} : { data }) } }) + "\n"

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600

/**
 * Why the protocol cannot take `message`, or null when it can: a request or notification (a
 * string `method`, a string or number id or none), or a response (a string or number id and one of `result` or `error`; the
 * server sends no requests of its own, so the protocol passes over it, as JSON-RPC answers no
 * response). Anything else, `{"foo":1}` say, the decoder takes for a response to no request and
 * answered nothing more. A request's id is answered as sent, string or number (JSON-RPC 2.0
 * section 4, the MCP schema's RequestId).
 */
const problemOf = (message: unknown): { readonly data?: string } | null => {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return {}
  const m = message as Record<string, unknown>
  if (Object.hasOwn(m, "method")) return typeof m.method === "string" && (!Object.hasOwn(m, "id") || isId(m.id)) ? null : {}
  return isId(m.id) && Object.hasOwn(m, "result") !== Object.hasOwn(m, "error") ? null : {}
}

/** What to do with one line: null to pass it on (a blank one is dropped), else the answer to write. */
export const screenLine = (line: string): { readonly answer: string } | null => {
  if (line.trim() === "") return null
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return { answer: errorLine(null, PARSE_ERROR, "Parse error") }
  }
  if (Array.isArray(message))
    return message.length > 0 && message.every((m) => problemOf(m) === null) ? null : { answer: errorLine(null, INVALID_REQUEST, "Invalid Request") }
  const problem = problemOf(message)
  return problem === null ? null : { answer: errorLine((message as { id?: unknown } | null)?.id, INVALID_REQUEST, "Invalid Request", problem.data) }
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
