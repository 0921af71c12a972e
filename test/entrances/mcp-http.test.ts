// `specbundle mcp --http PORT`: MCP's Streamable HTTP transport on 127.0.0.1, driven with a bounded
// number of requests (each one awaited; the server is started once and waited on by its stderr
// line, never by a clock). A 2026-07-28 request is answered with no handshake, with the bytes the
// stdio server writes for it; a foreign Host or Origin is refused.
import { type ChildProcess, spawn } from "node:child_process"
import * as http from "node:http"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CLI, cleanEnv } from "../support/hostile.js"
import { answerOf, rawMcp, request2026 } from "../support/mcp.js"

const EXAMPLE = path.resolve("examples/bike-dock")
const cwd = path.resolve(".")
let server: ChildProcess
let port = 0
let stderr = ""
let exited: Promise<number | null>

beforeAll(async () => {
  server = spawn(process.execPath, [CLI, "mcp", "--http", "0"], { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })
  exited = new Promise((resolve) => server.on("close", (code) => resolve(code)))
  // The line that names the address: the server listens once it is written.
  port = await new Promise<number>((resolve, reject) => {
    server.stderr!.on("data", (c: Buffer) => {
      stderr += c.toString("utf8")
      const found = /serving MCP over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)
      if (found) resolve(Number(found[1]))
    })
    server.on("close", (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)))
  })
}, 60_000)

afterAll(async () => {
  if (server.exitCode === null) server.kill("SIGTERM")
  await exited
})

/** One POST of a JSON-RPC message to /mcp with the headers a 2026-07-28 client sends; `headers` add or replace. */
const post = (message: { method: string; params?: Record<string, unknown> }, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const body = JSON.stringify(message)
    const name = message.params?.name
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": message.method,
          ...(typeof name === "string" ? { "Mcp-Name": name } : {}),
          "Content-Length": String(Buffer.byteLength(body)),
          ...headers
        }
      },
      (response) => {
        let text = ""
        response.on("data", (c: Buffer) => (text += c.toString("utf8")))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }))
      }
    )
    request.on("error", reject)
    request.end(body)
  })

describe("specbundle mcp --http", () => {
  it("answers 2026-07-28 requests with no handshake, the same bytes the stdio server writes", async () => {
    const requests = [
      request2026("d-1", "server/discover"),
      request2026("l-1", "tools/list"),
      request2026("c-1", "tools/call", { name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1" } }),
      request2026(4, "tools/call", { name: "list", arguments: { root: EXAMPLE, what: "packs" } })
    ]
    const stdio = rawMcp(requests, { cwd })
    expect(stdio.status).toBe(0)
    const lines = stdio.stdout.split("\n").filter((l) => l !== "")
    for (const request of requests) {
      const answer = await post(request)
      expect(answer.status, answer.body).toBe(200)
      const line = lines.find((l) => JSON.parse(l).id === request.id)
      expect(line).toBe(JSON.stringify(answerOf(stdio, request.id)))
      // The body is the stdio server's line, newline and all.
      expect(answer.body).toBe(`${line}\n`)
    }
  }, 60_000)

  it("refuses a request whose Host or Origin names another place; takes its own Origin", async () => {
    const list = request2026(5, "tools/list")
    const foreignHost = await post(list, { Host: "evil.example" })
    expect(foreignHost.status).toBe(403)
    const rebound = await post(list, { Host: `evil.example:${port}` })
    expect(rebound.status).toBe(403)
    const foreignOrigin = await post(list, { Origin: "http://evil.example" })
    expect(foreignOrigin.status).toBe(403)
    const ownOrigin = await post(list, { Origin: `http://127.0.0.1:${port}` })
    expect(ownOrigin.status).toBe(200)
    expect(JSON.parse(ownOrigin.body).result.tools).toHaveLength(5)
    const localhost = await post(list, { Host: `localhost:${port}` })
    expect(localhost.status).toBe(200)
  }, 60_000)

  it("a port that is not one is a diagnostic, exit 2", () => {
    const run = rawMcp([], { cwd, command: [process.execPath, CLI, "mcp", "--http", "80000"] })
    expect(run.status).toBe(2)
    expect(JSON.parse(run.stdout.trim())).toEqual({
      diagnostics: [{ scope: "http", problem: '--http takes a port, a whole number from 0 to 65535, got "80000".' }]
    })
  }, 60_000)
})
