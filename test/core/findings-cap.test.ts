// The stderr findings cap (src/core/findings-cap.ts): one line per file and rule with a count, and
// every refused file named whatever the cap.
import { describe, expect, it } from "vitest"
import { formatFinding } from "../../src/core/finding-text.js"
import { capFindings, countedFinding, perFileRule } from "../../src/core/findings-cap.js"
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

describe("capFindings", () => {
  it("names every refused file even past the cap, fills the rest in order, and counts what it hid", () => {
    // Warnings sort first (a.ts ...), refused files last: a plain slice would show only warnings.
    const warnings = Array.from({ length: 12 }, (_, i) => finding(`a${String(i).padStart(2, "0")}.sdp.ts`, 0, "read/unsupported-carrier", "warning"))
    const refused = [
      ...Array.from({ length: 10 }, (_, i) => finding("z-bomb.sdp.md", 3 + i, "extract/yaml-alias")),
      finding("z-binary.sdp.md", 0, "read/binary"),
      finding("z-huge.sdp.md", 0, "read/too-large")
    ].sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line))
    const { shown, hidden } = capFindings([...warnings, ...refused], 5)
    expect(shown.map((l) => l.finding.file)).toEqual(["a00.sdp.ts", "a01.sdp.ts", "z-binary.sdp.md", "z-bomb.sdp.md", "z-huge.sdp.md"])
    expect(shown.find((l) => l.finding.file === "z-bomb.sdp.md")!.count).toBe(10)
    // 24 findings; the 5 lines stand for 2 + 1 + 10 + 1.
    expect(hidden).toBe(24 - 14)
  })

  it("shows more lines than the cap when more files are refused than the cap allows", () => {
    const refused = Array.from({ length: 7 }, (_, i) => finding(`r${i}.sdp.md`, 1, "extract/invalid-frontmatter"))
    const second = refused.map((f) => ({ ...f, line: 2, code: "extract/invalid-id" }))
    const all = [...refused, ...second].sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line))
    const { shown, hidden } = capFindings(all, 3)
    expect(shown.map((l) => `${l.finding.file}:${l.finding.line}`)).toEqual(refused.map((f) => `${f.file}:1`))
    expect(hidden).toBe(7)
  })

  it("under the cap, shows every line and hides nothing", () => {
    const few = [finding("a.sdp.md", 1, "x"), finding("a.sdp.md", 2, "x"), finding("b.sdp.md", 1, "y", "warning")]
    expect(capFindings(few, 10)).toEqual({ shown: perFileRule(few), hidden: 0 })
    expect(capFindings([], 10)).toEqual({ shown: [], hidden: 0 })
  })
})
