// Security: no command-line value reaches git as an option, nothing outside the root is read, the
// configuration file is data (never code), and a Spec's text can never change the bundle's shape.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { makeRepo, specCarrier, tempDir } from "../support/git.js"
import { nonEmptyLines, stackLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import type { CliRun } from "../support/hostile.js"

const diagnosticsOf = (run: CliRun): Array<{ scope: string; problem: string }> => {
  expect(run.status).toBe(2)
  expect(stackLines(run.stderr)).toEqual([])
  return (JSON.parse(run.stdout) as { diagnostics: Array<{ scope: string; problem: string }> }).diagnostics
}

describe("no command-line value reaches git as an option", () => {
  const repo = makeRepo()
  repo.write("specs/a.sdp.md", specCarrier("spec:a.one"))
  repo.commit("one")
  const target = path.join(tempDir(), "written-by-git")

  it.each([
    ["--changeset=--output=FILE", [`--changeset=--output=${target}`]],
    ["--changeset --output=FILE", ["--changeset", `--output=${target}`]],
    ["--changeset -p", ["--changeset", "-p"]],
    ["a range A..--foo", ["--changeset", `HEAD..--output=${target}`]],
    ["a range --foo..B", ["--changeset", `--output=${target}..HEAD`]],
    ["a merge-base range A...--foo", ["--changeset", `HEAD...--output=${target}`]]
  ])("%s: exit 2 with a changeset diagnostic, and git writes no file", async (_, args) => {
    for (const command of ["impact", "bundle"]) {
      const run = await runCli([command, ...args], repo.dir)
      const diagnostics = diagnosticsOf(run)
      expect(diagnostics).toHaveLength(1)
      // `--output` is bundle's own option (-o FILE): there the argument pre-check refuses first.
      const own = command === "bundle" && args.some((a) => a.startsWith("--output="))
      expect(diagnostics[0].scope).toBe(own ? "arguments" : "changeset")
      expect(diagnostics[0].problem).toMatch(own ? /^--changeset needs a value/ : /starts with "-"/)
      expect(nonEmptyLines(run.stderr)).toHaveLength(1)
      expect(fs.existsSync(target)).toBe(false)
    }
  })

  it("a revision holding a line break is refused before git sees it", async () => {
    const diagnostics = diagnosticsOf(await runCli(["impact", "--changeset", "HEAD\n--output=/x"], repo.dir))
    expect(diagnostics.map((d) => d.scope)).toEqual(["changeset"])
  })
})

describe("nothing outside the root is read", () => {
  it("a symlinked folder and a symlinked carrier pointing outside are not followed", async () => {
    const root = tempDir("specbundle-sec-root-")
    const outside = tempDir("specbundle-sec-out-")
    fs.mkdirSync(path.join(outside, "specs"))
    fs.writeFileSync(path.join(outside, "specs/secret.sdp.md"), specCarrier("spec:secret.folder", "SECRET FOLDER"))
    fs.writeFileSync(path.join(outside, "lone.sdp.md"), specCarrier("spec:secret.file", "SECRET FILE"))
    fs.mkdirSync(path.join(root, "specs"))
    fs.writeFileSync(path.join(root, "specs/a.sdp.md"), specCarrier("spec:a.one"))
    fs.symlinkSync(path.join(outside, "specs"), path.join(root, "specs/linked"))
    fs.symlinkSync(path.join(outside, "lone.sdp.md"), path.join(root, "specs/lone.sdp.md"))
    const check = await runCli(["check", "--root", root], root)
    expect(check.stdout + check.stderr).not.toContain("SECRET")
    expect(check.stdout + check.stderr).toMatch(/^1 spec, /m)
    for (const id of ["spec:secret.folder", "spec:secret.file"]) {
      const diagnostics = diagnosticsOf(await runCli(["bundle", "--root", root, "--specs", id], root))
      expect(diagnostics[0].problem).toContain(id)
    }
  })

  it("--root sub does not read ../ (neither the working tree nor a changeset)", async () => {
    const repo = makeRepo()
    repo.write("specs/parent.sdp.md", specCarrier("spec:parent.one", "PARENT"))
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:pkg.one", "Package"))
    repo.commit("one")
    repo.write("specs/parent.sdp.md", specCarrier("spec:parent.one", "PARENT edited"))
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:pkg.one", "Package edited"))
    repo.commit("two")
    const check = await runCli(["check", "--root", "pkg"], repo.dir)
    expect(check.stdout + check.stderr).toMatch(/^1 spec, /m)
    expect(diagnosticsOf(await runCli(["bundle", "--root", "pkg", "--specs", "spec:parent.one"], repo.dir))[0].problem).toContain("spec:parent.one")
    const impact = await runCli(["impact", "--root", "pkg", "--changeset", "HEAD~1"], repo.dir)
    expect(impact.status).toBe(0)
    const report = JSON.parse(impact.stdout) as { impactedSpecs: Array<{ id: string }>; outsideRoot: string[] }
    expect(report.impactedSpecs.map((s) => s.id)).toEqual(["spec:pkg.one"])
    expect(report.outsideRoot).toEqual(["specs/parent.sdp.md"])
    const bundle = await runCli(["bundle", "--root", "pkg", "--changeset", "HEAD~1..HEAD"], repo.dir)
    expect(bundle.status).toBe(0)
    expect(bundle.stdout).not.toContain("PARENT")
  })

  it.each([["../x"], ["specs/../../x"], ["/etc"], ["!specs/**"]])("--exclude %s is refused (exit 2)", async (value) => {
    const root = tempDir()
    fs.writeFileSync(path.join(root, "a.sdp.md"), specCarrier("spec:a.one"))
    const diagnostics = diagnosticsOf(await runCli(["bundle", "--root", root, "--specs", "spec:a.one", "--exclude", value], root))
    expect(diagnostics.map((d) => d.scope)).toEqual(["exclude"])
  })
})

describe("the configuration file is data, never code", () => {
  const corpus = (): string => {
    const root = tempDir("specbundle-sec-config-")
    fs.writeFileSync(path.join(root, "a.sdp.md"), specCarrier("spec:a.one"))
    return root
  }
  const marker = (root: string) => path.join(root, "EXECUTED")

  // Written by hand: JSON.stringify would drop a literal __proto__ key.
  it.each([
    ["top level", '{"__proto__": {"budget": 5}}'],
    ["inside profiles", '{"profiles": {"__proto__": {"budget": 5}}}'],
    ["inside tiers", '{"tiers": {"__proto__": 5}}']
  ])('"__proto__" %s is a validation error naming its path (exit 1, one line)', async (_, raw) => {
    const root = corpus()
    fs.writeFileSync(path.join(root, "specbundle.config.json"), raw)
    expect(raw).toContain('"__proto__"')
    const run = await runCli(["bundle", "--root", root, "--specs", "spec:a.one"], root)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe("")
    const lines = nonEmptyLines(run.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/__proto__/)
    expect(stackLines(run.stderr)).toEqual([])
  })

  it.each([
    ["at the top", "[".repeat(100_000) + "]".repeat(100_000), "0.0.0"],
    ["inside a key", `{"exclude": ${"[".repeat(5_000)}${"]".repeat(5_000)}}`, "exclude.0.0"]
  ])("thousands of nested arrays %s are a validation error naming the path, not a stack overflow (exit 1, one line)", async (_, raw, at) => {
    const root = corpus()
    fs.writeFileSync(`${root}/specbundle.config.json`, raw)
    const run = await runCli(["bundle", "--root", root, "--specs", "spec:a.one"], root)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe("")
    const lines = nonEmptyLines(run.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`specbundle.config.json: ${at}.`)
    expect(lines[0]).toMatch(/nests deeper than 32 levels/)
    expect(stackLines(run.stderr)).toEqual([])
  })

  it("a profile name that is an Object.prototype member is an unknown profile, not a match", async () => {
    const root = corpus()
    fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify({ profiles: { small: { budget: 900 } } }))
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const diagnostics = diagnosticsOf(await runCli(["bundle", "--root", root, "--specs", "spec:a.one", "--profile", name], root))
      expect(diagnostics[0].problem).toContain(`unknown profile "${name}"`)
    }
    const small = await runCli(["bundle", "--root", root, "--specs", "spec:a.one", "--profile", "small"], root)
    expect((JSON.parse(small.stdout) as { budget: number }).budget).toBe(900)
  })

  it.each([["evil.js"], ["evil.mjs"], ["evil.cjs"], ["specbundle.config.ts"]])("--config %s is read as JSON, never run", async (name) => {
    const root = corpus()
    const code = `require("node:fs").writeFileSync(${JSON.stringify(marker(root))}, "x")\nmodule.exports = { budget: 1 }\n`
    fs.writeFileSync(path.join(root, name), code)
    const run = await runCli(["bundle", "--root", root, "--specs", "spec:a.one", "--config", path.join(root, name)], root)
    expect(run.status).toBe(1)
    expect(nonEmptyLines(run.stderr)).toHaveLength(1)
    expect(run.stderr).toMatch(/not valid JSON/)
    expect(fs.existsSync(marker(root))).toBe(false)
  })
})

describe("a Spec's text never changes the bundle's structure", () => {
  it("title, narrative and design values full of JSON syntax round-trip exactly as strings", async () => {
    const root = tempDir("specbundle-sec-inject-")
    const title = 'Title "}],"members":[{"id":"spec:evil"}],"x":"</script> \\u0000'
    const narrative = 'Narrative {"members":[]} "}]} \\" \\\\ end'
    const api = '`f("}],\\"members\\":[")` returns {"a":[1,2]}'
    const other = '"}],"members":[ and \\n literal ]]}}'
    fs.mkdirSync(path.join(root, "specs"))
    fs.writeFileSync(
      path.join(root, "specs/a.sdp.md"),
      [
        "---",
        "id: spec:inj.a",
        "kind: behavior",
        "altitude: story",
        "readiness: idea",
        "relations: {}",
        "---",
        `# ${title}`,
        "",
        narrative,
        "",
        "## Design",
        "",
        `- api: ${api}`,
        `- other: ${other}`,
        ""
      ].join("\n")
    )
    fs.writeFileSync(path.join(root, "specs/b.sdp.md"), specCarrier("spec:inj.b", '"]} {"id":"spec:evil2"'))
    for (const extra of [[], ["--parts"]]) {
      const run = await runCli(["bundle", "--root", root, "--specs", "spec:inj.a,spec:inj.b", ...extra], root)
      expect(run.status, run.stderr).toBe(0)
      const values = nonEmptyLines(run.stdout).map(
        (l) => JSON.parse(l) as { members: Array<{ id: string; title: string; narrative: string; sections: { design?: Record<string, string> } }> }
      )
      const members = values.flatMap((v) => v.members)
      expect(members.map((m) => m.id)).toEqual(["spec:inj.a", "spec:inj.b"])
      expect(members[0].title).toBe(title)
      expect(members[0].narrative).toBe(narrative)
      expect(members[0].sections.design).toEqual({ api, other })
      expect(members[1].title).toBe('"]} {"id":"spec:evil2"')
    }
  })
})
