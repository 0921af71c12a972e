// One composition: the validated request and, per cut stage, every item built and serialized once.
// Lengths of whole bundles and parts are then sums over these texts (measure.ts).
import type { Facts } from "../model.js"
import type { Header } from "./measure.js"
import { boundaryAt, memberRows } from "./member.js"
import type { BundleRequest } from "./params.js"
import type { BoundaryValue, MemberRow, PackHeader } from "./types.js"
import { LEFT_OUT_LINES, STAGE } from "./types.js"

export interface StageItems {
  readonly members: ReadonlyArray<MemberRow>
  readonly memberTexts: ReadonlyArray<string>
  readonly memberLengths: ReadonlyArray<number>
  readonly boundary: BoundaryValue
  readonly boundaryText: string
}

export interface Composition {
  readonly request: BundleRequest
  /** 6, or 7 under declarations "addresses". */
  readonly maxStage: number
  header(stage: number): Header
  items(stage: number): StageItems
}

/** Stages that change no member row reuse the stage before (the boundary cut touches only the boundary). */
const memberStage = (stage: number): number => (stage === STAGE.boundary ? STAGE.none : stage)

export const composition = (facts: Facts, request: BundleRequest): Composition => {
  const graph = facts.graph
  const packNode = request.packId === null ? undefined : graph.packs.get(request.packId)
  const pack: PackHeader | null = packNode === undefined ? null : { id: packNode.id, title: packNode.title, framing: packNode.framing }
  const boundary = packNode !== undefined ? facts.packBoundary(packNode.id) : facts.specsBoundary(request.memberIds)
  const maxStage = request.declarations === "addresses" ? STAGE.declaration : STAGE.section
  const rowOf = memberRows(facts, request.memberIds)

  const memberCache = new Map<number, Pick<StageItems, "members" | "memberTexts" | "memberLengths">>()
  const membersAt = (stage: number) => {
    const key = memberStage(stage)
    let hit = memberCache.get(key)
    if (hit === undefined) {
      const members = request.memberIds.map((id) => rowOf(id, key))
      const memberTexts = members.map((m) => JSON.stringify(m))
      hit = { members, memberTexts, memberLengths: memberTexts.map((t) => t.length) }
      // Stages are visited in order and only the latest is read again: bounded memory.
      memberCache.clear()
      memberCache.set(key, hit)
    }
    return hit
  }
  const boundaryCache = new Map<number, { boundary: BoundaryValue; boundaryText: string }>()
  const boundaryOf = (stage: number) => {
    const key = Math.min(stage, STAGE.boundary)
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
    items: (stage) => ({ ...membersAt(stage), ...boundaryOf(stage) })
  }
}
