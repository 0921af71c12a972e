// The Gherkin carrier `*.sdp.gherkin` (sdp-format.md section 10.1): one Feature is one `behavior`
// Spec, each ordinary Scenario one `example` Spec. Parsed with @cucumber/gherkin, never by hand.
// Any finding refuses the whole file (no Spec from it).
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin"
import { IdGenerator } from "@cucumber/messages"
import type { Feature, GherkinDocument, Rule, Scenario } from "@cucumber/messages"
import type { AuthoredRelation, BehaviorSection, CarrierRead, Gwt, Sections, SpecNode } from "../model.js"
import { EXAMPLE_SPACE_TAG, FindingSink, decorationProblem, readMetadata } from "./gherkin-tags.js"
import { locateDescription, readDescription, readSteps } from "./gherkin-text.js"
import type { DescriptionRead, LocatedLine } from "./gherkin-text.js"

const SYNTAX = "extract/gherkin-syntax"

interface Source {
  readonly lines: ReadonlyArray<string>
  readonly comments: ReadonlySet<number>
}

const refused = (file: string, sink: FindingSink): CarrierRead => ({
  file,
  specs: [],
  packs: [],
  anchors: [],
  findings: sink.findings
})

const describe = (src: Source, owner: { description: string; location: { line: number } }): ReadonlyArray<LocatedLine> =>
  locateDescription(owner.description, owner.location.line, src.lines, src.comments)

/** Parse errors carry their position in a `(line:column): message` prefix and a location. */
const syntaxFindings = (sink: FindingSink, error: unknown): void => {
  const nested = (error as { errors?: unknown } | null)?.errors
  const list: ReadonlyArray<unknown> = Array.isArray(nested) && nested.length > 0 ? nested : [error]
  for (const e of list) {
    const location = (e as { location?: { line?: number } }).location
    const message = e instanceof Error ? e.message : String(e)
    sink.add(location?.line ?? 1, `the Gherkin file does not parse: ${message.replace(/^\(\d+:\d+\): /, "")}`, SYNTAX)
  }
}

const sectionsOf = (description: DescriptionRead, behavior: BehaviorSection | undefined): Sections => {
  const sections: { -readonly [K in keyof Sections]: Sections[K] } = {}
  if (description.intent !== undefined) sections.intent = description.intent
  if (behavior !== undefined) sections.behavior = behavior
  if (description.verification !== undefined) sections.verification = description.verification
  return sections
}

const readRule = (sink: FindingSink, src: Source, rule: Rule): string | null => {
  const before = sink.raised
  for (const tag of rule.tags) sink.add(tag.location.line, `Rule "${rule.name}" carries the tag "${tag.name}"; rules are title-only`)
  if (rule.children.length > 0) {
    sink.add(rule.location.line, `Rule "${rule.name}" has Scenarios or a Background under it; put every Scenario before the trailing title-only Rules`)
  }
  const prose = describe(src, rule).find((l) => l.text !== "")
  if (prose !== undefined) sink.add(prose.line, `Rule "${rule.name}" carries a description; rules are title-only`)
  if (rule.name.trim() === "") sink.add(rule.location.line, 'a Rule needs its text after "Rule:"')
  return sink.raised === before ? rule.name.trim() : null
}

const isOutline = (scenario: Scenario): boolean => scenario.examples.length > 0 || /Outline|Template/.test(scenario.keyword)

const readExampleSpace = (sink: FindingSink, src: Source, scenario: Scenario): Gwt | null => {
  const before = sink.raised
  const construct = "the @example-space pseudo-scenario"
  let markers = 0
  for (const tag of scenario.tags) {
    if (tag.name === EXAMPLE_SPACE_TAG) {
      if (++markers > 1) sink.add(tag.location.line, `${construct} repeats its marker tag`)
      continue
    }
    const problem = decorationProblem(tag.name)
    if (problem !== null) sink.add(tag.location.line, `${construct}: ${problem}`)
    else if (/^@(spec|altitude|readiness|refines|depends-on|constrained-by|decided-by|verifies)\./.test(tag.name)) {
      sink.add(tag.location.line, `${construct} may carry no metadata tag ("${tag.name}"); it is not a Spec`)
    }
  }
  if (isOutline(scenario)) sink.add(scenario.location.line, `${construct} may not be a Scenario Outline or carry Examples`)
  if (scenario.steps.length === 0) sink.add(scenario.location.line, `${construct} has no steps`)
  const prose = describe(src, scenario).find((l) => l.text !== "")
  if (prose !== undefined) sink.add(prose.line, `${construct} may not carry a description`)
  const gwt = readSteps(sink, scenario.steps, construct)
  return sink.raised === before ? gwt : null
}

const readScenario = (sink: FindingSink, src: Source, scenario: Scenario, parentId: string | null): SpecNode | null => {
  const before = sink.raised
  const construct = `Scenario "${scenario.name}"`
  const meta = readMetadata(sink, scenario.tags, scenario.location.line, construct)
  if (isOutline(scenario)) sink.add(scenario.location.line, `${construct}: Scenario Outline and Examples are refused; write one Scenario per bound point`)
  if (scenario.steps.length === 0) sink.add(scenario.location.line, `${construct} has no steps`)
  const description = readDescription(sink, describe(src, scenario), construct)
  const gwt = readSteps(sink, scenario.steps, construct)
  if (sink.raised !== before || meta === null || description === null || gwt === null || parentId === null) return null

  // A Scenario refines and verifies its Feature unless the author tagged that relation type.
  const relations: AuthoredRelation[] = [...meta.relations]
  if (!relations.some((r) => r.type === "refines")) relations.push({ type: "refines", to: parentId })
  if (!relations.some((r) => r.type === "verifies")) relations.push({ type: "verifies", to: parentId })
  return {
    id: meta.id,
    kind: "example",
    altitude: meta.altitude,
    readiness: meta.readiness,
    title: scenario.name.trim(),
    narrative: description.narrative,
    file: sink.file,
    line: meta.idLine,
    sections: sectionsOf(description, { examples: [gwt] }),
    relations,
    locations: { ...description.locations, "behavior.examples[0]": scenario.location.line }
  }
}

const readFeature = (sink: FindingSink, src: Source, feature: Feature): ReadonlyArray<SpecNode> => {
  const meta = readMetadata(sink, feature.tags, feature.location.line, `Feature "${feature.name}"`)
  const description = readDescription(sink, describe(src, feature), `Feature "${feature.name}"`)
  const rules: string[] = []
  const locations: Record<string, number> = {}
  const examples: SpecNode[] = []
  let exampleSpace: Gwt | undefined
  let spaces = 0

  for (const child of feature.children) {
    if (child.background !== undefined) {
      sink.add(child.background.location.line, "Background is refused: every example states its whole context")
    } else if (child.rule !== undefined) {
      const rule = readRule(sink, src, child.rule)
      if (rule !== null) {
        locations[`behavior.rules[${rules.length}]`] = child.rule.location.line
        rules.push(rule)
      }
    } else if (child.scenario?.tags.some((t) => t.name === EXAMPLE_SPACE_TAG)) {
      if (++spaces > 1) sink.add(child.scenario.location.line, "a Feature has at most one @example-space pseudo-scenario")
      const space = readExampleSpace(sink, src, child.scenario)
      if (space !== null && exampleSpace === undefined) {
        exampleSpace = space
        locations["behavior.exampleSpace"] = child.scenario.location.line
      }
    } else if (child.scenario !== undefined) {
      const example = readScenario(sink, src, child.scenario, meta?.id ?? null)
      if (example !== null) examples.push(example)
    }
  }
  if (sink.raised > 0 || meta === null || description === null) return []

  const behavior: { -readonly [K in keyof BehaviorSection]: BehaviorSection[K] } = {}
  if (rules.length > 0) behavior.rules = rules
  if (exampleSpace !== undefined) behavior.exampleSpace = exampleSpace
  const parent: SpecNode = {
    id: meta.id,
    kind: "behavior",
    altitude: meta.altitude,
    readiness: meta.readiness,
    title: feature.name.trim(),
    narrative: description.narrative,
    file: sink.file,
    line: meta.idLine,
    sections: sectionsOf(description, Object.keys(behavior).length > 0 ? behavior : undefined),
    relations: meta.relations,
    locations: { ...description.locations, ...locations }
  }
  return [parent, ...examples]
}

/** Read one `.sdp.gherkin` file; `text` is already envelope-checked and LF-normalized. */
export const parseGherkinCarrier = (file: string, text: string): CarrierRead => {
  const sink = new FindingSink(file)
  let document: GherkinDocument
  try {
    const parser = new Parser(new AstBuilder(IdGenerator.incrementing()), new GherkinClassicTokenMatcher())
    document = parser.parse(text)
  } catch (error) {
    syntaxFindings(sink, error)
    return refused(file, sink)
  }
  const feature = document.feature
  if (feature === undefined) {
    sink.add(1, "a Gherkin carrier holds exactly one Feature, and this file has none")
    return refused(file, sink)
  }
  if (feature.language !== "en") {
    const header = text.split("\n").findIndex((l) => /^\s*#\s*language\s*:/.test(l))
    sink.add(header + 1 || 1, `Gherkin language "${feature.language}" is refused; the carrier is written in English`)
    return refused(file, sink)
  }
  const src: Source = { lines: text.split("\n"), comments: new Set(document.comments.map((c) => c.location.line)) }
  const specs = readFeature(sink, src, feature)
  return sink.raised > 0 ? refused(file, sink) : { file, specs, packs: [], anchors: [], findings: [] }
}
