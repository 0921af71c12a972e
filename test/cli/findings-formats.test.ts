// Findings for machines: `check --format json|github|sarif` run in process, the workflow
// commands' escaping read back with the runner's parsing rules, the SARIF log validated against the
// SARIF 2.1.0 JSON schema (test/fixtures/sarif, with its source), and `bundle --fail-on-exceeded`.
import { Ajv } from "ajv"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { Finding } from "../../src/core/model.js"
import { escapeCommandData, escapeCommandProperty, findingsGithub } from "../../src/core/render/findings.js"
import { run as inProcess } from "../support/run.js"
import { copyInto, tempDir, writeFiles } from "../support/tmp.js"

const REPO = path.join(import.meta.dirname, "..", "..")
const BIKE_DOCK = path.join(REPO, "examples", "bike-dock")
const SCHEMA = path.join(import.meta.dirname, "..", "fixtures", "sarif", "sarif-schema-2.1.0.json")

const run = async (cwd: string, args: ReadonlyArray<string>) => {
  const r = await inProcess(cwd, args, { env: process.env })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

interface ParsedCommand {
  readonly command: string
  readonly properties: Record<string, string>
  readonly data: string
}

// The runner's reading of `::name k=v,k=v::data` (actions/runner ActionCommand): the first `::`
// after the name ends the properties; values and data are unescaped.
const unescapeProperty = (v: string) => v.replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%")
const unescapeData = (v: string) => v.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%")
const parseCommand = (line: string): ParsedCommand => {
  expect(line.startsWith("::")).toBe(true)
  const end = line.indexOf("::", 2)
  expect(end).toBeGreaterThan(2)
  const head = line.slice(2, end)
  const space = head.indexOf(" ")
  const properties: Record<string, string> = {}
  if (space >= 0) {
    for (const pair of head.slice(space + 1).split(",")) {
      const eq = pair.indexOf("=")
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1))
    }
  }
  return { command: space >= 0 ? head.slice(0, space) : head, properties, data: unescapeData(line.slice(end + 2)) }
}

/** A copy of the example corpus with one refused carrier at an awkward path and one warning. */
const brokenCorpus = (): { root: string; refused: string } => {
  const root = tempDir("specbundle-findings-")
  copyInto(BIKE_DOCK, root)
  const refused = "specs/odd,name:50%.sdp.md"
  writeFiles(root, { [refused]: "---\nid: spec:odd.one\nkind: glossary\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# Odd\n" })
  fs.symlinkSync("rides/ride-fare-rule.sdp.md", path.join(root, "specs/link.sdp.md"))
  return { root, refused }
}

describe("workflow-command escaping", () => {
  const hostile: Finding = {
    file: "specs/a,b:c%d.sdp.md",
    line: 4,
    code: "extract/odd",
    message: "100% wrong:: here,\nsecond line\r\nthird %0A literal",
    severity: "error"
  }

  it("escapes % CR LF in data, and : , as well in properties (GitHub's toolkit rules)", () => {
    expect(escapeCommandData("a%b\r\nc::d,e")).toBe("a%25b%0D%0Ac::d,e")
    expect(escapeCommandProperty("a%b\r\nc::d,e")).toBe("a%25b%0D%0Ac%3A%3Ad%2Ce")
  })

  it("gives one line per finding that reads back to the finding, `::` in the message included", () => {
    const text = findingsGithub([hostile, { ...hostile, line: 0, severity: "warning" }], "pkg")
    const lines = text.split("\n")
    expect(lines.pop()).toBe("")
    expect(lines).toHaveLength(2)
    const [a, b] = lines.map(parseCommand)
    expect(a).toEqual({
      command: "error",
      properties: { file: "pkg/specs/a,b:c%d.sdp.md", line: "4", title: "specbundle extract/odd" },
      data: `extract/odd: ${hostile.message}`
    })
    expect(b.command).toBe("warning")
    expect(b.properties).toEqual({ file: "pkg/specs/a,b:c%d.sdp.md", title: "specbundle extract/odd" })
  })
})

describe("check --format", () => {
  it("json: the findings as one compact JSON list on stdout, exit 1 for the refusal", async () => {
    const { root, refused } = brokenCorpus()
    const r = await run(root, ["check", "--format", "json"])
    expect(r.status).toBe(1)
    expect(r.stdout.endsWith("\n") && !r.stdout.slice(0, -1).includes("\n")).toBe(true)
    const list = JSON.parse(r.stdout) as Finding[]
    expect(list.every((f) => Object.keys(f).join() === "file,line,code,message,severity")).toBe(true)
    const text = (await run(root, ["check"])).stderr
    // The same findings as the text lines, in the same order.
    expect(list.map((f) => `${f.file}:${f.line}: ${f.code}:`)).toEqual(
      text
        .trimEnd()
        .split("\n")
        .slice(0, -1)
        .map((l) => /^(.*?:\d+: [^:]+:)/.exec(l)![1])
    )
    expect(list.some((f) => f.file === refused && f.severity === "error")).toBe(true)
    expect(list.some((f) => f.file === "specs/link.sdp.md" && f.severity === "warning")).toBe(true)
  })

  it("github: workflow commands on stdout, paths from the working folder, each reading back to its finding", async () => {
    const { root, refused } = brokenCorpus()
    const list = JSON.parse((await run(root, ["check", "--format", "json"])).stdout) as Finding[]
    // Run from the folder above the root, as a job runs from the repository's top.
    const r = await run(path.dirname(root), ["check", "--root", path.basename(root), "--format", "github"])
    expect(r.status).toBe(1)
    const parsed = r.stdout.trimEnd().split("\n").map(parseCommand)
    expect(parsed.map((p) => p.command)).toEqual(list.map((f) => f.severity))
    expect(parsed.map((p) => p.properties.file)).toEqual(list.map((f) => `${path.basename(root)}/${f.file}`))
    expect(parsed.map((p) => p.data)).toEqual(list.map((f) => `${f.code}: ${f.message}`))
    expect(parsed.some((p) => p.properties.file.endsWith(refused))).toBe(true)
  })

  it("sarif: a SARIF 2.1.0 log that the schema accepts, rule ids from the finding codes", async () => {
    const { root, refused } = brokenCorpus()
    const list = JSON.parse((await run(root, ["check", "--format", "json"])).stdout) as Finding[]
    const r = await run(root, ["check", "--format", "sarif"])
    expect(r.status).toBe(1)
    const log = JSON.parse(r.stdout)
    // unicodeRegExp off: the schema's language pattern has a stray `]` that a `u` regex refuses.
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false })
    // The schema's formats, checked with the URL parser (ajv ships no format checks of its own).
    ajv.addFormat("uri", (v: string) => URL.canParse(v))
    ajv.addFormat("uri-reference", (v: string) => URL.canParse(v, "file:///") && !/\s/.test(v))
    ajv.addFormat("date-time", (v: string) => !Number.isNaN(Date.parse(v)))
    const validate = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA, "utf8")))
    expect(validate(log), ajv.errorsText(validate.errors)).toBe(true)
    const run0 = log.runs[0]
    expect(run0.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual([...new Set(list.map((f) => f.code))].sort())
    expect(run0.results.map((x: { ruleId: string }) => x.ruleId)).toEqual(list.map((f) => f.code))
    for (const x of run0.results) expect(run0.tool.driver.rules[x.ruleIndex].id).toBe(x.ruleId)
    const uri = run0.results.find((x: { level: string }) => x.level === "error").locations[0].physicalLocation.artifactLocation.uri
    expect(decodeURIComponent(uri)).toBe(refused)
    // A schema that accepts anything would prove nothing: a broken log is refused.
    expect(validate({ ...log, version: "2.0.0" })).toBe(false)
  })
})

describe("bundle --findings github", () => {
  it("writes the findings as workflow commands on stderr and the value alone on stdout", async () => {
    const { root, refused } = brokenCorpus()
    const list = JSON.parse((await run(root, ["check", "--format", "json"])).stdout) as Finding[]
    const r = await run(root, ["bundle", "--pack", "pack:rides-v1", "--findings", "github"])
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout).pack.id).toBe("pack:rides-v1")
    const parsed = r.stderr.trimEnd().split("\n").map(parseCommand)
    // Under the cap every finding is annotated, the refused carrier's first (the cap's order).
    const byRefusal = [...list.filter((f) => f.severity === "error"), ...list.filter((f) => f.severity !== "error")]
    expect(parsed.map((p) => `${p.command} ${p.properties.file}:${p.properties.line ?? 0} ${p.data}`)).toEqual(
      byRefusal.map((f) => `${f.severity} ${f.file}:${f.line} ${f.code}: ${f.message}`)
    )
    expect(parsed.some((p) => p.properties.file === refused)).toBe(true)
  })
})

describe("a real file whose name holds % and ,", () => {
  it("check --format github and bundle --findings github escape it in file= byte for byte", async () => {
    const root = tempDir("specbundle-findings-name-")
    copyInto(BIKE_DOCK, root)
    writeFiles(root, { "specs/100%,done.sdp.md": "---\nid: [unclosed\n---\n# x\n" })
    const check = await run(root, ["check", "--format", "github"])
    expect(check.status).toBe(1)
    const escaped = "file=specs/100%25%2Cdone.sdp.md,line="
    expect(check.stdout.split("\n").filter((l) => l.includes(escaped))).toHaveLength(1)
    const bundle = await run(root, ["bundle", "--pack", "pack:rides-v1", "--findings", "github"])
    expect(bundle.status).toBe(0)
    expect(bundle.stderr.split("\n").filter((l) => l.startsWith("::error ") && l.includes(escaped))).toHaveLength(1)
    expect(bundle.stderr).not.toContain("100%,done")
  })
})

describe("--findings github under the finding cap", () => {
  it("annotates refused carriers first, up to the cap, and makes the tally a notice; --verbose annotates all", async () => {
    const root = tempDir("specbundle-findings-cap-")
    copyInto(BIKE_DOCK, root)
    const bad = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `specs/bad/b${String(i).padStart(2, "0")}.sdp.md`,
        `---\nid: spec:bad.b${i}\nkind: glossary\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# Bad\n`
      ])
    )
    // Warnings that sort before the refusals: a plain cap would annotate only these.
    const typed = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`specs/a/t${String(i).padStart(2, "0")}.sdp.ts`, "export const x = 1\n"]))
    writeFiles(root, { ...bad, ...typed })
    const list = JSON.parse((await run(root, ["check", "--format", "json"])).stdout) as Finding[]
    const refused = [...new Set(list.filter((f) => f.severity === "error").map((f) => f.file))]
    expect(refused).toHaveLength(12)
    const capped = await run(root, ["bundle", "--pack", "pack:rides-v1", "--findings", "github"])
    expect(capped.status).toBe(0)
    const parsed = capped.stderr
      .trimEnd()
      .split("\n")
      .filter((l) => l.startsWith("::"))
      .map(parseCommand)
    const annotated = parsed.slice(0, -1)
    // The cap of 10: the first ten refused carriers, each once; the tally counts the rest.
    expect(annotated.map((p) => `${p.command} ${p.properties.file}`)).toEqual(refused.slice(0, 10).map((f) => `error ${f}`))
    expect(parsed.at(-1)!.command).toBe("notice")
    expect(parsed.at(-1)!.data).toBe(
      `... and ${list.length - 10} more findings in 14 more files (2 refused): specbundle check lists them all (or add --verbose)`
    )
    const all = await run(root, ["bundle", "--pack", "pack:rides-v1", "--findings", "github", "--verbose"])
    expect(
      all.stderr
        .trimEnd()
        .split("\n")
        .filter((l) => l.startsWith("::")).length
    ).toBe(list.length)
  })
})

describe("bundle --fail-on-exceeded", () => {
  it("exits 3 after printing a budgetExceeded value, 0 without the flag, 0 when the bundle fits", async () => {
    const root = tempDir("specbundle-exceeded-")
    copyInto(BIKE_DOCK, root)
    const args = ["bundle", "--pack", "pack:rides-v1", "--budget", "500"]
    const plain = await run(root, args)
    expect(plain.status).toBe(0)
    expect(JSON.parse(plain.stdout).budgetExceeded).toBe(true)
    const gated = await run(root, [...args, "--fail-on-exceeded"])
    expect(gated.status).toBe(3)
    expect(gated.stdout).toBe(plain.stdout)
    expect(gated.stderr).toContain("exit 3 (--fail-on-exceeded)")
    const parts = await run(root, [...args, "--parts", "--fail-on-exceeded"])
    expect(JSON.parse(parts.stdout.trimEnd().split("\n")[0]).budgetExceeded).toBe(true)
    expect(parts.status).toBe(3)
    const fits = await run(root, ["bundle", "--pack", "pack:rides-v1", "--fail-on-exceeded"])
    expect(fits.status).toBe(0)
    expect(JSON.parse(fits.stdout).budgetExceeded).toBeUndefined()
  })
})
