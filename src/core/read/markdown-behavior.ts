// Readers for ## Intent (with ### Open questions and an example's gwt fence), the primary behavior
// owners (Behavior, Rule, Workflow, Contract) and ## Example space (sdp-format.md 4.5 to 4.9).
import { ENTRY_KEY_RE } from "../ids.js"
import { CODES } from "./markdown-findings.js"
import type { Block } from "./markdown-lines.js"
import { parseGwtFence } from "./markdown-fence.js"
import { KEYED, KEYED_RULE, refuseKey, refuseStray, splitLead, type SpecDraft } from "./markdown-draft.js"

const INTENT_ONCE = ["actor", "problem", "outcome", "value"] as const
const QUESTION = /^\[(blocking|non-blocking)(?: #([^\]]*))?\] [ \t]*(\S.*)$/s
const MARKER_LIKE = /^\[(?:non-)?blocking\b/

const readExampleFence = (d: SpecDraft, b: Extract<Block, { t: "fence" }>): void => {
  if (d.kind !== null && d.kind !== "example") {
    d.error(b.line, CODES.structure, `a gwt fence in ## Intent is only for kind: example (this Spec is ${d.kind}); promote it to a child example Spec`)
    return
  }
  if (b.info !== "gwt") {
    d.error(
      b.line,
      CODES.structure,
      b.info === "gwt-vocabulary"
        ? "a gwt-vocabulary fence belongs under ## Example space, not ## Intent"
        : `fence \`\`\`${b.info} is refused; an example's fence opens with exactly \`\`\`gwt`
    )
    return
  }
  const gwt = parseGwtFence(b.steps, b.line, d.sink)
  if (gwt === null) return
  const behavior = d.behaviorDraft()
  d.locate(`behavior.examples[${behavior.examples.length}]`, b.line)
  behavior.examples.push(gwt)
}

const readQuestion = (d: SpecDraft, b: Extract<Block, { t: "entry" }>): void => {
  const m = QUESTION.exec(b.text)
  if (m === null) {
    d.error(b.line, CODES.structure, "each open question starts with [blocking] or [non-blocking] (optionally [blocking #key]) then the question")
    return
  }
  const intent = d.intent!
  const question = m[2] === undefined ? { question: m[3], blocking: m[1] === "blocking" } : { question: m[3], blocking: m[1] === "blocking", key: m[2] }
  if (m[2] !== undefined) {
    if (!ENTRY_KEY_RE.test(m[2])) {
      d.error(b.line, CODES.structure, `question key "#${m[2]}" must be lower-camel ASCII (^[a-z][A-Za-z0-9]*$)`)
      return
    }
    if (d.questionKeys.has(m[2])) {
      d.error(b.line, CODES.structure, `question key #${m[2]} is used twice in this Spec; keep keys unique`)
      return
    }
    d.questionKeys.add(m[2])
  }
  d.locate(`intent.openQuestions[${intent.openQuestions.length}]`, b.line)
  intent.openQuestions.push(question)
}

const readIntentField = (d: SpecDraft, b: Extract<Block, { t: "entry" }>): void => {
  const intent = d.intent!
  if (MARKER_LIKE.test(b.text)) {
    d.error(b.line, CODES.structure, "open-question markers stand only under ### Open questions (after the Intent fields)")
    return
  }
  const m = KEYED.exec(b.text)
  if (m === null) {
    d.error(b.line, CODES.structure, '## Intent takes keyed entries (actor, problem, outcome, value, risk, assumption): write "- key: text"')
    return
  }
  const [, key, value] = m
  if ((INTENT_ONCE as ReadonlyArray<string>).includes(key)) {
    const k = key as (typeof INTENT_ONCE)[number]
    if (intent[k] !== undefined) {
      d.error(b.line, CODES.structure, `intent ${key} is written twice; keep one`)
      return
    }
    intent[k] = value
    d.locate(`intent.${key}`, b.line)
  } else if (key === "risk") {
    d.locate(`intent.risks[${intent.risks.length}]`, b.line)
    intent.risks.push(value)
  } else if (key === "assumption") {
    d.locate(`intent.assumptions[${intent.assumptions.length}]`, b.line)
    intent.assumptions.push(value)
  } else {
    refuseKey(d, key, b.line, "Intent", "use actor, problem, outcome, value, risk or assumption")
  }
}

export const readIntent = (d: SpecDraft, blocks: ReadonlyArray<Block>): void => {
  const { description, rest } = splitLead(d, blocks, "Intent", true)
  d.intent = { risks: [], assumptions: [], openQuestions: [] }
  if (description !== undefined) d.intent.description = description
  let phase: "fields" | "questions" | "fenced" = "fields"
  for (const b of rest) {
    if (b.t === "blank" || b.t === "bad" || b.t === "prose") continue
    if (phase === "fenced") {
      d.error(b.line, CODES.structure, "nothing may follow the gwt fence in ## Intent; move it above the fence or to another section")
      continue
    }
    if (b.t === "h3") {
      if (b.text !== "Open questions") {
        d.error(b.line, CODES.heading, `### ${b.text} is not recognised; the only H3 is ### Open questions`)
      } else if (phase === "questions") {
        d.error(b.line, CODES.structure, "### Open questions is written twice; keep one")
      } else phase = "questions"
    } else if (b.t === "fence") {
      readExampleFence(d, b)
      phase = "fenced"
    } else if (b.t === "entry") {
      if (phase === "questions") {
        if (!MARKER_LIKE.test(b.text) && KEYED.test(b.text)) {
          d.error(b.line, CODES.structure, "Intent fields must precede ### Open questions; move this entry above it")
        } else readQuestion(d, b)
      } else readIntentField(d, b)
    }
  }
}

export type BehaviorOwner = "Behavior" | "Rule" | "Workflow" | "Contract"

const setBehaviorDescription = (d: SpecDraft, owner: string, description: string | undefined, line: number): void => {
  if (description === undefined) return
  const behavior = d.behaviorDraft()
  if (behavior.description !== undefined) {
    d.error(line, CODES.structure, `## ${owner} and ## ${behavior.descriptionOwner} share one behavior description; keep the prose under one of them`)
    return
  }
  behavior.description = description
  behavior.descriptionOwner = owner
}

const pushRule = (d: SpecDraft, rule: string | { key: string; rule: string }, line: number): void => {
  const behavior = d.behaviorDraft()
  d.locate(`behavior.rules[${behavior.rules.length}]`, line)
  behavior.rules.push(rule)
}

const readKeyedRule = (d: SpecDraft, owner: BehaviorOwner, key: string, text: string, line: number): void => {
  if (owner === "Rule" || owner === "Contract") {
    d.error(line, CODES.structure, `keyed rules (- rule.<key>: text) stand under ## Behavior or ## Workflow; under ## ${owner} write a plain bullet`)
  } else if (!ENTRY_KEY_RE.test(key)) {
    d.error(line, CODES.structure, `rule key "${key}" must be lower-camel ASCII (^[a-z][A-Za-z0-9]*$)`)
  } else if (d.ruleKeys.has(key)) {
    d.error(line, CODES.structure, `rule key ${key} is used twice in this Spec; keep rule keys unique`)
  } else {
    d.ruleKeys.add(key)
    pushRule(d, { key, rule: text }, line)
  }
}

export const readBehaviorOwner = (d: SpecDraft, owner: BehaviorOwner, blocks: ReadonlyArray<Block>, headingLine: number): void => {
  const { description, rest } = splitLead(d, blocks, owner, true)
  d.behaviorDraft()
  setBehaviorDescription(d, owner, description, headingLine)
  for (const b of rest) {
    if (b.t === "h3" || b.t === "fence") {
      refuseStray(d, b, owner)
      continue
    }
    if (b.t !== "entry") continue
    const keyedRule = KEYED_RULE.exec(b.text)
    if (keyedRule !== null) {
      readKeyedRule(d, owner, keyedRule[1], keyedRule[2], b.line)
      continue
    }
    const keyed = KEYED.exec(b.text)
    if (keyed !== null) {
      const [, key, value] = keyed
      if (key === "rule" && (owner === "Behavior" || owner === "Workflow")) pushRule(d, value, b.line)
      else if (key === "flow" && owner === "Behavior") {
        const behavior = d.behaviorDraft()
        d.locate(`behavior.flows[${behavior.flows.length}]`, b.line)
        behavior.flows.push(value)
      } else {
        const hint =
          owner === "Behavior"
            ? "use rule: or flow:"
            : owner === "Workflow"
              ? "write flows as plain bullets and rules as rule: entries"
              : "write each rule as a plain bullet that does not start with one word and a colon"
        refuseKey(d, key, b.line, owner, hint)
      }
      continue
    }
    if (owner === "Behavior") {
      d.error(b.line, CODES.structure, '## Behavior takes keyed entries only: "- rule: text" or "- flow: text"')
    } else if (owner === "Workflow") {
      const behavior = d.behaviorDraft()
      d.locate(`behavior.flows[${behavior.flows.length}]`, b.line)
      behavior.flows.push(b.text)
    } else pushRule(d, b.text, b.line)
  }
}

export const readExampleSpace = (d: SpecDraft, blocks: ReadonlyArray<Block>, headingLine: number): void => {
  const { description, rest } = splitLead(d, blocks, "Example space", true)
  d.behaviorDraft()
  setBehaviorDescription(d, "Example space", description, headingLine)
  let fences = 0
  for (const b of rest) {
    if (b.t === "entry") {
      d.error(b.line, CODES.structure, "## Example space takes no list entries; only one gwt-vocabulary fence")
    } else if (b.t === "h3") refuseStray(d, b, "Example space")
    else if (b.t === "fence") {
      fences++
      if (fences > 1) {
        d.error(b.line, CODES.structure, "## Example space holds exactly one gwt-vocabulary fence; merge the steps into one")
      } else if (b.info !== "gwt-vocabulary") {
        d.error(b.line, CODES.structure, `fence \`\`\`${b.info} is refused here; the example space opens with exactly \`\`\`gwt-vocabulary`)
      } else {
        const gwt = parseGwtFence(b.steps, b.line, d.sink)
        if (gwt !== null) {
          if (gwt.when.length !== 1) d.error(b.line, CODES.structure, "an example space has exactly one When step")
          d.behaviorDraft().exampleSpace = gwt
          d.locate("behavior.exampleSpace", b.line)
        }
      }
    }
  }
  if (fences === 0) d.error(headingLine, CODES.structure, "## Example space needs one ```gwt-vocabulary fence")
}
