// The graph's edge order (src/core/graph/graph.ts): (from, type, to) in code-unit order, whatever the
// ids look like: prefixes of one another, characters below and above "-", U+0000 inside one; and
// the outgoing and incoming lists are the edges of each id in that order.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Edge } from "../../src/core/model.js"
import { graphOf, spec } from "../support/nodes.js"

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const threePart = (a: Edge, b: Edge): number => byCodeUnits(a.from, b.from) || byCodeUnits(a.type, b.type) || byCodeUnits(a.to, b.to)

const part = fc.constantFrom("a", "ab", "a-b", "a.b", "a\u0000b", "a\u0000", "b", "B", "\u00e9", "a b")
const TYPES = ["refines", "dependsOn", "constrainedBy", "decidedBy"] as const

describe("edge order", () => {
  it("is the three-part code-unit order for any ids", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(part, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...TYPES), part), { maxLength: 20 }),
        (names, rels) => {
          const specs = names.map((n, i) =>
            spec({
              id: `spec:${n}`,
              file: `specs/f${i}.sdp.md`,
              relations: rels.filter(([k]) => k % names.length === i).map(([, type, to]) => ({ type, to: `spec:${to}` }))
            })
          )
          const graph = graphOf(...specs)
          const edges = graph.edges
          expect(edges).toHaveLength(rels.length)
          expect(edges).toEqual([...edges].sort(threePart))
          for (const id of new Set(edges.map((e) => e.from))) expect(graph.outgoing.get(id)).toEqual(edges.filter((e) => e.from === id))
          for (const id of new Set(edges.map((e) => e.to))) expect(graph.incoming.get(id)).toEqual(edges.filter((e) => e.to === id))
          expect([...graph.specs.keys()]).toEqual([...graph.specs.keys()].sort(byCodeUnits))
        }
      ),
      { numRuns: 300 }
    )
  })
})
