// U+2028 and U+2029 are ordinary characters to the format: inside a keyed rule, a keyed design
// entry, an open question or a model term they read like any other (issue 17, departure 3).
import { describe, expect, it } from "vitest"
import { onlySpec, specText, withKind } from "../support/read-markdown.js"

const LS = "\u2028"
const PS = "\u2029"

describe("line and paragraph separators inside entries", () => {
  for (const [name, ch] of [
    ["U+2028", LS],
    ["U+2029", PS]
  ] as const) {
    it(`${name} reads in keyed rules, design entries, open questions and model terms`, () => {
      const spec = onlySpec(
        specText([
          "",
          "## Intent",
          `- outcome: out${ch}come`,
          "### Open questions",
          `- [non-blocking #later] ask${ch}later?`,
          `- [blocking] must${ch}we?`,
          "## Behavior",
          `- rule.cap: cap${ch}rule`,
          `- rule: plain${ch}rule`,
          "## Model",
          `- **cart** — a${ch}cart`,
          "## Example space",
          "```gwt-vocabulary",
          `Given a${ch}cart`,
          "When it is paid",
          "Then it is closed",
          "```",
          "## Design",
          `- loanService: \`x()\`${ch}records`,
          `- description: prose${ch}here`
        ])
      )
      expect(spec.sections.intent!.outcome).toBe(`out${ch}come`)
      expect(spec.sections.intent!.openQuestions).toEqual([
        { question: `ask${ch}later?`, blocking: false, key: "later" },
        { question: `must${ch}we?`, blocking: true }
      ])
      expect(spec.sections.behavior!.rules).toEqual([{ key: "cap", rule: `cap${ch}rule` }, `plain${ch}rule`])
      expect(spec.sections.behavior!.exampleSpace).toEqual({ given: [`a${ch}cart`], when: ["it is paid"], then: ["it is closed"] })
      expect(spec.sections.model!.terms).toEqual({ cart: `a${ch}cart` })
      expect(spec.sections.design).toMatchObject({ loanService: `\`x()\`${ch}records`, description: `prose${ch}here` })
    })

    it(`${name} reads in a workflow's keyed rule`, () => {
      const workflow = onlySpec(specText(["", "## Workflow", "- The member places a hold.", `- rule.lapse: lapses${ch}later`], withKind("workflow")))
      expect(JSON.stringify(workflow.sections)).toContain(JSON.stringify({ key: "lapse", rule: `lapses${ch}later` }))
    })
  }
})
