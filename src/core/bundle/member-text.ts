// Member rows as objects and as compact JSON text. The text is built from fragments: the fields no
// cut touches are serialized once per member, and each cut field again only when a stage changes
// it, so trying all stages over a 10,000-member Pack stays cheap. Equal to JSON.stringify(row).
import type { Facts } from "../model.js"
import type { MemberBase } from "./member.js"
import { examplesAt, footingAt, memberBase, missingMember, narrativeAt, rowAt } from "./member.js"
import { questionsAt, sectionsAt } from "./sections.js"
import type { MemberRow } from "./types.js"
import { STAGE } from "./types.js"

const J = JSON.stringify

/** Which form each cut field takes at a stage; a field is re-serialized only when its form changes. */
const variants = (stage: number): [number, number, number, number, number] => [
  stage >= STAGE.narrative ? 1 : 0,
  stage >= STAGE.declaration ? 3 : stage >= STAGE.section ? 2 : stage >= STAGE.example ? 1 : 0,
  stage >= STAGE.question ? 1 : 0,
  stage >= STAGE.footing ? 1 : 0,
  stage >= STAGE.example ? 1 : 0
]

interface TextCache {
  readonly prefix: string
  readonly middle: string
  readonly suffix: string
  readonly forms: number[]
  readonly texts: string[]
}

const fixedText = (base: MemberBase): TextCache => {
  const { spec, fixed } = base
  return {
    prefix: `{"id":${J(spec.id)},"file":${J(spec.file)},"title":${J(spec.title)},"specKind":${J(spec.kind)},` +
      `"altitude":${J(spec.altitude)},"statedReadiness":${J(spec.readiness)},"floorReached":${J(fixed.floorReached)},` +
      `"statedNextRung":${J(fixed.statedNextRung)},"holds":${J(fixed.holds)},"narrative":`,
    middle: `,"declarations":${J(base.pinnedKeys)},"examples":`,
    suffix: `,"design":${J(fixed.design)},"decisions":${J(fixed.decisions)},"implementedBy":${J(fixed.implementedBy)},` +
      `"referencedBy":${J(fixed.referencedBy)},"verifiers":${J(fixed.verifiers)}}`,
    forms: [-1, -1, -1, -1, -1],
    texts: ["", "", "", "", ""]
  }
}

const PIECES: ReadonlyArray<(base: MemberBase, stage: number) => unknown> = [
  narrativeAt,
  (base, stage) => sectionsAt(base.spec, base.pinned, stage),
  (base, stage) => questionsAt(base.spec, stage),
  footingAt,
  examplesAt
]

const textAt = (base: MemberBase, cache: TextCache, stage: number): string => {
  const forms = variants(stage)
  for (let i = 0; i < PIECES.length; i++) {
    if (cache.forms[i] !== forms[i]) {
      cache.forms[i] = forms[i]
      cache.texts[i] = J(PIECES[i](base, stage))
    }
  }
  const [narrative, sections, questions, footing, examples] = cache.texts
  return `${cache.prefix}${narrative},"sections":${sections},"questions":${questions},"footing":${footing}` +
    `${cache.middle}${examples}${cache.suffix}`
}

export interface MemberRows {
  row(index: number, stage: number): MemberRow
  text(index: number, stage: number): string
}

/** Rows and texts for the members in scope order, each member's facts computed once. */
export const memberRows = (facts: Facts, memberIds: ReadonlyArray<string>): MemberRows => {
  const inBundle = new Set(memberIds)
  const bases: Array<MemberBase | null | undefined> = new Array(memberIds.length)
  const caches: Array<TextCache | undefined> = new Array(memberIds.length)
  const baseOf = (index: number): MemberBase | null => {
    let base = bases[index]
    if (base === undefined) {
      const spec = facts.graph.specs.get(memberIds[index])
      base = spec === undefined ? null : memberBase(facts, spec, inBundle)
      bases[index] = base
    }
    return base
  }
  return {
    row: (index, stage) => {
      const base = baseOf(index)
      return base === null ? missingMember(memberIds[index]) : rowAt(base, stage)
    },
    text: (index, stage) => {
      const base = baseOf(index)
      if (base === null) return J(missingMember(memberIds[index]))
      let cache = caches[index]
      if (cache === undefined) caches[index] = cache = fixedText(base)
      return textAt(base, cache, stage)
    }
  }
}
