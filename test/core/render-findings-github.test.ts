// GitHub workflow commands (src/core/render/findings.ts): the toolkit's escaping, data and
// properties each their own way, checked byte for byte on paths and messages holding % CR LF : ,.
import { describe, expect, it } from "vitest"
import type { Finding } from "../../src/core/model.js"
import { escapeCommandData, escapeCommandProperty, findingsGithub } from "../../src/core/render/findings.js"

describe("escapeCommandData / escapeCommandProperty", () => {
  it("data escapes %, CR and LF (% first, so an escape is never escaped twice); : and , stay", () => {
    expect(escapeCommandData("100% a:b,c\r\nd")).toBe("100%25 a:b,c%0D%0Ad")
    expect(escapeCommandData("%0A")).toBe("%250A")
  })

  it("a property also escapes : and ,", () => {
    expect(escapeCommandProperty("100% a:b,c\r\nd")).toBe("100%25 a%3Ab%2Cc%0D%0Ad")
    expect(escapeCommandProperty("%3A,")).toBe("%253A%2C")
  })
})

describe("findingsGithub", () => {
  const hostile: Finding = {
    file: "specs/50%,off:now\r\nlater.sdp.md",
    line: 7,
    code: "extract/odd",
    message: "bad: 100%, really\r\nsecond line",
    severity: "error"
  }

  it("writes one line per finding: the file and title as properties, the message as data", () => {
    expect(findingsGithub([hostile])).toBe(
      "::error file=specs/50%25%2Coff%3Anow%0D%0Alater.sdp.md,line=7,title=specbundle extract/odd::extract/odd: bad: 100%25, really%0D%0Asecond line\n"
    )
  })

  it("escapes the prefix with the path, leaves out line 0, and writes warnings as ::warning", () => {
    const text = findingsGithub([{ ...hostile, line: 0, severity: "warning" }], "pkg,a:b%/")
    expect(text).toBe(
      "::warning file=pkg%2Ca%3Ab%25/specs/50%25%2Coff%3Anow%0D%0Alater.sdp.md,title=specbundle extract/odd::extract/odd: bad: 100%25, really%0D%0Asecond line\n"
    )
    // Whatever the input, every command is one line.
    expect(text.split("\n")).toHaveLength(2)
  })
})
