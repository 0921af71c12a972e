// The cuts of rule.cutOrder, in cut order: the one place that names them. Stage k applies the first
// k cuts and leftOut is their k lines; stage numbers, the stages a request may try, which member
// fields change at which stage (the text cache's forms) all derive from this table. Adding a cut is
// one entry here and the function it names.
import { boundaryCut, footingCut, narrativeCut } from "./cuts.js"
import type { SpecNode } from "../model.js"
import { declarationCut, exampleCut, cutUnaddressed, questionCut, sectionCut } from "./sections.js"
import type { BoundaryValue, DeclarationMode, Json, MemberKey } from "./types.js"
import { MEMBER_KEYS } from "./types.js"

/** What a member row needs beyond the stage: computed once per member. */
export interface MemberBase {
  readonly spec: SpecNode
  readonly pinned: ReadonlySet<string>
  readonly examples: ReadonlyArray<ExampleBase>
  /** A field's value before any cut. */
  uncut(key: MemberKey): Json
}

export interface ExampleBase {
  readonly id: string
  /** The line the example's behavior.examples pointer names (its steps' pointer at the example cut). */
  readonly stepsLine: number | undefined
}

/** A cut of one member field: the field's value after the cuts before it, to its value after this one. */
export type MemberCut = (value: Json, member: MemberBase) => Json

export interface Cut {
  readonly name: string
  /** The leftOut line, verbatim (leftOutLines). */
  readonly leftOut: string
  /** Taken only under this declarations mode; such cuts come last. */
  readonly onlyUnder?: DeclarationMode
  /** What it changes: the boundary, and member row fields. */
  readonly boundary?: (value: BoundaryValue) => BoundaryValue
  readonly member?: { readonly [K in MemberKey]?: MemberCut }
}

type Row = { readonly [key: string]: Json }

export const CUTS = [
  {
    name: "boundary",
    leftOut: "Boundary details; ids kept per direction.",
    boundary: boundaryCut
  },
  {
    name: "footing",
    leftOut: "Footing details; ids kept per relation type.",
    member: { footing: (rows) => footingCut(rows as ReadonlyArray<{ type: string; id: string }>) }
  },
  {
    name: "narrative",
    leftOut: "Member narrative.",
    member: { narrative: (text) => narrativeCut(text as string | null) }
  },
  {
    name: "example",
    leftOut: "Example step text, including member sections and example-space vocabulary.",
    member: {
      sections: exampleCut,
      // An outside example's steps: one entry, pointed at by that example's behavior.examples line.
      examples: (rows, m) =>
        (rows as ReadonlyArray<Row>).map((row, i) => (row.steps === null ? row : { ...row, steps: cutUnaddressed(row.steps, m.examples[i].stepsLine) }))
    }
  },
  {
    name: "question",
    leftOut: "Non-blocking question text; addresses and links kept.",
    member: { questions: questionCut }
  },
  {
    name: "section",
    leftOut: "Section entry values other than pinned declarations; addresses and lines kept.",
    member: { sections: sectionCut }
  },
  {
    name: "declaration",
    leftOut: "Pinned declaration text; entry addresses kept.",
    onlyUnder: "addresses",
    member: { sections: declarationCut }
  }
] as const satisfies ReadonlyArray<Cut>

export type CutName = (typeof CUTS)[number]["name"]

const TABLE: ReadonlyArray<Cut> = CUTS

/** The leftOut lines in cut order (stage k lists the first k). */
export const LEFT_OUT_LINES: ReadonlyArray<string> = TABLE.map((c) => c.leftOut)

/** Stage numbers: 0 uncut, then each cut's place in the table. */
export const STAGE = Object.fromEntries([["none", 0], ...TABLE.map((c, i) => [c.name, i + 1])]) as Readonly<Record<CutName | "none", number>>

/** The last stage a request may try: every cut up to the first its declarations mode does not permit. */
export const maxStage = (declarations: DeclarationMode): number => {
  const stop = TABLE.findIndex((c) => c.onlyUnder !== undefined && c.onlyUnder !== declarations)
  return stop < 0 ? TABLE.length : stop
}

/** Member row fields some cut changes, in row order; the others are fixed at every stage. */
export const CUT_FIELDS: ReadonlyArray<MemberKey> = MEMBER_KEYS.filter((k) => TABLE.some((c) => c.member?.[k] !== undefined))

/** The last stage <= stage whose cut satisfies `changes` (0 when none): stages between give equal values. */
const lastStage = (stage: number, changes: (c: Cut) => boolean): number => {
  for (let k = stage; k > 0; k--) if (changes(TABLE[k - 1])) return k
  return 0
}

/** The stage whose member rows equal those at `stage` and that changed the last of them. */
export const memberFormStage = (stage: number): number => lastStage(stage, (c) => c.member !== undefined)

export const fieldFormStage = (key: MemberKey, stage: number): number => lastStage(stage, (c) => c.member?.[key] !== undefined)

export const boundaryFormStage = (stage: number): number => lastStage(stage, (c) => c.boundary !== undefined)

/** A member field at a stage: its uncut value through every cut up to the stage that changes it. */
export const fieldAt = (key: MemberKey, uncut: Json, member: MemberBase, stage: number): Json => {
  let value = uncut
  for (let k = 0; k < stage; k++) {
    const cut = TABLE[k].member?.[key]
    if (cut !== undefined) value = cut(value, member)
  }
  return value
}

export const boundaryAtStage = (uncut: BoundaryValue, stage: number): BoundaryValue => {
  let value = uncut
  for (let k = 0; k < stage; k++) {
    const cut = TABLE[k].boundary
    if (cut !== undefined) value = cut(value)
  }
  return value
}
