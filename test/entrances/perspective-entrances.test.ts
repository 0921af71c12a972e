// A perspective through the other two entrances: the library's Bundler use case in-process, and the
// built `specbundle mcp` driven by the official MCP client. Both give the CLI's bytes for the same
// request (test/fixtures/perspectives, the corpus written for perspectives).
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BUILT_IN_PERSPECTIVES, resolvePerspective } from "../../src/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import { Bundler } from "../../src/usecases/Bundler.js"
import { Changes } from "../../src/usecases/Changes.js"
import { Corpus } from "../../src/usecases/Corpus.js"
import { CLI, cleanEnv, runCli } from "../support/hostile.js"
import { TestRuntime } from "../support/runtime.js"

const CORPUS = path.resolve("test/fixtures/perspectives")
const PACK = "pack:lens-v1"
const cwd = path.resolve(".")

const Live = Layer.mergeAll(Bundler.Default, Corpus.Default, Changes.Default).pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime)))

describe("the library", () => {
  it("Bundler takes a perspective: the CLI's bytes, and the scope that states it", async () => {
    const { text, members } = await Effect.runPromise(
      Effect.gen(function* () {
        const bundler = yield* Bundler
        const prepared = yield* bundler.prepare({ root: CORPUS, pack: PACK, perspective: "blocked" })
        const { text } = yield* bundler.compose(prepared)
        return { text, members: prepared.params.members }
      }).pipe(Effect.provide(Live))
    )
    expect(members).toEqual(["spec:lens.beta", "spec:lens.gamma", "spec:lens.delta"])
    expect(JSON.parse(text).scope).toEqual({ pack: PACK, members, perspective: "blocked" })
    const cli = runCli(["bundle", "--root", CORPUS, "--pack", PACK, "--perspective", "blocked"], cwd)
    expect(cli.status).toBe(0)
    expect(text + "\n").toBe(cli.stdout)
  })

  it("a perspective with specs is a ParameterProblems failure naming the perspective", async () => {
    const failure = await Effect.runPromise(
      Effect.flip(Effect.flatMap(Bundler, (b) => b.prepare({ root: CORPUS, specs: ["spec:lens.alpha"], perspective: "blocked" }))).pipe(Effect.provide(Live))
    )
    expect(failure._tag).toBe("ParameterProblems")
    expect(failure._tag === "ParameterProblems" && failure.diagnostics.map((d) => d.scope)).toEqual(["perspective"])
  })

  it("exports the pure filter: resolvePerspective over a graph read by the Corpus use case", async () => {
    const { graph } = await Effect.runPromise(Effect.flatMap(Corpus, (c) => c.read({ root: CORPUS })).pipe(Effect.provide(Live)))
    expect(Object.keys(BUILT_IN_PERSPECTIVES).sort()).toEqual(["blocked", "changed", "not-ready", "unimplemented", "unverified"])
    expect(resolvePerspective(factsOf(graph), { pack: PACK, perspective: "not-ready" })).toEqual({
      pack: PACK,
      members: ["spec:lens.beta"],
      perspective: "not-ready"
    })
  })
})

describe("specbundle mcp", () => {
  let client: Client
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp"],
      cwd,
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe"
    })
    client = new Client({ name: "specbundle-perspective-test", version: "1.0.0" })
    await client.connect(transport)
  }, 60_000)
  afterAll(async () => {
    await client?.close()
  })

  const textOf = (result: Awaited<ReturnType<Client["callTool"]>>): string => ((result.content as ReadonlyArray<{ text?: string }>)[0]?.text ?? "") as string

  it("the bundle tool takes a perspective: the same bytes as the CLI", async () => {
    const { tools } = await client.listTools()
    const props = (tools.find((t) => t.name === "bundle")!.inputSchema as { properties: Record<string, unknown> }).properties
    expect(Object.keys(props)).toContain("perspective")
    const result = await client.callTool({ name: "bundle", arguments: { root: CORPUS, pack: PACK, perspective: "unimplemented", budget: 2500, part: 2 } })
    expect(result.isError).toBe(false)
    const cli = runCli(["bundle", "--root", CORPUS, "--pack", PACK, "--perspective", "unimplemented", "--budget", "2500", "--part", "2"], cwd)
    expect(cli.status).toBe(0)
    expect(textOf(result)).toBe(cli.stdout)
    expect(JSON.parse(textOf(result)).scope.perspective).toBe("unimplemented")
  }, 60_000)

  it("an unknown perspective is a tool error with the CLI's diagnostics", async () => {
    const result = await client.callTool({ name: "bundle", arguments: { root: CORPUS, pack: PACK, perspective: "nope" } })
    expect(result.isError).toBe(true)
    const cli = runCli(["bundle", "--root", CORPUS, "--pack", PACK, "--perspective", "nope"], cwd)
    expect(cli.status).toBe(2)
    expect(textOf(result)).toBe(cli.stdout)
    expect(textOf(result)).toMatch(/Unknown perspective \\"nope\\"; known: blocked, changed/)
  }, 60_000)
})
