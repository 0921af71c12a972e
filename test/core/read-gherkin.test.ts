import { describe, expect, it } from "vitest"
import { parseGherkinCarrier } from "../../src/core/read/gherkin.js"

const FILE = "specs/orders/create-order.sdp.gherkin"

const FULL = `@spec.orders.create-order @altitude.feature
@readiness.defined @depends-on.spec:orders.cart @constrained-by.spec:orders.latency
@decided-by.spec:decisions.lifecycle @refines.spec:orders.management @wip
Feature: Customer creates an order
  Turning a cart into an order is the core
  of checkout.

  # a comment between prose and bullets
  Second paragraph.
  - actor: customer
  - outcome: Turn a valid cart into an order.
  - risk: Stock can change mid-checkout.
  - risk: Prices can change.
  - assumption: Carts are validated.
  - verification-mode: executable
  - criterion: The order has a stable id.

  @example-space
  Scenario: vocabulary
    Given a cart with {n:number} lines
    When the customer submits the cart
    Then an order is created with total {total:number}
    Then creation is rejected because {reason:"empty cart"|"out of stock"}

  @spec.orders.create-order.valid-cart @altitude.story @readiness.ready
  Scenario: Valid cart creates an order
    Show the happy path.
    - outcome: A valid cart becomes an order.
    Given a cart with {n: 2} lines
    And every line is in stock
    When the customer submits the cart
    Then an order is created with total {total: 100}
    But no stock alarm is raised

  @spec.orders.create-order.empty-cart @altitude.story @readiness.defined
  @refines.spec:orders.cart
  Scenario: Empty cart is rejected
    Given a cart with {n: 0} lines
    When the customer submits the cart
    Then creation is rejected because {reason: "empty cart"}

  Rule: An order total is never negative.
  Rule: An empty cart never becomes an order.
`

const refusal = (text: string) => {
  const read = parseGherkinCarrier(FILE, text)
  expect(read.specs).toEqual([])
  expect(read.findings.length).toBeGreaterThan(0)
  for (const f of read.findings) {
    expect(f.severity).toBe("error")
    expect(f.file).toBe(FILE)
  }
  return read.findings
}

/** A minimal lawful file with `scenario` spliced in as the only child. */
const withScenario = (scenario: string, featureTags = "@spec.a.b @altitude.feature @readiness.idea") => `${featureTags}\nFeature: F\n\n${scenario}\n`

const OK_TAGS = "  @spec.a.b.c @altitude.story @readiness.idea"

describe("parseGherkinCarrier", () => {
  const read = parseGherkinCarrier(FILE, FULL)
  const [feature, valid, empty] = read.specs

  it("reads a Feature and its ordinary Scenarios as one behavior and two example Specs", () => {
    expect(read.findings).toEqual([])
    expect(read.specs.map((s) => [s.id, s.kind, s.altitude, s.readiness])).toEqual([
      ["spec:orders.create-order", "behavior", "feature", "defined"],
      ["spec:orders.create-order.valid-cart", "example", "story", "ready"],
      ["spec:orders.create-order.empty-cart", "example", "story", "defined"]
    ])
    expect(read.anchors).toEqual([])
    expect(read.packs).toEqual([])
    expect(feature.file).toBe(FILE)
    expect(feature.title).toBe("Customer creates an order")
  })

  it("puts the Spec line on the @spec. tag", () => {
    expect(feature.line).toBe(1)
    expect(valid.line).toBe(25)
    expect(empty.line).toBe(35)
  })

  it("reads relation tags in authored order and ignores plain decoration tags", () => {
    expect(feature.relations).toEqual([
      { type: "dependsOn", to: "spec:orders.cart" },
      { type: "constrainedBy", to: "spec:orders.latency" },
      { type: "decidedBy", to: "spec:decisions.lifecycle" },
      { type: "refines", to: "spec:orders.management" }
    ])
  })

  it("defaults a Scenario's refines and verifies to its Feature", () => {
    expect(valid.relations).toEqual([
      { type: "refines", to: "spec:orders.create-order" },
      { type: "verifies", to: "spec:orders.create-order" }
    ])
  })

  it("keeps an explicitly tagged refines and still defaults verifies", () => {
    expect(empty.relations).toEqual([
      { type: "refines", to: "spec:orders.cart" },
      { type: "verifies", to: "spec:orders.create-order" }
    ])
  })

  it("maps description bullets to intent and verification, other prose to the narrative", () => {
    expect(feature.narrative).toBe("Turning a cart into an order is the core of checkout.\n\nSecond paragraph.")
    expect(feature.sections.intent).toEqual({
      actor: "customer",
      outcome: "Turn a valid cart into an order.",
      risks: ["Stock can change mid-checkout.", "Prices can change."],
      assumptions: ["Carts are validated."]
    })
    expect(Object.keys(feature.sections.intent!)).toEqual(["actor", "outcome", "risks", "assumptions"])
    expect(feature.sections.verification).toEqual({ mode: "executable", criteria: ["The order has a stable id."] })
    expect(valid.narrative).toBe("Show the happy path.")
    expect(valid.sections.intent).toEqual({ outcome: "A valid cart becomes an order." })
    expect(empty.narrative).toBeNull()
  })

  it("reads the @example-space pseudo-scenario as the Feature's exampleSpace, not as a Spec", () => {
    expect(feature.sections.behavior?.exampleSpace).toEqual({
      given: ["a cart with {n:number} lines"],
      when: ["the customer submits the cart"],
      then: ["an order is created with total {total:number}", 'creation is rejected because {reason:"empty cart"|"out of stock"}']
    })
    expect(read.specs.some((s) => s.title === "vocabulary")).toBe(false)
  })

  it("reads trailing title-only Rules as behavior.rules in order", () => {
    expect(feature.sections.behavior?.rules).toEqual(["An order total is never negative.", "An empty cart never becomes an order."])
    expect(Object.keys(feature.sections.behavior!)).toEqual(["rules", "exampleSpace"])
  })

  it("turns a Scenario's steps into one Gwt where And and But inherit the phase", () => {
    expect(valid.sections.behavior).toEqual({
      examples: [
        {
          given: ["a cart with {n: 2} lines", "every line is in stock"],
          when: ["the customer submits the cart"],
          then: ["an order is created with total {total: 100}", "no stock alarm is raised"]
        }
      ]
    })
    expect(Object.keys(valid.sections)).toEqual(["intent", "behavior"])
  })

  it("gives location rows for every parsed entry, past comment lines", () => {
    expect(feature.locations).toEqual({
      "intent.actor": 10,
      "intent.outcome": 11,
      "intent.risks[0]": 12,
      "intent.risks[1]": 13,
      "intent.assumptions[0]": 14,
      "verification.criteria[0]": 16,
      "behavior.exampleSpace": 19,
      "behavior.rules[0]": 42,
      "behavior.rules[1]": 43
    })
    expect(valid.locations).toEqual({ "intent.outcome": 28, "behavior.examples[0]": 26 })
    expect(empty.locations).toEqual({ "behavior.examples[0]": 37 })
  })

  it("reads intent.description and problem/value keys", () => {
    const r = parseGherkinCarrier(FILE, "@spec.a.b @altitude.epic @readiness.idea\nFeature: F\n  - description: d\n  - problem: p\n  - value: v\n")
    expect(r.specs[0].sections.intent).toEqual({ description: "d", problem: "p", value: "v" })
    expect(r.specs[0].sections.behavior).toBeUndefined()
    expect(r.specs[0].narrative).toBeNull()
  })
})

describe("parseGherkinCarrier refusals (the whole file)", () => {
  it("refuses a Gherkin syntax error at its line", () => {
    const [f] = refusal("@spec.a.b @altitude.feature @readiness.idea\nFeature: F\n  Scenario: s\n    Given x\n  garbage |\n")
    expect(f).toMatchObject({ code: "extract/gherkin-syntax", line: 5 })
  })

  it("refuses a file without a Feature", () => {
    expect(refusal("# only a comment\n")[0]).toMatchObject({ code: "extract/gherkin-grammar", line: 1 })
  })

  it("refuses a Scenario Outline with Examples", () => {
    const fs = refusal(withScenario(`${OK_TAGS}\n  Scenario Outline: o\n    Given x <n>\n    When y\n    Then z\n  Examples:\n    | n |\n    | 1 |`))
    expect(fs.some((f) => f.line === 5 && f.message.includes("Outline"))).toBe(true)
  })

  it("refuses a Background", () => {
    expect(refusal(withScenario("  Background:\n    Given x"))[0]).toMatchObject({ line: 4 })
  })

  it("refuses a data table on a step", () => {
    const fs = refusal(withScenario(`${OK_TAGS}\n  Scenario: s\n    Given x\n      | a | b |\n    When y\n    Then z`))
    expect(fs).toEqual([expect.objectContaining({ line: 7, message: expect.stringContaining("data table") })])
  })

  it("refuses a doc string on a step", () => {
    const fs = refusal(withScenario(`${OK_TAGS}\n  Scenario: s\n    Given x\n      """\n      doc\n      """\n    When y\n    Then z`))
    expect(fs).toEqual([expect.objectContaining({ line: 7, message: expect.stringContaining("doc string") })])
  })

  it("refuses a * step", () => {
    const fs = refusal(withScenario(`${OK_TAGS}\n  Scenario: s\n    * x\n    When y\n    Then z`))
    expect(fs).toEqual([expect.objectContaining({ line: 6, message: expect.stringContaining('"*"') })])
  })

  it("refuses a Scenario that opens with a conjunction", () => {
    const fs = refusal(withScenario(`${OK_TAGS}\n  Scenario: s\n    And x\n    When y\n    Then z`))
    expect(fs).toEqual([expect.objectContaining({ line: 6, message: expect.stringContaining("conjunction") })])
  })

  it("refuses a step-less Scenario", () => {
    const fs = refusal(withScenario(`${OK_TAGS}\n  Scenario: s`))
    expect(fs).toEqual([expect.objectContaining({ line: 5, message: expect.stringContaining("no steps") })])
  })

  it("refuses @kind tags", () => {
    const fs = refusal(withScenario("", "@spec.a.b @altitude.feature @readiness.idea @kind.rule"))
    expect(fs).toEqual([expect.objectContaining({ line: 1, message: expect.stringContaining("kind is structural") })])
  })

  it("refuses @pack tags", () => {
    expect(refusal(withScenario("", "@spec.a.b @altitude.feature @readiness.idea @pack.checkout"))[0].message).toContain("Pack")
  })

  it("refuses @supersedes tags", () => {
    expect(refusal(withScenario("", "@spec.a.b @altitude.feature @readiness.idea @supersedes.spec:a.c"))[0].message).toContain("supersedes")
  })

  it("refuses authored delivery-fact tags", () => {
    expect(refusal(withScenario("", "@spec.a.b @altitude.feature @readiness.idea @implemented"))[0].message).toContain("delivery facts")
  })

  it("refuses a near-miss reserved tag head with a suggestion", () => {
    expect(refusal(withScenario("", "@spec.a.b @altitude.feature @readiness.idea @refine.spec:a.c"))[0].message).toContain('did you mean "@refines."')
  })

  it("refuses a missing @spec tag and a bad altitude", () => {
    const fs = refusal("@altitude.high @readiness.idea\nFeature: F\n")
    expect(fs.map((f) => [f.line, f.message.includes("@spec.") || f.message.includes("altitude")])).toEqual([
      [1, true],
      [2, true]
    ])
  })

  it("refuses an invalid id in a tag as extract/invalid-id", () => {
    expect(refusal(withScenario("", "@spec.a_b @altitude.feature @readiness.idea"))[0]).toMatchObject({ code: "extract/invalid-id", line: 1 })
  })

  it("refuses an unknown description key", () => {
    const fs = refusal("@spec.a.b @altitude.feature @readiness.idea\nFeature: F\n  - outcom: x\n")
    expect(fs).toEqual([expect.objectContaining({ code: "extract/unrecognized-property", line: 3 })])
  })

  it("refuses criteria without a verification-mode", () => {
    expect(refusal("@spec.a.b @altitude.feature @readiness.idea\nFeature: F\n  - criterion: c\n")[0].line).toBe(3)
  })

  it("refuses a Scenario placed after a Rule (it would nest under the Rule)", () => {
    const fs = refusal(withScenario(`  Rule: r\n\n${OK_TAGS}\n  Scenario: s\n    Given x\n    When y\n    Then z`))
    expect(fs[0]).toMatchObject({ line: 4, message: expect.stringContaining("title-only") })
  })

  it("refuses a second @example-space pseudo-scenario", () => {
    const space = "  @example-space\n  Scenario: v\n    Given x\n    When y\n    Then z\n"
    const fs = refusal(withScenario(`${space}\n${space}`))
    expect(fs).toEqual([expect.objectContaining({ line: 11, message: expect.stringContaining("at most one") })])
  })

  it("refuses a repeated relation tag", () => {
    expect(refusal(withScenario("", "@spec.a.b @altitude.feature @readiness.idea @refines.spec:x.y @refines.spec:x.y"))[0].message).toContain("repeats")
  })

  it("refuses a non-English Gherkin dialect", () => {
    expect(refusal("# language: fr\n@spec.a.b @altitude.feature @readiness.idea\nFonctionnalité: F\n")[0].line).toBe(1)
  })
})
