// The tool-result cap on a large corpus: a `bundle` call without a budget on a 10,000-Spec corpus
// (scripts/gen-corpus.mjs) answers under 25,000 o200k tokens, or under MAX_MCP_OUTPUT_TOKENS from
// the server's environment, as part 1 with the sentence naming the Specs left out and the exact
// call that returns part 2; that call answers part 2, under the cap too. A Pack holds at most a few
// hundred members (a carrier's frontmatter stops at 32 KiB), so the 10,000 Specs come as 20 Packs
// of 500; a `specs` scope naming all 10,000 repeats them in every part and no part fits: one line
// says so. Each server run reads the corpus (tens of seconds on a loaded machine).
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base"
import { beforeAll, describe, expect, it } from "vitest"
import { cleanEnv } from "../support/hostile.js"
import { answerOf, forwarded, rawMcp, request2026 } from "../support/mcp.js"
import { tempDir } from "../support/tmp.js"

const cwd = path.resolve(".")
let corpus = ""

beforeAll(() => {
  corpus = path.join(tempDir("specbundle-mcp-cap-"), "corpus")
  const gen = spawnSync(process.execPath, ["scripts/gen-corpus.mjs", corpus, "--specs", "10000", "--packs", "20", "--ts-files", "0"], {
    cwd,
    encoding: "utf8",
    env: cleanEnv()
  })
  expect(gen.status, gen.stderr).toBe(0)
}, 300_000)

/** One tools/call of `bundle` by a 2026-07-28 client, answered by a server with this cap in its environment (undefined: none). */
const bundleCall = (args: Record<string, unknown>, cap: string | undefined) => {
  const run = rawMcp([request2026(1, "tools/call", { name: "bundle", arguments: args })], { cwd, env: { MAX_MCP_OUTPUT_TOKENS: cap } })
  expect(run.status, run.stderr).toBe(0)
  return answerOf(run, 1).result as { content: Array<{ type: string; text: string }>; isError: boolean }
}

/** The call the answer's last sentence names, parsed. */
const nextCall = (sentence: string) =>
  JSON.parse(/The call that returns part \d+: (\{.*\})$/.exec(sentence)![1]!) as { name: string; arguments: Record<string, unknown> }

describe("specbundle mcp: the tool-result cap", () => {
  for (const [cap, limit] of [
    [undefined, 25000],
    ["8000", 8000]
  ] as const) {
    it(`a bundle call without a budget answers under ${limit} tokens${cap === undefined ? "" : " (MAX_MCP_OUTPUT_TOKENS=8000)"}: part 1, the Specs left out, and the call that returns part 2, which answers part 2`, () => {
      const args = { root: corpus, pack: "pack:pack-000" }
      const first = bundleCall(args, cap)
      expect(first.isError).toBe(false)
      const seen = forwarded(first)
      const tokens = o200k(seen)
      console.log(`bundle pack:pack-000 (500 of 10,000 Specs), no budget, cap ${limit}: ${tokens} o200k tokens forwarded`)
      expect(tokens).toBeLessThan(limit)
      const value = JSON.parse(first.content[0]!.text)
      expect(value.part.index).toBe(1)
      expect(value.part.of).toBeGreaterThan(1)
      const sentence = first.content[first.content.length - 1]!.text.trimEnd()
      expect(sentence).toContain(`over the ${limit}-token limit of a tool result`)
      expect(sentence).toContain(
        `Part 1 of ${value.part.of} carries ${value.members.length} of the scope's 500 Specs; it leaves out ${500 - value.members.length}: `
      )
      const call = nextCall(sentence)
      expect(call).toEqual({ name: "bundle", arguments: { ...args, budget: value.budget, part: 2 } })
      const second = bundleCall(call.arguments, cap)
      const part2 = JSON.parse(second.content[0]!.text)
      expect(part2.part).toEqual({ index: 2, of: value.part.of })
      // The ids part 2 carries are among those part 1's sentence names first.
      expect(sentence).toContain(part2.members[0].id)
      expect(o200k(forwarded(second))).toBeLessThan(limit)
      expect(second.content[second.content.length - 1]!.text).toMatch(
        /^Part 2 of \d+ carries \d+ of the scope's 500 Specs; it leaves out \d+: .*The call that returns part 3: /
      )
    }, 600_000)
  }

  it("a specs scope naming all 10,000 Specs, which no part can hold under the cap, is one line saying so, under the cap", () => {
    const listed = rawMcp([request2026(1, "tools/call", { name: "list", arguments: { root: corpus, what: "specs", format: "json" } })], { cwd })
    const ids = (JSON.parse(answerOf(listed, 1).result.content[0].text).specs as Array<{ id: string }>).map((s) => s.id)
    expect(ids).toHaveLength(10000)
    const answer = bundleCall({ root: corpus, specs: ids }, undefined)
    expect(answer.isError).toBe(true)
    expect(forwarded(answer)).toMatch(
      /^specbundle: the bundle of this scope is over the 25000-token limit of a tool result \(o200k_base\), and no split fits under it: each part repeats the scope \(10000 Spec ids\)\./
    )
    expect(o200k(forwarded(answer))).toBeLessThan(25000)
  }, 600_000)

  it("MAX_MCP_OUTPUT_TOKENS that is not a token count stops the server with one line naming it", () => {
    const run = rawMcp([request2026(1, "tools/list")], { cwd, env: { MAX_MCP_OUTPUT_TOKENS: "lots" } })
    expect(run.status).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr.trim().split("\n")).toEqual(['specbundle: mcp: MAX_MCP_OUTPUT_TOKENS: expected a whole number of tokens, 1000 or more, got "lots"'])
  }, 60_000)
})
