import { describe, expect, it } from "vitest"
import { FINDING_CAP } from "../../src/core/read/markdown-findings.js"
import { carrier, onlySpec, parse, refused, SPEC_FRONT, specText, where, withKind } from "../support/read-markdown.js"

const S = "extract/invalid-markdown-structure"
const F = "extract/invalid-frontmatter"

describe("section 13 refusal probes", () => {
  it("refuses a blank line between the closing --- and the H1", () => {
    const findings = refused(carrier(SPEC_FRONT, ["", "# Borrow"]))
    expect(findings[0]).toMatchObject({ line: 8, code: S })
    expect(findings[0].message).toContain("first body line must be an H1")
  })

  it("refuses an <autolink> in the narrative as raw HTML", () => {
    const findings = refused(specText(["", "See <https://example.org> for more."]))
    expect(where(findings)).toEqual([[10, S]])
    expect(findings[0].message).toContain("raw HTML")
  })

  it("refuses - Note: under ## Rule as an unrecognized property", () => {
    const findings = refused(specText(["", "## Rule", "- Note: this looks keyed."], withKind("rule")))
    expect(where(findings)).toEqual([[11, "extract/unrecognized-property"]])
    expect(findings[0].message).toContain('property "Note" is not accepted')
  })

  it("refuses a hyphenated Verification heading and suggests the em-dash form", () => {
    const findings = refused(specText(["", "## Verification - executable", "- works"]))
    expect(where(findings)[0]).toEqual([10, "extract/unrecognized-heading"])
    expect(findings[0].message).toContain('did you mean "## Verification — executable"')
  })

  it("refuses ## Examples, and its list falls into unowned territory as a second error", () => {
    const findings = refused(specText(["", "## Examples", "- one"]))
    expect(where(findings)).toEqual([
      [10, "extract/unrecognized-heading"],
      [11, S]
    ])
  })

  it("suggests Rule for ## Rul", () => {
    const findings = refused(specText(["", "## Rul", ""]))
    expect(findings[0].message).toContain('did you mean "## Rule"')
  })

  it("refuses a Model entry written with a hyphen instead of the em dash", () => {
    const findings = refused(specText(["", "## Model", "- **a** - def"]))
    expect(where(findings)).toEqual([[11, S]])
    expect(findings[0].message).toContain("Model entries require **TERM** — DEFINITION")
  })

  it("refuses prose after a list in a section as unowned prose", () => {
    const findings = refused(specText(["", "## Intent", "- outcome: o", "", "Stray prose."]))
    expect(where(findings)).toEqual([[13, "extract/unowned-prose"]])
  })

  it("refuses a non-lower-camel Design key", () => {
    const findings = refused(specText(["", "## Design", "- Foo: bar"]))
    expect(where(findings)).toEqual([[11, S]])
    expect(findings[0].message).toContain("open section keys must be lower-camel ASCII")
  })
})

describe("physical envelope (section 2)", () => {
  it("refuses a file that does not start with ---, and unclosed frontmatter", () => {
    expect(where(refused("# Title\n"))).toEqual([[1, F]])
    expect(where(refused("---\nid: spec:a.b\n"))).toEqual([[1, F]])
    expect(where(refused(""))).toEqual([[1, F]])
  })

  it("refuses an exact ... line inside the frontmatter", () => {
    expect(where(refused(carrier([...SPEC_FRONT.slice(0, 2), "...", ...SPEC_FRONT.slice(2)], ["# Borrow"])))).toEqual([[4, F]])
  })

  it("refuses a --- line in the body, also inside a fence", () => {
    expect(where(refused(specText(["", "Prose.", "---"])))).toEqual([[11, S]])
    const inFence = refused(specText(["", "## Example space", "```gwt-vocabulary", "Given g", "---", "When w", "Then t", "```"]))
    expect(inFence.some((f) => f.line === 13 && f.code === S)).toBe(true)
  })

  it("reports malformed YAML at its file line", () => {
    const findings = refused(carrier(["id: spec:a.b", "kind: behavior", "relations: [spec:a", "altitude: feature"], ["# T"]))
    expect(findings.every((f) => f.code === F)).toBe(true)
    expect(findings[0].line).toBeGreaterThanOrEqual(4)
    expect(findings[0].message).toContain("malformed")
  })

  it("refuses YAML anchors and aliases without expanding them", () => {
    const findings = refused(carrier(["id: spec:a.b", "kind: &k behavior", "altitude: feature", "readiness: defined", "relations:", "  refines: *k"], ["# T"]))
    expect(where(findings)).toEqual([
      [3, "extract/yaml-alias"],
      [7, "extract/yaml-alias"]
    ])
    expect(findings[1].message).toContain("*k")
  })

  it("refuses YAML tags", () => {
    const findings = refused(carrier(["id: !!str spec:a.b", "kind: behavior", "altitude: !custom feature", "readiness: defined", "relations: {}"], ["# T"]))
    expect(where(findings)).toEqual([
      [2, F],
      [4, F]
    ])
    expect(findings[0].message).toContain("tag")
  })

  it("refuses YAML directives and a second document", () => {
    expect(where(refused(carrier(["%YAML 1.2", ...SPEC_FRONT], ["# T"])))).toEqual([[2, F]])
    const two = refused(carrier([...SPEC_FRONT, "--- extra"], ["# T"]))
    expect(two[0].message).toContain("more than one YAML document")
  })

  it("refuses frontmatter nested deeper than 16 levels, and accepts 16", () => {
    const nest = (levels: number) => {
      const lines: string[] = []
      for (let i = 0; i < levels - 1; i++) lines.push(`${"  ".repeat(i)}k${i}:`)
      lines.push(`${"  ".repeat(levels - 1)}leaf: v`)
      return lines
    }
    // The root mapping is level 1; "extra" (an unknown key) adds levels 2..n.
    const deep = refused(carrier([...SPEC_FRONT, "extra:", ...nest(16).map((l) => `  ${l}`)], ["# T"]))
    expect(deep.some((f) => f.message.includes("deeper than 16"))).toBe(true)
    const ok = refused(carrier([...SPEC_FRONT, "extra:", ...nest(15).map((l) => `  ${l}`)], ["# T"]))
    expect(ok.some((f) => f.message.includes("deeper"))).toBe(false)
    expect(where(ok)).toEqual([[7, "extract/unrecognized-property"]])
  })

  it("refuses more than 2,000 YAML nodes, a scalar over 16 KiB and frontmatter over 32 KiB", () => {
    const many = refused(carrier([...SPEC_FRONT, "extra:", ...Array.from({ length: 2001 }, (_, i) => `  - v${i}`)], ["# T"]))
    expect(many.some((f) => f.message.includes("more than 2000 YAML nodes"))).toBe(true)
    const big = refused(carrier([...SPEC_FRONT, `extra: "${"x".repeat(16 * 1024 + 1)}"`], ["# T"]))
    expect(big.some((f) => f.message.includes("over 16 KiB"))).toBe(true)
    const huge = refused(carrier([...SPEC_FRONT, ...Array.from({ length: 3 }, (_, i) => `extra${i}: "${"é".repeat(6000)}"`)], ["# T"]))
    expect(where(huge)).toEqual([[2, F]])
    expect(huge[0].message).toContain("over 32 KiB")
  })

  it("refuses a duplicate frontmatter key", () => {
    expect(where(refused(carrier([...SPEC_FRONT, "kind: rule"], ["# T"])))).toEqual([[7, F]])
  })

  it("refuses plain scalars that are not text in the core schema where text is required", () => {
    const findings = refused(carrier(["id: spec:a.b", "kind: behavior", "altitude: feature", "readiness: true", "relations:", "  refines: null"], ["# T"]))
    expect(where(findings)).toContainEqual([5, F])
    expect(where(findings)).toContainEqual([7, F])
    expect(findings.find((f) => f.line === 5)!.message).toContain("quote it")
    // Quoted, the same text is ordinary text (and here a bad readiness value).
    const quoted = refused(carrier(["id: spec:a.b", "kind: behavior", "altitude: feature", 'readiness: "true"', "relations: {}"], ["# T"]))
    expect(where(quoted)).toEqual([[5, "extract/non-static-envelope"]])
  })
})

describe("frontmatter keys (section 3)", () => {
  it("refuses an unknown key, a reserved key and a title key, each with its code", () => {
    const findings = refused(carrier([...SPEC_FRONT, "owner: desk", "hasVerifier: yes", "title: Borrow"], ["# T"]))
    expect(where(findings)).toEqual([
      [7, "extract/unrecognized-property"],
      [8, "extract/reserved-property"],
      [9, F]
    ])
  })

  it("refuses a missing key instead of defaulting it", () => {
    const findings = refused(
      carrier(
        SPEC_FRONT.filter((l) => !l.startsWith("relations")),
        ["# T"]
      )
    )
    expect(where(findings)).toEqual([[1, F]])
    expect(findings[0].message).toContain('"relations"')
  })

  it("refuses a bad kind, altitude or readiness as a non-static envelope", () => {
    const findings = refused(carrier(["id: spec:a.b", "kind: story", "altitude: [epic]", "readiness: done", "relations: {}"], ["# T"]))
    expect(where(findings)).toEqual([
      [3, "extract/non-static-envelope"],
      [4, "extract/non-static-envelope"],
      [5, "extract/non-static-envelope"]
    ])
  })

  it("refuses a bad or foreign-namespace id", () => {
    expect(where(refused(carrier(["id: spec:a_b", ...SPEC_FRONT.slice(1)], ["# T"])))).toEqual([[2, "extract/invalid-id"]])
    expect(where(refused(carrier(["id: doc:a.b", ...SPEC_FRONT.slice(1)], ["# T"])))).toEqual([[2, "extract/invalid-id"]])
  })

  it("refuses bad relations: unknown type, empty list, duplicate target, pack target, non-mapping", () => {
    const rel = (lines: string[]) => carrier([...SPEC_FRONT.slice(0, 4), ...lines], ["# T"])
    expect(where(refused(rel(["relations:", "  exemplifies: spec:a.b"])))).toEqual([[7, "extract/unrecognized-property"]])
    expect(where(refused(rel(["relations:", "  satisfies: spec:a.b"])))).toEqual([[7, "extract/reserved-property"]])
    expect(where(refused(rel(["relations:", "  refines: []"])))).toEqual([[7, F]])
    expect(where(refused(rel(["relations:", "  verifies:", "    - spec:a.b", "    - spec:a.b"])))).toEqual([[9, F]])
    expect(where(refused(rel(["relations:", "  dependsOn: pack:loans"])))).toEqual([[7, "extract/invalid-id"]])
    expect(where(refused(rel(["relations: none"])))).toEqual([[6, F]])
  })

  it("keeps the same target under two relation types, in written order", () => {
    const spec = onlySpec(carrier([...SPEC_FRONT.slice(0, 4), "relations:", "  verifies: [spec:a.b, spec:a.c]", "  refines: spec:a.b"], ["# T"]))
    expect(spec.relations).toEqual([
      { type: "verifies", to: "spec:a.b" },
      { type: "verifies", to: "spec:a.c" },
      { type: "refines", to: "spec:a.b" }
    ])
  })

  it("refuses Spec-only keys, duplicates and headings in a Pack", () => {
    const pack = (front: string[], body: string[] = ["# P"]) => carrier(front, body)
    expect(where(refused(pack(["id: pack:p", "kind: behavior", "specs: []"])))).toEqual([[3, "extract/unrecognized-property"]])
    expect(where(refused(pack(["id: pack:p", "specs: [spec:a.b, spec:a.b]"])))).toEqual([[3, F]])
    expect(where(refused(pack(["id: pack:p"])))).toEqual([[1, F]])
    expect(where(refused(pack(["id: pack:p", "specs: []"], ["# P", "## Members"])))).toEqual([[6, "extract/unrecognized-heading"]])
    expect(where(refused(pack(["id: pack:p", "specs: []"], ["# P", "- a list"])))).toEqual([[6, S]])
  })
})

describe("body structure (section 4)", () => {
  it("refuses bad headings: ####, #word, a second H1, an H3 other than Open questions", () => {
    expect(where(refused(specText(["#### Deep", "#word", "# Again"])))).toEqual([
      [9, S],
      [10, S],
      [11, S]
    ])
    expect(where(refused(specText(["## Intent", "- outcome: o", "### Notes"])))).toEqual([[11, "extract/unrecognized-heading"]])
    expect(where(refused(specText(["## Design", "### Open questions"])))).toEqual([[10, S]])
  })

  it("refuses lists, quotes, tables, indented lines and ordered lists where they stand", () => {
    expect(where(refused(specText(["* star", "+ plus", "1. one", "| a |", "> quote", "    code", "***"])))).toEqual(
      [9, 10, 11, 12, 13, 14, 15].map((l) => [l, S] as [number, string])
    )
    expect(where(refused(specText(["- a list in the narrative"])))).toEqual([[9, S]])
    expect(where(refused(specText(["## Rule", "- one", "  continued"], withKind("rule"))))).toEqual([[11, S]])
  })

  it("refuses repeated section owners and two primary behavior owners", () => {
    expect(where(refused(specText(["## Intent", "## Intent"])))).toEqual([[10, S]])
    expect(where(refused(specText(["## Rule", "- r", "## Contract", "- c"])))).toEqual([[11, S]])
    expect(where(refused(specText(["## Verification — manual", "## Verification — executable"])))).toEqual([[10, S]])
  })

  it("refuses prose under both a behavior owner and Example space", () => {
    const findings = refused(
      specText(
        ["## Rule", "Rule prose.", "- r", "## Example space", "Space prose.", "```gwt-vocabulary", "Given g", "When w", "Then t", "```"],
        withKind("rule")
      )
    )
    expect(where(findings)).toEqual([[12, S]])
  })

  it("refuses an Intent gwt fence on a non-example Spec, and anything after the fence", () => {
    const fence = ["```gwt", "Given g {n: 1}", "When w", "Then t", "```"]
    expect(where(refused(specText(["## Intent", "- outcome: o", ...fence])))).toEqual([[11, S]])
    expect(where(refused(specText(["## Intent", ...fence, "- outcome: late"], withKind("example"))))).toEqual([[15, S]])
    const ok = onlySpec(specText(["## Intent", "- outcome: o", ...fence], withKind("example")))
    expect(ok.sections.behavior!.examples).toEqual([{ given: ["g {n: 1}"], when: ["w"], then: ["t"] }])
    expect(ok.locations["behavior.examples[0]"]).toBe(11)
  })

  it("refuses fence grammar breaks: other info strings, And first, two Whens, backwards phases, blanks, no Then", () => {
    const space = (steps: string[], info = "gwt-vocabulary") => specText(["## Example space", "```" + info, ...steps, "```"])
    expect(where(refused(space(["Given g", "When w", "Then t"], "ts")))).toEqual([[10, S]])
    expect(where(refused(space(["And g", "When w", "Then t"])))).toEqual([[11, S]])
    expect(where(refused(space(["Given g", "When w", "When x", "Then t"])))).toEqual([[13, S]])
    expect(where(refused(space(["Given g", "When w", "And x", "Then t"])))).toEqual([[13, S]])
    expect(where(refused(space(["Given g", "Then t", "When w"])))).toEqual([[13, S]])
    expect(where(refused(space(["Given g", "", "When w", "Then t"])))).toEqual([[12, S]])
    expect(where(refused(space(["Given g", "When w"])))).toEqual([[10, S]])
    expect(where(refused(space(["Given g", "But w", "Then t"])))).toEqual([[12, S]])
    expect(where(refused(specText(["## Example space", "Only prose."])))).toEqual([[9, S]])
    expect(where(refused(specText(["## Intent", "```gwt", "Given g", "When w", "Then t"], withKind("example"))))).toEqual([[10, S]])
  })

  it("refuses reserved keys, repeated fields, plain bullets in keyed sections and missing statements", () => {
    expect(where(refused(specText(["## Design", "- satisfies: x"])))).toEqual([[10, "extract/reserved-property"]])
    expect(where(refused(specText(["## Intent", "- outcome: a", "- outcome: b"])))).toEqual([[11, S]])
    expect(where(refused(specText(["## Intent", "- plain bullet"])))).toEqual([[10, S]])
    expect(where(refused(specText(["## Constraints", "- target: t"])))).toEqual([[9, S]])
    expect(where(refused(specText(["## Constraints", "Prose here.", "- statement: s"])))).toEqual([[10, "extract/unowned-prose"]])
    expect(where(refused(specText(["## Decision", "- status: adopted"])))).toEqual([[10, "extract/unrecognized-property"]])
    expect(where(refused(specText(["## Verification — manual", "- mode: x"])))).toEqual([[10, "extract/unrecognized-property"]])
    expect(where(refused(specText(["## Behavior", "- plain"])))).toEqual([[10, S]])
    expect(where(refused(specText(["## Design", "- a: 1", "- a: 2"])))).toEqual([[11, S]])
    expect(where(refused(specText(["## Model", "- **a** — one", "- **a** — two"])))).toEqual([[11, S]])
  })

  it("refuses question markers outside Open questions and fields after it", () => {
    expect(where(refused(specText(["## Intent", "- [blocking] q?"])))).toEqual([[10, S]])
    expect(where(refused(specText(["## Intent", "### Open questions", "- outcome: o"])))).toEqual([[11, S]])
    expect(where(refused(specText(["## Intent", "### Open questions", "- no marker?"])))).toEqual([[11, S]])
  })

  it("collects every finding, capped at 100, and never returns nodes", () => {
    const findings = refused(specText(Array.from({ length: 150 }, () => "* bad")))
    expect(findings).toHaveLength(FINDING_CAP)
    const several = refused(carrier(["id: spec:a.b", "kind: nope", "altitude: feature", "readiness: defined", "relations: {}"], ["", "# T", "#bad"]))
    expect(where(several)).toEqual([
      [3, "extract/non-static-envelope"],
      [8, S],
      [9, S],
      [10, S]
    ])
  })

  it("parses an LF text and its CRLF form (normalized) to the same read", () => {
    const lf = specText(["Narrative.", "", "## Intent", "- outcome: o", "### Open questions", "- [blocking #k] q?"])
    const crlf = lf.replace(/\n/g, "\r\n")
    const read = parse(crlf.replace(/\r\n/g, "\n"))
    expect(read).toEqual(parse(lf))
    expect(read.specs).toHaveLength(1)
  })
})
