// Member rows (memberShape, exampleRow) and the boundary item, at a cut stage. Facts rows are
// rebuilt field by field so the key order is the contract's whatever order the facts built them in.
import type { Boundary, BoundaryRow, CodeUnitRow, Facts, SpecNode } from "../model.js"
import { boundaryCut, footingCut, narrativeCut, pointer } from "./cuts.js"
import { questionsAt, sectionsAt } from "./sections.js"
import type { BoundaryValue, Json, MemberRow } from "./types.js"
import { STAGE } from "./types.js"

/** What a member row needs beyond the stage: computed once per member. */
export interface MemberBase {
  readonly spec: SpecNode
  readonly pinned: ReadonlySet<string>
  readonly pinnedKeys: ReadonlyArray<string>
  readonly fixed: {
    readonly floorReached: Json
    readonly statedNextRung: Json
    readonly holds: Json
    readonly footing: ReadonlyArray<Json>
    readonly design: Json
    readonly decisions: Json
    readonly implementedBy: Json
    readonly referencedBy: Json
    readonly verifiers: Json
  }
  readonly footingIds: Json
  readonly examples: ReadonlyArray<ExampleBase>
}

interface ExampleBase {
  readonly id: string
  readonly member: boolean
  readonly file: string | null
  readonly statedReadiness: string | null
  readonly enabled: boolean
  /** The example's structured given/when/then entries (behavior.examples); null when it is a member. */
  readonly steps: Json
  readonly stepsPointer: Json
}

const codeUnitRow = (r: CodeUnitRow): Json => ({
  id: r.id,
  claim: r.claim,
  file: r.file,
  line: r.line,
  role: r.role,
  component: r.component === null ? null : { id: r.component.id, layer: r.component.layer, context: r.component.context }
})

const exampleBase = (facts: Facts, id: string, inBundle: ReadonlySet<string>): ExampleBase => {
  const spec = facts.graph.specs.get(id)
  const member = inBundle.has(id)
  const loc = spec?.locations ?? {}
  return {
    id,
    member,
    file: spec?.file ?? null,
    statedReadiness: spec?.readiness ?? null,
    enabled: facts.isEnabledExample(id),
    steps: member ? null : ((spec?.sections.behavior?.examples ?? []) as Json),
    stepsPointer: pointer(loc["behavior.examples"] ?? loc["behavior.examples[0]"])
  }
}

export const memberBase = (facts: Facts, spec: SpecNode, inBundle: ReadonlySet<string>): MemberBase => {
  const floor = facts.floor(spec.id)
  const pinnedKeys = facts.pinnedDeclarations(spec.id).map((d) => d.key)
  const counts = facts.designCounts(spec.id)
  const footing = facts.footing(spec.id)
  return {
    spec,
    pinned: new Set(pinnedKeys),
    pinnedKeys,
    fixed: {
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
      footing: footing.map((f) => ({
        type: f.type,
        id: f.id,
        claim: f.claim,
        resolved: f.resolved,
        statedReadiness: f.statedReadiness,
        floorReached: f.floorReached
      })),
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
    },
    footingIds: footingCut(footing),
    examples: facts.examplesOf(spec.id).map((id) => exampleBase(facts, id, inBundle))
  }
}

/** A manifest member the graph lacks: its id, every other field null or empty. */
export const missingMember = (id: string): MemberRow => ({
  id,
  file: null,
  title: null,
  specKind: null,
  altitude: null,
  statedReadiness: null,
  floorReached: null,
  statedNextRung: null,
  holds: [],
  narrative: null,
  sections: null,
  questions: [],
  footing: [],
  declarations: [],
  examples: [],
  design: null,
  decisions: [],
  implementedBy: [],
  referencedBy: [],
  verifiers: []
})

// The stage-dependent fields: shared by the row (objects) and the text (member-text.ts).
export const narrativeAt = (base: MemberBase, stage: number): Json =>
  stage >= STAGE.narrative ? narrativeCut(base.spec.narrative) : base.spec.narrative

export const footingAt = (base: MemberBase, stage: number): Json =>
  stage >= STAGE.footing ? base.footingIds : base.fixed.footing

export const examplesAt = (base: MemberBase, stage: number): Json =>
  base.examples.map((e) => ({
    id: e.id,
    member: e.member,
    file: e.file,
    statedReadiness: e.statedReadiness,
    enabled: e.enabled,
    steps: e.steps !== null && stage >= STAGE.example ? e.stepsPointer : e.steps
  }))

export const rowAt = (base: MemberBase, stage: number): MemberRow => {
  const { spec, fixed } = base
  return {
    id: spec.id,
    file: spec.file,
    title: spec.title,
    specKind: spec.kind,
    altitude: spec.altitude,
    statedReadiness: spec.readiness,
    floorReached: fixed.floorReached,
    statedNextRung: fixed.statedNextRung,
    holds: fixed.holds,
    narrative: narrativeAt(base, stage),
    sections: sectionsAt(spec, base.pinned, stage),
    questions: questionsAt(spec, stage),
    footing: footingAt(base, stage),
    declarations: base.pinnedKeys,
    examples: examplesAt(base, stage),
    design: fixed.design,
    decisions: fixed.decisions,
    implementedBy: fixed.implementedBy,
    referencedBy: fixed.referencedBy,
    verifiers: fixed.verifiers
  }
}

const boundaryRow = (r: BoundaryRow): Json => ({
  id: r.id,
  title: r.title,
  statedReadiness: r.statedReadiness,
  implemented: r.implemented,
  via: r.via.map((v) => ({ type: v.type, members: [...v.members] }))
})

export const boundaryAt = (boundary: Boundary, stage: number): BoundaryValue =>
  stage >= STAGE.boundary
    ? boundaryCut(boundary)
    : { restsOn: boundary.restsOn.map(boundaryRow), restedOnBy: boundary.restedOnBy.map(boundaryRow) }
