// The CLI run in process on copies of the example corpus (examples/bike-dock): argument
// mistakes say what is wrong, unknown ids get the known ones or a did-you-mean, `list`, excludes
// (./, trailing /, globs, unmatched ones warned), budgetExceeded's stderr line, the finding cap,
// and impact's text summary. Stale, tickets and config errors: stale-guide.test.ts.
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import type { CliRun } from "../support/hostile.js"
import { nonEmptyLines, stackLines } from "../support/hostile.js"
import { runCli } from "../support/run.js"
import { exampleHistory } from "../support/git.js"
import { tempDir } from "../support/tmp.js"
import { spawnSync } from "node:child_process"

const EXAMPLE = path.resolve("examples/bike-dock")

/** A fresh copy of the example corpus (no git). */
const corpus = (): string => {
  const dir = path.join(tempDir("specbundle-guide-"), "bike-dock")
  fs.cpSync(EXAMPLE, dir, { recursive: true })
  return dir
}

/** The example corpus in a git repository with two commits (examples/make-history.mjs). */
const history = (): string => exampleHistory("specbundle-guide-git-").dir

const problemOf = (r: CliRun): string => {
  expect(r.status).toBe(2)
  expect(nonEmptyLines(r.stderr)).toHaveLength(1)
  expect(stackLines(r.stderr)).toEqual([])
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: Array<{ scope: string; problem: string }> }
  return diagnostics.map((d) => d.problem).join(" | ")
}

describe("argument mistakes say what is wrong", () => {
  let root = ""
  beforeAll(() => {
    root = corpus()
  })

  it("--budget with no value (at the end, or before another option) names the missing value", async () => {
    expect(problemOf(await runCli(["bundle", "--pack", "pack:rides-v1", "--budget"], root))).toBe("--budget needs a value: --budget N|TIER.")
    expect(problemOf(await runCli(["bundle", "--budget", "--pack", "pack:rides-v1"], root))).toBe("--budget needs a value: --budget N|TIER.")
  })

  it("--budget given twice says so, with both values", async () => {
    expect(problemOf(await runCli(["bundle", "--pack", "pack:rides-v1", "--budget", "S", "--budget", "M"], root))).toBe(
      '--budget is given twice ("S" and "M"); give it once.'
    )
  })

  it("a value a choice option does not take names the option and its choices", async () => {
    expect(problemOf(await runCli(["bundle", "--pack", "pack:rides-v1", "--format", "jsn"], root))).toBe(
      `--format takes json, pretty, ndjson, not "jsn". Did you mean 'json'?`
    )
  })

  it("a word a command does not take names the words it does, with the nearest", async () => {
    expect(problemOf(await runCli(["list", "pack"], root))).toBe(`specbundle list takes packs, specs, not "pack". Did you mean 'packs'?`)
    expect(problemOf(await runCli(["list", "--format", "json", "nope"], root))).toBe(`specbundle list takes packs, specs, not "nope".`)
    expect(problemOf(await runCli(["hook", "run", "pre-comit"], root))).toBe(
      `specbundle hook run takes pre-commit, pre-push, session-start, user-prompt-submit, not "pre-comit". Did you mean 'pre-commit'?`
    )
  })

  it("a stray word says where an id would go", async () => {
    expect(problemOf(await runCli(["bundle", "pack:rides-v1"], root))).toContain("(a Pack id goes after --pack: --pack pack:rides-v1)")
    expect(problemOf(await runCli(["list", "packs", "specs"], root))).toContain("unexpected argument 'specs'")
  })

  it("--exclude may repeat", async () => {
    expect((await runCli(["bundle", "--pack", "pack:rides-v1", "--exclude", "src", "--exclude", "test"], root)).status).toBe(0)
  })

  it("an unknown option or command gets a did-you-mean", async () => {
    expect(problemOf(await runCli(["bundle", "--bugdet", "S"], root))).toContain("Did you mean '--budget'?")
    expect(problemOf(await runCli(["impcat", "--staged"], root))).toContain("Did you mean 'impact'?")
  })

  it("an unknown Pack lists the known Packs; a misspelt one gets the near one first", async () => {
    expect(problemOf(await runCli(["bundle", "--pack", "pack:nope"], root))).toBe('Unknown Pack "pack:nope". Known Packs: pack:docks-v1, pack:rides-v1.')
    expect(problemOf(await runCli(["bundle", "--pack", "pack:ride-v1"], root))).toBe(
      'Unknown Pack "pack:ride-v1". Did you mean "pack:rides-v1"? Known Packs: pack:docks-v1, pack:rides-v1.'
    )
  })

  it("an unknown Spec id gets a did-you-mean when one is near", async () => {
    expect(problemOf(await runCli(["bundle", "--specs", "spec:rides.ride-fare-rul"], root))).toBe(
      'Unknown Spec "spec:rides.ride-fare-rul". Did you mean "spec:rides.ride-fare-rule"?'
    )
  })
})

describe("list packs|specs", () => {
  let root = ""
  beforeAll(() => {
    root = corpus()
  })

  it("text: one Pack a line, in id order", async () => {
    const r = await runCli(["list", "packs"], root)
    expect(r.status).toBe(0)
    expect(nonEmptyLines(r.stdout).map((l) => l.split(/\s+/)[0])).toEqual(["pack:docks-v1", "pack:rides-v1"])
  })

  it("json: every Spec with kind, title and file, in id order; the ids bundle --specs accepts", async () => {
    const r = await runCli(["list", "specs", "--format", "json"], root)
    expect(r.status).toBe(0)
    const { specs } = JSON.parse(r.stdout) as { specs: Array<{ id: string; kind: string; title: string; file: string }> }
    expect(specs).toHaveLength(23)
    const ids = specs.map((s) => s.id)
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    for (const s of specs) expect(fs.existsSync(path.join(root, s.file))).toBe(true)
    expect((await runCli(["bundle", "--specs", ids.slice(0, 3).join(",")], root)).status).toBe(0)
  })

  it("an unknown kind is refused with exit 2", async () => {
    expect((await runCli(["list", "anchors"], root)).status).toBe(2)
  })
})

describe("--exclude", () => {
  let root = ""
  const listed = async (...extra: string[]) => {
    const r = await runCli(["list", "specs", "--format", "json", ...extra], root)
    expect(r.status, r.stderr).toBe(0)
    return { ids: (JSON.parse(r.stdout) as { specs: Array<{ id: string }> }).specs.map((s) => s.id), stderr: r.stderr }
  }
  beforeAll(() => {
    root = corpus()
  })

  it("a trailing / and a leading ./ mean the same folder as the plain path", async () => {
    const plain = (await listed("--exclude", "specs/decisions")).ids
    expect(plain).toHaveLength(19)
    expect(plain.some((id) => id.startsWith("spec:decisions."))).toBe(false)
    for (const spelling of ["specs/decisions/", "./specs/decisions", "./specs/decisions/"]) expect((await listed("--exclude", spelling)).ids).toEqual(plain)
  })

  it("globs match the path and each of its folders", async () => {
    const plain = (await listed("--exclude", "specs/decisions")).ids
    expect((await listed("--exclude", "specs/decisions/**")).ids).toEqual(plain)
    expect((await listed("--exclude", "**/decisions")).ids).toEqual(plain)
    const noUnlock = (await listed("--exclude", "specs/**/unlock-*.sdp.md")).ids
    expect(noUnlock.filter((id) => id.startsWith("spec:rides.unlock-"))).toEqual([])
    const unlockFiles = fs.readdirSync(path.join(root, "specs"), { recursive: true }).filter((f) => /(^|\/)unlock-[^/]*\.sdp\.md$/.test(String(f)))
    expect(unlockFiles.length).toBeGreaterThan(2)
    expect(noUnlock.length).toBe(23 - unlockFiles.length)
  })

  it("an exclude that matches nothing is said on stderr, never ignored silently", async () => {
    const r = await listed("--exclude", "explorations/**", "--exclude", "drafts")
    expect(r.ids).toHaveLength(23)
    expect(nonEmptyLines(r.stderr)).toEqual([
      `specbundle: warning: exclude "explorations/**" matches nothing under .`,
      `specbundle: warning: exclude "drafts" matches nothing under .`
    ])
    expect(nonEmptyLines((await runCli(["check", "--exclude", "drafts", "--quiet"], root)).stderr)).toEqual([])
  })

  it("an exclude is judged by the run's own read: staged (git's listing, no walk) and one run after another in the same process", async () => {
    const dir = history()
    fs.appendFileSync(path.join(dir, "specs/rides/unlock-bike.sdp.md"), "\nStaged prose.\n")
    spawnSync("git", ["add", "-A"], { cwd: dir })
    const staged = (exclude: string) => runCli(["impact", "--staged", "--exclude", exclude], dir)
    // The index's files are listed by git, not walked: an exclude that leaves one out matched.
    const matching = await staged("specs/decisions")
    expect(matching.status).toBe(0)
    expect(nonEmptyLines(matching.stderr).filter((l) => l.includes("matches nothing"))).toEqual([])
    // The next run in this process, the same exclude on a corpus without that folder (gone in a
    // commit, so neither side of the staged change holds it): it matched nothing there.
    fs.rmSync(path.join(dir, "specs/decisions"), { recursive: true })
    spawnSync("git", ["add", "-A"], { cwd: dir })
    spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "decisions gone"], { cwd: dir })
    fs.appendFileSync(path.join(dir, "specs/rides/unlock-bike.sdp.md"), "\nStaged again.\n")
    spawnSync("git", ["add", "-A"], { cwd: dir })
    expect(nonEmptyLines((await staged("specs/decisions")).stderr).filter((l) => l.includes("matches nothing"))).toEqual([
      `specbundle: warning: exclude "specs/decisions" matches nothing under .`
    ])
  })

  it("what cannot be an exclude is refused on one line with exit 2", async () => {
    for (const bad of ["!specs/**", "../x", "/etc", "."])
      expect(problemOf(await runCli(["bundle", "--pack", "pack:rides-v1", "--exclude", bad], root))).toContain(bad)
  })

  it("the configuration file's excludes follow the same rule; a refused one is exit 1 naming the file", async () => {
    const dir = corpus()
    fs.writeFileSync(path.join(dir, "specbundle.config.json"), JSON.stringify({ exclude: ["./specs/decisions/"] }))
    const r = await runCli(["list", "specs", "--format", "json"], dir)
    expect(r.status).toBe(0)
    expect((JSON.parse(r.stdout) as { specs: unknown[] }).specs).toHaveLength(19)
    fs.writeFileSync(path.join(dir, "specbundle.config.json"), JSON.stringify({ exclude: ["../outside"] }))
    const bad = await runCli(["list", "specs"], dir)
    expect(bad.status).toBe(1)
    expect(nonEmptyLines(bad.stderr)).toHaveLength(1)
    expect(bad.stderr).toContain("specbundle.config.json: exclude:")
  })
})

describe("budgetExceeded", () => {
  let root = ""
  beforeAll(() => {
    root = corpus()
  })

  it("exit 0 with the value, and one stderr line naming a budget that fits", async () => {
    const r = await runCli(["bundle", "--pack", "pack:rides-v1", "--budget", "3000"], root)
    expect(r.status).toBe(0)
    expect((JSON.parse(r.stdout) as { budgetExceeded?: boolean }).budgetExceeded).toBe(true)
    const lines = nonEmptyLines(r.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("--parts")
    const fits = /--budget (\d+) or more fits/.exec(lines[0])
    expect(fits).not.toBeNull()
    const again = await runCli(["bundle", "--pack", "pack:rides-v1", "--budget", fits![1]], root)
    expect(again.status).toBe(0)
    expect(JSON.parse(again.stdout)).not.toHaveProperty("budgetExceeded")
    expect(again.stderr).toBe("")
    const under = await runCli(["bundle", "--pack", "pack:rides-v1", "--budget", String(Number(fits![1]) - 1)], root)
    expect(JSON.parse(under.stdout)).toHaveProperty("budgetExceeded", true)
  })

  it("with --parts, an item too big for one part: the line names it and a budget that fits", async () => {
    const r = await runCli(["bundle", "--pack", "pack:rides-v1", "--budget", "900", "--parts"], root)
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout)).toHaveProperty("oversized")
    const lines = nonEmptyLines(r.stderr)
    expect(lines).toHaveLength(1)
    const fits = /--budget (\d+) or more fits/.exec(lines[0])
    expect(fits).not.toBeNull()
    const again = await runCli(["bundle", "--pack", "pack:rides-v1", "--budget", fits![1], "--parts"], root)
    expect(again.status).toBe(0)
    for (const line of nonEmptyLines(again.stdout)) expect(JSON.parse(line)).not.toHaveProperty("budgetExceeded")
  })
})

describe("corpus findings on stderr are capped", () => {
  let root = ""
  beforeAll(() => {
    root = corpus()
    // 5 refused carriers and 20 warnings (.sdp.ts carriers are named, not read).
    for (let i = 1; i <= 5; i++) fs.writeFileSync(path.join(root, "specs", `broken-${String(i).padStart(2, "0")}.sdp.md`), "---\nid: [unclosed\n---\n# x\n")
    for (let i = 1; i <= 20; i++) fs.writeFileSync(path.join(root, "specs", `typed-${String(i).padStart(2, "0")}.sdp.ts`), "export const x = 1\n")
  })
  const findingLines = (stderr: string) => nonEmptyLines(stderr).filter((l) => /^specs\/(broken|typed)-\d+\.sdp\.(md|ts):\d+: /.test(l))
  const refusedLines = (stderr: string) => nonEmptyLines(stderr).filter((l) => /^specs\/broken-\d+\.sdp\.md:\d+: /.test(l))

  it("bundle shows 10 (the refused carriers first), then one tally line naming check and --verbose", async () => {
    const r = await runCli(["bundle", "--pack", "pack:rides-v1"], root)
    expect(r.status).toBe(0)
    const lines = nonEmptyLines(r.stderr)
    expect(findingLines(r.stderr)).toHaveLength(10)
    expect(refusedLines(r.stderr)).toHaveLength(5)
    expect(lines).toHaveLength(11)
    // The 5 refused carriers first, then 5 of the warnings; the other 15 files are counted.
    expect(lines.slice(0, 5).every((l) => /^specs\/broken-0[1-5]\.sdp\.md:/.test(l))).toBe(true)
    expect(lines[10]).toBe("... and 15 more findings in 15 more files: specbundle check lists them all (or add --verbose)")
  })

  it("--quiet shows only the refusals; --verbose and check list all", async () => {
    expect(nonEmptyLines((await runCli(["bundle", "--pack", "pack:rides-v1", "--quiet"], root)).stderr)).toEqual(
      refusedLines((await runCli(["check"], root)).stderr)
    )
    expect(findingLines((await runCli(["bundle", "--pack", "pack:rides-v1", "--verbose"], root)).stderr)).toHaveLength(25)
    const check = await runCli(["check"], root)
    expect(check.status).toBe(1)
    expect(findingLines(check.stderr)).toHaveLength(25)
    expect(check.stderr).not.toContain("more findings")
  })

  it("impact: more refused carriers than the cap gives 10 of them and one tally line counting the rest", async () => {
    const repo = history()
    for (let i = 1; i <= 12; i++) fs.writeFileSync(path.join(repo, "specs", `broken-${i}.sdp.md`), "---\nid: [unclosed\n---\n# x\n")
    const r = await runCli(["impact", "--changeset", "HEAD~1"], repo)
    expect(r.status).toBe(0)
    expect(refusedLines(r.stderr)).toHaveLength(10)
    expect(nonEmptyLines(r.stderr)).toHaveLength(11)
    expect(nonEmptyLines(r.stderr).at(-1)).toBe("... and 2 more findings in 2 more files (all refused): specbundle check lists them all (or add --verbose)")
  })
})

describe("impact --format text", () => {
  it("starts with the counts, then the detail", async () => {
    const repo = history()
    const json = JSON.parse((await runCli(["impact", "--changeset", "HEAD~1"], repo)).stdout) as Record<string, unknown[]>
    const r = await runCli(["impact", "--changeset", "HEAD~1", "--format", "text"], repo)
    expect(r.status).toBe(0)
    const lines = r.stdout.split("\n")
    const n = (key: string) => json[key].length
    expect(lines[1]).toMatch(
      new RegExp(
        `^${n("impactedSpecs")} impacted, ${n("impactedPacks")} packs, ${n("removedSpecs")} removed, ${n("atRisk")} at risk, ${n("coverageUnknown")} uncovered \\(`
      )
    )
    expect(n("impactedSpecs")).toBe(2)
    expect(lines.findIndex((l) => l.startsWith("impacted specs ("))).toBeGreaterThan(1)
  })
})
