// A mutable Spec body under construction, and the helpers every section reader shares. The draft
// becomes the immutable `Sections` value (graph key order of sdp-format.md 6.2) in one step.
import type { BehaviorRule, ConstraintEntry, Gwt, OpenQuestion, Sections, SpecKind } from "../model.js"
import { CODES, RESERVED_KEYS, type Sink } from "./markdown-findings.js"
import type { Block } from "./markdown-lines.js"
import { normalizeProse } from "./markdown-lines.js"

export interface IntentDraft {
  description?: string
  actor?: string
  problem?: string
  outcome?: string
  value?: string
  risks: string[]
  assumptions: string[]
  openQuestions: OpenQuestion[]
}

export interface BehaviorDraft {
  description?: string
  /** Which owner wrote the description (Primary owner and Example space share it). */
  descriptionOwner?: string
  rules: BehaviorRule[]
  examples: Gwt[]
  flows: string[]
  exampleSpace?: Gwt
}

export interface DecisionDraft {
  description?: string
  context?: string
  decision?: string
  rationale: string[]
  alternatives: string[]
  consequences: string[]
}

export class SpecDraft {
  intent: IntentDraft | null = null
  behavior: BehaviorDraft | null = null
  constraint: ConstraintEntry | null = null
  model: { description?: string; terms: Record<string, string> } | null = null
  design: Record<string, string> | null = null
  decision: DecisionDraft | null = null
  verification: { description?: string; mode: string; criteria: string[] } | null = null
  ui: Record<string, string> | null = null
  readonly locations: Record<string, number> = {}
  readonly ruleKeys = new Set<string>()
  readonly questionKeys = new Set<string>()

  /** `located`: whether `locate` records (a read that keeps no prose keeps no locations either). */
  constructor(
    readonly sink: Sink,
    readonly kind: SpecKind | null,
    private readonly located = true
  ) {}

  behaviorDraft(): BehaviorDraft {
    if (this.behavior === null) this.behavior = { rules: [], examples: [], flows: [] }
    return this.behavior
  }

  locate(path: string, line: number): void {
    // Each new key is a string V8 must flatten and intern (~40 ms over 10,000 Specs): only when kept.
    if (this.located) this.locations[path] = line
  }

  error(line: number, code: string, message: string): void {
    this.sink.error(line, code, message)
  }
}

/** `- key: value` with an entry key (format 4.4); the value is the rest of the line. */
export const KEYED = /^([A-Za-z][A-Za-z0-9]*): [ \t]*(\S.*)$/s
/** specbundle's keyed rule `- rule.<key>: text` (format 4.9). */
export const KEYED_RULE = /^rule\.([^\s:]*): [ \t]*(\S.*)$/s

/** Refuses a key the section does not name: reserved names get their own code. */
export const refuseKey = (draft: SpecDraft, key: string, line: number, section: string, hint: string): void => {
  if (RESERVED_KEYS.has(key)) {
    draft.error(line, CODES.reserved, `"${key}" is a derived fact or graph shape, not authorable; remove it from ## ${section}`)
  } else {
    draft.error(line, CODES.unrecognized, `property "${key}" is not accepted under ## ${section}; ${hint}`)
  }
}

/**
 * Splits a section into its leading prose and its structured rest. Prose once structure began is
 * unowned; so is any prose where the section takes none.
 */
export const splitLead = (
  draft: SpecDraft,
  blocks: ReadonlyArray<Block>,
  section: string,
  proseAllowed: boolean
): { readonly description: string | undefined; readonly rest: ReadonlyArray<Block> } => {
  let start = blocks.findIndex((b) => b.t === "entry" || b.t === "fence" || b.t === "h3")
  if (start === -1) start = blocks.length
  const lead = blocks.slice(0, start)
  const rest = blocks.slice(start)
  if (!proseAllowed) {
    for (const b of lead) {
      if (b.t === "prose") draft.error(b.line, CODES.unownedProse, `## ${section} takes no prose; turn it into an entry or remove it`)
    }
  }
  for (const b of rest) {
    if (b.t === "prose") {
      draft.error(b.line, CODES.unownedProse, `prose after the entries of ## ${section} belongs to nothing; move it above the first entry`)
    }
  }
  const description = proseAllowed ? normalizeProse(lead) : ""
  return { description: description === "" ? undefined : description, rest }
}

/** Refuses an H3 or a fence where the section takes none. */
export const refuseStray = (draft: SpecDraft, b: Block, section: string): void => {
  if (b.t === "h3") {
    draft.error(b.line, CODES.structure, `### headings are refused under ## ${section}; the only H3 is ### Open questions inside ## Intent`)
  } else if (b.t === "fence") {
    draft.error(
      b.line,
      CODES.structure,
      `fences are refused under ## ${section}; a gwt fence stands in an example's ## Intent, a gwt-vocabulary fence under ## Example space`
    )
  }
}

const compact = <T extends object>(o: T): T => {
  const out: Record<string, unknown> = {}
  // for…in over a fresh literal: its own keys in order, without the pairs Object.entries builds.
  for (const k in o) {
    const v = o[k]
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue
    out[k] = v
  }
  return out as T
}

/** The draft as graph sections, keys in the order of sdp-format.md 6.2; empty parts omitted. */
export const buildSections = (d: SpecDraft): Sections => {
  const s: Record<string, unknown> = {}
  if (d.intent !== null) {
    const i = d.intent
    s.intent = compact({
      description: i.description,
      actor: i.actor,
      problem: i.problem,
      outcome: i.outcome,
      value: i.value,
      risks: i.risks,
      assumptions: i.assumptions,
      openQuestions: i.openQuestions
    })
  }
  if (d.behavior !== null) {
    const b = d.behavior
    s.behavior = compact({ description: b.description, rules: b.rules, examples: b.examples, flows: b.flows, exampleSpace: b.exampleSpace })
  }
  if (d.constraint !== null) {
    const c = d.constraint
    s.constraints = [compact({ flavor: c.flavor, statement: c.statement, target: c.target, measurableBy: c.measurableBy })]
  }
  if (d.model !== null) s.model = compact({ description: d.model.description, terms: d.model.terms })
  if (d.design !== null) s.design = d.design
  if (d.decision !== null) {
    const x = d.decision
    s.decision = compact({
      description: x.description,
      context: x.context,
      decision: x.decision,
      rationale: x.rationale,
      alternatives: x.alternatives,
      consequences: x.consequences
    })
  }
  if (d.verification !== null) {
    const v = d.verification
    s.verification = v.description === undefined ? { mode: v.mode, criteria: v.criteria } : { description: v.description, mode: v.mode, criteria: v.criteria }
  }
  if (d.ui !== null) s.ui = d.ui
  return s as Sections
}
