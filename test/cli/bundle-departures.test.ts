// Issue 17's four departures from the recipe, each on a small Markdown corpus read by the real
// reader (test/support/probe-corpus.ts), and the checkout-v1 case when that corpus is beside us.
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { composeBundle, LEFT_OUT_LINES, stageLengths } from "../../src/core/bundle/index.js"
import type { BudgetExceeded, BundleValue, MemberRow } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import type { Facts } from "../../src/core/model.js"
import { graphOf, spec } from "../support/nodes.js"
import { CHECKOUT_CORPUS, withoutCheckout } from "../support/paths.js"
import { PROBE_PACK, RULE_CAP, SHAPE, WHY, writeProbeCorpus } from "../support/probe-corpus.js"
import { run } from "../support/run.js"
import { readTree, tempDir } from "../support/tmp.js"

const REPO = path.join(import.meta.dirname, "..", "..")

let root = ""
let facts: Facts

beforeAll(async () => {
  root = tempDir("specbundle-probe-")
  writeProbeCorpus(root)
  const read = await readTree(root)
  expect(read.graph.findings).toEqual([])
  facts = factsOf(read.graph)
})

const addresses = { pack: PROBE_PACK, declarations: "addresses" } as const
const lengths = (): number[] => stageLengths(facts, { ...addresses, budget: 1000 }) as number[]
const atStage = (k: number): BundleValue => {
  const v = composeBundle(facts, { ...addresses, budget: lengths()[k] }) as BundleValue
  expect(v.leftOut).toEqual(LEFT_OUT_LINES.slice(0, k))
  return v
}
const member = (v: BundleValue, id: string): MemberRow => v.members.find((m) => m.id === id)!
const behavior = (row: MemberRow) => (row.sections as { behavior: Record<string, unknown> }).behavior

/** `bundle` run in process (test/support/run.ts) from the repository's folder. */
const cli = async (args: ReadonlyArray<string>) => {
  const r = await run(REPO, ["bundle", ...args], { env: process.env })
  expect(r.status).toBe(0)
  return JSON.parse(r.stdout) as BundleValue | BudgetExceeded
}

describe("departure 1: the example cut keeps entry addresses written in example steps", () => {
  it("member example steps, the example space and an outside example's steps become address lists ended by their pointer", () => {
    const v = atStage(4)
    const a = member(v, "spec:probe.a")
    expect(behavior(a).exampleSpace).toEqual([SHAPE, { line: 23 }])
    const rows = a.examples as Array<{ id: string; steps: unknown }>
    expect(rows.map((r) => [r.id, r.steps])).toEqual([
      ["spec:probe.a.inside", null],
      ["spec:probe.a.outside", [WHY, { line: 13 }]]
    ])
    expect(behavior(member(v, "spec:probe.a.inside")).examples).toEqual([[SHAPE, { line: 14 }]])
  })

  it("the later stages keep them (the declaration cut lengthens this corpus: the property tests reach it)", () => {
    for (const k of [5, 6]) {
      const text = JSON.stringify(atStage(k))
      expect(text.split(SHAPE).length - 1).toBe(2)
      expect(text).toContain(WHY)
    }
  })
})

describe("departure 2: protectedLength is the smallest budget at which the request returns a bundle", () => {
  it("a declaration cut that lengthens the value does not set it; a budget equal to it returns a bundle", () => {
    const l = lengths()
    expect(l[7]).toBeGreaterThan(l[6]) // addresses longer than the `s` and `z` they replace, plus a line
    const exceeded = composeBundle(facts, { ...addresses, budget: l[6] - 1 }) as BudgetExceeded
    expect(exceeded.budgetExceeded).toBe(true)
    expect(exceeded.leftOut).toEqual(LEFT_OUT_LINES)
    expect(exceeded.protectedLength).toBe(Math.min(...l))
    expect(exceeded.protectedLength).toBe(l[6])
    const fits = composeBundle(facts, { ...addresses, budget: exceeded.protectedLength }) as BundleValue
    expect(fits.used).toBe(l[6])
    expect(fits.leftOut).toEqual(LEFT_OUT_LINES.slice(0, 6))
  })

  it("the built CLI: budget protectedLength - 1 is exceeded, protectedLength returns a bundle", async () => {
    const first = (await cli(["--root", root, "--pack", PROBE_PACK, "--declarations", "addresses", "--budget", "1000"])) as BudgetExceeded
    const least = first.protectedLength
    const below = (await cli(["--root", root, "--pack", PROBE_PACK, "--declarations", "addresses", "--budget", String(least - 1)])) as BudgetExceeded
    expect(below.budgetExceeded).toBe(true)
    expect(below.protectedLength).toBe(least)
    const at = (await cli(["--root", root, "--pack", PROBE_PACK, "--declarations", "addresses", "--budget", String(least)])) as BundleValue
    expect(at.used).toBe(least)
  })

  it("a budget whose digits differ from the length's is solved for its own digits", () => {
    const exceeded = composeBundle(facts, { ...addresses, budget: 99 }) as BudgetExceeded
    expect(exceeded.protectedLength).toBe(lengths()[6])
    expect((composeBundle(facts, { ...addresses, budget: exceeded.protectedLength }) as BundleValue).used).toBe(lengths()[6])
  })
})

describe("departure 3: U+2028 in a keyed rule and an open question does not refuse the carrier", () => {
  it("the Spec is read and its entries keep the character", () => {
    const b = member(atStage(0), "spec:probe.b")
    expect(b.file).toBe("specs/probe/b.sdp.md")
    expect(behavior(b).rules).toEqual([{ key: "cap", rule: expect.stringMatching(/^Caps\u2028hold, cap/) }])
    expect(b.questions).toEqual([{ index: 0, question: expect.stringMatching(/^Why\u2028now, question/), blocking: false, key: "why", address: WHY, line: 14 }])
    expect(behavior(member(atStage(6), "spec:probe.b")).rules).toEqual([RULE_CAP])
  })
})

describe("departure 4: an Intent that held only open questions", () => {
  it('is left out of sections: an Intent of nothing but questions prints "sections":{} (docs/decisions.md)', () => {
    const only = factsOf(
      graphOf(
        spec({
          id: "spec:q.only",
          sections: { intent: { openQuestions: [{ question: "Which?", blocking: true, key: "which" }] } }
        })
      )
    )
    const v = composeBundle(only, { specs: ["spec:q.only"] }) as BundleValue
    expect(JSON.stringify(v.members[0])).toContain('"sections":{},"questions":[{"index":0,"question":"Which?"')
    expect(behavior(member(atStage(0), "spec:probe.b"))).toBeDefined()
    expect(Object.keys(member(atStage(0), "spec:probe.b").sections as object)).toEqual(["behavior"])
  })
})

describe("checkout-v1 (issue 17's case)", () => {
  it.skipIf(withoutCheckout("the budget one under checkout-v1's protected length"))(
    "budget 9267 names protectedLength 9268 and 9268 returns a bundle",
    async () => {
      const args = ["--root", CHECKOUT_CORPUS, "--pack", "pack:checkout-v1", "--declarations", "addresses"]
      const below = (await cli([...args, "--budget", "9267"])) as BudgetExceeded
      expect(below.protectedLength).toBe(9268)
      const at = (await cli([...args, "--budget", "9268"])) as BundleValue
      expect(at.used).toBe(9268)
      expect(at.leftOut).toEqual(LEFT_OUT_LINES.slice(0, 6))
    }
  )
})
