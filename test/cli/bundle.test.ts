// `specbundle bundle` run in process (test/support/run.ts) over real temp copies of the bike-dock
// example (the project's own corpus, in every clone); the built CLI as a subprocess only where the
// process's own time zone and locale are the point. Changeset scopes are in impact.test.ts.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parse as parseYaml } from "yaml"
import { cli } from "../support/cli.js"
import { run, type Run } from "../support/run.js"
import { bikeDockCopy as bikeDockIn, tempDir } from "../support/tmp.js"
import { CONTRACT_LEFT_OUT } from "../support/contract.js"

const PACK = "pack:rides-v1"
const METHOD = "UTF-16 code units divided by four, an estimate"

// The test's own environment (GIT_* kept), with the given variables on top.
const bundle = (cwd: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}): Promise<Run> =>
  run(cwd, ["bundle", ...args], { env: { ...process.env, ...env } })

const bikeDockCopy = (): string => bikeDockIn("specbundle-cli-bike-")

/** The Pack's members as its manifest lists them (read from the file, not from the CLI). */
const manifestMembers = (root: string): string[] => {
  const text = fs.readFileSync(path.join(root, "specs", "rides.pack.sdp.md"), "utf8")
  const front = /^---\n([\s\S]*?)\n---/.exec(text)
  return (parseYaml(front![1]!) as { specs: string[] }).specs
}

/** stdout is exactly one compact JSON line; returns the line and its value. */
const oneLine = (r: Run): { line: string; value: any } => {
  expect(r.stdout.endsWith("\n")).toBe(true)
  const line = r.stdout.slice(0, -1)
  expect(line.includes("\n")).toBe(false)
  const value = JSON.parse(line)
  expect(JSON.stringify(value)).toBe(line)
  return { line, value }
}

const noStackTrace = (text: string) => {
  expect(text).not.toMatch(/^\s+at /m)
  expect(text).not.toMatch(/Error:|FiberFailure|\{ _id:/)
}

/** Exit 2, `{ diagnostics: [{ scope, problem }] }` on stdout, one line on stderr, no stack trace. */
const expectDiagnostics = (r: Run, scope: string, problem?: string | RegExp) => {
  expect(r.status).toBe(2)
  const { value } = oneLine(r)
  expect(Object.keys(value)).toEqual(["diagnostics"])
  expect(value.diagnostics.length).toBeGreaterThan(0)
  for (const d of value.diagnostics) {
    expect(Object.keys(d)).toEqual(["scope", "problem"])
    expect(typeof d.problem).toBe("string")
    expect(d.problem.length).toBeGreaterThan(0)
  }
  expect(value.diagnostics[0].scope).toBe(scope)
  if (typeof problem === "string") expect(value.diagnostics[0].problem).toBe(problem)
  else if (problem !== undefined) expect(value.diagnostics[0].problem).toMatch(problem)
  expect(r.stderr.trim()).not.toBe("")
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1)
  noStackTrace(r.stderr)
  return value.diagnostics as Array<{ scope: string; problem: string }>
}

const BUNDLE_KEYS = ["scope", "budget", "declarations", "used", "tokenEstimate", "leftOut", "pack", "members", "boundary"]
const PART_KEYS = ["scope", "budget", "declarations", "part", "used", "tokenEstimate", "leftOut", "pack", "members", "boundary"]

const expectMeasured = (line: string, value: any) => {
  expect(value.used).toBe(line.length)
  expect(value.tokenEstimate).toEqual({ value: Math.ceil(value.used / 4), method: METHOD })
  expect(value.used).toBeLessThanOrEqual(value.budget)
}

describe("bundle --pack over bike-dock's rides Pack", () => {
  const root = bikeDockCopy()
  // Run lazily: beforeAll may still have to build the bin when this block is collected.
  let firstRun: Promise<Run> | undefined
  const first = (): Promise<Run> => (firstRun ??= bundle(root, ["--pack", PACK]))

  it("exits 0 with one compact JSON line whose length is its used and whose token estimate is ceil(used/4)", async () => {
    expect((await first()).status).toBe(0)
    expect((await first()).stderr).toBe("")
    const { line, value } = oneLine(await first())
    expect(Object.keys(value)).toEqual(BUNDLE_KEYS)
    expect(value.scope).toEqual({ pack: PACK })
    expect(value.budget).toBe(100000)
    expect(value.declarations).toBe("whole")
    expect(value.leftOut).toEqual([])
    expectMeasured(line, value)
    expect(value.pack).toEqual({ id: PACK, title: "Rides v1", framing: expect.any(String) })
  })

  it("lists the members in the manifest's order", async () => {
    const { value } = oneLine(await first())
    const order = manifestMembers(root)
    expect(order).toHaveLength(14)
    expect(value.members.map((m: { id: string }) => m.id)).toEqual(order)
  })

  it("gives byte-identical stdout on a second run and under another time zone and Turkish locale", async () => {
    const again = await bundle(root, ["--pack", PACK])
    expect(again.status).toBe(0)
    expect(again.stdout).toBe((await first()).stdout)
    // A process of its own: the time zone and locale are the process's.
    const elsewhere = cli(root, ["bundle", "--pack", PACK], { env: { ...process.env, TZ: "Pacific/Kiritimati", LANG: "tr_TR.UTF-8", LC_ALL: "tr_TR.UTF-8" } })
    expect(elsewhere.status).toBe(0)
    expect(elsewhere.stdout).toBe((await first()).stdout)
  })

  it("--root reads the corpus from another working folder with the same bytes", async () => {
    const r = await bundle(tempDir("specbundle-cwd-"), ["--root", root, "--pack", PACK])
    expect(r.status).toBe(0)
    expect(r.stdout).toBe((await first()).stdout)
  })

  it("--members gives an ordered subset, says so in scope, and keeps the Pack's framing", async () => {
    const subset = ["spec:rides.unlock-bike", "spec:rides.rider-model"]
    const r = await bundle(root, ["--pack", PACK, "--members", subset.join(",")])
    expect(r.status).toBe(0)
    const { line, value } = oneLine(r)
    expect(value.scope).toEqual({ pack: PACK, members: subset })
    expect(value.members.map((m: { id: string }) => m.id)).toEqual(subset)
    expect(value.pack.id).toBe(PACK)
    expectMeasured(line, value)
  })

  it("--specs lists the members in the given order with the one-hop boundary outside the list", async () => {
    // unlock-bike refines ride-lifecycle, is constrainedBy unlock-latency and decidedBy unlock-by-code
    // (its dependsOn rider-model stays inside); rider-model refines ride-lifecycle.
    const specs = ["spec:rides.rider-model", "spec:rides.unlock-bike"]
    const r = await bundle(root, ["--specs", specs.join(",")])
    expect(r.status).toBe(0)
    const { line, value } = oneLine(r)
    expectMeasured(line, value)
    expect(value.scope).toEqual({ specs })
    expect(value.pack).toBeNull()
    expect(value.members.map((m: { id: string }) => m.id)).toEqual(specs)
    const restsOn = value.boundary.restsOn as Array<{ id: string; via: Array<{ type: string; members: string[] }> }>
    expect(restsOn.map((row) => row.id)).toEqual(["spec:decisions.unlock-by-code", "spec:rides.ride-lifecycle", "spec:rides.unlock-latency"])
    // via.members follow the scope's order, as a Pack's follow its manifest.
    expect(restsOn[1]!.via).toEqual([{ type: "refines", members: specs }])
    for (const row of [...restsOn, ...value.boundary.restedOnBy]) {
      expect(Object.keys(row)).toEqual(["id", "title", "statedReadiness", "implemented", "via"])
      expect(specs).not.toContain(row.id)
    }
    const restedOnBy = value.boundary.restedOnBy.map((row: { id: string }) => row.id) as string[]
    expect(restedOnBy).toEqual([...restedOnBy].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    expect(restedOnBy).toContain("spec:rides.unlock-bike.available-bike")
  })

  it("--budget takes the tiers S, M and L and a plain number", async () => {
    for (const [given, budget] of [
      ["S", 16000],
      ["M", 64000],
      ["L", 200000],
      ["15000", 15000]
    ] as const) {
      const r = await bundle(root, ["--pack", PACK, "--budget", given])
      expect(r.status).toBe(0)
      const { line, value } = oneLine(r)
      expect(value.budget).toBe(budget)
      expectMeasured(line, value)
    }
  })

  it("a budget of exactly the uncut length fits uncut; one less takes the first cut", async () => {
    // A five-digit budget gives the length the five-digit budget itself will measure.
    const probe = oneLine(await bundle(root, ["--pack", PACK, "--budget", "99999"])).value
    expect(probe.leftOut).toEqual([])
    const exact = await bundle(root, ["--pack", PACK, "--budget", String(probe.used)])
    const fits = oneLine(exact)
    expect(fits.value.used).toBe(probe.used)
    expect(fits.value.leftOut).toEqual([])
    const under = oneLine(await bundle(root, ["--pack", PACK, "--budget", String(probe.used - 1)])).value
    expect(under.leftOut.length).toBeGreaterThan(0)
    expect(under.leftOut).toEqual(CONTRACT_LEFT_OUT.slice(0, under.leftOut.length))
  })

  it("a budget below the protected content is the budgetExceeded value, exit 0", async () => {
    const r = await bundle(root, ["--pack", PACK, "--budget", "100"])
    expect(r.status).toBe(0)
    const { value } = oneLine(r)
    expect(Object.keys(value)).toEqual(["scope", "budget", "declarations", "budgetExceeded", "protectedLength", "leftOut"])
    expect(value.budgetExceeded).toBe(true)
    expect(value.protectedLength).toBeGreaterThan(100)
    expect(value.leftOut).toEqual(CONTRACT_LEFT_OUT.slice(0, 6))
  })

  it("--part 2 returns the second part, byte-identical to line 2 of --parts", async () => {
    const streamed = await bundle(root, ["--pack", PACK, "--budget", "4000", "--parts"])
    expect(streamed.status).toBe(0)
    const lines = streamed.stdout.split("\n").filter((l) => l !== "")
    expect(lines.length).toBeGreaterThan(2)
    const r = await bundle(root, ["--pack", PACK, "--budget", "4000", "--part", "2"])
    expect(r.status).toBe(0)
    const { line, value } = oneLine(r)
    expect(line).toBe(lines[1])
    expect(Object.keys(value)).toEqual(PART_KEYS)
    expect(value.part).toEqual({ index: 2, of: lines.length })
    expect(value.boundary).toBeNull()
    expectMeasured(line, value)
  })

  it("--parts streams NDJSON: each line parses, fits the budget, and the parts cover the members once in order", async () => {
    const budget = 4000
    const r = await bundle(root, ["--pack", PACK, "--budget", String(budget), "--parts"])
    expect(r.status).toBe(0)
    expect(r.stdout.endsWith("\n")).toBe(true)
    const lines = r.stdout.slice(0, -1).split("\n")
    const values = lines.map((line) => JSON.parse(line))
    values.forEach((value, i) => {
      const line = lines[i]!
      expect(JSON.stringify(value)).toBe(line)
      expect(line.length).toBeLessThanOrEqual(budget)
      expect(Object.keys(value)).toEqual(PART_KEYS)
      expect(value.part).toEqual({ index: i + 1, of: lines.length })
      expectMeasured(line, value)
      expect(value.scope).toEqual({ pack: PACK })
      expect(value.leftOut).toEqual(values[0].leftOut)
      if (i === 0) expect(value.boundary).not.toBeNull()
      else expect(value.boundary).toBeNull()
    })
    const members = values.flatMap((v) => v.members.map((m: { id: string }) => m.id))
    expect(members).toEqual(manifestMembers(root))
  })

  it("--parts with an item larger than the budget is the partsExceeded value naming it, exit 0", async () => {
    const budget = 1500
    const r = await bundle(root, ["--pack", PACK, "--budget", String(budget), "--parts"])
    expect(r.status).toBe(0)
    const { value } = oneLine(r)
    expect(Object.keys(value)).toEqual(["scope", "budget", "declarations", "part", "budgetExceeded", "oversized", "leftOut"])
    expect(value.part).toEqual({ index: 1, of: null })
    expect(value.budgetExceeded).toBe(true)
    const items = value.oversized.map((o: { item: string }) => o.item) as string[]
    expect(items.length).toBeGreaterThan(0)
    expect(items).not.toContain("header")
    const order = manifestMembers(root)
    expect(items.every((id) => order.includes(id))).toBe(true)
    expect(items).toEqual(order.filter((id) => items.includes(id)))
    for (const o of value.oversized) expect(o.length).toBeGreaterThan(budget)
  })

  it("--format pretty prints the same value indented", async () => {
    const r = await bundle(root, ["--pack", PACK, "--format", "pretty"])
    expect(r.status).toBe(0)
    expect(r.stdout.split("\n").length).toBeGreaterThan(20)
    expect(r.stdout).toMatch(/^\{\n {2}"scope": \{/)
    expect(JSON.stringify(JSON.parse(r.stdout)) + "\n").toBe((await first()).stdout)
  })
})

describe("bundle --declarations", () => {
  const root = bikeDockCopy()
  const RIDES = "pack:rides-v1"

  it("addresses lets the seventh cut fit a budget that whole mode exceeds", async () => {
    // Protected lengths measured with a five-digit budget, as the budgets below are.
    const whole = oneLine(await bundle(root, ["--pack", RIDES, "--budget", "10000"])).value
    const addresses = oneLine(await bundle(root, ["--pack", RIDES, "--budget", "10000", "--declarations", "addresses"])).value
    expect(whole.budgetExceeded).toBe(true)
    expect(addresses.budgetExceeded).toBe(true)
    expect(addresses.declarations).toBe("addresses")
    expect(addresses.protectedLength).toBeLessThan(whole.protectedLength)
    const budget = addresses.protectedLength
    expect(String(budget)).toHaveLength(5)

    const refused = await bundle(root, ["--pack", RIDES, "--budget", String(budget)])
    expect(refused.status).toBe(0)
    expect(oneLine(refused).value.budgetExceeded).toBe(true)

    const r = await bundle(root, ["--pack", RIDES, "--budget", String(budget), "--declarations", "addresses"])
    expect(r.status).toBe(0)
    const { line, value } = oneLine(r)
    expect(value.declarations).toBe("addresses")
    expect(value.leftOut).toEqual(CONTRACT_LEFT_OUT)
    expectMeasured(line, value)
    const unlock = value.members.find((m: { id: string }) => m.id === "spec:rides.unlock-bike")
    expect(unlock.declarations).toEqual(["unlockCommand", "typeUnlockRefusal"])
  })

  it("whole is the default and is stated", async () => {
    const r = await bundle(root, ["--pack", RIDES, "--declarations", "whole"])
    expect(r.status).toBe(0)
    expect(r.stdout).toBe((await bundle(root, ["--pack", RIDES])).stdout)
    expect(oneLine(r).value.declarations).toBe("whole")
  })
})

describe("bundle: every bad value is exit 2 with { diagnostics }", () => {
  const root = bikeDockCopy()
  const pack = ["--pack", PACK]

  it("both scopes, and neither", async () => {
    expectDiagnostics(await bundle(root, [...pack, "--specs", "spec:rides.rider-model"]), "scope")
    expectDiagnostics(await bundle(root, []), "scope")
  })

  it("an unknown Pack and an unknown Spec", async () => {
    expectDiagnostics(await bundle(root, ["--pack", "pack:nope"]), "pack", /pack:nope/)
    expectDiagnostics(await bundle(root, ["--specs", "spec:rides.rider-model,spec:nope"]), "specs", /spec:nope/)
  })

  it("a doubled id in --specs and in --members, and a member outside the Pack", async () => {
    const id = "spec:rides.rider-model"
    expectDiagnostics(await bundle(root, ["--specs", `${id},spec:rides.unlock-bike,${id}`]), "specs", new RegExp(id))
    expectDiagnostics(await bundle(root, [...pack, "--members", `${id},${id}`]), "members", new RegExp(id))
    expectDiagnostics(await bundle(root, [...pack, "--members", "spec:elsewhere.x"]), "members", /spec:elsewhere\.x/)
  })

  it("--declarations nope", async () => {
    expectDiagnostics(await bundle(root, [...pack, "--declarations", "nope"]), "declarations", /nope/)
  })

  it.each(["0", "-1", "1.5", "abc"])("--part %s", async (part) => {
    expectDiagnostics(await bundle(root, [...pack, "--part", part]), "part")
  })

  it.each(["0", "abc", "-5"])("--budget %s", async (budget) => {
    expectDiagnostics(await bundle(root, [...pack, "--budget", budget]), "budget")
  })

  it("a part beyond the count gives the seed's verbatim diagnostic", async () => {
    const r = await bundle(root, [...pack, "--part", "2"])
    expectDiagnostics(r, "part")
    expect(r.stdout).toBe('{"diagnostics":[{"scope":"part","problem":"The bundle has 1 parts."}]}\n')
  })

  it("--part 1 with --parts", async () => {
    expectDiagnostics(await bundle(root, [...pack, "--part", "1", "--parts"]), "part")
  })

  it("an unknown option and a missing option value", async () => {
    expectDiagnostics(await bundle(root, [...pack, "--bogus"]), "arguments", /--bogus/)
    expectDiagnostics(await bundle(root, [...pack, "--budget"]), "arguments")
    expectDiagnostics(await bundle(root, ["--pack"]), "arguments")
  })

  it("neither scope names the flags that give one", async () => {
    expectDiagnostics(await bundle(root, []), "scope", "A bundle takes one scope: give --pack ID, --specs ID,ID,..., --changeset REV or --staged.")
  })

  it("an unknown tier names the known ones, the configuration's included, and the near one", async () => {
    expectDiagnostics(
      await bundle(root, [...pack, "--budget", "XL"]),
      "budget",
      'Unknown budget "XL": give a positive integer (UTF-16 code units) or a tier: S, M, L. Did you mean "L"?'
    )
    expectDiagnostics(await bundle(root, [...pack, "--budget", "m"]), "budget", /or a tier: S, M, L\. Did you mean "M"\?$/)
    const configured = bikeDockCopy()
    fs.writeFileSync(path.join(configured, "specbundle.config.json"), JSON.stringify({ tiers: { XXL: 500000, tiny: 4000 } }))
    expectDiagnostics(await bundle(configured, [...pack, "--budget", "XL"]), "budget", /or a tier: S, M, L, XXL, tiny\./)
  })

  it("--out naming a file, or a path through a file, is a bad parameter naming the file; nothing is written", async () => {
    const file = path.join(tempDir("specbundle-cli-outfile-"), "taken")
    fs.writeFileSync(file, "keep")
    expectDiagnostics(await bundle(root, [...pack, "--out", file]), "out", `--out ${file} is a file, not a folder.`)
    expectDiagnostics(
      await bundle(root, [...pack, "--parts", "--out", path.join(file, "sub")]),
      "out",
      `--out ${path.join(file, "sub")}: ${file} is a file, not a folder.`
    )
    expect(fs.readFileSync(file, "utf8")).toBe("keep")
  })

  it("the diagnostics value is the only thing on stdout and nothing is composed", async () => {
    const r = await bundle(root, ["--pack", "pack:nope", "--format", "pretty"])
    expect(r.status).toBe(2)
    expect(r.stdout.trimEnd().split("\n")).toHaveLength(1)
  })
})
