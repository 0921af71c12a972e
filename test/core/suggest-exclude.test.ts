// The pure halves of two CLI guides: did-you-mean (edit distance) and the one exclude rule.
import { describe, expect, it } from "vitest"
import { isExcluded, normalizeExclude, unmatchedExcludes } from "../../src/core/read/discover.js"
import { didYouMean, editDistance, suggest } from "../../src/core/suggest.js"

describe("suggest", () => {
  it("edit distance counts inserts, deletes and substitutions", () => {
    expect(editDistance("budget", "budget")).toBe(0)
    expect(editDistance("bugdet", "budget")).toBe(2)
    expect(editDistance("", "abc")).toBe(3)
    expect(editDistance("kitten", "sitting")).toBe(3)
  })

  it("offers only the nearest group, in code-unit order on ties, and nothing when all are far", () => {
    expect(suggest("--pak", ["--pack", "--part", "--parts", "--quiet"])).toEqual(["--pack"])
    expect(suggest("--parx", ["--quiet", "--parts", "--pack", "--part"])).toEqual(["--part", "--pack", "--parts"])
    expect(suggest("zzz", ["bundle", "impact"])).toEqual([])
    expect(didYouMean("bundl", ["bundle", "check"], (s) => `'${s}'`)).toBe(" Did you mean 'bundle'?")
    expect(didYouMean("x", ["bundle"])).toBe("")
  })
})

describe("normalizeExclude", () => {
  it("drops a leading ./ and a trailing /", () => {
    for (const v of ["drafts", "drafts/", "./drafts", "./drafts/", "././drafts//"]) expect(normalizeExclude(v)).toEqual({ path: "drafts" })
  })

  it("refuses what cannot name a root-relative path", () => {
    for (const v of ["", ".", "./", "/etc", "../x", "a/../b", "a\\b", "C:/x", "!drafts/**", "a//b"]) expect(normalizeExclude(v)).toHaveProperty("problem")
  })

  it("globs match the path and each of its folders; plain paths match at segment boundaries", () => {
    expect(isExcluded("drafts/a/b.sdp.md", ["drafts/**"])).toBe(true)
    expect(isExcluded("specs/x/drafts/b.sdp.md", ["**/drafts"])).toBe(true)
    expect(isExcluded("specs/unlock-bike.sdp.md", ["specs/**/unlock-*.sdp.md"])).toBe(true)
    expect(isExcluded("specs/.hidden/a.sdp.md", ["specs/*"])).toBe(true)
    expect(isExcluded("draftsman/a.sdp.md", ["drafts"])).toBe(false)
    expect(isExcluded("draftsman/a.sdp.md", ["drafts/**"])).toBe(false)
  })

  it("keeps no state: the excludes that matched are the caller's to collect", () => {
    const excludes = ["drafts", "explorations/**", "specs/old"]
    const matched = new Set<string>()
    expect(isExcluded("drafts/a.sdp.md", excludes, matched)).toBe(true)
    expect(isExcluded("specs/new/a.sdp.md", excludes, matched)).toBe(false)
    expect(unmatchedExcludes(excludes, matched)).toEqual(["explorations/**", "specs/old"])
    // A check without a collector changes nothing anyone sees.
    expect(isExcluded("specs/old/a.sdp.md", excludes)).toBe(true)
    expect(unmatchedExcludes(excludes, matched)).toEqual(["explorations/**", "specs/old"])
    expect(unmatchedExcludes(excludes, new Set())).toEqual(excludes)
  })
})
