// The README's MCP registration, spawned exactly as written (command and args from its JSON
// block) by the official MCP client in a project that installed the packed tarball, the README's
// own install: the server answers there. SLOW (npm pack and npm install, 1-8 min when loaded).
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { runCli } from "../support/hostile.js"
import { installInProject, npmFreeEnv, packWorkingTree, REPO } from "../support/pack.js"

/** The registration the README gives: the JSON block of "From an agent: `specbundle mcp`". */
const readmeRegistration = (): { command: string; args: string[] } => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("### From an agent: `specbundle mcp`"))
  const block = /```json\n([\s\S]*?)```/.exec(section)
  expect(block, "README has a json block under From an agent").not.toBeNull()
  return JSON.parse(block![1]!)
}

describe("the README's MCP registration in a project install", () => {
  it("starts the server the README names, which answers a tool call as the CLI does", async () => {
    const { command, args } = readmeRegistration()
    const { tarball } = await packWorkingTree()
    const project = await installInProject(tarball)
    const example = path.join(REPO, "examples", "bike-dock")
    // The client's own environment (npm's variables of an outer `npm test` left out), started in the project.
    const transport = new StdioClientTransport({ command, args, cwd: project, env: npmFreeEnv() as Record<string, string>, stderr: "pipe" })
    let stderr = ""
    transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")))
    const client = new Client({ name: "readme-registration", version: "1.0.0" })
    try {
      await client.connect(transport)
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(["bundle", "impact", "check", "list", "drift"])
      const listed = await client.callTool({ name: "list", arguments: { root: example, what: "packs" } })
      expect((listed.content as Array<{ text: string }>)[0]!.text).toBe(runCli(["list", "packs", "--root", example], REPO).stdout)
    } catch (e) {
      throw new Error(`${command} ${args.join(" ")} in ${project}: ${String(e)}\nstderr: ${stderr}`)
    } finally {
      await client.close()
    }
  }, 900_000)
})
