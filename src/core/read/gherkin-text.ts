// Description lines and steps of the Gherkin carrier (sdp-format.md section 10.1).
import { StepKeywordType } from "@cucumber/messages"
import type { Step } from "@cucumber/messages"
import type { Gwt, IntentSection, VerificationSection } from "../model.js"
import type { FindingSink } from "./gherkin-tags.js"

export interface LocatedLine {
  readonly text: string
  readonly line: number
}

/**
 * The AST gives a description as one string without line numbers, and drops comment lines from
 * it; walk the physical lines after the keyword line to give every description line its number.
 */
export const locateDescription = (
  description: string,
  keywordLine: number,
  lines: ReadonlyArray<string>,
  commentLines: ReadonlySet<number>
): ReadonlyArray<LocatedLine> => {
  if (description.trim() === "") return []
  const located: LocatedLine[] = []
  let next = keywordLine + 1
  for (const raw of description.split("\n")) {
    const text = raw.trim()
    if (text === "") {
      located.push({ text, line: next })
      continue
    }
    let at = next
    while (at <= lines.length && (commentLines.has(at) || lines[at - 1].trim() !== text)) at++
    // Not found cannot happen with the parser's own text; keep the owner line rather than fail.
    const line = at <= lines.length ? at : keywordLine
    located.push({ text, line })
    next = line + 1
  }
  return located
}

const SINGULAR = ["description", "actor", "problem", "outcome", "value"] as const
type Singular = (typeof SINGULAR)[number]
const KEYS = new Set<string>([...SINGULAR, "risk", "assumption", "criterion", "verification-mode"])
const MODES = new Set(["manual", "reviewed", "contract", "executable"])
const KEYED = /^- ([A-Za-z][A-Za-z0-9-]*):(?:[ \t]+(.*))?$/

export interface DescriptionRead {
  readonly intent: IntentSection | undefined
  readonly verification: VerificationSection | undefined
  readonly narrative: string | null
  /** Location rows keyed like SpecNode.locations ("intent.outcome", "verification.criteria[0]"). */
  readonly locations: Readonly<Record<string, number>>
}

/** Keyed bullets become intent/verification fields; every other line is narrative prose. */
export const readDescription = (sink: FindingSink, located: ReadonlyArray<LocatedLine>, construct: string): DescriptionRead | null => {
  const before = sink.raised
  const single: Partial<Record<Singular, string>> = {}
  const risks: string[] = []
  const assumptions: string[] = []
  const criteria: string[] = []
  let mode: string | undefined
  const locations: Record<string, number> = {}
  const paragraphs: string[] = []
  let paragraph: string[] = []
  const flush = () => {
    if (paragraph.length > 0) paragraphs.push(paragraph.join(" "))
    paragraph = []
  }

  for (const { text, line } of located) {
    const keyed = KEYED.exec(text)
    if (keyed === null) {
      if (text === "") flush()
      else paragraph.push(text)
      continue
    }
    const key = keyed[1]
    const value = (keyed[2] ?? "").trim()
    if (!KEYS.has(key)) {
      sink.add(line, `${construct} description key "${key}" is not one of ${[...KEYS].join(" | ")}`, "extract/unrecognized-property")
      continue
    }
    if (value === "") {
      sink.add(line, `${construct} description key "${key}" has no value`)
      continue
    }
    if ((SINGULAR as ReadonlyArray<string>).includes(key)) {
      const k = key as Singular
      if (single[k] !== undefined) sink.add(line, `${construct} description key "${key}" is written twice`)
      else {
        single[k] = value
        locations[`intent.${k}`] = line
      }
    } else if (key === "risk") {
      locations[`intent.risks[${risks.length}]`] = line
      risks.push(value)
    } else if (key === "assumption") {
      locations[`intent.assumptions[${assumptions.length}]`] = line
      assumptions.push(value)
    } else if (key === "criterion") {
      locations[`verification.criteria[${criteria.length}]`] = line
      criteria.push(value)
    } else if (!MODES.has(value)) {
      sink.add(line, `${construct} verification-mode "${value}" is not one of ${[...MODES].join(" | ")}`)
    } else if (mode !== undefined) {
      sink.add(line, `${construct} description key "verification-mode" is written twice`)
    } else {
      mode = value
    }
  }
  flush()
  // The graph's verification section always names its mode, so criteria need one.
  if (criteria.length > 0 && mode === undefined) {
    sink.add(locations["verification.criteria[0]"], `${construct} has criterion bullets but no "- verification-mode: …" line`)
  }
  if (sink.raised !== before) return null

  const intentEntries: Array<[string, unknown]> = []
  for (const k of SINGULAR) if (single[k] !== undefined) intentEntries.push([k, single[k]])
  if (risks.length > 0) intentEntries.push(["risks", risks])
  if (assumptions.length > 0) intentEntries.push(["assumptions", assumptions])
  const intent = intentEntries.length > 0 ? (Object.fromEntries(intentEntries) as IntentSection) : undefined
  const verification = mode !== undefined ? { mode, criteria } : undefined
  return { intent, verification, narrative: paragraphs.length > 0 ? paragraphs.join("\n\n") : null, locations }
}

/** Steps to one Gwt: And/But inherit the phase before them; `*`, tables and doc strings refuse. */
export const readSteps = (sink: FindingSink, steps: ReadonlyArray<Step>, construct: string): Gwt | null => {
  const before = sink.raised
  const gwt = { given: [] as string[], when: [] as string[], then: [] as string[] }
  let phase: keyof typeof gwt | undefined
  for (const step of steps) {
    const line = step.location.line
    const keyword = step.keyword.trim()
    switch (step.keywordType) {
      case StepKeywordType.CONTEXT:
        phase = "given"
        break
      case StepKeywordType.ACTION:
        phase = "when"
        break
      case StepKeywordType.OUTCOME:
        phase = "then"
        break
      case StepKeywordType.CONJUNCTION:
        if (phase === undefined) sink.add(line, `${construct} opens with the conjunction "${keyword}"; it has no phase to inherit`)
        break
      default:
        // The file is refused anyway; the step is simply not collected.
        sink.add(line, `${construct} step keyword "${keyword}" is refused; write Given, When, Then, And or But`)
        continue
    }
    if (step.docString !== undefined) sink.add(step.docString.location.line, `${construct} step carries a doc string, which the carrier refuses`)
    if (step.dataTable !== undefined) sink.add(step.dataTable.location.line, `${construct} step carries a data table, which the carrier refuses`)
    if (phase !== undefined) gwt[phase].push(step.text)
  }
  return sink.raised === before ? gwt : null
}
