// `specbundle plugin DIR` (issue 49.5): the Claude Code plugin folder's JSON parses, its hooks are
// the bytes `hook print session-start user-prompt-submit --manager claude-code` gives, its
// `.mcp.json` starts the MCP server in a project install (spawned exactly as written), and every
// command of its skill runs as written in the history `specbundle example DIR` makes; with
// --skill-only, the same skill where Codex, Gemini CLI and Copilot CLI read a project's skills.
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { REPO, cliAsync, gitCleanEnv } from "../support/cli.js"
import { run } from "../support/run.js"
import { skipping } from "../support/skip.js"
import { tempDir } from "../support/tmp.js"

const FILES = [".claude-plugin/plugin.json", "hooks/hooks.json", ".mcp.json", "skills/specbundle/SKILL.md"]

/** The folder `specbundle example DIR` writes: the bike-dock corpus in two commits. */
const example = async (): Promise<string> => {
  const dir = path.join(tempDir("specbundle-plugin-"), "bike")
  const r = await cliAsync(REPO, ["example", dir, "--quiet"])
  expect(r.status, r.stderr).toBe(0)
  return dir
}

/** Each command of a ```sh block, in order. */
const commandsOf = (markdown: string): string[] =>
  [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split("\n").filter((l) => l.trim() !== ""))

describe("specbundle plugin DIR", () => {
  let plugin = ""
  let project = ""
  beforeAll(async () => {
    project = await example()
    plugin = path.join(tempDir("specbundle-plugin-out-"), "specbundle-plugin")
    const r = await run(project, ["plugin", plugin])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe(FILES.map((f) => `${path.join(plugin, f)}\n`).join(""))
  })

  it("writes the four files; the JSON parses; the manifest names the plugin and this version; nothing else in the folder", () => {
    const all = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? all(path.join(dir, e.name)) : [path.relative(plugin, path.join(dir, e.name))]))
    expect(all(plugin).sort()).toEqual([...FILES].sort())
    for (const f of FILES.filter((f) => f.endsWith(".json"))) expect(() => JSON.parse(fs.readFileSync(path.join(plugin, f), "utf8")), f).not.toThrow()
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }
    const manifest = JSON.parse(fs.readFileSync(path.join(plugin, ".claude-plugin/plugin.json"), "utf8")) as Record<string, unknown>
    expect(manifest).toEqual({ name: "specbundle", version: pkg.version, description: expect.stringMatching(/^[A-Z].{40,}\.$/) })
  })

  it("hooks/hooks.json is what hook print session-start user-prompt-submit --manager claude-code gives in the project folder", async () => {
    const printed = await run(project, ["hook", "print", "session-start", "user-prompt-submit", "--manager", "claude-code"])
    expect(printed.status).toBe(0)
    expect(fs.readFileSync(path.join(plugin, "hooks/hooks.json"), "utf8")).toBe(printed.stdout)
  })

  const npx = spawnSync("npx", ["--version"], { encoding: "utf8" }).status === 0
  it.skipIf(skipping(!npx, ".mcp.json started in a project install", "npx is not on PATH"))(
    ".mcp.json: its command, spawned as written in a project that installed specbundle, answers an MCP initialize",
    async () => {
      const config = JSON.parse(fs.readFileSync(path.join(plugin, ".mcp.json"), "utf8")) as {
        mcpServers: Record<string, { command: string; args: string[] }>
      }
      expect(Object.keys(config.mcpServers)).toEqual(["specbundle"])
      const { command, args } = config.mcpServers.specbundle
      // A project install: the package in node_modules, its bin in node_modules/.bin, nothing on PATH.
      fs.mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true })
      fs.symlinkSync(REPO, path.join(project, "node_modules", "specbundle"))
      fs.symlinkSync(path.join("..", "specbundle", "bin", "specbundle.js"), path.join(project, "node_modules", ".bin", "specbundle"))
      const env = { ...gitCleanEnv(), PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, npm_config_offline: "true" }
      const child = spawn(command, args, { cwd: project, env, stdio: ["pipe", "pipe", "pipe"] })
      const answer = await new Promise<string>((resolve, reject) => {
        let out = ""
        let err = ""
        child.stdout.setEncoding("utf8").on("data", (c: string) => {
          out += c
          if (out.includes("\n")) resolve(out.split("\n")[0])
        })
        child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c))
        child.on("error", reject)
        child.on("close", (code) => reject(new Error(`${command} ${args.join(" ")} exited ${code} before answering: ${err}`)))
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`
        )
      })
      child.kill()
      expect(JSON.parse(answer)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "specbundle" } } })
    }
  )

  it("skills/specbundle/SKILL.md: a name and a description, and every command in it runs as written in the example history (exit 0)", async () => {
    const skill = fs.readFileSync(path.join(plugin, "skills/specbundle/SKILL.md"), "utf8")
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(skill)
    expect(front?.[1]).toBe("specbundle")
    expect(front?.[2].length).toBeGreaterThan(80)
    const commands = commandsOf(skill)
    expect(commands.length).toBeGreaterThanOrEqual(8)
    const dir = await example()
    // With a change in the work tree, so `--changeset HEAD` has something to say.
    fs.appendFileSync(path.join(dir, "specs/rides/ride-fare-rule.sdp.md"), "\n")
    for (const line of commands) {
      const words = line.split(/\s+/)
      expect(words[0], line).toBe("specbundle")
      const r = await run(dir, words.slice(1))
      expect(r.status, `${line}\n${r.stderr}`).toBe(0)
      expect(r.stdout.length + r.stderr.length, line).toBeGreaterThan(0)
    }
  })

  it("DIR not empty or a file: exit 2 and one line; nothing written", async () => {
    const again = await run(project, ["plugin", plugin])
    expect(again.status).toBe(2)
    expect(again.stderr).toBe(`specbundle: dir: ${plugin} is not empty; give a new or empty folder.\n`)
    const file = path.join(tempDir("specbundle-plugin-file-"), "f")
    fs.writeFileSync(file, "x")
    expect((await run(project, ["plugin", file])).status).toBe(2)
  })
})

describe("specbundle plugin DIR --skill-only", () => {
  it("writes the plugin's skill to DIR/.agents/skills/specbundle/SKILL.md (Codex, Gemini CLI, Copilot CLI); a second time, exit 2", async () => {
    const project = await example()
    const r = await run(project, ["plugin", ".", "--skill-only"])
    const file = path.join(project, ".agents", "skills", "specbundle", "SKILL.md")
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe(`${file}\n`)
    const plugin = path.join(tempDir("specbundle-plugin-cmp-"), "p")
    expect((await run(project, ["plugin", plugin])).status).toBe(0)
    expect(fs.readFileSync(file, "utf8")).toBe(fs.readFileSync(path.join(plugin, "skills/specbundle/SKILL.md"), "utf8"))
    const again = await run(project, ["plugin", ".", "--skill-only"])
    expect(again.status).toBe(2)
    expect(again.stderr).toBe(`specbundle: dir: ${file} is there already; remove it to write it again.\n`)
  })
})
