// The configuration file through the CLI run in process (bundle-contract.md section 4): validation
// errors name the key path, --config is relative to the current folder, tiers merge over the
// defaults, profiles set parameters that flags override, and the file's excludes apply.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BIKE_DOCK } from "../support/paths.js"
import { run as inProcess } from "../support/run.js"

const PACK = "pack:rides-v1"

const created: string[] = []
afterAll(async () => created.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

const tempDir = (): string => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-cli-config-")))
  created.push(dir)
  return dir
}

/** The bike-dock example corpus (Specs and anchored code) in a fresh, writable folder. */
const corpus = (config?: unknown): string => {
  const dir = tempDir()
  fs.cpSync(BIKE_DOCK, dir, { recursive: true })
  fs.chmodSync(dir, 0o755)
  if (config !== undefined) fs.writeFileSync(path.join(dir, "specbundle.config.json"), typeof config === "string" ? config : JSON.stringify(config))
  return dir
}

const run = async (cwd: string, args: ReadonlyArray<string>) => {
  const r = await inProcess(cwd, args, { env: process.env })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stderr.split("\n").filter((l) => l !== "") }
}

const value = (stdout: string) => JSON.parse(stdout) as { budget: unknown; declarations: unknown; diagnostics?: Array<{ scope: string; problem: string }> }

describe("configuration file errors", () => {
  it("an unknown key is exit 1 with one stderr line naming its path", async () => {
    const root = corpus({ profiles: { fast: { budgt: 3000 } } })
    const r = await run(root, ["bundle", "--pack", PACK])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("profiles.fast.budgt")
    expect(r.lines[0]).toContain("specbundle.config.json")
  })

  it("a wrong type is exit 1 naming the key's path", async () => {
    const root = corpus({ tiers: { XL: "big" } })
    const r = await run(root, ["bundle", "--pack", PACK])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toContain("tiers.XL")
  })

  it("a negative budget in a profile is exit 1 naming profiles.<name>.budget", async () => {
    const root = corpus({ profiles: { tiny: { budget: -5 } } })
    const r = await run(root, ["bundle", "--pack", PACK])
    expect(r.code).toBe(1)
    expect(r.lines[0]).toContain("profiles.tiny.budget")
  })

  it("invalid JSON is exit 1 with one line and no stack trace", async () => {
    const root = corpus('{ "budget": 5000,')
    const r = await run(root, ["bundle", "--pack", PACK])
    expect(r.code).toBe(1)
    expect(r.lines).toHaveLength(1)
    expect(r.lines[0]).toMatch(/specbundle\.config\.json: not valid JSON/)
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/)
  })

  it("a budget naming no tier, in the file or a profile, is exit 1 naming the file and the key, for check too", async () => {
    const root = corpus({ budget: "XL" })
    const file = path.join(root, "specbundle.config.json")
    for (const args of [["bundle", "--pack", PACK], ["check"]]) {
      const r = await run(root, args)
      expect(r.code).toBe(1)
      expect(r.stdout).toBe("")
      expect(r.lines).toEqual([`specbundle: ${file}: budget: expected a positive integer or a tier name (S, M, L), got a string ("XL"). Did you mean "L"?`])
    }
    const profiled = corpus({ tiers: { XXL: 500000 }, profiles: { wide: { budget: "xxl" } } })
    expect((await run(profiled, ["bundle", "--pack", PACK])).lines).toEqual([
      `specbundle: ${path.join(profiled, "specbundle.config.json")}: profiles.wide.budget: expected a positive integer or a tier name (S, M, L, XXL), got a string ("xxl"). Did you mean "XXL"?`
    ])
    // Integer text still works, as --budget's does.
    expect(value((await run(corpus({ budget: "30000" }), ["bundle", "--pack", PACK])).stdout).budget).toBe(30000)
  })

  it("a configuration path that is a folder is exit 1 with one line naming it (no raw EISDIR)", async () => {
    const root = corpus()
    const named = await run(root, ["check", "--config", "specs"])
    expect(named.code).toBe(1)
    expect(named.lines).toEqual([
      `specbundle: ${path.join(root, "specs")}: is a folder, not a configuration file; --config takes a JSON file such as specbundle.config.json`
    ])
    fs.mkdirSync(path.join(root, "specbundle.config.json"))
    const found = await run(root, ["check"])
    expect(found.code).toBe(1)
    expect(found.lines).toEqual([`specbundle: ${path.join(root, "specbundle.config.json")}: is a folder, not a configuration file`])
  })

  it("check also refuses a broken configuration file", async () => {
    const root = corpus({ exclude: "drafts" })
    const r = await run(root, ["check"])
    expect(r.code).toBe(1)
    expect(r.lines[0]).toContain("exclude")
  })
})

describe("--config", () => {
  it("is resolved against the current folder, not the root, and replaces <root>/specbundle.config.json", async () => {
    const root = corpus({ budget: 11111 })
    const cwd = tempDir()
    fs.mkdirSync(path.join(cwd, "conf"))
    fs.writeFileSync(path.join(cwd, "conf", "c.json"), JSON.stringify({ budget: 22222 }))
    const r = await run(cwd, ["bundle", "--root", root, "--pack", PACK, "--config", "conf/c.json"])
    expect(r.code).toBe(0)
    expect(value(r.stdout).budget).toBe(22222)
    // Without --config the root's own file is read.
    expect(value((await run(cwd, ["bundle", "--root", root, "--pack", PACK])).stdout).budget).toBe(11111)
  })

  it("a --config file that does not exist is exit 1 naming it", async () => {
    const root = corpus()
    const r = await run(root, ["bundle", "--pack", PACK, "--config", "missing.json"])
    expect(r.code).toBe(1)
    expect(r.lines).toEqual([`specbundle: ${path.join(root, "missing.json")}: configuration file not found`])
  })
})

describe("tiers", () => {
  it("the default tiers give --budget M = 64000 and the default budget is 100000", async () => {
    const root = corpus()
    expect(value((await run(root, ["bundle", "--pack", PACK, "--budget", "M"])).stdout).budget).toBe(64000)
    expect(value((await run(root, ["bundle", "--pack", PACK])).stdout).budget).toBe(100000)
  })

  it("config tiers merge over the defaults: a new tier XL, an overridden M, S kept", async () => {
    const root = corpus({ tiers: { XL: 400000, M: 50000 } })
    expect(value((await run(root, ["bundle", "--pack", PACK, "--budget", "XL"])).stdout).budget).toBe(400000)
    expect(value((await run(root, ["bundle", "--pack", PACK, "--budget", "M"])).stdout).budget).toBe(50000)
    expect(value((await run(root, ["bundle", "--pack", PACK, "--budget", "S"])).stdout).budget).toBe(16000)
  })

  it("the file's budget may name a tier; a flag overrides it", async () => {
    const root = corpus({ budget: "XL", tiers: { XL: 300000 } })
    expect(value((await run(root, ["bundle", "--pack", PACK])).stdout).budget).toBe(300000)
    expect(value((await run(root, ["bundle", "--pack", PACK, "--budget", "L"])).stdout).budget).toBe(200000)
  })

  it("an unknown tier name is exit 2 with a budget diagnostic", async () => {
    const root = corpus()
    const r = await run(root, ["bundle", "--pack", PACK, "--budget", "XXL"])
    expect(r.code).toBe(2)
    expect(value(r.stdout).diagnostics?.some((d) => d.scope === "budget")).toBe(true)
  })
})

describe("profiles", () => {
  const config = { profiles: { small: { budget: "S", declarations: "addresses" }, big: { budget: 150000 } } }

  it("--profile small sets budget and declarations", async () => {
    const root = corpus(config)
    const r = await run(root, ["bundle", "--pack", PACK, "--profile", "small"])
    expect(r.code).toBe(0)
    expect(value(r.stdout)).toMatchObject({ budget: 16000, declarations: "addresses" })
  })

  it("a flag overrides the profile, the profile's other settings stay", async () => {
    const root = corpus(config)
    const r = await run(root, ["bundle", "--pack", PACK, "--profile", "small", "--budget", "20000"])
    expect(value(r.stdout)).toMatchObject({ budget: 20000, declarations: "addresses" })
    const w = await run(root, ["bundle", "--pack", PACK, "--profile", "small", "--declarations", "whole"])
    expect(value(w.stdout)).toMatchObject({ budget: 16000, declarations: "whole" })
  })

  it("an unknown profile is exit 2 with a diagnostics value naming the known ones", async () => {
    const root = corpus(config)
    const r = await run(root, ["bundle", "--pack", PACK, "--profile", "fast"])
    expect(r.code).toBe(2)
    const d = value(r.stdout).diagnostics ?? []
    expect(d).toHaveLength(1)
    expect(d[0].scope).toBe("profile")
    expect(d[0].problem).toContain('"fast"')
    expect(d[0].problem).toContain("small, big")
  })

  it("--profile without any configuration file is exit 2", async () => {
    const root = corpus()
    const r = await run(root, ["bundle", "--pack", PACK, "--profile", "small"])
    expect(r.code).toBe(2)
    expect(value(r.stdout).diagnostics?.[0].scope).toBe("profile")
  })
})

describe("config exclude", () => {
  const broken = "---\nid: spec:drafts-broken\nkind: rule\n---\nno closing front matter here\n"

  it("the file's exclude keeps a broken draft out of check and bundle, and is recorded in the manifest", async () => {
    const root = corpus()
    fs.mkdirSync(path.join(root, "drafts"))
    fs.writeFileSync(path.join(root, "drafts", "broken.sdp.md"), broken)
    // Without the config the draft is refused.
    const before = await run(root, ["check"])
    expect(before.code).toBe(1)
    expect(before.stderr).toContain("drafts/broken.sdp.md")

    fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify({ exclude: ["drafts"] }))
    const after = await run(root, ["check"])
    expect(after.code).toBe(0)
    expect(after.stderr).not.toContain("drafts/")

    const out = path.join(tempDir(), "out")
    const b = await run(root, ["bundle", "--pack", PACK, "--out", out])
    expect(b.code).toBe(0)
    expect(b.stderr).not.toContain("drafts/")
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"))
    expect(manifest.builtFrom.exclude).toEqual(["drafts"])
    expect(manifest.builtFrom.config).toBe(path.join(root, "specbundle.config.json"))
    expect(manifest.builtFrom.files.map((f: { path: string }) => f.path).some((p: string) => p.startsWith("drafts/"))).toBe(false)
  })

  it("a profile's exclude adds to the file's", async () => {
    const root = corpus({ exclude: ["drafts"], profiles: { lean: { exclude: ["src"] } } })
    const out = path.join(tempDir(), "out")
    expect((await run(root, ["bundle", "--pack", PACK, "--profile", "lean", "--exclude", "test", "--out", out])).code).toBe(0)
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"))
    expect(manifest.builtFrom.exclude).toEqual(["drafts", "src", "test"])
  })
})
