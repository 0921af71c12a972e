// GitLab through the CLI run in process: `check --format gitlab` and `impact --format gitlab` validated
// against GitLab's own issue schema and the format its documentation states (test/fixtures/gitlab,
// with their source), fingerprints that survive an edit above, a move to another machine and a
// second run, and the Markdown report's links in a GitLab CI job.
import { Ajv, type ValidateFunction } from "ajv"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { Finding } from "../../src/core/model.js"
import { gitCleanEnv, REPO } from "../support/cli.js"
import { run, type Run } from "../support/run.js"
import { codeAnchor, makeRepo, runGitIn, specCarrier } from "../support/git.js"
import { copyInto, tempDir, writeFiles } from "../support/tmp.js"

const BIKE_DOCK = path.join(REPO, "examples", "bike-dock")
const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "gitlab")

interface Issue {
  readonly description: string
  readonly check_name: string
  readonly fingerprint: string
  readonly severity: string
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } }
}

const ajv = new Ajv({ allErrors: true, strict: false })
const gitlabIssue: ValidateFunction = ajv.compile(JSON.parse(fs.readFileSync(path.join(FIXTURES, "codeclimate.json"), "utf8")))
const documented: ValidateFunction = ajv.compile(JSON.parse(fs.readFileSync(path.join(FIXTURES, "code-quality-documented.schema.json"), "utf8")))

/** The report as GitLab reads it: one JSON array, no BOM, every issue valid (its parser stops at the first that is not). */
const report = (r: Run): Issue[] => {
  expect(r.stdout.charCodeAt(0)).not.toBe(0xfeff)
  const issues = JSON.parse(r.stdout) as Issue[]
  expect(Array.isArray(issues)).toBe(true)
  for (const issue of issues) expect(gitlabIssue(issue), ajv.errorsText(gitlabIssue.errors)).toBe(true)
  expect(documented(issues), ajv.errorsText(documented.errors)).toBe(true)
  expect(r.stdout).toBe(`${JSON.stringify(issues, null, 2)}\n`)
  return issues
}

/** The example corpus with one refused carrier, one warning, two identical problems in one file and a duplicated anchor id. */
const brokenCorpus = (root: string): void => {
  copyInto(BIKE_DOCK, root)
  writeFiles(root, {
    "specs/odd.sdp.md": "---\nid: spec:odd.one\nkind: glossary\naltitude: story\nreadiness: idea\nrelations: {}\n---\n# Odd\n",
    "src/odd.ts": "/**\n * @sdpAnchor impl:x.one two\n */\nexport const a = 1\n/**\n * @sdpAnchor impl:x.one two\n */\nexport const b = 1\n",
    "src/d1.ts": "/**\n * @sdpAnchor impl:dup.one\n */\nexport const a = 1\n",
    "src/d2.ts": "/**\n * @sdpAnchor impl:dup.one\n */\nexport const a = 1\n"
  })
  fs.symlinkSync("rides/ride-fare-rule.sdp.md", path.join(root, "specs/link.sdp.md"))
}

describe("check --format gitlab", () => {
  it("prints a Code Quality report both schemas accept: one issue per finding, in order, exit 1 for the refusal", async () => {
    const top = tempDir("specbundle-gitlab-")
    runGitIn(top, ["init", "-q"])
    brokenCorpus(path.join(top, "corpus"))
    const list = JSON.parse((await run(path.join(top, "corpus"), ["check", "--format", "json"])).stdout) as Finding[]
    // Run from the repository's top, as a GitLab job does: paths are relative to it.
    const r = await run(top, ["check", "--root", "corpus", "--format", "gitlab"])
    expect(r.status).toBe(1)
    const issues = report(r)
    expect(issues.map((i) => `${i.location.path}:${i.location.lines.begin} ${i.check_name} ${i.severity} ${i.description}`)).toEqual(
      list.map((f) => `corpus/${f.file}:${Math.max(1, f.line)} ${f.code} ${f.severity === "error" ? "major" : "minor"} specbundle ${f.code}: ${f.message}`)
    )
    expect(issues.some((i) => i.severity === "minor" && i.location.path === "corpus/specs/link.sdp.md")).toBe(true)
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length)
    // The count line still goes to stderr; stdout is the report alone.
    expect(r.stderr).toMatch(/findings\n$/)
    // A schema that accepts anything would prove nothing.
    expect(documented([{ ...issues[0], severity: "error" }])).toBe(false)
    expect(documented([{ ...issues[0], location: { path: issues[0].location.path } }])).toBe(false)
    expect(gitlabIssue({ ...issues[0], fingerprint: undefined })).toBe(false)
  })

  it("prints [] for a corpus without findings, exit 0", async () => {
    const r = await run(BIKE_DOCK, ["check", "--format", "gitlab"])
    expect(r.status).toBe(0)
    expect(report(r)).toEqual([])
    expect(r.stdout).toBe("[]\n")
  })

  it("gives the same bytes on a second run and on another machine (another folder), and keeps fingerprints through edits above", async () => {
    const a = tempDir("specbundle-gitlab-a-")
    const b = tempDir("specbundle-gitlab-b-")
    brokenCorpus(a)
    brokenCorpus(b)
    const first = await run(a, ["check", "--format", "gitlab"])
    expect((await run(a, ["check", "--format", "gitlab"])).stdout).toBe(first.stdout)
    expect((await run(b, ["check", "--format", "gitlab"])).stdout).toBe(first.stdout)
    const before = report(first)

    // Unrelated lines above every problem: in src/odd.ts (above the pair) and src/d2.ts (whose
    // line d1.ts's duplicate-id message quotes).
    const prepend = (file: string, text: string) => fs.writeFileSync(path.join(b, file), text + fs.readFileSync(path.join(b, file), "utf8"))
    prepend("src/odd.ts", "// one\n// two\n// three\n")
    prepend("src/d2.ts", "// moved down\n\n")
    const after = report(await run(b, ["check", "--format", "gitlab"]))
    const key = (i: Issue) => `${i.location.path} ${i.check_name}`
    expect(after.map(key)).toEqual(before.map(key))
    expect(after.map((i) => i.location.lines.begin)).not.toEqual(before.map((i) => i.location.lines.begin))
    expect(after.map((i) => i.fingerprint)).toEqual(before.map((i) => i.fingerprint))
    expect(before.find((i) => i.location.path === "src/d1.ts")!.description).toContain("src/d2.ts:1)")
    expect(after.find((i) => i.location.path === "src/d1.ts")!.description).toContain("src/d2.ts:3)")
  })
})

/** A repository whose corpus sits in `pkg/`: a Spec, a second that refines it, code bound to the first, and a refused carrier. */
const packageRepo = () => {
  const repo = makeRepo()
  repo.write("pkg/specs/a.sdp.md", specCarrier("spec:demo.a", "The first"))
  repo.write("pkg/specs/b.sdp.md", specCarrier("spec:demo.b", "The second", "relations:\n  refines: spec:demo.a"))
  repo.write("pkg/src/x.ts", codeAnchor("impl:demo.x", ["spec:demo.a"]))
  repo.write("pkg/specs/odd.sdp.md", "---\nid: [unclosed\n---\n# x\n")
  repo.commit("corpus")
  // The change: the code drops its binding, and the second Spec's text changes.
  repo.write("pkg/src/x.ts", codeAnchor("impl:demo.x", []))
  repo.write("pkg/specs/b.sdp.md", `${specCarrier("spec:demo.b", "The second", "relations:\n  refines: spec:demo.a")}\nMore text.\n`)
  repo.commit("change")
  return repo
}

describe("check --format gitlab names files from git's top, from any folder", () => {
  it("gives the same bytes from the top, from the corpus folder, from a folder below it and from outside with an absolute --root", async () => {
    const repo = packageRepo()
    const fromTop = await run(repo.dir, ["check", "--root", "pkg", "--format", "gitlab"])
    expect(fromTop.status).toBe(1)
    const issues = report(fromTop)
    expect(issues.length).toBeGreaterThan(0)
    for (const i of issues) expect(i.location.path.startsWith("pkg/"), i.location.path).toBe(true)
    const fromRoot = await run(path.join(repo.dir, "pkg"), ["check", "--format", "gitlab"])
    const fromBelow = await run(path.join(repo.dir, "pkg", "specs"), ["check", "--root", "..", "--format", "gitlab"])
    const fromOutside = await run(tempDir("specbundle-gitlab-away-"), ["check", "--root", path.join(repo.dir, "pkg"), "--format", "gitlab"])
    for (const r of [fromRoot, fromBelow, fromOutside]) {
      expect(r.status).toBe(1)
      expect(r.stdout).toBe(fromTop.stdout)
    }
    // GitHub's annotations stay relative to the working folder (GitHub resolves them from there).
    expect((await run(path.join(repo.dir, "pkg"), ["check", "--format", "github"])).stdout).toContain("file=specs/odd.sdp.md,")
  })

  it("gives each finding the fingerprint impact --format gitlab gives it, from any folder", async () => {
    const repo = packageRepo()
    const check = report(await run(path.join(repo.dir, "pkg", "src"), ["check", "--root", "..", "--format", "gitlab"]))
    const impact = report(await run(path.join(repo.dir, "pkg"), ["impact", "--changeset", "HEAD~1", "--format", "gitlab"]))
    const odd = (list: Issue[]) => list.find((i) => i.location.path === "pkg/specs/odd.sdp.md")
    expect(odd(check)).toBeDefined()
    expect(odd(impact)!.fingerprint).toBe(odd(check)!.fingerprint)
    expect(impact.slice(0, check.length)).toEqual(check)
  })

  it("names files from the root outside any repository: the same bytes from inside and from outside", async () => {
    const dir = tempDir("specbundle-gitlab-plain-")
    brokenCorpus(dir)
    const inside = await run(dir, ["check", "--format", "gitlab"])
    const outside = await run(tempDir("specbundle-gitlab-away-"), ["check", "--root", dir, "--format", "gitlab"])
    const below = await run(path.join(dir, "specs"), ["check", "--root", "..", "--format", "gitlab"])
    expect(outside.stdout).toBe(inside.stdout)
    expect(below.stdout).toBe(inside.stdout)
    expect(report(inside).map((i) => i.location.path)).toContain("specs/odd.sdp.md")
  })
})

describe("impact --format gitlab", () => {
  it("holds the corpus findings (as check gives them), the lost bindings (minor) and the at-risk nodes (info), paths from the repository's top", async () => {
    const repo = packageRepo()
    const json = JSON.parse((await run(repo.dir, ["impact", "--root", "pkg", "--changeset", "HEAD~1"])).stdout)
    expect(json.lostBindings.length).toBeGreaterThan(0)
    expect(json.atRisk.length).toBeGreaterThan(0)
    const r = await run(repo.dir, ["impact", "--root", "pkg", "--changeset", "HEAD~1", "--format", "gitlab"])
    expect(r.status, r.stderr).toBe(0)
    const issues = report(r)

    const check = report(await run(repo.dir, ["check", "--root", "pkg", "--format", "gitlab"]))
    expect(check.length).toBeGreaterThan(0)
    expect(issues.slice(0, check.length)).toEqual(check)

    const lost = issues.filter((i) => i.check_name === "impact/lost-binding")
    expect(lost.map((i) => `${i.severity} ${i.location.path}:${i.location.lines.begin} ${i.description}`)).toEqual(
      json.lostBindings.map(
        (b: { spec: string; anchor: string; claim: string; file: string }) =>
          `minor pkg/${b.file}:1 specbundle impact/lost-binding: ${b.anchor} no longer binds ${b.spec} (${b.claim}); the change removed it from this file`
      )
    )
    const risk = issues.filter((i) => i.check_name === "impact/at-risk")
    expect(risk.map((i) => i.severity)).toEqual(json.atRisk.map(() => "info"))
    const a = risk.find((i) => i.description.includes("spec:demo.a (Primitive) is one hop from this change"))!
    expect(a.location).toEqual({ path: "pkg/specs/a.sdp.md", lines: { begin: 2 } })
    expect(issues).toHaveLength(check.length + lost.length + risk.length)
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length)
    expect((await run(repo.dir, ["impact", "--root", "pkg", "--changeset", "HEAD~1", "--format", "gitlab"])).stdout).toBe(r.stdout)
  })

  it("refuses --link-base beside it: one line, exit 2", async () => {
    const repo = packageRepo()
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD~1", "--format", "gitlab", "--link-base", "https://x/"])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain("--link-base goes with --format markdown.")
    expect(r.stderr).not.toMatch(/^\s+at /m)
  })
})

describe("impact --format markdown in a GitLab CI job", () => {
  const links = (md: string): string[] => [...md.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1])

  it("links every file to the project's -/blob/<commit>/ with GitLab's #L anchors; --link-base still wins; outside GitLab nothing changes", async () => {
    const repo = packageRepo()
    const sha = repo.git("rev-parse", "HEAD").trim()
    const args = ["impact", "--root", "pkg", "--changeset", "HEAD~1", "--format", "markdown"]
    const plain = await run(repo.dir, args)
    expect(plain.status, plain.stderr).toBe(0)
    const gitlab = {
      GITLAB_CI: "true",
      CI_PROJECT_URL: "https://gitlab.example.com/team/bikes",
      CI_SERVER_URL: "https://gitlab.example.com",
      CI_COMMIT_SHA: sha
    }
    const inJob = await run(repo.dir, args, { env: { ...gitCleanEnv(), ...gitlab } })
    expect(inJob.status, inJob.stderr).toBe(0)
    const base = `https://gitlab.example.com/team/bikes/-/blob/${sha}/`
    expect(links(inJob.stdout).length).toBeGreaterThan(0)
    for (const link of links(inJob.stdout)) expect(link.startsWith(`${base}pkg/`), link).toBe(true)
    expect(links(inJob.stdout).some((l) => /\.sdp\.md#L\d+$/.test(l))).toBe(true)
    // The links are the only difference.
    expect(inJob.stdout.replaceAll(`](${base}`, "](")).toBe(plain.stdout)

    const given = await run(repo.dir, [...args, "--link-base", "https://elsewhere.example/x/"], { env: { ...gitCleanEnv(), ...gitlab } })
    for (const link of links(given.stdout)) expect(link.startsWith("https://elsewhere.example/x/pkg/"), link).toBe(true)
    // GITLAB_CI unset (a laptop with CI_* left in its shell): repository-relative links.
    const { GITLAB_CI: _, ...noFlag } = gitlab
    expect((await run(repo.dir, args, { env: { ...gitCleanEnv(), ...noFlag } })).stdout).toBe(plain.stdout)
    // The other formats never take a link base from the job.
    expect((await run(repo.dir, ["impact", "--root", "pkg", "--changeset", "HEAD~1"], { env: { ...gitCleanEnv(), ...gitlab } })).status).toBe(0)
  })
})
