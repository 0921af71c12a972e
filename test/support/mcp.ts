// Raw JSON-RPC with the built `specbundle mcp`: lines written to its stdin, stdin closed, every
// line it wrote parsed. The server answers what it was sent before it ends (exit 0), so a test
// bounds the work by the lines it writes, never by a clock.
import { spawnSync } from "node:child_process"
import { CLI, cleanEnv } from "./hostile.js"

export interface RawRun {
  readonly status: number | null
  /** stdout as written: one JSON-RPC message a line. */
  readonly stdout: string
  readonly stderr: string
  /** Each stdout line parsed. */
  readonly answers: ReadonlyArray<Record<string, any>>
}

/** Runs `specbundle mcp` (or `command` instead) with these messages on stdin, one a line. */
export const rawMcp = (
  messages: ReadonlyArray<unknown>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly command?: readonly [string, ...string[]] }
): RawRun => {
  const [file, ...args] = options.command ?? [process.execPath, CLI, "mcp"]
  const run = spawnSync(file, args, {
    cwd: options.cwd,
    // A key given as undefined is left out of the server's environment.
    env: Object.fromEntries(Object.entries({ ...cleanEnv(), ...options.env }).filter(([, v]) => v !== undefined)),
    input: messages.map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join("\n") + "\n",
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024
  })
  const stdout = run.stdout ?? ""
  const answers = stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, any>)
  return { status: run.status, stdout, stderr: run.stderr ?? "", answers }
}

/** The `_meta` a 2026-07-28 client puts in each request: the revision, its capabilities and itself. */
export const meta2026 = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1.0.0" }
}

/** A 2026-07-28 request: no handshake before it, everything it needs in its own `_meta`. */
export const request2026 = (id: string | number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: meta2026 }
})

/** The handshake of a stateful revision (2025-06-18 and earlier, 2025-11-25): initialize, then initialized. */
export const handshake = (version: string, id: string | number = 0) => [
  {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: `raw-${version}`, version: "1.0.0" } }
  },
  { jsonrpc: "2.0", method: "notifications/initialized" }
]

/** The answer with this id (fails the test when there is none). */
export const answerOf = (run: RawRun, id: string | number): Record<string, any> => {
  const found = run.answers.find((a) => a.id === id)
  if (found === undefined) throw new Error(`no answer with id ${JSON.stringify(id)} in:\n${run.stdout}\nstderr:\n${run.stderr}`)
  return found
}

/** A tool result as a client receives it: text items, maybe structuredContent, maybe isError. */
export interface ToolResult {
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }> | unknown
  readonly structuredContent?: unknown
  readonly isError?: boolean | unknown
}

/**
 * What Claude Code forwards to the model from a tool result: the structured content when a
 * success result has it, else the text items joined (an error's text, or a text-only result).
 */
export const forwarded = (result: ToolResult | Record<string, unknown>): string => {
  if (result.isError !== true && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent)
  return ((result.content ?? []) as ReadonlyArray<{ type: string; text?: string }>)
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n")
}
