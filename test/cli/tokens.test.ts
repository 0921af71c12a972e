// `bundle --tokens`, run in process (the tokenizer bundles the build wrote to bin/): it reports each
// part's exact count (checked against gpt-tokenizer's own count of the part files, called here),
// leaves the value's bytes as they are, and never loads a tokenizer without the flag (a copy of
// bin/ without the tokenizer bundles, run as a process, runs every other mode the same; so does the
// MCP server over stdio); `--budget-tokens` and the wrong-parameter lines.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base"
import { countTokens as o200k, encode as o200kEncode } from "gpt-tokenizer/encoding/o200k_base"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { describe, expect, it } from "vitest"
import { REPO } from "../support/cli.js"
import { CLI, cleanEnv, nonEmptyLines, stackLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import { BIKE_DOCK } from "../support/paths.js"
import { bikeDockCopy, tempDir } from "../support/tmp.js"

const PACK = ["--root", BIKE_DOCK, "--pack", "pack:rides-v1"]
const COUNTERS = { o200k_base: o200k, cl100k_base: cl100k } as const
const cwd = REPO

interface Manifest {
  readonly budget: number
  readonly parts: ReadonlyArray<{ file: string; hash: string; used: number | null; tokens?: { value: number; encoding: string } }>
}
const manifestOf = (dir: string): Manifest => JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest
/** A part file's text without its final newline: the compact JSON that `used` measures. */
const partText = (dir: string, file: string): string => fs.readFileSync(path.join(dir, file), "utf8").replace(/\n$/, "")

describe("bundle --tokens", () => {
  it.each(Object.entries(COUNTERS))(
    "%s: each part's count in manifest.json and on stderr equals gpt-tokenizer's own count of the part file's text; parts and hashes as without the flag",
    async (encoding, count) => {
      const plain = tempDir("specbundle-tokens-plain-")
      const counted = tempDir("specbundle-tokens-counted-")
      const args = [...PACK, "--parts", "--budget", "4000", "--out"]
      expect((await runCli(["bundle", ...args, plain], cwd)).status).toBe(0)
      const r = await runCli(["bundle", ...args, counted, "--tokens", encoding], cwd)
      expect(r.status, r.stderr).toBe(0)
      const manifest = manifestOf(counted)
      expect(manifest.parts.length).toBeGreaterThan(3)
      const own = manifest.parts.map((p) => count(partText(counted, p.file)))
      expect(manifest.parts.map((p) => p.tokens)).toEqual(own.map((value) => ({ value, encoding })))
      // Key order: the token count sits after used.
      expect(Object.keys(manifest.parts[0]!)).toEqual(["file", "hash", "used", "tokens"])
      expect(r.stderr.split("\n")).toContain(`${encoding} tokens by part: ${own.join(", ")}`)
      // The same parts, byte for byte, and the same manifest but for the counts.
      const before = manifestOf(plain)
      expect(manifest.parts.map(({ tokens: _, ...rest }) => rest)).toEqual(before.parts)
      for (const p of before.parts) expect(Object.keys(p)).toEqual(["file", "hash", "used"])
      for (const p of before.parts) expect(fs.readFileSync(path.join(counted, p.file))).toEqual(fs.readFileSync(path.join(plain, p.file)))
    }
  )

  it("one value on stdout: the same bytes as without the flag, and one stderr line with its count (also for --parts and --part K)", async () => {
    for (const mode of [[], ["--parts", "--budget", "4000"], ["--part", "2", "--budget", "4000"], ["--format", "pretty"]]) {
      const without = await runCli(["bundle", ...PACK, ...mode], cwd)
      const withTokens = await runCli(["bundle", ...PACK, ...mode, "--tokens", "o200k_base"], cwd)
      expect(withTokens.status, withTokens.stderr).toBe(0)
      expect(withTokens.stdout).toBe(without.stdout)
      expect(nonEmptyLines(withTokens.stderr)).toEqual([...nonEmptyLines(without.stderr), expect.stringMatching(/^o200k_base tokens/)])
      // The counts are those of the compact JSON (what `used` measures), whatever the format.
      const compact = mode.includes("pretty") ? [JSON.stringify(JSON.parse(without.stdout))] : nonEmptyLines(without.stdout)
      const line = nonEmptyLines(withTokens.stderr).at(-1)
      const label = mode.includes("--parts") ? "o200k_base tokens by part: " : "o200k_base tokens: "
      expect(line).toBe(label + compact.map((t) => o200k(t)).join(", "))
    }
  })

  it("a special token's text in the corpus (<|endoftext|>) counts as the plain text it is, where gpt-tokenizer's default throws", async () => {
    const root = bikeDockCopy()
    fs.appendFileSync(path.join(root, "specs/rides/ride-fare-rule.sdp.md"), "- A receipt never prints <|endoftext|> or <|im_start|> to a rider.\n")
    const r = await runCli(["bundle", "--root", root, "--pack", "pack:rides-v1", "--tokens", "o200k_base"], cwd)
    expect(r.status, r.stderr).toBe(0)
    const text = r.stdout.replace(/\n$/, "")
    expect(text).toContain("<|endoftext|>")
    expect(() => o200k(text)).toThrow(/special token/i)
    expect(nonEmptyLines(r.stderr)).toContain(`o200k_base tokens: ${o200kEncode(text, { disallowedSpecial: new Set() }).length}`)
  })

  it("a wrong encoding name: exit 2, one stderr line listing the choices, the { diagnostics } value on stdout", async () => {
    for (const [name, more] of [
      ["p50k_base", " Did you mean 'o200k_base'?"],
      ["O200K_BASE", ""],
      ["", ""]
    ]) {
      const r = await runCli(["bundle", ...PACK, "--tokens", name!], cwd)
      const problem = `--tokens takes o200k_base, cl100k_base, not ${JSON.stringify(name)}.${more}`
      expect(r.status, name).toBe(2)
      expect(nonEmptyLines(r.stderr)).toEqual([`specbundle: arguments: ${problem}`])
      expect(JSON.parse(r.stdout)).toEqual({ diagnostics: [{ scope: "arguments", problem }] })
    }
  })
})

describe("the tokenizer loads only with --tokens", () => {
  /** bin/ copied without the tokenizer bundles, the repository's node_modules beside it (for oxc-parser). */
  const withoutTokenizers = (): string => {
    const dir = tempDir("specbundle-no-tokenizer-")
    const bin = path.join(dir, "bin")
    fs.mkdirSync(bin)
    for (const name of fs.readdirSync(path.join(REPO, "bin"))) {
      if (!name.startsWith("specbundle-tokens-")) fs.copyFileSync(path.join(REPO, "bin", name), path.join(bin, name))
    }
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"))
    return path.join(bin, "specbundle.js")
  }

  it("a build without bin/specbundle-tokens-*.cjs gives the same bytes for every bundle mode and --help; --tokens there is one line, exit 1", () => {
    for (const encoding of ["o200k_base", "cl100k_base"])
      expect(fs.existsSync(path.join(REPO, "bin", `specbundle-tokens-${encoding}.cjs`)), encoding).toBe(true)
    const copy = withoutTokenizers()
    const run = (cli: string, args: ReadonlyArray<string>) => {
      const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", env: cleanEnv(), timeout: 60_000 })
      return { status: r.status, stdout: r.stdout, stderr: r.stderr }
    }
    const out = tempDir("specbundle-no-tokenizer-out-")
    for (const args of [
      ["--help"],
      ["bundle", "--help"],
      ["bundle", ...PACK],
      ["bundle", ...PACK, "--parts", "--budget", "4000"],
      ["bundle", ...PACK, "--parts", "--budget", "4000", "--out", out]
    ]) {
      const theirs = run(copy, args)
      const ours = run(CLI, args)
      expect(theirs.status, `${args.join(" ")}: ${theirs.stderr}`).toBe(0)
      expect(theirs.stdout, args.join(" ")).toBe(ours.stdout)
      expect(theirs.stderr.replaceAll(copy, CLI), args.join(" ")).toBe(ours.stderr)
    }
    for (const encoding of ["o200k_base", "cl100k_base"]) {
      const r = run(copy, ["bundle", ...PACK, "--tokens", encoding])
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(stackLines(r.stderr)).toEqual([])
      expect(nonEmptyLines(r.stderr)).toEqual([
        `specbundle: --tokens ${encoding}: the tokenizer ${path.join(path.dirname(copy), `specbundle-tokens-${encoding}.cjs`)} is missing (reinstall specbundle, or run npm run build in a clone)`
      ])
    }
  })

  it("the MCP server of that build: the bundle tool answers as the CLI without tokens, and with tokens is one error line", async () => {
    const copy = withoutTokenizers()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [copy, "mcp"],
      cwd,
      env: cleanEnv() as Record<string, string>,
      stderr: "pipe"
    })
    const client = new Client({ name: "specbundle-test", version: "1.0.0" })
    await client.connect(transport)
    try {
      const texts = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.content as ReadonlyArray<{ text: string }>).map((c) => c.text)
      const plain = await client.callTool({ name: "bundle", arguments: { root: BIKE_DOCK, pack: "pack:rides-v1" } })
      expect(plain.isError).toBe(false)
      expect(texts(plain)).toEqual([(await runCli(["bundle", ...PACK], cwd)).stdout])
      const counted = await client.callTool({ name: "bundle", arguments: { root: BIKE_DOCK, pack: "pack:rides-v1", tokens: "cl100k_base" } })
      expect(counted.isError).toBe(true)
      // The parameter as the tool names it (`tokens`), where the CLI says `--tokens`.
      expect(texts(counted)).toEqual([
        `specbundle: tokens cl100k_base: the tokenizer ${path.join(path.dirname(copy), "specbundle-tokens-cl100k_base.cjs")} is missing (reinstall specbundle, or run npm run build in a clone)\n`
      ])
    } finally {
      await client.close()
    }
  }, 60_000)

  it("the CLI's and the MCP server's bundles inline no tokenizer: no stretch of the ranks, nor the package's name, is in them", () => {
    const read = (name: string) => fs.readFileSync(path.join(REPO, "bin", name), "utf8")
    for (const encoding of ["o200k_base", "cl100k_base"]) {
      const ranks = read(`specbundle-tokens-${encoding}.cjs`)
      // The ranks are most of the file: three stretches from within them.
      const stretches = [0.25, 0.5, 0.75].map((at) => ranks.slice(Math.floor(ranks.length * at), Math.floor(ranks.length * at) + 48))
      for (const name of ["specbundle-main.cjs", "specbundle-mcp.cjs", "specbundle-front.cjs"]) {
        const text = read(name)
        for (const stretch of stretches) expect(text.includes(stretch), `${name} holds ${JSON.stringify(stretch)}`).toBe(false)
        expect(text).not.toContain("gpt-tokenizer")
      }
    }
  })
})

describe("bundle --budget-tokens", () => {
  it("composes at the code-unit budget it names on stderr: every part within the target, and one code unit more puts a part over it", async () => {
    const out = tempDir("specbundle-budget-tokens-")
    const r = await runCli(["bundle", ...PACK, "--parts", "--tokens", "o200k_base", "--budget-tokens", "1000", "--out", out], cwd)
    expect(r.status, r.stderr).toBe(0)
    const manifest = manifestOf(out)
    const counts = manifest.parts.map((p) => o200k(partText(out, p.file)))
    expect(Math.max(...counts)).toBeLessThanOrEqual(1000)
    expect(nonEmptyLines(r.stderr)).toContain(
      `--budget-tokens 1000 (o200k_base): composed with --budget ${manifest.budget}, the largest code-unit budget found at which every part counts at most 1000 tokens (the largest part: ${Math.max(...counts)}).`
    )
    // The same request with the code-unit budget it chose gives the same bytes; one more is over the target.
    const same = await runCli(["bundle", ...PACK, "--parts", "--budget", String(manifest.budget)], cwd)
    expect(same.stdout).toBe(counts.map((_, i) => partText(out, manifest.parts[i]!.file) + "\n").join(""))
    const more = await runCli(["bundle", ...PACK, "--parts", "--budget", String(manifest.budget + 1)], cwd)
    expect(Math.max(...nonEmptyLines(more.stdout).map((t) => o200k(t)))).toBeGreaterThan(1000)
  })

  it("a target no bundle reaches: the budgetExceeded value (exit 0, or 3 with --fail-on-exceeded) and a line saying so", async () => {
    const r = await runCli(["bundle", ...PACK, "--tokens", "cl100k_base", "--budget-tokens", "50"], cwd)
    expect(r.status, r.stderr).toBe(0)
    const value = JSON.parse(r.stdout) as { budget: number; budgetExceeded: boolean; protectedLength: number }
    expect(value.budgetExceeded).toBe(true)
    expect(value.protectedLength).toBe(value.budget + 1)
    const line = nonEmptyLines(r.stderr).find((l) => l.startsWith("--budget-tokens 50 (cl100k_base): no code-unit budget"))
    expect(line).toMatch(
      new RegExp(`at --budget ${value.protectedLength}, counts \\d+\\); composed with --budget ${value.budget}, which does not fit either\\.$`)
    )
    expect((await runCli(["bundle", ...PACK, "--tokens", "cl100k_base", "--budget-tokens", "50", "--fail-on-exceeded"], cwd)).status).toBe(3)
  })

  it("wrong parameters: exit 2, each problem in the { diagnostics } value and on one stderr line, before the corpus is read", async () => {
    const cases: ReadonlyArray<[ReadonlyArray<string>, ReadonlyArray<string>]> = [
      [["--budget-tokens", "800"], ["--budget-tokens counts in an encoding: give --tokens o200k_base or --tokens cl100k_base."]],
      [["--tokens", "o200k_base", "--budget-tokens", "1.5"], ['--budget-tokens takes a positive integer (tokens), not "1.5".']],
      [["--tokens", "o200k_base", "--budget-tokens", "800", "--budget", "M"], ["Give --budget (UTF-16 code units) or --budget-tokens, not both."]]
    ]
    for (const [args, problems] of cases) {
      // A root that does not exist: the parameters are refused first.
      const r = await runCli(["bundle", "--root", path.join(REPO, "no-such-root"), "--pack", "pack:rides-v1", ...args], cwd)
      expect(r.status, args.join(" ")).toBe(2)
      expect(JSON.parse(r.stdout)).toEqual({ diagnostics: problems.map((problem) => ({ scope: "budget-tokens", problem })) })
      expect(nonEmptyLines(r.stderr)).toEqual([`specbundle: ${problems.map((p) => `budget-tokens: ${p}`).join("; ")}`])
    }
  })
})
