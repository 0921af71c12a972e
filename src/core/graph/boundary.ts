// Boundaries (sdp-reader-semantics.md 3.2; bundle-contract.md section 2): the outside Specs one
// declared authored relation away from a scope, grouped by relation type. Pure.
import type { Boundary, BoundaryRow, BoundaryVia, Graph, RelationType } from "../model.js"
import { RELATION_TYPES, TYPED_DEPENDENCIES, byCodeUnits } from "../model.js"

const ALL: ReadonlySet<RelationType> = new Set(RELATION_TYPES)
const TYPED: ReadonlySet<RelationType> = new Set(TYPED_DEPENDENCIES)

/**
 * Rows for one direction. `members` is the scope in its order (duplicates ignored); an edge counts
 * when it is declared, its type is in `types`, and its other end is a Spec in the graph outside
 * the scope. Via members come out in scope order because members are walked in scope order.
 */
const rows = (
  graph: Graph,
  members: ReadonlyArray<string>,
  direction: "out" | "in",
  types: ReadonlySet<RelationType>,
  implemented: (id: string) => boolean
): BoundaryRow[] => {
  const scope = new Set(members)
  const found = new Map<string, Map<RelationType, string[]>>()
  const walked = new Set<string>()
  for (const member of members) {
    if (walked.has(member)) continue
    walked.add(member)
    const edges = (direction === "out" ? graph.outgoing : graph.incoming).get(member) ?? []
    for (const e of edges) {
      if (e.claim !== "declared" || !types.has(e.type as RelationType)) continue
      const other = direction === "out" ? e.to : e.from
      if (scope.has(other) || !graph.specs.has(other)) continue
      let byType = found.get(other)
      if (byType === undefined) found.set(other, (byType = new Map()))
      const list = byType.get(e.type as RelationType)
      if (list === undefined) byType.set(e.type as RelationType, [member])
      // A member adds itself only while it is walked, so a repeat can only be the last entry.
      else if (list[list.length - 1] !== member) list.push(member)
    }
  }
  return [...found.keys()].sort(byCodeUnits).map((id) => {
    const spec = graph.specs.get(id)!
    const byType = found.get(id)!
    const via: BoundaryVia[] = RELATION_TYPES.filter((t) => byType.has(t)).map((type) => ({ type, members: byType.get(type)! }))
    return { id, title: spec.title, statedReadiness: spec.readiness, implemented: implemented(id), via }
  })
}

/** A Pack design's boundary: restsOn through the four typed relations out, restedOnBy any of six in. */
export const packBoundaryOf = (graph: Graph, packId: string, implemented: (id: string) => boolean): Boundary => {
  const pack = graph.packs.get(packId)
  if (pack === undefined) return { restsOn: [], restedOnBy: [] }
  return {
    restsOn: rows(graph, pack.members, "out", TYPED, implemented),
    restedOnBy: rows(graph, pack.members, "in", ALL, implemented)
  }
}

/** A Spec list's boundary: any of the six authored relations, out and in. */
export const specsBoundaryOf = (graph: Graph, specIds: ReadonlyArray<string>, implemented: (id: string) => boolean): Boundary => ({
  restsOn: rows(graph, specIds, "out", ALL, implemented),
  restedOnBy: rows(graph, specIds, "in", ALL, implemented)
})
