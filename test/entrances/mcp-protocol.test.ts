// The protocol as clients speak it, over stdio with raw JSON-RPC lines: string request ids, the
// current revisions (2026-07-28 without a handshake, 2025-11-25 through the official SDK client)
// beside the older ones, and a tool list that is the same bytes on every start.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { runCli } from "../support/hostile.js"
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
    expect(answerOf(run, "12").result.tools.length).toBe(4)
    expect(answerOf(run, "s-2").result.content[0].text).toBe(cli)
    expect(run.answers.filter((a) => a.error !== undefined)).toEqual([])
    expect(run.answers.map((a) => a.id)).toEqual(expect.arrayContaining(["init-1", "s-1", "12", "s-2"]))
    expect(run.answers).toHaveLength(4)
  }, 60_000)
})
