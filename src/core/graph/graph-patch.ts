// The graph after an edit that changed nodes but not the graph's shape: a long-lived entrance
// (the MCP server, `watch`) reads a corpus again after a file was saved, and most saves change a
// Spec's prose or title, not its id, its relations or what the reader found wrong. Building the
// graph of 10,000 Specs again costs ~0.1 s; swapping the changed nodes into copies of its node
// maps costs ~1 ms. Anything else (an id, a relation, a member, a binding or a finding changed, a
// file giving nodes newly or no more) is left to buildGraph: the result is always buildGraph's.
import type { AnchorNode, CarrierRead, Finding, Graph, PackNode, SpecNode } from "../model.js"

/** More changed files than this: building anew costs about what comparing them would. */
const MAX_CHANGED = 256

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => a.length === b.length && a.every((x, i) => x === b[i])

const sameFinding = (a: Finding, b: Finding): boolean =>
  a.file === b.file && a.line === b.line && a.code === b.code && a.message === b.message && a.severity === b.severity

/** The same id at the same file, and the very node the graph holds (an id declared twice is not in it). */
const sameSite = <N extends { readonly id: string; readonly file: string }>(held: ReadonlyMap<string, N>, a: N, b: N): boolean =>
  a.id === b.id && a.file === b.file && held.get(a.id) === a

const sameSpec = (graph: Graph, a: SpecNode, b: SpecNode): boolean =>
  sameSite(graph.specs, a, b) &&
  a.relations.length === b.relations.length &&
  a.relations.every((r, i) => r.type === b.relations[i].type && r.to === b.relations[i].to)

const samePack = (graph: Graph, a: PackNode, b: PackNode): boolean => sameSite(graph.packs, a, b) && sameList(a.members, b.members)

const sameAnchor = (graph: Graph, a: AnchorNode, b: AnchorNode): boolean =>
  sameSite(graph.anchors, a, b) &&
  sameList(a.satisfies, b.satisfies) &&
  sameList(a.verifies, b.verifies) &&
  sameList(a.models, b.models) &&
  sameList(a.references, b.references) &&
  a.component === b.component &&
  sameList(a.uses, b.uses)

/** Whether `b` (a file's read now) gives the graph what `a` (its read before) gave, but for the nodes' own content. */
const sameShape = (graph: Graph, a: CarrierRead, b: CarrierRead): boolean =>
  a.specs.length === b.specs.length &&
  a.packs.length === b.packs.length &&
  a.anchors.length === b.anchors.length &&
  a.findings.length === b.findings.length &&
  a.findings.every((f, i) => sameFinding(f, b.findings[i])) &&
  a.specs.every((s, i) => sameSpec(graph, s, b.specs[i])) &&
  a.packs.every((p, i) => samePack(graph, p, b.packs[i])) &&
  a.anchors.every((x, i) => sameAnchor(graph, x, b.anchors[i]))

/**
 * A map read through: `base`'s keys in its order, with some values replaced. Copying a node map
 * of 10,000 ids costs more than the rest of a patch (string keys hashed again); a patch of a
 * patch stays one level deep. Nothing holding the graph before sees a change.
 */
class Replaced<N> implements ReadonlyMap<string, N> {
  constructor(
    private readonly base: ReadonlyMap<string, N>,
    private readonly changed: ReadonlyMap<string, N>
  ) {}
  get size(): number {
    return this.base.size
  }
  get(key: string): N | undefined {
    return this.changed.get(key) ?? this.base.get(key)
  }
  has(key: string): boolean {
    return this.base.has(key)
  }
  *entries(): MapIterator<[string, N]> {
    for (const [key, value] of this.base) yield [key, this.changed.get(key) ?? value]
  }
  keys(): MapIterator<string> {
    return this.base.keys()
  }
  *values(): MapIterator<N> {
    for (const [, value] of this.entries()) yield value
  }
  forEach(f: (value: N, key: string, map: ReadonlyMap<string, N>) => void, self?: unknown): void {
    for (const [key, value] of this.entries()) f.call(self, value, key, this)
  }
  [Symbol.iterator](): MapIterator<[string, N]> {
    return this.entries()
  }
  /** The map with more values replaced, over the same base. */
  static of<N extends { readonly id: string }>(map: ReadonlyMap<string, N>, nodes: ReadonlyArray<N>): ReadonlyMap<string, N> {
    if (nodes.length === 0) return map
    const [base, changed] = map instanceof Replaced ? [map.base, new Map(map.changed)] : [map, new Map<string, N>()]
    for (const n of nodes) changed.set(n.id, n)
    return new Replaced(base, changed)
  }
}

/**
 * The graph of `reads`, given `graph` built from `before`: the same graph with the changed files'
 * nodes swapped in, when every read that is not one of `before` (by identity) replaces a read of
 * the same file of the same shape; undefined otherwise (build it anew).
 */
export const patchGraph = (graph: Graph, before: ReadonlyArray<CarrierRead>, reads: ReadonlyArray<CarrierRead>): Graph | undefined => {
  if (before.length !== reads.length) return undefined
  // The reads that are the same objects at the same places, from either end, are the same reads:
  // only the ones between are compared as sets (a set of 30,000 reads costs ~10 ms to build).
  let from = 0
  let to = reads.length
  while (from < to && before[from] === reads[from]) from++
  while (to > from && before[to - 1] === reads[to - 1]) to--
  const middle = (list: ReadonlyArray<CarrierRead>) => (from === 0 && to === list.length ? list : list.slice(from, to))
  const [wasMiddle, nowMiddle] = [middle(before), middle(reads)]
  const now = new Set(nowMiddle)
  const was = new Set(wasMiddle)
  // A read listed twice (never, from a reader): built anew.
  if (now.size !== nowMiddle.length || was.size !== wasMiddle.length) return undefined
  const gone = new Map<string, CarrierRead>()
  for (const r of wasMiddle) {
    if (now.has(r)) continue
    if (gone.size >= MAX_CHANGED || gone.has(r.file)) return undefined
    gone.set(r.file, r)
  }
  const specs: SpecNode[] = []
  const packs: PackNode[] = []
  const anchors: AnchorNode[] = []
  let paired = 0
  for (const r of nowMiddle) {
    if (was.has(r)) continue
    const old = gone.get(r.file)
    if (old === undefined || !sameShape(graph, old, r)) return undefined
    paired++
    specs.push(...r.specs)
    packs.push(...r.packs)
    anchors.push(...r.anchors)
  }
  if (paired !== gone.size) return undefined
  // The same reads in another order (shards kept whole one call, read the next): the same graph.
  if (paired === 0) return graph
  return { ...graph, specs: Replaced.of(graph.specs, specs), packs: Replaced.of(graph.packs, packs), anchors: Replaced.of(graph.anchors, anchors) }
}
