// Markdown text of one generated Spec or Pack (shared/docs/sdp-format.md sections 2-4).
// Each role renders the sections its kind uses; every line follows the reader's grammar.
import { actor, adjective, cap, paragraph, question, sentence, sentences } from "./bench-gen-words.mjs"

const relationsYaml = (relations) => {
  if (relations.length === 0) return ["relations: {}"]
  const out = ["relations:"]
  for (const [type, targets] of relations) {
    if (targets.length === 1) out.push(`  ${type}: ${targets[0]}`)
    else {
      out.push(`  ${type}:`)
      for (const t of targets) out.push(`    - ${t}`)
    }
  }
  return out
}

/** The family's typed vocabulary: one When, two Then alternatives. */
const vocabulary = (f) => [
  "```gwt-vocabulary",
  `Given a {role:"clerk"|"auditor"} with {count:number} open ${f.noun} entries`,
  `And the ${f.noun} is {state:"open"|"closed"}`,
  `When the ${f.actor} submits the ${f.noun} for ${f.verb}`,
  `Then the ${f.noun} total becomes {total:number}`,
  `Then the request is refused because {reason:"limit reached"|"missing entry"}`,
  "```"
]

/** One bound point per example: case 1 succeeds, case 2 is refused. */
const boundExample = (f, n) => [
  "```gwt",
  n === 1
    ? `Given a {role: "clerk"} with {count: ${2 + (f.index % 7)}} open ${f.noun} entries`
    : `Given a {role: "auditor"} with {count: 0} open ${f.noun} entries`,
  `And the ${f.noun} is {state: "${n === 1 ? "open" : "closed"}"}`,
  `When the ${f.actor} submits the ${f.noun} for ${f.verb}`,
  n === 1 ? `Then the ${f.noun} total becomes {total: ${40 + (f.index % 50)}}` : `Then the request is refused because {reason: "missing entry"}`,
  "```"
]

const intent = (rng, s, opts) => {
  const out = ["## Intent"]
  if (opts.description) out.push(paragraph(rng, 2), "")
  if (opts.actor) out.push(`- actor: ${actor(rng)}`)
  if (opts.problem) out.push(`- problem: ${sentence(rng)}`)
  out.push(`- outcome: ${sentence(rng)}`)
  out.push(`- value: ${sentence(rng)}`)
  if (opts.risk) out.push(`- risk: ${sentence(rng)}`)
  if (opts.assumption) out.push(`- assumption: ${sentence(rng)}`)
  if (s.questions.length > 0) {
    out.push("", "### Open questions")
    for (const q of s.questions) {
      const marker = q.blocking ? "blocking" : "non-blocking"
      out.push(`- [${q.key === null ? marker : `${marker} #${q.key}`}] ${question(rng)}`)
    }
  }
  return out
}

const design = (rng, f, pinned) => {
  const N = cap(f.noun)
  const out = ["## Design", paragraph(rng, 2), ""]
  out.push(`- storeLayout: ${sentence(rng)}`)
  if (pinned) {
    out.push(`- fnSubmit${N}: \`submit${N}(input: ${N}Input, limit: number): ${N}Result\` ${sentence(rng).toLowerCase()}`)
    out.push(`- type${N}Row: \`type ${N}Row = { id: string; amount: number; state: "open" | "closed" }\` one row per entry.`)
  }
  out.push(`- retryPolicy: ${sentence(rng)}`)
  if (rng.chance(0.5)) out.push(`- ${f.noun}Limits: ${sentence(rng)}`)
  return out
}

const narrative = (rng, s) => {
  if (s.prose === 0) return []
  const out = []
  for (let i = 0; i < s.prose; i++) out.push(paragraph(rng, rng.int(2, 4)), "")
  return out
}

const ROLES = {
  epic: (rng, s) => [
    ...intent(rng, s, { actor: true, problem: true, risk: true }),
    "",
    "## Behavior",
    `- rule: ${sentence(rng)}`,
    `- rule: ${sentence(rng)}`,
    `- flow: ${sentence(rng)}`
  ],
  parent: (rng, s, f) => [
    ...intent(rng, s, { actor: true, problem: true, risk: true, assumption: rng.chance(0.5) }),
    "",
    "## Behavior",
    `- rule: ${sentence(rng)}`,
    ...(f.index % 2 === 0 ? [`- rule.${f.noun}Cutoff: ${sentence(rng)}`] : []),
    `- rule: ${sentence(rng)}`,
    `- flow: ${sentence(rng)}`,
    "",
    "## Example space",
    ...vocabulary(f),
    "",
    ...design(rng, f, true)
  ],
  example: (rng, s, f) => [
    ...intent(rng, s, {}),
    "",
    ...boundExample(f, s.caseNo),
    "",
    "## Verification — executable",
    `- ${sentence(rng)}`,
    `- ${sentence(rng)}`
  ],
  rule: (rng, s) => [...intent(rng, s, {}), "", "## Rule", `- ${sentence(rng)}`, `- ${sentence(rng)}`, `- ${sentence(rng)}`],
  constraint: (rng, s, f) => [
    ...intent(rng, s, {}),
    "",
    "## Constraints",
    `- statement: ${sentence(rng)}`,
    "- flavor: performance",
    `- target: ${f.noun}.p95.lt:${100 + (f.index % 9) * 50}ms`,
    `- measurableBy: ${f.noun} timing log`
  ],
  decision: (rng, s) => [
    ...intent(rng, s, {}),
    "",
    "## Decision",
    `- context: ${sentence(rng)}`,
    `- decision: ${sentence(rng)}`,
    `- rationale: ${sentence(rng)}`,
    `- rationale: ${sentence(rng)}`,
    `- alternative: ${sentence(rng)}`,
    `- consequence: ${sentence(rng)}`
  ],
  model: (rng, s, f) => [
    ...intent(rng, s, {}),
    "",
    "## Model",
    paragraph(rng, 1),
    "",
    `- **${f.noun}Entry** — ${sentence(rng)}`,
    `- **${f.noun}Total** — ${sentence(rng)}`,
    `- **${f.verb}Window** — ${sentence(rng)}`
  ],
  workflow: (rng, s) => [
    ...intent(rng, s, { actor: true }),
    "",
    "## Workflow",
    `- ${sentence(rng)}`,
    `- ${sentence(rng)}`,
    `- ${sentence(rng)}`,
    `- rule: ${sentence(rng)}`
  ],
  contract: (rng, s, f) => [
    ...intent(rng, s, {}),
    "",
    "## Contract",
    `- ${sentence(rng)}`,
    `- ${sentence(rng)}`,
    "",
    ...design(rng, f, true),
    "",
    "## Verification — contract",
    `- ${sentence(rng)}`
  ],
  story: (rng, s, f) => [
    ...intent(rng, s, { actor: true, description: rng.chance(0.3) }),
    "",
    "## Behavior",
    paragraph(rng, 1),
    "",
    `- rule: ${sentence(rng)}`,
    `- rule: ${sentence(rng)}`,
    "",
    ...design(rng, f, rng.chance(0.5))
  ]
}

/** The whole carrier text of one Spec descriptor (LF, final newline). */
export const specText = (rng, s) => {
  const lines = [
    "---",
    `id: ${s.id}`,
    `kind: ${s.kind}`,
    `altitude: ${s.altitude}`,
    `readiness: ${s.readiness}`,
    ...relationsYaml(s.relations),
    "---",
    `# ${s.title}`,
    "",
    ...narrative(rng, s),
    ...ROLES[s.role](rng, s, s.family)
  ]
  return lines.join("\n") + "\n"
}

/** A Pack manifest: members in the stated order, model Specs as modelRefs, one framing paragraph. */
export const packText = (rng, p) => {
  const lines = ["---", `id: ${p.id}`, "specs:"]
  for (const m of p.members) lines.push(`  - ${m}`)
  if (p.modelRefs.length > 0) {
    lines.push("modelRefs:")
    for (const m of p.modelRefs) lines.push(`  - ${m}`)
  }
  lines.push("---", `# ${p.title}`, "", paragraph(rng, 3))
  return lines.join("\n") + "\n"
}

/** The reference shape's one Gherkin carrier (format section 10.1): a Feature and two Scenarios. */
export const gherkinText = (rng, g) => {
  const step = (n) => [
    `    Given a feature file with {scenarios: ${n + 1}} scenarios`,
    `    And the file is {state: "${n === 1 ? "clean" : "edited"}"}`,
    "    When the reader reads the file",
    `    Then the graph holds {specs: ${n + 2}} specs`
  ]
  return [
    `@spec.${g.path} @altitude.feature @readiness.defined @refines.${g.refines}`,
    `Feature: ${g.title}`,
    "",
    `  - outcome: ${sentence(rng)}`,
    `  - value: ${sentence(rng)}`,
    "",
    `  @spec.${g.path}.case-1 @altitude.story @readiness.defined`,
    `  Scenario: ${cap(adjective(rng))} feature file reads whole`,
    ...step(1),
    "",
    `  @spec.${g.path}.case-2 @altitude.story @readiness.defined`,
    `  Scenario: ${cap(adjective(rng))} feature file reads after an edit`,
    ...step(2),
    ""
  ].join("\n")
}

export { sentences }
