// The protocol as clients speak it, over stdio with raw JSON-RPC lines: string request ids, the
// current revisions (2026-07-28 without a handshake, 2025-11-25 through the official SDK client)
// beside the older ones, and a tool list that is the same bytes on every start.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as path from "node:path"
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base"
import { describe, expect, it } from "vitest"
import { CLI, cleanEnv, runCli } from "../support/hostile.js"
import { answerOf, handshake, rawMcp, request2026 } from "../support/mcp.js"

const EXAMPLE = path.resolve("examples/bike-dock")
const cwd = path.resolve(".")

describe("specbundle mcp: request ids", () => {
  it("answers string ids with the same id, in a 2025-06-18 session and in 2026-07-28 requests", () => {
    const listArgs = { root: EXAMPLE, what: "packs" }
    const run = rawMcp(
      [
        ...handshake("2025-06-18", "init-1"),
        { jsonrpc: "2.0", id: "s-1", method: "tools/call", params: { name: "list", arguments: listArgs } },
        { jsonrpc: "2.0", id: "12", method: "tools/list" },
        request2026("s-2", "tools/call", { name: "list", arguments: listArgs })
      ],
      { cwd }
    )
    expect(run.status).toBe(0)
    const cli = runCli(["list", "packs", "--root", EXAMPLE], cwd).stdout
    expect(answerOf(run, "init-1").result.protocolVersion).toBe("2025-06-18")
    expect(answerOf(run, "s-1").result.content[0].text).toBe(cli)
    // "12" stays a string: the id is answered as sent.
    expect(answerOf(run, "12").result.tools.length).toBe(5)
    expect(answerOf(run, "s-2").result.content[0].text).toBe(cli)
    expect(run.answers.filter((a) => a.error !== undefined)).toEqual([])
    expect(run.answers.map((a) => a.id)).toEqual(expect.arrayContaining(["init-1", "s-1", "12", "s-2"]))
    expect(run.answers).toHaveLength(4)
  }, 60_000)
})

describe("specbundle mcp: the revisions", () => {
  const bundleArgs = { root: EXAMPLE, pack: "pack:rides-v1" }
  const cliBundle = () => runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], cwd).stdout

  it("a 2026-07-28 client: server/discover and a tools/call answered with no handshake, each request carrying its version in _meta", () => {
    const run = rawMcp([request2026(1, "server/discover"), request2026(2, "tools/call", { name: "bundle", arguments: bundleArgs })], { cwd })
    expect(run.status).toBe(0)
    const discover = answerOf(run, 1).result
    expect(discover.supportedVersions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    expect(discover.capabilities.tools).toBeDefined()
    expect(discover._meta["io.modelcontextprotocol/serverInfo"].name).toBe("specbundle")
    const called = answerOf(run, 2).result
    expect(called.resultType).toBe("complete")
    expect(called.isError).toBe(false)
    expect(called.content[0].text).toBe(cliBundle())
    expect(run.answers).toHaveLength(2)
  }, 60_000)

  it("the official SDK client negotiates 2025-11-25 and calls a tool", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], cwd, env: cleanEnv() as Record<string, string> })
    let negotiated: string | undefined
    // The client tells its transport the revision the server answered (initialize's protocolVersion).
    ;(transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion = (v) => (negotiated = v)
    const client = new Client({ name: "sdk-2025-11-25", version: "1.0.0" })
    try {
      await client.connect(transport)
      expect(negotiated).toBe("2025-11-25")
      const result = await client.callTool({ name: "bundle", arguments: bundleArgs })
      expect((result.content as Array<{ text: string }>)[0]!.text).toBe(cliBundle())
    } finally {
      await client.close()
    }
  }, 60_000)

  it("a 2025-06-18 client works unchanged: initialize answers its revision, then tools/list and tools/call", () => {
    const run = rawMcp(
      [
        ...handshake("2025-06-18"),
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "bundle", arguments: bundleArgs } }
      ],
      { cwd }
    )
    expect(run.status).toBe(0)
    expect(answerOf(run, 0).result.protocolVersion).toBe("2025-06-18")
    expect(answerOf(run, 1).result.tools.map((t: { name: string }) => t.name)).toEqual(["bundle", "impact", "check", "list", "drift"])
    expect(answerOf(run, 2).result.content[0].text).toBe(cliBundle())
    // The older revisions' results carry none of 2026-07-28's fields.
    expect(answerOf(run, 2).result.resultType).toBeUndefined()
  }, 60_000)

  it("tools/list: the same bytes on two starts, every tool readOnlyHint, the list under 1,500 o200k tokens", () => {
    const lines = [request2026(1, "tools/list"), ...handshake("2025-11-25", 2), { jsonrpc: "2.0", id: 3, method: "tools/list" }]
    const first = rawMcp(lines, { cwd })
    const second = rawMcp(lines, { cwd })
    expect(first.status).toBe(0)
    const listOf = (run: typeof first, id: number) => run.stdout.split("\n").find((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},`))
    for (const id of [1, 3]) {
      expect(listOf(first, id)).toBeDefined()
      expect(listOf(second, id)).toBe(listOf(first, id))
    }
    const tools = answerOf(first, 1).result.tools as Array<{ name: string; annotations: Record<string, unknown> }>
    expect(tools.map((t) => t.name)).toEqual(["bundle", "impact", "check", "list", "drift"])
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })
    // What every agent session pays: the tools as the client receives them.
    const tokens = o200k(JSON.stringify(tools))
    console.log(`tools/list: ${tokens} o200k tokens (${JSON.stringify(tools).length} characters)`)
    expect(tokens).toBeLessThan(1500)
    expect(answerOf(first, 3).result.tools).toEqual(tools)
  }, 60_000)
})
