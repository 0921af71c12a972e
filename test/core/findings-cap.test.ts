// The stderr findings cap (src/core/render/findings-cap.ts): one line per file and rule with a count,
// refused files first, at most the cap, and one tally line for the files left out.
import { describe, expect, it } from "vitest"
import { formatFinding } from "../../src/core/render/finding-text.js"
import { capFindings, countedFinding, perFileRule, tallyLine } from "../../src/core/render/findings-cap.js"
import type { Finding } from "../../src/core/model.js"

const finding = (file: string, line: number, code: string, severity: "error" | "warning" = "error"): Finding => ({
  file,
  line,
  code,
  message: `${code} at ${line}`,
  severity
})

describe("perFileRule", () => {
  it("folds a file's findings under one rule into its first, counted; other files and rules stay apart", () => {
    const aliases = Array.from({ length: 10 }, (_, i) => finding("bomb.sdp.md", 3 + i, "extract/yaml-alias"))
    const lines = perFileRule([...aliases, finding("bomb.sdp.md", 20, "extract/unowned-prose"), finding("other.sdp.md", 3, "extract/yaml-alias")])
    expect(lines.map((l) => [l.finding.file, l.finding.line, l.finding.code, l.count])).toEqual([
      ["bomb.sdp.md", 3, "extract/yaml-alias", 10],
      ["bomb.sdp.md", 20, "extract/unowned-prose", 1],
      ["other.sdp.md", 3, "extract/yaml-alias", 1]
    ])
    expect(formatFinding(countedFinding(lines[0]!))).toBe("bomb.sdp.md:3: extract/yaml-alias: extract/yaml-alias at 3 (and 9 more like it in this file)")
    expect(countedFinding(lines[1]!)).toBe(lines[1]!.finding)
  })
})

const sorted = (fs: Finding[]): Finding[] => [...fs].sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line))
const shownText = (fs: Finding[], cap: number) => {
  const capped = capFindings(fs, cap)
  return [...capped.shown.map((l) => formatFinding(countedFinding(l))), ...[tallyLine(capped)].filter((t) => t !== null)]
}

describe("capFindings", () => {
  it("refused files first, one line each, then other files; every shown file's findings counted on its lines", () => {
    // Warnings sort first (a.ts ...), refused files last: a plain slice would show only warnings.
    const warnings = Array.from({ length: 12 }, (_, i) => finding(`a${String(i).padStart(2, "0")}.sdp.ts`, 0, "read/unsupported-carrier", "warning"))
    const refused = sorted([
      ...Array.from({ length: 10 }, (_, i) => finding("z-bomb.sdp.md", 3 + i, "extract/yaml-alias")),
      finding("z-bomb.sdp.md", 40, "extract/unowned-prose"),
      finding("z-binary.sdp.md", 0, "read/binary"),
      finding("z-huge.sdp.md", 0, "read/too-large")
    ])
    const capped = capFindings([...warnings, ...refused], 5)
    expect(capped.shown.map((l) => l.finding.file)).toEqual(["z-binary.sdp.md", "z-bomb.sdp.md", "z-huge.sdp.md", "a00.sdp.ts", "a01.sdp.ts"])
    expect(shownText([...warnings, ...refused], 5)).toEqual([
      "z-binary.sdp.md:0: read/binary: read/binary at 0",
      // The bomb's one line stands for its 10 aliases and its other rule's finding.
      "z-bomb.sdp.md:3: extract/yaml-alias: extract/yaml-alias at 3 (and 10 more findings in this file, 9 like it)",
      "z-huge.sdp.md:0: read/too-large: read/too-large at 0",
      "a00.sdp.ts:0: read/unsupported-carrier: warning: read/unsupported-carrier at 0",
      "a01.sdp.ts:0: read/unsupported-carrier: warning: read/unsupported-carrier at 0",
      "... and 10 more findings in 10 more files: specbundle check lists them all (or add --verbose)"
    ])
    // 25 findings: the 5 lines stand for 1 + 11 + 1 + 1 + 1.
    expect(capped.hidden).toBe(25 - 15)
    expect(capped.hiddenFiles).toBe(10)
    expect(capped.hiddenRefused).toBe(0)
  })

  it("with room, a refused file's second rule gets its own line only after every file has one", () => {
    const fs = sorted([
      finding("a.sdp.md", 1, "extract/invalid-frontmatter"),
      finding("a.sdp.md", 5, "extract/unowned-prose"),
      finding("a.sdp.md", 6, "extract/unowned-prose"),
      finding("b.sdp.ts", 0, "read/unsupported-carrier", "warning")
    ])
    expect(shownText(fs, 2)).toEqual([
      "a.sdp.md:1: extract/invalid-frontmatter: extract/invalid-frontmatter at 1 (and 2 more findings in this file)",
      "b.sdp.ts:0: read/unsupported-carrier: warning: read/unsupported-carrier at 0"
    ])
    expect(shownText(fs, 3)).toEqual([
      "a.sdp.md:1: extract/invalid-frontmatter: extract/invalid-frontmatter at 1",
      "a.sdp.md:5: extract/unowned-prose: extract/unowned-prose at 5 (and 1 more like it in this file)",
      "b.sdp.ts:0: read/unsupported-carrier: warning: read/unsupported-carrier at 0"
    ])
  })

  it("a refused file's line is its first error, not a warning before it", () => {
    const fs = [finding("a.sdp.md", 2, "extract/unknown-key", "warning"), finding("a.sdp.md", 9, "extract/invalid-id")]
    expect(shownText(fs, 1)).toEqual(["a.sdp.md:9: extract/invalid-id: extract/invalid-id at 9 (and 1 more finding in this file)"])
  })

  it("more refused files than the cap: the cap holds, and the tally counts the files and findings left out", () => {
    const refused = Array.from({ length: 7 }, (_, i) => finding(`r${i}.sdp.md`, 1, "extract/invalid-frontmatter"))
    const second = refused.map((f) => ({ ...f, line: 2, code: "extract/invalid-id" }))
    const capped = capFindings(sorted([...refused, ...second]), 3)
    expect(capped.shown.map((l) => `${l.finding.file}:${l.finding.line}:${l.rest}`)).toEqual(["r0.sdp.md:1:1", "r1.sdp.md:1:1", "r2.sdp.md:1:1"])
    expect(tallyLine(capped)).toBe("... and 8 more findings in 4 more files (all refused): specbundle check lists them all (or add --verbose)")
  })

  it("200 refused files and a warning file: 10 lines and one tally, the warning file counted apart", () => {
    const refused = Array.from({ length: 200 }, (_, i) => finding(`r${String(i).padStart(3, "0")}.sdp.md`, 1, "extract/invalid-frontmatter"))
    const lines = shownText([finding("a.sdp.ts", 0, "read/unsupported-carrier", "warning"), ...refused], 10)
    expect(lines).toHaveLength(11)
    expect(lines.slice(0, 10).every((l) => /^r00\d\.sdp\.md:1: /.test(l))).toBe(true)
    expect(lines[10]).toBe("... and 191 more findings in 191 more files (190 refused): specbundle check lists them all (or add --verbose)")
    expect(tallyLine(capFindings(refused.slice(0, 11), 10))).toBe(
      "... and 1 more finding in 1 more file (refused): specbundle check lists them all (or add --verbose)"
    )
  })

  it("under the cap, shows every line and hides nothing", () => {
    const few = [finding("a.sdp.md", 1, "x"), finding("a.sdp.md", 2, "x"), finding("b.sdp.md", 1, "y", "warning")]
    expect(capFindings(few, 10)).toEqual({ shown: perFileRule(few), hidden: 0, hiddenFiles: 0, hiddenRefused: 0 })
    expect(tallyLine(capFindings(few, 10))).toBeNull()
    expect(capFindings([], 10)).toEqual({ shown: [], hidden: 0, hiddenFiles: 0, hiddenRefused: 0 })
  })
})
