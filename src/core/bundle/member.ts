// Member rows (memberShape, exampleRow) and the boundary item, uncut and at a cut stage. Facts rows
// are rebuilt field by field so the key order is the contract's whatever order the facts built them in.
import type { Boundary, BoundaryRow, CodeUnitRow, Facts, SpecNode } from "../model.js"
import { type ExampleBase, type MemberBase, boundaryAtStage, fieldAt } from "./cut-table.js"
import { questionsOf, sectionsOf } from "./sections.js"
import type { BoundaryValue, Json, MemberKey, MemberRow } from "./types.js"
import { MEMBER_KEYS } from "./types.js"

export type { MemberBase } from "./cut-table.js"

const codeUnitRow = (r: CodeUnitRow): Json => ({
  id: r.id,
  claim: r.claim,
  file: r.file,
  line: r.line,
  role: r.role,
  component: r.component === null ? null : { id: r.component.id, layer: r.component.layer, context: r.component.context }
})

const exampleRow = (facts: Facts, id: string, inBundle: ReadonlySet<string>): { row: Json; base: ExampleBase } => {
  const spec = facts.graph.specs.get(id)
  const member = inBundle.has(id)
  const loc = spec?.locations ?? {}
  return {
    row: {
      id,
      member,
      file: spec?.file ?? null,
      statedReadiness: spec?.readiness ?? null,
      enabled: facts.isEnabledExample(id),
      // The example's structured given/when/then entries; null when it is a member (its own row has them).
      steps: member ? null : ((spec?.sections.behavior?.examples ?? []) as Json)
    },
    base: { id, stepsLine: loc["behavior.examples"] ?? loc["behavior.examples[0]"] }
  }
}

export const memberBase = (facts: Facts, spec: SpecNode, inBundle: ReadonlySet<string>): MemberBase => {
  const floor = facts.floor(spec.id)
  const pinnedKeys = facts.pinnedDeclarations(spec.id).map((d) => d.key)
  const counts = facts.designCounts(spec.id)
  const examples = facts.examplesOf(spec.id).map((id) => exampleRow(facts, id, inBundle))
  // Every field but the two built from the spec on demand (they are the large ones).
  const fields: Omit<Record<MemberKey, Json>, "sections" | "questions"> = {
    id: spec.id,
    file: spec.file,
    title: spec.title,
    specKind: spec.kind,
    altitude: spec.altitude,
    statedReadiness: spec.readiness,
    floorReached: floor.floorReached,
    statedNextRung: floor.statedNextRung,
    holds: floor.holds.map((h) => {
      const row: { [key: string]: Json } = { clauseId: h.clauseId, description: h.description }
      if (h.targets !== undefined) {
        row.targets = h.targets.map((t) => {
          const target: { [key: string]: Json } = { type: t.type, id: t.id }
          if (t.statedReadiness !== undefined) target.statedReadiness = t.statedReadiness
          return target
        })
      }
      return row
    }),
    narrative: spec.narrative,
    footing: facts.footing(spec.id).map((f) => ({
      type: f.type,
      id: f.id,
      claim: f.claim,
      resolved: f.resolved,
      statedReadiness: f.statedReadiness,
      floorReached: f.floorReached
    })),
    declarations: pinnedKeys,
    examples: examples.map((e) => e.row),
    design: {
      entries: counts.entries,
      declarations: counts.declarations,
      openQuestions: counts.openQuestions,
      blockingQuestions: counts.blockingQuestions
    },
    decisions: facts.decisions(spec.id).map((d) => ({ id: d.id, statedReadiness: d.statedReadiness, resolved: d.resolved })),
    implementedBy: facts.implementedBy(spec.id).map(codeUnitRow),
    referencedBy: facts.referencedBy(spec.id).map(codeUnitRow),
    verifiers: facts.verifiers(spec.id).map((v) => ({ id: v.id, claim: v.claim, enabled: v.enabled, file: v.file, line: v.line }))
  }
  return {
    spec,
    pinned: new Set(pinnedKeys),
    examples: examples.map((e) => e.base),
    uncut: (key) => (key === "sections" ? sectionsOf(spec) : key === "questions" ? questionsOf(spec) : fields[key])
  }
}

const LIST_FIELDS: ReadonlySet<MemberKey> = new Set([
  "holds",
  "questions",
  "footing",
  "declarations",
  "examples",
  "decisions",
  "implementedBy",
  "referencedBy",
  "verifiers"
])

/** A manifest member the graph lacks: its id, lists empty, every other field null. */
export const missingMember = (id: string): MemberRow => Object.fromEntries(MEMBER_KEYS.map((k) => [k, k === "id" ? id : LIST_FIELDS.has(k) ? [] : null]))

/** The member row at a stage, in memberShape's key order. */
export const rowAt = (base: MemberBase, stage: number): MemberRow => Object.fromEntries(MEMBER_KEYS.map((k) => [k, fieldAt(k, base.uncut(k), base, stage)]))

const boundaryRow = (r: BoundaryRow): Json => ({
  id: r.id,
  title: r.title,
  statedReadiness: r.statedReadiness,
  implemented: r.implemented,
  via: r.via.map((v) => ({ type: v.type, members: [...v.members] }))
})

export const boundaryAt = (boundary: Boundary, stage: number): BoundaryValue =>
  boundaryAtStage({ restsOn: boundary.restsOn.map(boundaryRow), restedOnBy: boundary.restedOnBy.map(boundaryRow) }, stage)
