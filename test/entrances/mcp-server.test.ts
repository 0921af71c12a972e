// End to end: the built `specbundle mcp` as a subprocess, driven by the official MCP client over
// stdio. Each tool's text is compared with what the CLI prints for the same request.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { spawn, spawnSync } from "node:child_process"
import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeRepo, specCarrier } from "../support/git.js"
import { forwarded } from "../support/mcp.js"
import { CLI, cleanEnv, runCli } from "../support/hostile.js"

const EXAMPLE = path.resolve("examples/bike-dock")
const cwd = path.resolve(".")

let client: Client
let stderr = ""

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>): string => {
  const content = result.content as ReadonlyArray<{ type: string; text?: string }>
  expect(content).toHaveLength(1)
  expect(content[0].type).toBe("text")
  return content[0].text ?? ""
}

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args })

beforeAll(async () => {
  const env = cleanEnv() as Record<string, string>
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], cwd, env, stderr: "pipe" })
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")))
  client = new Client({ name: "specbundle-test", version: "1.0.0" })
  await client.connect(transport)
}, 60_000)

afterAll(async () => {
  await client?.close()
})

/**
 * The built server spawned with the official client over its pipes (the client reads stdout and
 * writes stdin), so a test can write raw lines between its requests. `answered` fails a call at
 * once when the server exits instead of leaving it waiting; `raw()` is every byte it wrote so far.
 */
const rawServer = async () => {
  const server = spawn(process.execPath, [CLI, "mcp"], { cwd, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] })
  let out = ""
  server.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")))
  const exited = new Promise<number | null>((resolve) => server.on("close", resolve))
  const answered = <T>(call: Promise<T>) => Promise.race([call, exited.then((code) => Promise.reject(new Error(`server exited (${code}) unanswered`)))])
  const own = new Client({ name: "specbundle-raw", version: "1.0.0" })
  own.onerror = () => {} // error answers with id null belong to no request of the client's
  await own.connect(new StdioServerTransport(server.stdout, server.stdin))
  return { server, own, answered, raw: () => out, exited }
}

/** A CLI line about the budget as the MCP tool says it: the flags as its parameters' names (src/usecases/spelling.ts). */
const asParameters = (line: string): string =>
  line.replaceAll("--budget-tokens", "budgetTokens").replaceAll("--budget ", "budget ").replaceAll("--parts", "count")

describe("specbundle mcp", () => {
  it("lists the five tools with schema'd parameters: every choice an enum, the CLI's list in the CLI's order", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(["bundle", "check", "drift", "impact", "list"])
    const properties = (name: string) =>
      (tools.find((t) => t.name === name)!.inputSchema as { properties: Record<string, { type?: string; enum?: string[]; anyOf?: unknown[] }> }).properties
    const bundle = properties("bundle")
    expect(Object.keys(bundle)).toEqual([
      "root",
      "exclude",
      "config",
      "pack",
      "members",
      "perspective",
      "specs",
      "changeset",
      "staged",
      "budget",
      "profile",
      "declarations",
      "part",
      "count",
      "tokens",
      "budgetTokens"
    ])
    expect(bundle.declarations).toMatchObject({ type: "string", enum: ["whole", "addresses"] })
    expect(bundle.budget.anyOf).toEqual([{ type: "string" }, { type: "number" }])
    expect(bundle.tokens.enum).toEqual(["o200k_base", "cl100k_base"])
    // The lists the CLI's --format takes (its help page shows them), each declared once.
    const cliChoices = (command: string) => {
      const help = runCli([command, "--help"], cwd).stdout
      return help.match(/\[--format ([a-z|]+)\]/)![1].split("|")
    }
    expect(properties("impact").format.enum).toEqual(cliChoices("impact"))
    expect(properties("check").format.enum).toEqual(cliChoices("check"))
    expect(properties("list").format.enum).toEqual(cliChoices("list"))
    expect(properties("list").what.enum).toEqual(["packs", "specs"])
  }, 60_000)

  it("composes the example corpus's bundle: the same bytes as the CLI", async () => {
    const result = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1" })
    expect(result.isError).toBe(false)
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], cwd)
    expect(cli.status).toBe(0)
    expect(textOf(result)).toBe(cli.stdout)
  }, 60_000)

  it("gives part 2 and the part count as the CLI's --part 2 and --parts do", async () => {
    const part = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1", budget: 4000, part: 2 })
    const cliPart = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--budget", "4000", "--part", "2"], cwd)
    const [value, sentence] = (part.content as ReadonlyArray<{ text: string }>).map((c) => c.text)
    expect(value).toBe(cliPart.stdout)
    const { part: at, members } = JSON.parse(value!)
    // A part says which of the scope's Specs it leaves out, and the call that returns the next part.
    expect(sentence).toMatch(new RegExp(`^Part 2 of ${at.of} carries ${members.length} of the scope's 14 Specs; it leaves out ${14 - members.length}: spec:`))
    expect(sentence).toContain(
      `The call that returns part 3: ${JSON.stringify({ name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1", budget: 4000, part: 3 } })}`
    )
    for (const m of members) expect(sentence).not.toContain(`${m.id},`)
    const count = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1", budget: "4000", count: true })
    const cliParts = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--budget", "4000", "--parts"], cwd)
    const lines = cliParts.stdout.split("\n").filter((l) => l !== "")
    expect(lines.length).toBeGreaterThan(1)
    expect(JSON.parse(textOf(count))).toEqual({ parts: lines.length })
    expect(lines[1] + "\n").toBe(cliPart.stdout)
  }, 60_000)

  it("reports the impact of HEAD~1 in a real repository as the CLI does (json, text, markdown and gitlab), reading the corpus per call", async () => {
    const repo = makeRepo()
    fs.cpSync(EXAMPLE, repo.dir, { recursive: true })
    repo.commit("the example corpus")
    const carrier = path.join(repo.dir, "specs/rides.pack.sdp.md")
    fs.appendFileSync(carrier, "\nOne more sentence about rides.\n")
    repo.commit("touch the rides pack")
    for (const format of ["json", "text", "markdown", "gitlab"] as const) {
      const result = await call("impact", { root: repo.dir, changeset: "HEAD~1", format })
      expect(result.isError).toBe(false)
      const cli = runCli(["impact", "--root", repo.dir, "--changeset", "HEAD~1", "--format", format], cwd)
      expect(cli.status).toBe(0)
      expect(textOf(result)).toBe(cli.stdout)
    }
    const report = JSON.parse(textOf(await call("impact", { root: repo.dir, changeset: "HEAD~1" })))
    expect(report.changedFiles).toEqual([{ path: "specs/rides.pack.sdp.md", status: "modified" }])
    // The server holds no graph between calls: a Spec added now shows in the next listing.
    const before = JSON.parse(textOf(await call("list", { root: repo.dir, what: "specs", format: "json" })))
    fs.writeFileSync(
      path.join(repo.dir, "specs/late.sdp.md"),
      "---\nid: spec:late\nkind: behavior\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# Late\n"
    )
    const after = JSON.parse(textOf(await call("list", { root: repo.dir, what: "specs", format: "json" })))
    expect(after.specs.length).toBe(before.specs.length + 1)
    expect(after.specs.map((s: { id: string }) => s.id)).toContain("spec:late")
  }, 120_000)

  it("check returns the findings and counts the CLI prints on stderr", async () => {
    const result = await call("check", { root: EXAMPLE })
    const cli = runCli(["check", "--root", EXAMPLE], cwd)
    expect(textOf(result)).toBe(cli.stderr)
  }, 60_000)

  it("an exclude that matches nothing: check's text holds the CLI's warning lines, and every tool answers them as the CLI prints them on stderr", async () => {
    const exclude = ["no-such-folder", "specs/rides"]
    const text = await call("check", { root: EXAMPLE, exclude })
    const cli = runCli(["check", "--root", EXAMPLE, "--exclude", "no-such-folder", "--exclude", "specs/rides"], cwd)
    expect(cli.stderr).toContain('specbundle: warning: exclude "no-such-folder" matches nothing under ')
    expect(textOf(text)).toBe(cli.stderr)
    const warning = cli.stderr.split("\n").find((l) => l.includes("matches nothing"))! + "\n"
    const texts = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.content as ReadonlyArray<{ text: string }>).map((c) => c.text)
    const json = await call("check", { root: EXAMPLE, exclude, format: "json" })
    expect(texts(json)).toEqual([
      runCli(["check", "--root", EXAMPLE, "--exclude", "no-such-folder", "--exclude", "specs/rides", "--format", "json"], cwd).stdout,
      warning
    ])
    const list = await call("list", { root: EXAMPLE, what: "packs", exclude })
    expect(texts(list)[1]).toBe(warning)
    const bundle = await call("bundle", { root: EXAMPLE, pack: "pack:docks-v1", exclude })
    expect(texts(bundle)[1]).toBe(warning)
  }, 60_000)

  it("a changeset whose only impacted Spec is refused: the empty members come with the CLI's line saying why", async () => {
    const repo = makeRepo()
    fs.cpSync(EXAMPLE, repo.dir, { recursive: true })
    repo.commit("the example corpus")
    // Raw HTML in a Spec carrier refuses it: the Spec the change impacts is not in the graph.
    fs.appendFileSync(path.join(repo.dir, "specs/rides/return-bike.full-dock.sdp.md"), "\n<div>raw</div>\n")
    const result = await call("bundle", { root: repo.dir, changeset: "HEAD" })
    expect(result.isError).toBe(false)
    const content = result.content as ReadonlyArray<{ type: string; text: string }>
    const cli = runCli(["bundle", "--root", repo.dir, "--changeset", "HEAD"], cwd)
    expect(cli.status).toBe(0)
    expect(content[0]!.text).toBe(cli.stdout)
    expect(JSON.parse(content[0]!.text).members).toEqual([])
    const line = cli.stderr.split("\n").find((l) => l.startsWith("impacted ids the graph does not hold"))
    expect(line).toContain("spec:rides.return-bike.full-dock")
    expect(content.map((c) => c.text)).toEqual([cli.stdout, line + "\n"])
  }, 60_000)

  it("check's json, github, sarif and gitlab formats and list's outputs are the bytes the CLI prints on stdout", async () => {
    for (const format of ["json", "github", "sarif", "gitlab"] as const) {
      const result = await call("check", { root: EXAMPLE, format })
      const cli = runCli(["check", "--root", EXAMPLE, "--format", format], cwd)
      // bike-dock has no findings: github's workflow commands are then no lines at all.
      if (format !== "github") expect(cli.stdout.length).toBeGreaterThan(0)
      expect(textOf(result)).toBe(cli.stdout)
    }
    for (const what of ["packs", "specs"] as const) {
      for (const format of ["text", "json"] as const) {
        const result = await call("list", { root: EXAMPLE, what, format })
        const cli = runCli(["list", what, "--root", EXAMPLE, "--format", format], cwd)
        expect(cli.status).toBe(0)
        expect(cli.stdout.length).toBeGreaterThan(0)
        expect(textOf(result)).toBe(cli.stdout)
      }
    }
  }, 120_000)

  it("check's gitlab format names files from the root's repository top, as the CLI run there does, whatever the server's folder", async () => {
    const repo = makeRepo()
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:demo.a", "The first"))
    repo.write("pkg/specs/odd.sdp.md", "---\nid: [unclosed\n---\n# x\n")
    repo.commit("corpus")
    const result = await call("check", { root: path.join(repo.dir, "pkg"), format: "gitlab" })
    const cli = runCli(["check", "--root", "pkg", "--format", "gitlab"], repo.dir)
    expect(cli.stdout).toContain('"path": "pkg/specs/odd.sdp.md"')
    expect(textOf(result)).toBe(cli.stdout)
  }, 60_000)

  it("a bad parameter is a tool error holding the CLI's diagnostics value", async () => {
    const bad = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1", part: "abc" })
    expect(bad.isError).toBe(true)
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--part", "abc"], cwd)
    expect(cli.status).toBe(2)
    expect(textOf(bad)).toBe(cli.stdout)
    const wrongType = await call("bundle", { root: 3 })
    expect(wrongType.isError).toBe(true)
    expect(JSON.parse(textOf(wrongType)).diagnostics[0].scope).toBe("root")
    const linkBase = await call("impact", { root: EXAMPLE, linkBase: "https://example.org/" })
    expect(linkBase.isError).toBe(true)
    const cliLinkBase = runCli(["impact", "--root", EXAMPLE, "--link-base", "https://example.org/"], cwd)
    expect(cliLinkBase.status).toBe(2)
    // The same problems; each entrance names the fields its own way (field-names.test.ts): the tool's parameters, the CLI's flags.
    const scopes = (text: string) => (JSON.parse(text) as { diagnostics: { scope: string }[] }).diagnostics.map((d) => d.scope)
    expect(scopes(textOf(linkBase))).toEqual(["changeset", "linkBase"])
    expect(scopes(cliLinkBase.stdout)).toEqual(["changeset", "link-base"])
    const unknownRev = await call("impact", { root: EXAMPLE, changeset: "-x" })
    expect(unknownRev.isError).toBe(true)
    expect(JSON.parse(textOf(unknownRev)).diagnostics[0].scope).toBe("changeset")
  }, 60_000)

  it("one wrong parameter is one diagnostic, in the schema's words, however many union members it missed", async () => {
    const bad = await call("bundle", { root: 3, budget: true, specs: [1], extra: 1 })
    expect(bad.isError).toBe(true)
    const { diagnostics } = JSON.parse(textOf(bad)) as { diagnostics: { scope: string; problem: string }[] }
    expect(diagnostics.map((d) => d.scope)).toEqual(["root", "specs", "budget", "extra"])
    expect(diagnostics[0].problem).toBe("Expected a string, got 3.")
    expect(diagnostics[1].problem).toBe("Expected an array of strings, got [1].")
    expect(diagnostics[2].problem).toBe("Expected a string or a number, got true.")
    expect(diagnostics[3].problem).toMatch(/^Unknown parameter; the tool takes root, /)
    expect(bad.structuredContent).toEqual({ diagnostics })
    const declarations = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1", declarations: "all" })
    expect(JSON.parse(textOf(declarations)).diagnostics).toEqual([{ scope: "declarations", problem: 'Expected "whole" or "addresses", got "all".' }])
    for (const [args, problem] of [
      [{ what: "x" }, 'Expected "packs" or "specs", got "x".'],
      [{}, 'Missing: expected "packs" or "specs".']
    ] as const) {
      const list = await call("list", args)
      expect(JSON.parse(textOf(list))).toEqual({ diagnostics: [{ scope: "what", problem }] })
    }
    const part = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1", part: null })
    expect(JSON.parse(textOf(part)).diagnostics).toEqual([{ scope: "part", problem: "Expected a string or a number, got null." }])
  }, 60_000)

  it("a budgetExceeded value comes with the hint the CLI prints on stderr, as a second text item", async () => {
    for (const [args, flags] of [
      [{ budget: 300 }, ["--budget", "300"]],
      [{ budget: "300", count: true }, ["--budget", "300", "--parts"]]
    ] as const) {
      const result = await call("bundle", { root: EXAMPLE, pack: "pack:rides-v1", ...args })
      const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", ...flags], cwd)
      expect(cli.status).toBe(0)
      expect(result.isError).toBe(false)
      const content = result.content as ReadonlyArray<{ type: string; text: string }>
      expect(content.map((c) => c.type)).toEqual(["text", "text"])
      // The value's bytes are the CLI's stdout; the hint is its stderr line, the fields named as the tool's parameters.
      expect(content[0].text).toBe(cli.stdout)
      expect(JSON.parse(content[0].text).budgetExceeded).toBe(true)
      const hint = cli.stderr.split("\n").filter((l) => l.startsWith("specbundle: budgetExceeded: "))
      expect(hint).toHaveLength(1)
      expect(content[1].text).toBe(asParameters(hint[0]!) + "\n")
      expect(content[1].text).toMatch(/ budget \d+ or more fits/)
    }
  }, 60_000)

  it("tokens: a text item with the exact count of each part (gpt-tokenizer's own count of the CLI's bytes), beside parts with count; the value unchanged", async () => {
    const pack = { root: EXAMPLE, pack: "pack:rides-v1" }
    const texts = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.content as ReadonlyArray<{ text: string }>).map((c) => c.text)
    const whole = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], cwd).stdout
    const one = await call("bundle", { ...pack, tokens: "cl100k_base" })
    expect(one.isError).toBe(false)
    expect(texts(one)).toEqual([whole, `${JSON.stringify({ tokens: [{ value: cl100k(whole.trimEnd()), encoding: "cl100k_base" }] })}\n`])
    const parts = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--parts", "--budget", "4000"], cwd).stdout.trimEnd().split("\n")
    const count = await call("bundle", { ...pack, budget: 4000, count: true, tokens: "o200k_base" })
    expect(JSON.parse(texts(count)[0]!)).toEqual({ parts: parts.length, tokens: parts.map((t) => ({ value: o200k(t), encoding: "o200k_base" })) })
    // budgetTokens: the CLI's --budget-tokens, its stderr line (the tool's words) as the last text item.
    const fitted = await call("bundle", { ...pack, count: true, tokens: "o200k_base", budgetTokens: 1000 })
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--parts", "--tokens", "o200k_base", "--budget-tokens", "1000"], cwd)
    const cliParts = cli.stdout.trimEnd().split("\n")
    expect(JSON.parse(texts(fitted)[0]!)).toEqual({ parts: cliParts.length, tokens: cliParts.map((t) => ({ value: o200k(t), encoding: "o200k_base" })) })
    expect(texts(fitted)[1]).toBe(asParameters(cli.stderr.split("\n").find((l) => l.startsWith("--budget-tokens 1000 "))!) + "\n")
    const wrong = await call("bundle", { ...pack, tokens: "p50k_base", budgetTokens: 0 })
    expect(wrong.isError).toBe(true)
    expect(JSON.parse(texts(wrong)[0]!).diagnostics).toEqual([{ scope: "tokens", problem: 'Expected "o200k_base" or "cl100k_base", got "p50k_base".' }])
    const noEncoding = await call("bundle", { ...pack, budgetTokens: 500 })
    expect(JSON.parse(texts(noEncoding)[0]!).diagnostics).toEqual([
      { scope: "budgetTokens", problem: "budgetTokens counts in an encoding: give tokens o200k_base or tokens cl100k_base." }
    ])
  }, 120_000)

  it("what Claude Code forwards (structured content of a success, else the joined text) holds the value, the counts and every hint, for each tool and outcome", async () => {
    const pack = { root: EXAMPLE, pack: "pack:rides-v1" }
    const cli = (...args: string[]) => runCli(args, cwd)
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-no-repo-"))
    fs.cpSync(EXAMPLE, outside, { recursive: true })
    const cases: Array<[string, Record<string, unknown>, ReadonlyArray<string>, boolean]> = [
      ["bundle", pack, [cli("bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1").stdout], false],
      ["bundle", { ...pack, tokens: "o200k_base" }, ['{"tokens":[{"value":'], false],
      ["bundle", { ...pack, budget: 300 }, ["specbundle: budgetExceeded: ", '"budgetExceeded":true'], false],
      [
        "bundle",
        { ...pack, tokens: "o200k_base", budgetTokens: 1000, count: true },
        ['{"parts":', "budgetTokens 1000 (o200k_base): composed with budget "],
        false
      ],
      ["bundle", { ...pack, budget: 4000, part: 2 }, ['"part":{"index":2,', "Part 2 of ", "The call that returns part 3: "], false],
      ["bundle", { ...pack, exclude: ["nothing-here"] }, ['specbundle: warning: exclude "nothing-here" matches nothing'], false],
      ["bundle", { ...pack, part: "abc" }, ['{"diagnostics":[{"scope":"part"'], true],
      ["impact", { root: outside, changeset: "HEAD~1" }, ["specbundle: "], true],
      ["impact", { root: EXAMPLE, changeset: "HEAD" }, ['"impactedSpecs":'], false],
      ["check", { root: EXAMPLE }, [cli("check", "--root", EXAMPLE).stderr], false],
      ["list", { root: EXAMPLE, what: "specs" }, [cli("list", "specs", "--root", EXAMPLE).stdout], false]
    ]
    for (const [name, args, holds, isError] of cases) {
      const result = await call(name, args)
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(isError)
      // Text only, on purpose: a success result carries no structuredContent, which would hide the text items.
      if (!isError) expect(result.structuredContent).toBeUndefined()
      const seen = forwarded(result)
      for (const text of holds) expect(seen, `${name} ${JSON.stringify(args)}`).toContain(text)
    }
  }, 120_000)

  it("wrote nothing but the protocol on stdout and no stack on stderr", () => {
    // A stray write would have broken the client's parsing above; stderr stays free of stacks.
    expect(stderr).not.toMatch(/^\s+at /m)
  })

  it("answers the calls a client wrote before closing stdin, then exits 0", () => {
    const lines = [
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1" } } }
    ]
    const run = spawnSync(process.execPath, [CLI, "mcp"], {
      cwd,
      env: cleanEnv(),
      input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
      encoding: "utf8",
      timeout: 60_000
    })
    expect(run.status).toBe(0)
    const answers = run.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l))
    expect(answers.map((a) => a.id)).toEqual([0, 1])
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], cwd)
    expect(answers[1].result.content[0].text).toBe(cli.stdout)
  }, 60_000)

  it("answers a line that is not JSON with a parse error and goes on serving the official client", async () => {
    const { server, own, answered, raw, exited } = await rawServer()
    server.stdin.write("this is not json\n")
    server.stdin.write("[]\n")
    const listed = await answered(own.callTool({ name: "list", arguments: { root: EXAMPLE, what: "packs" } }))
    expect(textOf(listed)).toBe(runCli(["list", "packs", "--root", EXAMPLE], cwd).stdout)
    server.stdin.write('{"jsonrpc":"2.0","id":9,"method":\n')
    const bundled = await answered(own.callTool({ name: "bundle", arguments: { root: EXAMPLE, pack: "pack:rides-v1" } }))
    expect(textOf(bundled)).toBe(runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], cwd).stdout)
    const lines = raw()
      .split("\n")
      .filter((l) => l !== "")
    const parseError = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
    const invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}'
    expect(lines.filter((l) => l.includes('"error":{"code":-32'))).toEqual([parseError, invalid, parseError])
    // initialize, the two calls and the three error answers: nothing else, nothing lost.
    expect(lines).toHaveLength(6)
    await own.close()
    server.stdin.end()
    expect(await exited).toBe(0)
  }, 60_000)
  it('answers a JSON line that is no request ({"foo":1}) or has an id no request can carry with -32600 Invalid Request, its id when it has one, a string id as sent, and serves the next request', async () => {
    const { server, own, answered, raw, exited } = await rawServer()
    // No method, no result or error; an id without a method; a request with a string id (answered
    // with that id); responses to no request of the server's, string or integer ids (answered by
    // nothing, as JSON-RPC answers no response); a request whose id is neither string nor number.
    server.stdin.write('{"foo":1}\n')
    server.stdin.write('{"jsonrpc":"2.0","id":7,"params":{}}\n')
    server.stdin.write('{"jsonrpc":"2.0","id":"a-1","method":"tools/list"}\n')
    server.stdin.write('{"jsonrpc":"2.0","id":"s-1","result":{}}\n')
    server.stdin.write('{"jsonrpc":"2.0","id":77,"result":{}}\n')
    server.stdin.write('{"jsonrpc":"2.0","id":true,"method":"tools/list"}\n')
    const listed = await answered(own.callTool({ name: "list", arguments: { root: EXAMPLE, what: "packs" } }))
    expect(textOf(listed)).toBe(runCli(["list", "packs", "--root", EXAMPLE], cwd).stdout)
    const lines = raw()
      .split("\n")
      .filter((l) => l !== "")
    expect(lines.filter((l) => l.includes('"error":{"code":-32'))).toEqual([
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}',
      '{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}'
    ])
    const a1 = lines.map((l) => JSON.parse(l)).find((m) => m.id === "a-1")
    expect(a1.result.tools.map((t: { name: string }) => t.name)).toEqual(["bundle", "impact", "check", "list", "drift"])
    // initialize, the call, the string id's answer and the three error answers.
    expect(lines).toHaveLength(6)
    await own.close()
    server.stdin.end()
    expect(await exited).toBe(0)
  }, 60_000)
})
