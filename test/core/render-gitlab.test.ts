// GitLab's renderers (src/core/render/gitlab.ts): the Code Quality issues of findings (severity,
// path, line, and a fingerprint that names the problem, not its line) and the link base a GitLab CI
// job's variables give.
import { describe, expect, it } from "vitest"
import type { Finding } from "../../src/core/model.js"
import { codeQualityJson, findingIssues, fingerprintOf, folded, gitlabLinkBase } from "../../src/core/render/gitlab.js"

const finding = (over: Partial<Finding> = {}): Finding => ({
  file: "specs/a.sdp.md",
  line: 7,
  code: "extract/invalid-anchor-comment",
  message: '@sdpAnchor takes one id, got "a b"',
  severity: "error",
  ...over
})

describe("findingIssues", () => {
  it("gives each finding GitLab's documented fields: description, check_name, fingerprint, severity, location.path and lines.begin", () => {
    const [issue] = findingIssues([finding()], "pkg")
    expect(Object.keys(issue)).toEqual(["description", "check_name", "fingerprint", "severity", "location"])
    expect(issue).toEqual({
      description: 'specbundle extract/invalid-anchor-comment: @sdpAnchor takes one id, got "a b"',
      check_name: "extract/invalid-anchor-comment",
      fingerprint: issue.fingerprint,
      severity: "major",
      location: { path: "pkg/specs/a.sdp.md", lines: { begin: 7 } }
    })
    expect(issue.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })

  it("maps error to major and warning to minor, and a file-wide finding (line 0) to line 1", () => {
    const issues = findingIssues([finding(), finding({ severity: "warning", line: 0, code: "discover/symlink" })])
    expect(issues.map((i) => i.severity)).toEqual(["major", "minor"])
    expect(issues.map((i) => i.location.lines.begin)).toEqual([7, 1])
    expect(issues[1].location.path).toBe("specs/a.sdp.md")
  })

  it("keeps a fingerprint when only the line moves, or a line number the message quotes", () => {
    const before = findingIssues([finding({ line: 7, message: "id x is declared at 2 sites (a.ts:3, b.ts:9)" })])[0]
    const after = findingIssues([finding({ line: 40, message: "id x is declared at 2 sites (a.ts:3, b.ts:12)" })])[0]
    expect(after.fingerprint).toBe(before.fingerprint)
  })

  it("folds only the line and column numbers a message quotes: two findings whose messages differ in other digits keep their own fingerprints when one is fixed", () => {
    const rul = (name: string, line: number) =>
      finding({ file: "features/a.feature", line, code: "extract/gherkin", message: `Rule "${name}" carries the tag "@x"; rules are title-only` })
    const both = findingIssues([rul("Rul1", 3), rul("Rul22", 9)])
    expect(both[0].fingerprint).not.toBe(both[1].fingerprint)
    // Rul1 fixed: Rul22 keeps its fingerprint (it does not take over Rul1's).
    expect(findingIssues([rul("Rul22", 7)])[0].fingerprint).toBe(both[1].fingerprint)
    expect(folded("Rul1 ## Rul22 v2 spec:x.y2 in 3 sites")).toBe("Rul1 ## Rul22 v2 spec:x.y2 in 3 sites")
    // What moves with an edit above is folded.
    expect(folded("at 2 sites (src/a.ts:3, specs/b.sdp.md:12:5)")).toBe("at 2 sites (src/a.ts:#, specs/b.sdp.md:#:#)")
    expect(folded("Nested mappings are not allowed at line 12, column 5: x")).toBe("Nested mappings are not allowed at line #, column #: x")
    expect(folded("expected a step (12:5)")).toBe("expected a step (#:#)")
  })

  it("changes the fingerprint with the code, the path or the message's words", () => {
    const base = findingIssues([finding()])[0].fingerprint
    expect(findingIssues([finding({ code: "extract/other" })])[0].fingerprint).not.toBe(base)
    expect(findingIssues([finding({ file: "specs/b.sdp.md" })])[0].fingerprint).not.toBe(base)
    expect(findingIssues([finding()], "pkg")[0].fingerprint).not.toBe(base)
    expect(findingIssues([finding({ message: '@sdpAnchor takes one id, got "c d"' })])[0].fingerprint).not.toBe(base)
  })

  it("gives two identical problems in one file two fingerprints (GitLab keeps one issue per fingerprint), in line order", () => {
    const twice = findingIssues([finding({ line: 3 }), finding({ line: 9 })])
    expect(new Set(twice.map((i) => i.fingerprint)).size).toBe(2)
    // The first of the pair keeps its fingerprint when the pair moves down together.
    const moved = findingIssues([finding({ line: 30 }), finding({ line: 90 })])
    expect(moved.map((i) => i.fingerprint)).toEqual(twice.map((i) => i.fingerprint))
    // The same problem in another file is not the second of a pair.
    const other = findingIssues([finding({ line: 3 }), finding({ file: "specs/b.sdp.md", line: 3 })])
    expect(other[1].fingerprint).toBe(findingIssues([finding({ file: "specs/b.sdp.md", line: 3 })])[0].fingerprint)
  })

  it("hashes its parts as a JSON list, so no two spellings of the parts meet", () => {
    expect(fingerprintOf(["a/b", "c"])).not.toBe(fingerprintOf(["a", "b/c"]))
    expect(fingerprintOf(["a", "b"])).toBe(fingerprintOf(["a", "b"]))
  })

  it("prints a JSON array, two-space indented, one newline at the end; [] for none", () => {
    expect(codeQualityJson([])).toBe("[]\n")
    const text = codeQualityJson(findingIssues([finding()]))
    expect(text.startsWith('[\n  {\n    "description": ')).toBe(true)
    expect(text.endsWith("}\n]\n")).toBe(true)
  })
})

describe("gitlabLinkBase", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567"

  it("is the project's -/blob/SHA/ in a GitLab CI job", () => {
    expect(gitlabLinkBase({ GITLAB_CI: "true", CI_PROJECT_URL: "https://gitlab.example.com/group/sub/bikes", CI_COMMIT_SHA: sha })).toBe(
      `https://gitlab.example.com/group/sub/bikes/-/blob/${sha}/`
    )
    // Without CI_PROJECT_URL: the server and the project's path.
    expect(gitlabLinkBase({ GITLAB_CI: "true", CI_SERVER_URL: "https://git.example.org/", CI_PROJECT_PATH: "team/bikes", CI_COMMIT_SHA: sha })).toBe(
      `https://git.example.org/team/bikes/-/blob/${sha}/`
    )
    expect(gitlabLinkBase({ GITLAB_CI: "true", CI_PROJECT_URL: "https://gitlab.example.com/g/p/", CI_COMMIT_SHA: sha })).toBe(
      `https://gitlab.example.com/g/p/-/blob/${sha}/`
    )
  })

  it("is empty outside GitLab CI, or without a project or a commit", () => {
    expect(gitlabLinkBase({})).toBe("")
    expect(gitlabLinkBase({ CI_PROJECT_URL: "https://gitlab.example.com/g/p", CI_COMMIT_SHA: sha })).toBe("")
    expect(gitlabLinkBase({ GITLAB_CI: "true", CI_COMMIT_SHA: sha })).toBe("")
    expect(gitlabLinkBase({ GITLAB_CI: "true", CI_PROJECT_URL: "https://gitlab.example.com/g/p" })).toBe("")
    expect(gitlabLinkBase({ GITLAB_CI: "true", CI_PROJECT_URL: "https://gitlab.example.com/g/p", CI_COMMIT_SHA: "main; rm -rf" })).toBe("")
  })
})
