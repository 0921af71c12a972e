// The MCP `drift` tool (issue 51) over real git histories: the built `specbundle mcp` driven with raw
// JSON-RPC lines (test/support/mcp.ts), its answer compared with what the built CLI prints for the
// same request (`drift --format text` and the others); a range end git does not know is a problem
// naming `changeset`; the review (`accept`) is not a parameter of a read-only server; a report
// over the tool-result cap carries the drifted Specs that fit and says how many it leaves out.
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base"
import { describe, expect, it } from "vitest"
import { codeAnchor, exampleHistory, makeRepo, specCarrier } from "../support/git.js"
import { runCli } from "../support/hostile.js"
import { answerOf, forwarded, rawMcp, request2026 } from "../support/mcp.js"

const call = (id: number, args: Record<string, unknown>) => request2026(id, "tools/call", { name: "drift", arguments: args })

const texts = (answer: Record<string, any>): string[] => (answer.result.content as Array<{ type: string; text: string }>).map((c) => c.text)

describe("the MCP drift tool", () => {
  it("answers as specbundle drift prints, absolutely and for a range, in every format", () => {
    const repo = exampleHistory("specbundle-mcp-drift-")
    const a = repo.git("rev-parse", "HEAD").trim()
    repo.write("src/rides/return.ts", `${repo.git("show", "HEAD:src/rides/return.ts")}\n// a later edit\n`)
    repo.commit("return: a later edit")
    const requests = [
      { args: { format: "text" }, argv: ["--format", "text"] },
      { args: {}, argv: [] },
      { args: { changeset: `${a}...HEAD`, format: "text" }, argv: ["--changeset", `${a}...HEAD`, "--format", "text"] },
      { args: { changeset: `${a}..HEAD`, format: "markdown" }, argv: ["--changeset", `${a}..HEAD`, "--format", "markdown"] },
      { args: { format: "github" }, argv: ["--format", "github"] },
      { args: { format: "gitlab" }, argv: ["--format", "gitlab"] }
    ]
    const impactArgs = { changeset: `${a}...HEAD`, drift: true, format: "text" }
    const run = rawMcp([...requests.map((r, i) => call(i + 1, r.args)), request2026(99, "tools/call", { name: "impact", arguments: impactArgs })], {
      cwd: repo.dir
    })
    expect(run.status, run.stderr).toBe(0)
    requests.forEach((r, i) => {
      const cli = runCli(["drift", ...r.argv], repo.dir)
      expect(cli.status, cli.stderr).toBe(0)
      const answer = answerOf(run, i + 1)
      expect(answer.result.isError).toBe(false)
      // Text only, the CLI's stdout as its one item (the example history warns of nothing).
      expect(texts(answer)).toEqual([cli.stdout])
      expect(answer.result.structuredContent).toBeUndefined()
    })
    // impact's drift parameter: the CLI's impact --drift.
    const impactCli = runCli(["impact", "--changeset", `${a}...HEAD`, "--drift", "--format", "text"], repo.dir)
    expect(texts(answerOf(run, 99))).toEqual([impactCli.stdout])
    expect(impactCli.stdout).toContain("after reading them: specbundle drift --accept spec:rides.return-bike")
    // The text format lists the Spec the edit drifted, and the one drifted from the start.
    expect(texts(answerOf(run, 1))[0]).toContain("spec:rides.return-bike")
    expect(texts(answerOf(run, 3))[0]).toMatch(/^drift .*: 1 Spec clean at /)
  }, 120_000)

  it("a range end git does not know, or a changeset that is no range, is one problem naming changeset; accept is no parameter", () => {
    const repo = exampleHistory("specbundle-mcp-drift-")
    const run = rawMcp([call(1, { changeset: "nope...HEAD" }), call(2, { changeset: "HEAD" }), call(3, { accept: true, specs: ["spec:x"] })], {
      cwd: repo.dir
    })
    expect(run.status, run.stderr).toBe(0)
    const unknown = answerOf(run, 1).result
    expect(unknown.isError).toBe(true)
    expect(unknown.structuredContent.diagnostics).toEqual([
      { scope: "changeset", problem: expect.stringMatching(/^unknown revision "nope": git does not know it/) }
    ])
    expect(texts(answerOf(run, 1))).toEqual([`${JSON.stringify(unknown.structuredContent)}\n`])
    const single = answerOf(run, 2).result
    expect(single.isError).toBe(true)
    expect(single.structuredContent.diagnostics.map((d: { scope: string }) => d.scope)).toEqual(["changeset"])
    const accept = answerOf(run, 3).result
    expect(accept.isError).toBe(true)
    expect(accept.structuredContent.diagnostics).toEqual([
      { scope: "accept", problem: "Unknown parameter; the tool takes root, exclude, config, changeset, format." },
      { scope: "specs", problem: "Unknown parameter; the tool takes root, exclude, config, changeset, format." }
    ])
    // Nothing was recorded.
    expect(repo.git("status", "--porcelain")).toBe("")
  }, 120_000)

  it("a report over the tool-result cap carries the drifted Specs that fit, in id order, and says how many it leaves out", () => {
    const repo = makeRepo()
    const count = 120
    const ids = Array.from({ length: count }, (_, i) => `spec:area.behaviour-number-${String(i).padStart(3, "0")}`)
    ids.forEach((id, i) => {
      repo.write(`specs/s${i}.sdp.md`, specCarrier(id, `Behaviour number ${i} of the generated corpus`))
      repo.write(`src/s${i}.ts`, codeAnchor(`impl:area.behaviour-number-${i}`, [id]))
    })
    repo.commit("specs and code")
    ids.forEach((id, i) => repo.write(`src/s${i}.ts`, `${codeAnchor(`impl:area.behaviour-number-${i}`, [id])}export const edited = ${i}\n`))
    repo.commit("every code file edited")
    const cli = runCli(["drift", "--format", "text"], repo.dir)
    expect(cli.status, cli.stderr).toBe(0)
    expect(o200k(cli.stdout)).toBeGreaterThan(3000)

    const run = rawMcp([call(1, { format: "text" })], { cwd: repo.dir, env: { MAX_MCP_OUTPUT_TOKENS: "1000" } })
    expect(run.status, run.stderr).toBe(0)
    const answer = answerOf(run, 1).result
    expect(answer.isError).toBe(false)
    const [report, sentence, ...rest] = texts(answerOf(run, 1))
    expect(rest).toEqual([])
    const kept = Number(/carries the first (\d+) in id order and leaves out (\d+)\./.exec(sentence!)?.[1])
    expect(sentence).toBe(
      `The report lists ${count} drifted Specs, over the 1000-token limit of a tool result (o200k_base): this answer carries the first ${kept} in id order and leaves out ${count - kept}. specbundle drift with the same parameters in a shell prints the whole report.\n`
    )
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(count)
    // The rows it carries are the CLI's first ones, each Spec whole.
    const rows = report!.split("\n").filter((l) => l.startsWith("spec:"))
    expect(rows.map((l) => l.split(" ")[0])).toEqual(ids.slice(0, kept))
    for (const row of rows) expect(cli.stdout).toContain(row)
    expect(o200k(forwarded(answer))).toBeLessThanOrEqual(1000)
    // One more Spec would not have fitted.
    const withOneMore = cli.stdout.split("\n").filter((l) => l.startsWith(ids[kept]!) || l.startsWith(`  src/s${kept}.ts`))
    expect(o200k(`${forwarded(answer)}\n${withOneMore.join("\n")}`)).toBeGreaterThan(1000 - 40)

    // Under the default cap the whole report, as the CLI prints it.
    const whole = rawMcp([call(1, { format: "text" })], { cwd: repo.dir })
    expect(texts(answerOf(whole, 1))).toEqual([cli.stdout])
  }, 120_000)
})
