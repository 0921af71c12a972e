// A healthy Pack among hostile files: the CLI (run in process) composes the healthy Pack's bundle exactly as
// if the hostile files were not there, names every broken file with its line on stderr, shows no
// stack trace, reads nothing outside the root, and exits 1 only under --strict.
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { nonEmptyLines, stackLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import type { CliRun } from "../support/hostile.js"
import { tempDir, writeFiles } from "../support/tmp.js"

const spec = (id: string, title: string, relations = "relations: {}", body = "## Rule\n\n- Totals are sums.\n") =>
  `---\nid: ${id}\nkind: rule\naltitude: story\nreadiness: idea\n${relations}\n---\n# ${title}\n\n${body}`

const HEALTHY: Record<string, string> = {
  "specs/ok.pack.sdp.md":
    "---\nid: pack:ok\nspecs:\n  - spec:ok.a\n  - spec:ok.b\n  - spec:ok.c\n  - spec:ok.dangling\nmodelRefs: []\n---\n# The healthy Pack\n\nFraming prose.\n",
  "specs/ok/a.sdp.md": spec("spec:ok.a", "Rule a", "relations:\n  refines: spec:ok.b"),
  "specs/ok/b.sdp.md": spec("spec:ok.b", "Rule b"),
  "specs/ok/c.sdp.md": spec("spec:ok.c", "Rule c", "relations: {}", 'Narrative with "quotes" and ünïcödé.\n\n## Rule\n\n- One.\n- Two.\n'),
  // A dangling relation: the file is healthy, its target exists nowhere.
  "specs/ok/dangling.sdp.md": spec("spec:ok.dangling", "Dangling", "relations:\n  dependsOn: spec:gone.missing")
}

const ALIAS_BOMB = [
  "---",
  "id: spec:bad.bomb",
  "kind: rule",
  "altitude: story",
  "readiness: idea",
  "relations: {}",
  "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
  "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
  "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
  "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
  "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
  "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]",
  "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]",
  "i: [*h, *h, *h, *h, *h, *h, *h, *h, *h]",
  "---",
  "# Billion laughs",
  ""
].join("\n")

/** Broken carriers and the `file:line: code` each must be named with on stderr. */
const BROKEN: Array<[string, string | Uint8Array, string]> = [
  ["specs/bad/yaml.sdp.md", "---\nid: spec:bad.yaml\nkind: [unclosed\naltitude: story\n---\n# Broken YAML\n", "extract/invalid-frontmatter"],
  ["specs/bad/bomb.sdp.md", ALIAS_BOMB, "extract/yaml-alias"],
  ["specs/bad/binary.sdp.md", Uint8Array.from([...Buffer.from("---\nid: spec:bad.bin\n"), 0, 1, 2, 0xff, 0xfe, 10]), "read/binary"],
  ["specs/bad/bom.sdp.md", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(spec("spec:bad.bom", "BOM"))]), "read/bom"],
  ["specs/bad/huge.sdp.md", spec("spec:bad.huge", "Huge", "relations: {}", "word ".repeat((400 * 1024) / 5)), "read/too-large"],
  ["specs/bad/dup1.sdp.md", spec("spec:dup.x", "Duplicate one"), "extract/duplicate-id"],
  ["specs/bad/dup2.sdp.md", spec("spec:dup.x", "Duplicate two"), "extract/duplicate-id"],
  ["specs/bad/gherkin.sdp.gherkin", "@spec.bad.gherkin\nFeature\n  Scenario: \0", "read/binary"]
]

let hostile = ""
let healthyOnly = ""
let outside = ""
let run: CliRun
let clean: CliRun

beforeAll(async () => {
  hostile = tempDir("specbundle-hostile-")
  healthyOnly = tempDir("specbundle-healthy-")
  outside = tempDir("specbundle-outside-")
  writeFiles(healthyOnly, HEALTHY)
  writeFiles(hostile, HEALTHY)
  writeFiles(hostile, Object.fromEntries(BROKEN.map(([file, content]) => [file, content])))
  // Outside the root: a carrier and a folder of carriers that must never be read.
  writeFiles(outside, { "secret.sdp.md": spec("spec:secret.x", "OUTSIDE SECRET"), "more/leak.sdp.md": spec("spec:secret.y", "OUTSIDE LEAK") })
  const bad = path.join(hostile, "specs/bad")
  fs.symlinkSync(path.join(outside, "secret.sdp.md"), path.join(bad, "outside.sdp.md"))
  fs.symlinkSync(outside, path.join(bad, "outside-dir"))
  // Symlink loops: a folder pointing at itself, at its parent, and two carriers pointing at each other.
  fs.symlinkSync(".", path.join(bad, "self"))
  fs.symlinkSync("..", path.join(bad, "parent"))
  fs.symlinkSync("loop-b.sdp.md", path.join(bad, "loop-a.sdp.md"))
  fs.symlinkSync("loop-a.sdp.md", path.join(bad, "loop-b.sdp.md"))
  run = await runCli(["bundle", "--root", hostile, "--pack", "pack:ok", "--verbose"], hostile)
  clean = await runCli(["bundle", "--root", healthyOnly, "--pack", "pack:ok"], healthyOnly)
})

describe("bundle over a hostile corpus", () => {
  it("exits 0, the alias bomb refused as written, not expanded", () => {
    // A run that hung (a symlink loop walked, an alias bomb expanded) ends at runCli's deadline: status null.
    expect(run.stderr).not.toBe("")
    expect(run.status).toBe(0)
    // Work, not time: one finding per anchor or alias the bomb's text holds (8 and 72), never one per expanded value.
    const written = (ALIAS_BOMB.match(/[&*][a-z]\b/g) ?? []).length
    expect(written).toBe(80)
    const bomb = nonEmptyLines(run.stderr).filter((l) => l.startsWith("specs/bad/bomb.sdp.md:"))
    expect(bomb.length).toBeGreaterThan(0)
    expect(bomb.length).toBeLessThanOrEqual(written)
  })

  it("composes the healthy Pack exactly as from a corpus holding only the healthy files", () => {
    expect(clean.status).toBe(0)
    expect(run.stdout).toBe(clean.stdout)
    const bundle = JSON.parse(run.stdout) as {
      members: Array<{ id: string; title: string; sections: unknown; footing: Array<{ id: string; resolved: boolean }> }>
    }
    expect(bundle.members.map((m) => [m.id, m.title])).toEqual([
      ["spec:ok.a", "Rule a"],
      ["spec:ok.b", "Rule b"],
      ["spec:ok.c", "Rule c"],
      ["spec:ok.dangling", "Dangling"]
    ])
    expect(bundle.members[2].sections).toEqual({ behavior: { rules: ["One.", "Two."] } })
    // The dangling relation is kept as data: an unresolved footing row.
    expect(bundle.members[3].footing.map((f) => [f.id, f.resolved])).toEqual([["spec:gone.missing", false]])
  })

  it("names every broken file with its line and code on stderr", () => {
    const lines = nonEmptyLines(run.stderr)
    for (const [file, , code] of BROKEN) {
      const named = lines.filter((l) => l.startsWith(`${file}:`))
      expect(named.length, file).toBeGreaterThan(0)
      expect(
        named.some((l) => new RegExp(`^${file.replace(/\./g, "\\.")}:\\d+: ${code}: `).test(l)),
        `${file} ${code}`
      ).toBe(true)
    }
    // Every stderr line is a finding line.
    for (const l of lines) expect(l).toMatch(/^[^:]+:\d+: [a-z]+\/[a-z0-9-]+: /)
  })

  it("does not follow symlinks: nothing outside the root is read, loops do not hang", () => {
    expect(run.stdout).not.toContain("OUTSIDE")
    expect(run.stderr).not.toContain("OUTSIDE")
    expect(run.stderr).toMatch(/^specs\/bad\/outside\.sdp\.md:0: read\/symlink: warning: /m)
    expect(run.stderr).toMatch(/^specs\/bad\/loop-a\.sdp\.md:0: read\/symlink: /m)
    expect(run.stderr).not.toContain("outside-dir/")
    expect(run.stderr).not.toContain("self/")
  })

  it("prints no stack trace", () => {
    expect(stackLines(run.stderr)).toEqual([])
    expect(stackLines(run.stdout)).toEqual([])
  })

  it("with --strict prints the same value, then exits 1", async () => {
    const strict = await runCli(["bundle", "--root", hostile, "--pack", "pack:ok", "--strict"], hostile)
    expect(strict.status).toBe(1)
    expect(strict.stdout).toBe(clean.stdout)
    expect(stackLines(strict.stderr)).toEqual([])
  })

  it("check lists the refusals and exits 1 without a stack trace", async () => {
    const check = await runCli(["check", "--root", hostile], hostile)
    expect(check.status).toBe(1)
    for (const [file] of BROKEN) expect(check.stdout + check.stderr).toContain(file)
    expect(stackLines(check.stdout + check.stderr)).toEqual([])
  })
})
