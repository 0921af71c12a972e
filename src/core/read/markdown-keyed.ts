// Readers for ## Constraints, ## Model, ## Design, ## UI, ## Decision and ## Verification — <mode>
// (sdp-format.md 4.10 to 4.14). Every entry's line goes into the location table.
import type { ConstraintEntry } from "../model.js"
import { ENTRY_KEY_RE } from "../ids.js"
import { CODES, RESERVED_KEYS } from "./markdown-findings.js"
import type { Block } from "./markdown-lines.js"
import { KEYED, refuseKey, refuseStray, splitLead, type SpecDraft } from "./markdown-draft.js"

type Entry = Extract<Block, { t: "entry" }>

/** The entries of a section that takes no H3 and no fence, after its leading prose. */
const entriesOf = (d: SpecDraft, blocks: ReadonlyArray<Block>, section: string, proseAllowed: boolean) => {
  const { description, rest } = splitLead(d, blocks, section, proseAllowed)
  const entries: Entry[] = []
  for (const b of rest) {
    if (b.t === "entry") entries.push(b)
    else refuseStray(d, b, section)
  }
  return { description, entries }
}

const CONSTRAINT_KEYS = ["flavor", "statement", "target", "measurableBy"] as const

export const readConstraints = (d: SpecDraft, blocks: ReadonlyArray<Block>, headingLine: number): void => {
  const { entries } = entriesOf(d, blocks, "Constraints", false)
  const c: { -readonly [K in keyof ConstraintEntry]?: string } = {}
  for (const b of entries) {
    const m = KEYED.exec(b.text)
    if (m === null) {
      d.error(b.line, CODES.structure, "## Constraints takes keyed entries: statement, flavor, target, measurableBy")
      continue
    }
    const [, key, value] = m
    if (!(CONSTRAINT_KEYS as ReadonlyArray<string>).includes(key)) {
      refuseKey(d, key, b.line, "Constraints", "use statement, flavor, target or measurableBy")
    } else if (c[key as keyof ConstraintEntry] !== undefined) {
      d.error(b.line, CODES.structure, `constraint ${key} is written twice; keep one`)
    } else {
      c[key as keyof ConstraintEntry] = value
      d.locate(`constraints[0].${key}`, b.line)
    }
  }
  if (c.statement === undefined) {
    d.error(headingLine, CODES.structure, '## Constraints needs a "- statement: text" entry')
    return
  }
  d.constraint = { flavor: c.flavor, statement: c.statement, target: c.target, measurableBy: c.measurableBy }
}

const TERM = /^\*\*(.+?)\*\* \u2014 (\S.*)$/s
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/

export const readModel = (d: SpecDraft, blocks: ReadonlyArray<Block>): void => {
  const { description, entries } = entriesOf(d, blocks, "Model", true)
  const terms: Record<string, string> = {}
  for (const b of entries) {
    const m = TERM.exec(b.text)
    if (m === null) {
      d.error(b.line, CODES.structure, "Model entries require **TERM** — DEFINITION (em dash U+2014 with one space each side)")
      continue
    }
    const [, term, definition] = m
    if (term.trim() !== term) {
      d.error(b.line, CODES.structure, `model term "${term}" has surrounding spaces; write **${term.trim()}**`)
    } else if (INTEGER_LIKE.test(term)) {
      d.error(b.line, CODES.structure, `model term "${term}" looks like an integer, which breaks authored key order; use a word`)
    } else if (term === "__proto__") {
      d.error(b.line, CODES.structure, "model term __proto__ is refused; use another word")
    } else if (Object.hasOwn(terms, term)) {
      d.error(b.line, CODES.structure, `model term ${term} is defined twice; keep one definition`)
    } else {
      terms[term] = definition
      d.locate(`model.terms.${term}`, b.line)
    }
  }
  d.model = description === undefined ? { terms } : { description, terms }
}

/** Design and UI: lower-camel keys, authored order, `description` first (bullet or prose). */
export const readOpenSection = (d: SpecDraft, which: "design" | "ui", blocks: ReadonlyArray<Block>): void => {
  const section = which === "design" ? "Design" : "UI"
  const { description, entries } = entriesOf(d, blocks, section, true)
  const keys: Record<string, string> = {}
  let desc = description
  for (const b of entries) {
    const m = KEYED.exec(b.text)
    if (m === null) {
      d.error(b.line, CODES.structure, `## ${section} takes keyed entries "- key: value" with a lower-camel key`)
      continue
    }
    const [, key, value] = m
    if (!ENTRY_KEY_RE.test(key)) {
      d.error(b.line, CODES.structure, `open section keys must be lower-camel ASCII; "${key}" is not (^[a-z][A-Za-z0-9]*$)`)
    } else if (key === "description") {
      if (desc !== undefined) {
        d.error(b.line, CODES.structure, `## ${section} already has a description; keep either the prose or the description bullet`)
      } else {
        desc = value
        d.locate(`${which}.description`, b.line)
      }
    } else if (Object.hasOwn(keys, key)) {
      d.error(b.line, CODES.structure, `${which} key ${key} is written twice; keep keys unique within ## ${section}`)
    } else if (RESERVED_KEYS.has(key)) {
      refuseKey(d, key, b.line, section, "")
    } else {
      keys[key] = value
      d.locate(`${which}.${key}`, b.line)
    }
  }
  const out: Record<string, string> = desc === undefined ? {} : { description: desc }
  for (const k of Object.keys(keys)) out[k] = keys[k]
  if (which === "design") d.design = out
  else d.ui = out
}

const DECISION_ONCE = ["context", "decision"] as const
const DECISION_MANY = { rationale: "rationale", alternative: "alternatives", consequence: "consequences" } as const

export const readDecision = (d: SpecDraft, blocks: ReadonlyArray<Block>): void => {
  const { description, entries } = entriesOf(d, blocks, "Decision", true)
  const x: NonNullable<SpecDraft["decision"]> = { rationale: [], alternatives: [], consequences: [] }
  if (description !== undefined) x.description = description
  for (const b of entries) {
    const m = KEYED.exec(b.text)
    if (m === null) {
      d.error(b.line, CODES.structure, "## Decision takes keyed entries: context, decision, rationale, alternative, consequence")
      continue
    }
    const [, key, value] = m
    if ((DECISION_ONCE as ReadonlyArray<string>).includes(key)) {
      const k = key as (typeof DECISION_ONCE)[number]
      if (x[k] !== undefined) d.error(b.line, CODES.structure, `decision ${key} is written twice; keep one`)
      else {
        x[k] = value
        d.locate(`decision.${key}`, b.line)
      }
    } else if (Object.hasOwn(DECISION_MANY, key)) {
      const field = DECISION_MANY[key as keyof typeof DECISION_MANY]
      d.locate(`decision.${field}[${x[field].length}]`, b.line)
      x[field].push(value)
    } else refuseKey(d, key, b.line, "Decision", "use context, decision, rationale, alternative or consequence")
  }
  d.decision = x
}

export const readVerification = (d: SpecDraft, mode: string, blocks: ReadonlyArray<Block>): void => {
  const section = `Verification — ${mode}`
  const { description, entries } = entriesOf(d, blocks, section, true)
  const criteria: string[] = []
  for (const b of entries) {
    const m = KEYED.exec(b.text)
    if (m !== null) {
      refuseKey(d, m[1], b.line, section, "write each criterion as a plain bullet that does not start with one word and a colon")
      continue
    }
    d.locate(`verification.criteria[${criteria.length}]`, b.line)
    criteria.push(b.text)
  }
  d.verification = description === undefined ? { mode, criteria } : { description, mode, criteria }
}
