// The use cases name a request's fields in their problems; each entrance spells the names its own
// way: the MCP tool as its parameters (`changeset`, `count`), the CLI as its flags (`--changeset`,
// `--parts`). The same mistake through both: the same scope rule, each in its own words.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PARAMETER_NAMES } from "../../src/entrances/mcp/parameters.js"
import { driftProblems } from "../../src/usecases/Drift.js"
import { tempDir } from "../support/git.js"
import { CLI, cleanEnv } from "../support/hostile.js"
import { run } from "../support/run.js"

const EXAMPLE = path.resolve("examples/bike-dock")
const cwd = path.resolve(".")

let client: Client

beforeAll(async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], cwd, env: cleanEnv() as Record<string, string>, stderr: "pipe" })
  client = new Client({ name: "specbundle-field-names", version: "1.0.0" })
  await client.connect(transport)
}, 60_000)

afterAll(async () => {
  await client?.close()
})

/** A tool result's text items. */
const textsOf = (result: Awaited<ReturnType<Client["callTool"]>>): string[] =>
  (result.content as Array<{ type: string; text?: string }>).flatMap((c) => (c.type === "text" && c.text !== undefined ? [c.text] : []))

/** A tool error's `{ diagnostics }` value. */
const diagnosticsOf = async (args: Record<string, unknown>) => {
  const result = await client.callTool({ name: "bundle", arguments: { root: EXAMPLE, ...args } })
  expect(result.isError).toBe(true)
  return (result.structuredContent as { diagnostics: unknown }).diagnostics
}

describe("a use case's problems name the fields as the entrance does", () => {
  it("a bundle with both a changeset and the staged changes: MCP names the parameters, the CLI the flags", async () => {
    expect(await diagnosticsOf({ changeset: "HEAD", staged: true })).toEqual([{ scope: "changeset", problem: "Give changeset or staged, not both." }])
    const cli = await run(cwd, ["bundle", "--root", EXAMPLE, "--changeset", "HEAD", "--staged"])
    expect(cli.status).toBe(2)
    expect(JSON.parse(cli.stdout)).toEqual({ diagnostics: [{ scope: "changeset", problem: "Give --changeset or --staged, not both." }] })
    expect(cli.stderr).toBe("specbundle: changeset: Give --changeset or --staged, not both.\n")
  }, 60_000)

  it("a field the tool names otherwise (`parts` is the tool's `count`) is named by its parameter", async () => {
    expect(await diagnosticsOf({ pack: "pack:rides-v1", part: 1, count: true })).toEqual([{ scope: "part", problem: "Give part K or count, not both." }])
    const cli = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--part", "1", "--parts"])
    expect(cli.status).toBe(2)
    expect(JSON.parse(cli.stdout)).toEqual({ diagnostics: [{ scope: "part", problem: "Give --part K or --parts, not both." }] })
  }, 60_000)

  it("an impact without a changeset, and a budgetTokens without an encoding: each entrance's words", async () => {
    const impact = await client.callTool({ name: "impact", arguments: { root: EXAMPLE } })
    expect((impact.structuredContent as { diagnostics: unknown }).diagnostics).toEqual([
      { scope: "changeset", problem: "Give exactly one of changeset REV|A..B|A...B, staged or paths FILE|-." }
    ])
    const cliImpact = await run(cwd, ["impact", "--root", EXAMPLE])
    expect(JSON.parse(cliImpact.stdout).diagnostics).toEqual([
      { scope: "changeset", problem: "Give exactly one of --changeset REV|A..B|A...B, --staged or --paths-from FILE|-." }
    ])
    // The link base's rule, the use case's: the tool's parameters, the CLI's flags.
    const link = await client.callTool({ name: "impact", arguments: { root: EXAMPLE, staged: true, linkBase: "https://example.org/", format: "json" } })
    expect((link.structuredContent as { diagnostics: unknown }).diagnostics).toEqual([{ scope: "linkBase", problem: "linkBase goes with format markdown." }])
    const cliLink = await run(cwd, ["impact", "--root", EXAMPLE, "--staged", "--link-base", "https://example.org/", "--format", "json"])
    expect(JSON.parse(cliLink.stdout).diagnostics).toEqual([{ scope: "link-base", problem: "--link-base goes with --format markdown." }])
    expect(await diagnosticsOf({ pack: "pack:rides-v1", budgetTokens: 500 })).toEqual([
      { scope: "budgetTokens", problem: "budgetTokens counts in an encoding: give tokens o200k_base or tokens cl100k_base." }
    ])
    const cliTokens = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--budget-tokens", "500"])
    expect(JSON.parse(cliTokens.stdout).diagnostics).toEqual([
      { scope: "budget-tokens", problem: "--budget-tokens counts in an encoding: give --tokens o200k_base or --tokens cl100k_base." }
    ])
  }, 60_000)

  it("the token target's line and a budgetExceeded value's hint: the tool's parameters, the CLI's flags", async () => {
    const fit = textsOf(await client.callTool({ name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1", tokens: "o200k_base", budgetTokens: 500 } }))
    const fitLine = fit.find((t) => t.includes("(o200k_base)"))
    expect(fitLine).toMatch(/^budgetTokens 500 \(o200k_base\): .* budget \d+/)
    expect(fitLine).not.toMatch(/--/)
    const cliFit = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--tokens", "o200k_base", "--budget-tokens", "500"])
    expect(cliFit.stderr).toMatch(/^--budget-tokens 500 \(o200k_base\): .* --budget \d+/m)
    const over = textsOf(await client.callTool({ name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1", budget: 100 } }))
    expect(over.at(-1)).toMatch(/^specbundle: budgetExceeded: .*, over budget 100; budget \d+ or more fits, or count splits it\n$/)
    const cliOver = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--budget", "100"])
    expect(cliOver.stderr).toMatch(/^specbundle: budgetExceeded: .*, over --budget 100; --budget \d+ or more fits, or --parts splits it$/m)
  }, 60_000)

  it("a perspective that needs a changeset, a profile with no configuration, a configuration that is a folder: each entrance's words", async () => {
    expect(await diagnosticsOf({ pack: "pack:rides-v1", perspective: "changed" })).toEqual([
      { scope: "perspective", problem: 'The perspective "changed" selects what a changeset impacts: give a changeset (changeset REV or staged).' }
    ])
    const cliChanged = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--perspective", "changed"])
    expect(JSON.parse(cliChanged.stdout).diagnostics).toEqual([
      { scope: "perspective", problem: 'The perspective "changed" selects what a changeset impacts: give a changeset (--changeset REV or --staged).' }
    ])
    const [profile] = (await diagnosticsOf({ pack: "pack:rides-v1", profile: "nope" })) as Array<{ scope: string; problem: string }>
    expect(profile).toMatchObject({ scope: "profile", problem: expect.stringMatching(/^profile: /) })
    const cliProfile = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--profile", "nope"])
    expect(JSON.parse(cliProfile.stdout).diagnostics).toEqual([{ scope: "profile", problem: profile!.problem.replace(/^profile: /, "--profile: ") }])
    const folder = await client.callTool({ name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1", config: path.join(EXAMPLE, "specs") } })
    expect(folder.isError).toBe(true)
    expect(textsOf(folder)).toEqual([
      `specbundle: ${path.join(EXAMPLE, "specs")}: is a folder, not a configuration file; config takes a JSON file such as specbundle.config.json\n`
    ])
    const cliFolder = await run(cwd, ["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--config", path.join(EXAMPLE, "specs")])
    expect(cliFolder.stderr).toBe(
      `specbundle: ${path.join(EXAMPLE, "specs")}: is a folder, not a configuration file; --config takes a JSON file such as specbundle.config.json\n`
    )
  }, 60_000)

  it("drift's problems: the MCP spelling names the fields (the drift tool speaks through it), the CLI the flags", async () => {
    expect(driftProblems({ root: EXAMPLE, accept: true, changeset: "HEAD~1..HEAD" } as never, PARAMETER_NAMES)).toEqual([
      { scope: "accept", problem: "accept records reviews at HEAD; it does not go with changeset." },
      { scope: "accept", problem: "accept needs the Spec ids to record, or all for every Spec." }
    ])
    expect(driftProblems({ root: EXAMPLE, changeset: "HEAD" } as never, PARAMETER_NAMES)).toEqual([
      { scope: "changeset", problem: "drift changeset takes a range, A..B or A...B (the drift it introduces)." }
    ])
    const cli = await run(cwd, ["drift", "--root", EXAMPLE, "--accept", "--changeset", "HEAD~1..HEAD"])
    expect(cli.status).toBe(2)
    expect(JSON.parse(cli.stdout).diagnostics).toEqual([
      { scope: "accept", problem: "--accept records reviews at HEAD; it does not go with --changeset." },
      { scope: "accept", problem: "--accept needs the Spec ids to record, or --all for every Spec." }
    ])
    const range = await run(cwd, ["drift", "--root", EXAMPLE, "--changeset", "HEAD"])
    expect(JSON.parse(range.stdout).diagnostics).toEqual([
      { scope: "changeset", problem: "drift --changeset takes a range, A..B or A...B (the drift it introduces)." }
    ])
  }, 60_000)

  it("a folder with no Spec file: the warning names the root parameter to the tool, the flag to the CLI", async () => {
    const empty = tempDir("specbundle-field-names-")
    const tool = textsOf(await client.callTool({ name: "check", arguments: { root: empty } }))
    expect(tool.join("")).toContain(
      `specbundle: warning: no Spec file under ${empty}; Spec files are named *.sdp.md or *.sdp.gherkin (give the corpus folder with root DIR)`
    )
    const cli = await run(cwd, ["check", "--root", empty])
    expect(cli.stderr).toContain(
      `specbundle: warning: no Spec file under ${empty}; Spec files are named *.sdp.md or *.sdp.gherkin (give the corpus folder with --root DIR)`
    )
  }, 60_000)
})
