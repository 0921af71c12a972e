import * as fs from "node:fs"
import * as path from "node:path"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { extractFile } from "../../src/core/read/extract.js"
import { parseMarkdownCarrier } from "../../src/core/read/markdown.js"
import { FILE, onlyPack, onlySpec, parse, refused, specText, where, withKind } from "../support/read-markdown.js"
import { CHECKOUT_CORPUS, withoutCheckout } from "../support/paths.js"
import { tempDir } from "../support/tmp.js"

const CORPUS = CHECKOUT_CORPUS
const readCorpus = (rel: string) => parseMarkdownCarrier(rel, fs.readFileSync(path.join(CORPUS, rel), "utf8"))
const corpusSpec = (rel: string) => {
  const read = readCorpus(rel)
  expect(read.findings).toEqual([])
  expect(read.specs).toHaveLength(1)
  return read.specs[0]
}

// The hand-derived readings of the third-party corpus: only where ../shared is beside the clone.
describe.skipIf(withoutCheckout("read-markdown over checkout-v1"))("checkout-v1 corpus", () => {
  it("reads every carrier of the corpus without a finding", () => {
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    const files = walk(path.join(CORPUS, "specs")).map((f) => path.relative(CORPUS, f).split(path.sep).join("/"))
    expect(files).toHaveLength(12)
    const reads = files.map(readCorpus)
    expect(reads.flatMap((r) => r.findings)).toEqual([])
    expect(reads.reduce((n, r) => n + r.specs.length, 0)).toBe(11)
    expect(reads.reduce((n, r) => n + r.packs.length, 0)).toBe(1)
  })

  it("reads the Pack manifest: title, framing, members in manifest order, modelRefs, id line", () => {
    const pack = readCorpus("specs/checkout.pack.sdp.md").packs[0]
    expect(pack).toEqual({
      id: "pack:checkout-v1",
      title: "Checkout v1",
      framing: "Let customers create orders from valid carts with honest authored traceability.",
      file: "specs/checkout.pack.sdp.md",
      line: 2,
      members: [
        "spec:orders.order-management",
        "spec:orders.order-placement-flow",
        "spec:orders.create-order",
        "spec:orders.create-order.valid-cart",
        "spec:orders.create-order.invalid-cart",
        "spec:orders.create-order.api-contract",
        "spec:orders.order-total-rule",
        "spec:orders.order-inventory-rule",
        "spec:orders.order-latency-constraint",
        "spec:orders.order-model",
        "spec:decisions.order-lifecycle"
      ],
      modelRefs: ["spec:orders.order-model"]
    })
  })

  it("reads create-order: envelope, relations in authored order, intent, example space, locations", () => {
    const spec = corpusSpec("specs/orders/create-order.sdp.md")
    expect(spec).toEqual({
      id: "spec:orders.create-order",
      kind: "behavior",
      altitude: "feature",
      readiness: "defined",
      title: "Customer creates an order",
      narrative: null,
      file: "specs/orders/create-order.sdp.md",
      line: 2,
      sections: {
        intent: {
          actor: "customer",
          outcome: "Turn a valid cart into an order.",
          value: "Customers can complete purchases without the example modeling the rest of checkout."
        },
        behavior: {
          exampleSpace: {
            given: [
              "a customer has a cart with {n:number} line items",
              "every line item has quantity {q:number} and unit price {price:number}",
              'every cart item is {availability:"in stock"|"out of stock"}'
            ],
            when: ["the customer submits the cart for order creation"],
            then: [
              "an order is created with total {total:number}",
              "the order contains the original cart lines",
              'order creation is rejected because {reason:"empty cart"|"out of stock"}'
            ]
          }
        }
      },
      relations: [
        { type: "refines", to: "spec:orders.order-management" },
        { type: "constrainedBy", to: "spec:orders.order-latency-constraint" },
        { type: "decidedBy", to: "spec:decisions.order-lifecycle" }
      ],
      locations: { "intent.actor": 15, "intent.outcome": 16, "intent.value": 17, "behavior.exampleSpace": 21 }
    })
  })

  it("reads the valid-cart example: the Intent fence becomes behavior.examples[0] at its opening line", () => {
    const spec = corpusSpec("specs/orders/create-order-valid-cart.sdp.md")
    expect(spec.kind).toBe("example")
    expect(spec.readiness).toBe("ready")
    expect(spec.relations).toEqual([
      { type: "refines", to: "spec:orders.create-order" },
      { type: "verifies", to: "spec:orders.create-order" }
    ])
    expect(spec.sections.behavior).toEqual({
      examples: [
        {
          given: [
            "a customer has a cart with {n: 2} line items",
            "every line item has quantity {q: 1} and unit price {price: 50}",
            'every cart item is {availability: "in stock"}'
          ],
          when: ["the customer submits the cart for order creation"],
          then: ["an order is created with total {total: 100}", "the order contains the original cart lines"]
        }
      ]
    })
    expect(spec.sections.verification).toEqual({
      mode: "executable",
      criteria: ["The order result contains a stable id.", "The returned total matches the authored total — the spec's value, never the test's."]
    })
    expect(Object.keys(spec.sections)).toEqual(["intent", "behavior", "verification"])
    expect(spec.locations).toEqual({
      "intent.outcome": 14,
      "intent.value": 15,
      "behavior.examples[0]": 17,
      "verification.criteria[0]": 28,
      "verification.criteria[1]": 29
    })
  })

  it("reads the model terms in authored order with their lines", () => {
    const spec = corpusSpec("specs/orders/order-model.sdp.md")
    expect(Object.keys(spec.sections.model!.terms)).toEqual(["cart", "cartLine", "inventorySnapshot", "order", "orderTotal"])
    expect(spec.sections.model!.terms.cartLine).toBe("A requested product, quantity, and unit price inside a cart.")
    expect(spec.locations["model.terms.cart"]).toBe(18)
    expect(spec.locations["model.terms.orderTotal"]).toBe(22)
  })

  it("builds the constraint in graph key order (flavor before statement) whatever the authored order", () => {
    const spec = corpusSpec("specs/orders/order-latency-constraint.sdp.md")
    expect(spec.sections.constraints).toEqual([
      { flavor: "performance", statement: "Create-order should respond within the checkout latency budget.", target: "latency.p95.lt:250ms" }
    ])
    expect(Object.keys(spec.sections.constraints![0])).toEqual(["flavor", "statement", "target"])
    expect(spec.locations["constraints[0].statement"]).toBe(18)
    expect(spec.locations["constraints[0].target"]).toBe(20)
  })

  it("reads the workflow's plain bullets as flows and both relations", () => {
    const spec = corpusSpec("specs/orders/order-placement-flow.sdp.md")
    expect(spec.relations).toEqual([
      { type: "refines", to: "spec:orders.order-management" },
      { type: "dependsOn", to: "spec:orders.create-order" }
    ])
    expect(spec.sections.behavior).toEqual({
      flows: [
        "The customer submits a cart from checkout.",
        "Create-order validates the cart against the inventory snapshot.",
        "A valid cart becomes an order; an invalid cart returns a validation error."
      ]
    })
    expect(spec.locations["behavior.flows[2]"]).toBe(21)
  })

  it("reads the decision record and the contract's blocking open question", () => {
    const decision = corpusSpec("specs/decisions/order-lifecycle.sdp.md")
    expect(decision.sections.decision).toEqual({
      decision: "Create orders only after cart validation confirms non-empty input and sufficient inventory.",
      rationale: [
        "The valid-cart and invalid-cart examples need one consistent gate.",
        "Rejecting before persistence keeps the tracer bullet small and internally consistent."
      ],
      consequences: ["Rejected carts never create partial orders."]
    })
    expect(decision.locations["decision.rationale[1]"]).toBe(20)
    const contract = corpusSpec("specs/orders/create-order-api-contract.sdp.md")
    expect(contract.sections.intent!.openQuestions).toEqual([
      { question: "Does the response carry the inventory-snapshot version the order was validated against?", blocking: true }
    ])
    expect(contract.locations["intent.openQuestions[0]"]).toBe(17)
    const rules = corpusSpec("specs/orders/order-total-rule.sdp.md")
    expect(rules.sections.behavior).toEqual({
      rules: ["Each line subtotal is quantity multiplied by unit price.", "The order total is the sum of all line subtotals."]
    })
  })

  it("reads a CRLF copy of a carrier, its bytes as read from disk, exactly like the LF file", () => {
    const rel = "specs/orders/create-order.sdp.md"
    const lf = fs.readFileSync(path.join(CORPUS, rel))
    const copy = path.join(tempDir("specbundle-crlf-"), "create-order.sdp.md")
    fs.writeFileSync(copy, lf.toString("utf8").replace(/\n/g, "\r\n"))
    const crlf = fs.readFileSync(copy)
    // The copy holds a CR before every LF, and the reader gets those bytes as they are.
    const newlines = lf.toString("latin1").split("\n").length - 1
    expect(newlines).toBeGreaterThan(10)
    expect(crlf.toString("latin1").split("\r\n").length - 1).toBe(newlines)
    expect(crlf.length).toBe(lf.length + newlines)
    const read = (bytes: Uint8Array) => extractFile({ path: rel, bytes }, { selfHosting: false })
    const fromLf = read(lf)
    expect(fromLf?.findings).toEqual([])
    expect(fromLf?.specs.map((s) => s.id)).toEqual(["spec:orders.create-order"])
    expect(read(crlf)).toEqual(fromLf)
  })
})

describe("[L] constructs", () => {
  it("reads keyed open questions, keeps unkeyed ones keyless, and records each question's line", () => {
    const spec = onlySpec(
      specText([
        "",
        "## Intent",
        "- outcome: Loans are recorded.",
        "",
        "### Open questions",
        "- [blocking #fineRule] Can a member with fines borrow?",
        "- [non-blocking] Email or print the receipt?",
        "- [non-blocking #receiptChannel] Which channel first?"
      ])
    )
    expect(spec.sections.intent!.openQuestions).toEqual([
      { question: "Can a member with fines borrow?", blocking: true, key: "fineRule" },
      { question: "Email or print the receipt?", blocking: false },
      { question: "Which channel first?", blocking: false, key: "receiptChannel" }
    ])
    expect("key" in spec.sections.intent!.openQuestions![1]).toBe(false)
    expect(spec.locations["intent.openQuestions[0]"]).toBe(14)
    expect(spec.locations["intent.openQuestions[2]"]).toBe(16)
  })

  it("refuses a repeated, empty or off-grammar question key", () => {
    const intent = (q: string[]) => specText(["", "## Intent", "- outcome: x", "### Open questions", ...q])
    expect(where(refused(intent(["- [blocking #a] one?", "- [non-blocking #a] two?"])))).toEqual([[14, "extract/invalid-markdown-structure"]])
    expect(where(refused(intent(["- [blocking #] one?"])))).toEqual([[13, "extract/invalid-markdown-structure"]])
    expect(where(refused(intent(["- [blocking #Fine] one?"])))).toEqual([[13, "extract/invalid-markdown-structure"]])
  })

  it("refuses entry addresses and # sub-parts in every id slot", () => {
    const idSlot = refused(specText([], ["id: spec:loans.borrow-book#design.k", "kind: behavior", "altitude: feature", "readiness: defined", "relations: {}"]))
    expect(where(idSlot)).toEqual([[2, "extract/invalid-id"]])
    expect(idSlot[0].message).toContain("entry address")
    const target = refused(
      specText([], [...withKind("behavior").slice(0, 4), "relations:", "  refines: spec:loans.circulation#design.k", "  dependsOn:", "    - spec:loans.x#y"])
    )
    expect(where(target)).toEqual([
      [7, "extract/invalid-id"],
      [9, "extract/invalid-id"]
    ])
    const member = refused(["---", "id: pack:loans", "specs:", "  - spec:loans.a#question.fine", "---", "# Loans", ""].join("\n"))
    expect(where(member)).toEqual([[4, "extract/invalid-id"]])
  })

  it("keeps Design, UI and Model keys in authored order, description first", () => {
    const spec = onlySpec(
      specText([
        "",
        "## Model",
        "- **zeta** — last letter.",
        "- **alpha** — first letter.",
        "",
        "## Design",
        "- zeta: z",
        "- alpha: a",
        "- description: set by a bullet",
        "",
        "## UI",
        "Screens are plain.",
        "",
        "- mid: m",
        "- apple: a"
      ])
    )
    expect(Object.keys(spec.sections.model!.terms)).toEqual(["zeta", "alpha"])
    expect(Object.keys(spec.sections.design!)).toEqual(["description", "zeta", "alpha"])
    expect(spec.sections.design!.description).toBe("set by a bullet")
    expect(spec.sections.ui).toEqual({ description: "Screens are plain.", mid: "m", apple: "a" })
    expect(Object.keys(spec.sections.ui!)).toEqual(["description", "mid", "apple"])
    expect(spec.locations["design.description"]).toBe(17)
    expect(spec.locations["ui.description"]).toBeUndefined()
    expect(spec.locations["ui.apple"]).toBe(23)
  })

  it("keeps a pinned declaration's value verbatim, backticks and angle brackets included", () => {
    const spec = onlySpec(
      specText([
        "",
        "## Design",
        "- loanService: `borrow(card: CardId, copy: CopyId): Promise<Loan>` records one loan or throws.",
        "- lookup: ``Map<string, `Loan`>`` keyed by card."
      ])
    )
    expect(spec.sections.design).toEqual({
      loanService: "`borrow(card: CardId, copy: CopyId): Promise<Loan>` records one loan or throws.",
      lookup: "``Map<string, `Loan`>`` keyed by card."
    })
  })

  it("exempts code spans from the raw-HTML check but not text outside them", () => {
    const ok = onlySpec(specText(["", "The cache is a `Map<K, V>` and a < b holds.", "", "## Rule", "- Lookups go through `Map<K, V>` only."]))
    expect(ok.narrative).toBe("The cache is a `Map<K, V>` and a < b holds.")
    expect(where(refused(specText(["", "The cache is a Map<K, V> here."])))).toEqual([[10, "extract/invalid-markdown-structure"]])
    // An unmatched backtick run opens no span, so the tag after it still counts.
    expect(where(refused(specText(["", "Odd `` run then <b>bold</b>."])))).toEqual([[10, "extract/invalid-markdown-structure"]])
    expect(where(refused(specText(["", "## Rule", "- See <!-- hidden --> note."])))).toEqual([[11, "extract/invalid-markdown-structure"]])
  })

  it("reads keyed rules in Behavior and Workflow as {key, rule} objects in authored order with their lines", () => {
    const behavior = onlySpec(
      specText([
        "",
        "## Behavior",
        "- rule: Unkeyed first.",
        "- rule.fineLimit: Loans stop above the fine limit.",
        "- flow: Scan card, then copy.",
        "- rule.onLoan: A lent copy cannot be lent again."
      ])
    )
    expect(behavior.sections.behavior).toEqual({
      rules: ["Unkeyed first.", { key: "fineLimit", rule: "Loans stop above the fine limit." }, { key: "onLoan", rule: "A lent copy cannot be lent again." }],
      flows: ["Scan card, then copy."]
    })
    expect(behavior.locations).toEqual({ "behavior.rules[0]": 11, "behavior.rules[1]": 12, "behavior.flows[0]": 13, "behavior.rules[2]": 14 })
    const workflow = onlySpec(
      specText(["", "## Workflow", "- The member places a hold.", "- rule.lapse: An unclaimed hold lapses after seven days."], withKind("workflow"))
    )
    expect(workflow.sections.behavior).toEqual({
      rules: [{ key: "lapse", rule: "An unclaimed hold lapses after seven days." }],
      flows: ["The member places a hold."]
    })
  })

  it("refuses a repeated or off-grammar rule key, and keyed rules under ## Rule", () => {
    expect(where(refused(specText(["", "## Behavior", "- rule.a: one", "- rule.a: two"])))).toEqual([[12, "extract/invalid-markdown-structure"]])
    expect(where(refused(specText(["", "## Behavior", "- rule.Cut: one"])))).toEqual([[11, "extract/invalid-markdown-structure"]])
    expect(where(refused(specText(["", "## Behavior", "- rule.: one"])))).toEqual([[11, "extract/invalid-markdown-structure"]])
    expect(where(refused(specText(["", "## Rule", "- rule.cut: one"], withKind("rule"))))).toEqual([[11, "extract/invalid-markdown-structure"]])
  })

  it("refuses integer-like Model terms", () => {
    const findings = refused(specText(["", "## Model", "- **12** — a number term.", "- **0** — zero."]))
    expect(where(findings)).toEqual([
      [11, "extract/invalid-markdown-structure"],
      [12, "extract/invalid-markdown-structure"]
    ])
    expect(onlySpec(specText(["", "## Model", "- **012** — not integer-like."])).sections.model!.terms).toEqual({ "012": "not integer-like." })
  })

  it("records the line of every entry of a full Spec", () => {
    const spec = onlySpec(
      specText([
        "Desk checkout is busy.", // 9
        "",
        "## Intent", // 11
        "- actor: member",
        "- problem: p",
        "- outcome: o",
        "- value: v",
        "- risk: r0",
        "- risk: r1",
        "- assumption: a0", // 12-18
        "### Open questions",
        "- [blocking] q0?", // 19-20
        "## Behavior",
        "- rule: r",
        "- flow: f", // 21-23
        "## Example space",
        "```gwt-vocabulary",
        "Given g {n:number}",
        "When w",
        "Then t",
        "```", // 24-29
        "## Constraints",
        "- statement: s",
        "- measurableBy: m", // 30-32
        "## Model",
        "- **cart** — c", // 33-34
        "## Design",
        "- loanService: `x()`", // 35-36
        "## Decision",
        "- context: c",
        "- decision: d",
        "- alternative: a",
        "- consequence: k",
        "- rationale: r", // 37-42
        "## Verification — reviewed",
        "- criterion one", // 43-44
        "## UI",
        "- layout: grid" // 45-46
      ])
    )
    expect(spec.locations).toEqual({
      "intent.actor": 12,
      "intent.problem": 13,
      "intent.outcome": 14,
      "intent.value": 15,
      "intent.risks[0]": 16,
      "intent.risks[1]": 17,
      "intent.assumptions[0]": 18,
      "intent.openQuestions[0]": 20,
      "behavior.rules[0]": 22,
      "behavior.flows[0]": 23,
      "behavior.exampleSpace": 25,
      "constraints[0].statement": 31,
      "constraints[0].measurableBy": 32,
      "model.terms.cart": 34,
      "design.loanService": 36,
      "decision.context": 38,
      "decision.decision": 39,
      "decision.alternatives[0]": 40,
      "decision.consequences[0]": 41,
      "decision.rationale[0]": 42,
      "verification.criteria[0]": 44,
      "ui.layout": 46
    })
    expect(Object.keys(spec.sections)).toEqual(["intent", "behavior", "constraints", "model", "design", "decision", "verification", "ui"])
    expect(Object.keys(spec.sections.intent!)).toEqual(["actor", "problem", "outcome", "value", "risks", "assumptions", "openQuestions"])
    expect(Object.keys(spec.sections.decision!)).toEqual(["context", "decision", "rationale", "alternatives", "consequences"])
    expect(spec.sections.verification).toEqual({ mode: "reviewed", criteria: ["criterion one"] })
    expect(spec.narrative).toBe("Desk checkout is busy.")
    expect(spec.line).toBe(2)
  })

  it("normalizes prose: lines joined by a space, paragraphs by a blank line; descriptions per section", () => {
    const spec = onlySpec(
      specText([
        "First line",
        "second line.",
        "",
        "",
        "Next paragraph.",
        "## Intent",
        "Intent prose",
        "continues.",
        "- outcome: o",
        "## Example space",
        "Shared behavior prose.",
        "```gwt-vocabulary",
        "Given g",
        "When w",
        "Then t",
        "```"
      ])
    )
    expect(spec.narrative).toBe("First line second line.\n\nNext paragraph.")
    expect(spec.sections.intent!.description).toBe("Intent prose continues.")
    expect(spec.sections.behavior!.description).toBe("Shared behavior prose.")
    expect(Object.keys(spec.sections.behavior!)).toEqual(["description", "exampleSpace"])
  })

  it("keeps every authored Design key, in order, with its line (property)", () => {
    const key = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/).filter((k) => k !== "description")
    fc.assert(
      fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 12 }), (keys) => {
        const spec = onlySpec(specText(["", "## Design", ...keys.map((k, i) => `- ${k}: value ${i}`)]))
        expect(Object.keys(spec.sections.design!)).toEqual(keys)
        keys.forEach((k, i) => {
          expect(spec.sections.design![k]).toBe(`value ${i}`)
          expect(spec.locations[`design.${k}`]).toBe(11 + i)
        })
      }),
      { numRuns: 60 }
    )
  })

  it("reads a Pack with empty members, no modelRefs and multi-paragraph framing", () => {
    const pack = onlyPack(["---", "id: pack:empty", "specs: []", "---", "# Empty pack", "", "Why it", "exists.", "", "More."].join("\n"))
    expect(pack).toEqual({
      id: "pack:empty",
      title: "Empty pack",
      framing: "Why it exists.\n\nMore.",
      file: "specs/loans/borrow-book.sdp.md",
      line: 2,
      members: [],
      modelRefs: []
    })
    expect(parse(["---", "specs: []", "id: pack:t", "---", "# T"].join("\n")).packs[0].line).toBe(3)
  })
})

// A read nothing keeps whole (the CLI's impact without a parse cache) keeps each Spec's graph fields
// and parses its prose again when it is read: the same Spec, the same bytes, whatever is asked.
describe("Specs whose prose is parsed on demand", () => {
  const EXAMPLE = path.join(path.dirname(path.dirname(import.meta.dirname)), "examples", "bike-dock")
  const carriers = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? carriers(path.join(dir, e.name)) : e.name.endsWith(".sdp.md") ? [path.join(dir, e.name)] : []))
  const files = carriers(path.join(EXAMPLE, "specs")).map((f) => ({
    rel: path.relative(EXAMPLE, f).split(path.sep).join("/"),
    text: fs.readFileSync(f, "utf8")
  }))

  it("reads every example carrier to the same value and the same JSON bytes", () => {
    expect(files.length).toBeGreaterThan(20)
    let specs = 0
    for (const { rel, text } of files) {
      const whole = parseMarkdownCarrier(rel, text)
      const onDemand = parseMarkdownCarrier(rel, text, true)
      expect(JSON.stringify(onDemand)).toBe(JSON.stringify(whole))
      expect(onDemand.findings).toEqual(whole.findings)
      onDemand.specs.forEach((spec, i) => {
        specs++
        // Nothing of the prose is held until it is read; then it is parsed once.
        expect(Object.keys(spec)).not.toContain("sections")
        expect(spec.sections).toEqual(whole.specs[i].sections)
        expect(spec.sections).toBe(spec.sections)
        expect(spec.locations).toEqual(whole.specs[i].locations)
        expect(spec.narrative).toBe(whole.specs[i].narrative)
        expect({ ...spec, narrative: spec.narrative, sections: spec.sections, locations: spec.locations }).toEqual(whole.specs[i])
      })
    }
    expect(specs).toBeGreaterThan(20)
  })

  it("refuses what a whole read refuses, with the same findings", () => {
    const broken = specText(["", "## Intent", "- outcome: borrowed", "", "## Intent", "- outcome: twice"])
    const whole = parse(broken)
    expect(whole.findings.length).toBeGreaterThan(0)
    expect(parseMarkdownCarrier(FILE, broken, true)).toEqual(whole)
  })
})
