// How a changed Pack manifest changed its members' standing: which members it added, removed or
// moved, so the impact report puts those at risk and not the whole Pack (issue 27). Pure.
import type { Claim, EdgeType } from "../model.js"

/** Why a node is at risk: one hop from a changed node (`from`), over an edge of this type, to `to`. */
export interface AtRiskReason {
  readonly from: string
  readonly edgeType: EdgeType
  readonly to: string
  readonly claim: Claim
  /** Only on a belongsTo reason of a Pack whose manifest changed: how this member's standing changed. */
  readonly member?: MemberChange
}

/** Why a member is listed: positions are 1-based in the old and the new manifest order. */
export interface MemberChange {
  readonly change: "added" | "removed" | "moved"
  readonly oldPosition: number | null
  readonly newPosition: number | null
}

/**
 * The members whose standing differs between the old and the new manifest list. "moved" means the
 * member left the relative order of the members both lists keep (the longest run they share in
 * order stays put), so one member added at the top does not move every member after it.
 */
export const memberChanges = (oldMembers: ReadonlyArray<string>, newMembers: ReadonlyArray<string>): Map<string, MemberChange> => {
  const oldAt = firstPositions(oldMembers)
  const newAt = firstPositions(newMembers)
  const changes = new Map<string, MemberChange>()
  for (const [id, i] of newAt) if (!oldAt.has(id)) changes.set(id, { change: "added", oldPosition: null, newPosition: i + 1 })
  for (const [id, i] of oldAt) if (!newAt.has(id)) changes.set(id, { change: "removed", oldPosition: i + 1, newPosition: null })
  const kept = [...newAt.keys()].filter((id) => oldAt.has(id))
  const stays = longestIncreasing(kept.map((id) => oldAt.get(id) as number))
  kept.forEach((id, k) => {
    if (!stays.has(k)) changes.set(id, { change: "moved", oldPosition: (oldAt.get(id) as number) + 1, newPosition: (newAt.get(id) as number) + 1 })
  })
  return changes
}

/** The reason's words, as the text and Markdown reports show them. */
export const memberChangeText = (m: MemberChange): string => {
  if (m.change === "added") return `member added at position ${m.newPosition}`
  if (m.change === "removed") return `member removed from position ${m.oldPosition}`
  return `member moved from position ${m.oldPosition} to ${m.newPosition}`
}

/** An at-risk reason: the edge, and for a Pack manifest's member why it is listed (text report, Code Quality). */
export const riskReasonText = (x: AtRiskReason): string => `${x.from} ${x.edgeType} ${x.to}${x.member === undefined ? "" : ` (${memberChangeText(x.member)})`}`

/** Each id's first index (a doubled member is a reader finding; its first place counts). */
const firstPositions = (ids: ReadonlyArray<string>): Map<string, number> => {
  const at = new Map<string, number>()
  ids.forEach((id, i) => {
    if (!at.has(id)) at.set(id, i)
  })
  return at
}

/** Indexes into `values` of one longest strictly increasing subsequence (patience sorting, n log n). */
const longestIncreasing = (values: ReadonlyArray<number>): Set<number> => {
  const tails: number[] = []
  const previous: number[] = new Array(values.length).fill(-1)
  values.forEach((v, i) => {
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (values[tails[mid]] < v) lo = mid + 1
      else hi = mid
    }
    if (lo > 0) previous[i] = tails[lo - 1]
    tails[lo] = i
  })
  const kept = new Set<number>()
  for (let i = tails.length === 0 ? -1 : tails[tails.length - 1]; i >= 0; i = previous[i]) kept.add(i)
  return kept
}
