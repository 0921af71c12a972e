// One composition: the validated request and, per cut stage, every item serialized once. Lengths
// of whole bundles and parts are sums over these texts (measure.ts); row objects are built only
// for what is returned.
import type { Facts } from "../model.js"
import type { Header } from "./measure.js"
import { boundaryAt } from "./member.js"
import { memberRows } from "./member-text.js"
import type { SettledBundle } from "./params.js"
import type { BoundaryValue, MemberRow, PackHeader } from "./types.js"
import { LEFT_OUT_LINES, boundaryFormStage, maxStage as lastStage, memberFormStage } from "./cut-table.js"

export interface StageItems {
  readonly stage: number
  readonly memberTexts: ReadonlyArray<string>
  readonly memberLengths: ReadonlyArray<number>
  readonly boundary: BoundaryValue
  readonly boundaryText: string
  /** The member rows from..to (scope order) as objects at this stage. */
  rows(from: number, to: number): MemberRow[]
}

export interface Composition {
  readonly request: SettledBundle
  /** The last stage the request permits (the declaration cut only under "addresses"). */
  readonly maxStage: number
  header(stage: number): Header
  items(stage: number): StageItems
}

export const composition = (facts: Facts, request: SettledBundle): Composition => {
  const graph = facts.graph
  const packNode = request.packId === null ? undefined : graph.packs.get(request.packId)
  const pack: PackHeader | null = packNode === undefined ? null : { id: packNode.id, title: packNode.title, framing: packNode.framing }
  const boundary = packNode !== undefined ? facts.packBoundary(packNode.id) : facts.specsBoundary(request.memberIds)
  const maxStage = lastStage(request.declarations)
  const members = memberRows(facts, request.memberIds)

  // Only the latest stage's texts are kept: stages are visited in order (bounded memory).
  let memberCache: { key: number; texts: string[]; lengths: number[] } | null = null
  const textsAt = (stage: number) => {
    // Stages that change no member row (the boundary cut) reuse the texts of the stage before.
    const key = memberFormStage(stage)
    if (memberCache === null || memberCache.key !== key) {
      const texts = request.memberIds.map((_, i) => members.text(i, key))
      memberCache = { key, texts, lengths: texts.map((t) => t.length) }
    }
    return memberCache
  }
  const boundaryCache = new Map<number, { boundary: BoundaryValue; boundaryText: string }>()
  const boundaryOf = (stage: number) => {
    const key = boundaryFormStage(stage)
    let hit = boundaryCache.get(key)
    if (hit === undefined) {
      const value = boundaryAt(boundary, key)
      hit = { boundary: value, boundaryText: JSON.stringify(value) }
      boundaryCache.set(key, hit)
    }
    return hit
  }

  return {
    request,
    maxStage,
    header: (stage) => ({
      scope: request.scope,
      budget: request.budget,
      declarations: request.declarations,
      leftOut: LEFT_OUT_LINES.slice(0, stage),
      pack
    }),
    items: (stage) => {
      const texts = textsAt(stage)
      const key = memberFormStage(stage)
      return {
        stage,
        memberTexts: texts.texts,
        memberLengths: texts.lengths,
        ...boundaryOf(stage),
        rows: (from, to) => {
          const out: MemberRow[] = []
          for (let i = from; i < to; i++) out.push(members.row(i, key))
          return out
        }
      }
    }
  }
}
