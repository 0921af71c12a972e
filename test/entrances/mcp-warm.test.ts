// The MCP server keeps the corpus it read warm between calls (issue 38): the built `specbundle mcp`
// over a real git repository, with the parse cache's folder, answers each call after an edit, an
// added, removed or renamed file, as a fresh CLI process without any cache prints the same request.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BIN, cacheEnv, cliAsync } from "../support/cli.js"
import { codeAnchor, makeRepo, specCarrier } from "../support/git.js"

const repo = makeRepo()
const cache = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-mcp-warm-cache-"))
let client: Client

beforeAll(async () => {
  for (let i = 0; i < 12; i++)
    repo.write(`specs/s${i}.sdp.md`, specCarrier(`spec:m.s${i}`, `Spec ${i}`, i === 0 ? "relations: {}" : "relations:\n  refines: spec:m.s0"))
  repo.write("src/a.ts", codeAnchor("impl:m.a", ["spec:m.s1"]))
  repo.commit("corpus")
  const env = cacheEnv(cache) as Record<string, string>
  client = new Client({ name: "specbundle-warm-test", version: "1.0.0" })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: repo.dir, env, stderr: "ignore" }))
}, 60_000)

afterAll(async () => {
  await client?.close()
  fs.rmSync(cache, { recursive: true, force: true })
})

/** The server's text for a tool call. */
const served = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const result = await client.callTool({ name, arguments: args })
  const content = result.content as ReadonlyArray<{ type: string; text?: string }>
  return content.map((c) => c.text ?? "").join("")
}

/** Each call the server answers as a fresh CLI process without any cache prints it. */
const sameAsFresh = async () => {
  const calls: ReadonlyArray<readonly [string, Record<string, unknown>, ReadonlyArray<string>]> = [
    ["impact", { staged: true }, ["impact", "--staged"]],
    ["impact", { changeset: "HEAD", format: "markdown" }, ["impact", "--changeset", "HEAD", "--format", "markdown"]],
    ["check", { format: "json" }, ["check", "--format", "json"]],
    ["list", { what: "specs", format: "json" }, ["list", "specs", "--format", "json"]]
  ]
  for (const [name, args, argv] of calls) {
    const fresh = await cliAsync(repo.dir, argv, { env: cacheEnv(undefined) })
    expect(fresh.stderr).not.toContain("internal error")
    expect(await served(name, args), `${name} ${JSON.stringify(args)}`).toBe(fresh.stdout)
  }
}

describe("specbundle mcp between calls", () => {
  it("answers each call after a change as a fresh process does", async () => {
    await sameAsFresh()
    await sameAsFresh()
    repo.write("specs/s3.sdp.md", specCarrier("spec:m.s3", "Spec 3, retitled", "relations:\n  refines: spec:m.s0"))
    repo.git("add", "--", "specs/s3.sdp.md")
    await sameAsFresh()
    repo.write("specs/s4.sdp.md", specCarrier("spec:m.s4", "Spec 4", "relations:\n  refines: spec:m.s2"))
    await sameAsFresh()
    repo.write("specs/new.sdp.md", specCarrier("spec:m.new", "New"))
    repo.remove("specs/s5.sdp.md")
    await sameAsFresh()
    fs.mkdirSync(path.join(repo.dir, "specs/moved"))
    repo.git("add", "-A")
    repo.git("mv", "specs/s6.sdp.md", "specs/moved/s6.sdp.md")
    await sameAsFresh()
    repo.commit("changes")
    await sameAsFresh()
  }, 180_000)
})
