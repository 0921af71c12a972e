// The one table of cuts (src/core/bundle/cut-table.ts): leftOut lines, stage numbers and the
// stages a request may try all derive from it, and they are the contract's, verbatim and in order.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { CUTS, LEFT_OUT_LINES, STAGE, maxStage } from "../../src/core/bundle/index.js"
import { CUT_FIELDS, memberFormStage } from "../../src/core/bundle/cut-table.js"
import { SHARED } from "../support/paths.js"
import { CONTRACT_LEFT_OUT } from "../support/contract.js"
import { skipping } from "../support/skip.js"

const CONTRACT = path.join(SHARED, "docs", "bundle-contract.md")

describe("the cut table", () => {
  it("derives the leftOut lines in cut order, equal to the contract's seven lines", () => {
    expect(CUTS.map((c) => c.leftOut)).toEqual(LEFT_OUT_LINES)
    expect(LEFT_OUT_LINES).toEqual(CONTRACT_LEFT_OUT)
  })

  it("derives the stage numbers: 0 uncut, then each cut's place in rule.cutOrder", () => {
    expect(CUTS.map((c) => c.name)).toEqual(["boundary", "footing", "narrative", "example", "question", "section", "declaration"])
    expect(STAGE).toEqual({ none: 0, boundary: 1, footing: 2, narrative: 3, example: 4, question: 5, section: 6, declaration: 7 })
    for (const [i, c] of CUTS.entries()) expect(LEFT_OUT_LINES.slice(0, STAGE[c.name])).toEqual(CONTRACT_LEFT_OUT.slice(0, i + 1))
  })

  it('permits the declaration cut only under declarations "addresses", as the last stage', () => {
    expect(maxStage("whole")).toBe(6)
    expect(maxStage("addresses")).toBe(7)
    expect(CUTS.filter((c) => "onlyUnder" in c).map((c) => [c.name, c.onlyUnder])).toEqual([["declaration", "addresses"]])
  })

  it("derives which member fields a cut changes, and that the boundary cut changes no member row", () => {
    expect(CUT_FIELDS).toEqual(["narrative", "sections", "questions", "footing", "examples"])
    expect(memberFormStage(STAGE.boundary)).toBe(STAGE.none)
    expect(memberFormStage(STAGE.question)).toBe(STAGE.question)
  })

  it.skipIf(skipping(!fs.existsSync(CONTRACT), "the cut table against the contract's text", `${CONTRACT} is not beside this clone (CI has it)`))(
    "matches the seven lines in shared/docs/bundle-contract.md",
    () => {
      const text = fs.readFileSync(CONTRACT, "utf8")
      const block = /^- Cuts:[\s\S]*?```\n([\s\S]*?)```/m.exec(text)
      expect(block).not.toBeNull()
      const lines = block![1]
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l.length > 0)
      expect(lines).toEqual(LEFT_OUT_LINES)
    }
  )
})
