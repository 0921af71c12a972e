// Assembles the graph from what each file contributed. Pure: the same reads in any order give
// the same graph. Duplicate ids are refused at every site (sdp-format.md section 1).
import type { AnchorNode, CarrierRead, Edge, Finding, Graph, PackNode, SpecNode } from "./model.js"
import { byCodeUnits } from "./model.js"

interface Site {
  readonly id: string
  readonly file: string
  readonly line: number
}

const compareEdges = (a: Edge, b: Edge): number =>
  byCodeUnits(a.from, b.from) || byCodeUnits(a.type, b.type) || byCodeUnits(a.to, b.to)

export const compareFindings = (a: Finding, b: Finding): number =>
  byCodeUnits(a.file, b.file) || a.line - b.line || byCodeUnits(a.code, b.code) || byCodeUnits(a.message, b.message)

/**
 * Sorts edges by (from, type, to) in code-unit order, stable. One key string an edge, the parts
 * joined by U+0000, which sorts below every other code unit (so a part that is a prefix of
 * another still sorts first): one comparison a pair instead of three. A U+0000 inside a part
 * could break that, so one pass checks the result and the three-part sort redoes it if needed.
 */
const sortEdges = (edges: Edge[]): void => {
  const original = edges.slice()
  const keyed = original.map((e) => ({ key: `${e.from}\u0000${e.type}\u0000${e.to}`, e }))
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  for (let i = 0; i < keyed.length; i++) edges[i] = keyed[i].e
  for (let i = 1; i < edges.length; i++) {
    if (compareEdges(edges[i - 1], edges[i]) > 0) {
      original.sort(compareEdges)
      for (let j = 0; j < original.length; j++) edges[j] = original[j]
      return
    }
  }
}

const sortedMap = <V>(entries: Iterable<[string, V]>): Map<string, V> =>
  new Map([...entries].sort((a, b) => byCodeUnits(a[0], b[0])))

/** Edges a Spec, Pack or anchor contributes, in no particular order. */
const specEdges = (spec: SpecNode): Edge[] =>
  spec.relations.map((r) => ({ from: spec.id, type: r.type, to: r.to, claim: "declared" as const }))

const packEdges = (pack: PackNode): Edge[] =>
  pack.members.map((m) => ({ from: m, type: "belongsTo" as const, to: pack.id, claim: "declared" as const }))

const anchorEdges = (a: AnchorNode): Edge[] => {
  const edge = (type: Edge["type"], to: string): Edge => ({ from: a.id, type, to, claim: "anchored" })
  return [
    ...a.satisfies.map((t) => edge("satisfies", t)),
    ...a.verifies.map((t) => edge("verifies", t)),
    ...a.models.map((t) => edge("models", t)),
    ...a.references.map((t) => edge("references", t)),
    ...(a.component === null ? [] : [edge("memberOf", a.component)]),
    ...a.uses.map((t) => edge("uses", t))
  ]
}

export const buildGraph = (reads: ReadonlyArray<CarrierRead>): Graph => {
  const findings: Finding[] = []
  const sites = new Map<string, Site[]>()
  const note = (id: string, file: string, line: number) => {
    const list = sites.get(id)
    if (list === undefined) sites.set(id, [{ id, file, line }])
    else list.push({ id, file, line })
  }
  for (const read of reads) {
    findings.push(...read.findings)
    for (const s of read.specs) note(s.id, s.file, s.line)
    for (const p of read.packs) note(p.id, p.file, p.line)
    for (const a of read.anchors) note(a.id, a.file, a.line)
  }
  const duplicated = new Set<string>()
  for (const [id, list] of sites) {
    if (list.length < 2) continue
    duplicated.add(id)
    const where = list.map((s) => `${s.file}:${s.line}`).sort(byCodeUnits)
    for (const s of list) {
      findings.push({
        file: s.file,
        line: s.line,
        code: "extract/duplicate-id",
        message: `id ${id} is declared at ${where.length} sites (${where.join(", ")}); none enters the graph`,
        severity: "error"
      })
    }
  }

  const specs: Array<[string, SpecNode]> = []
  const packs: Array<[string, PackNode]> = []
  const anchors: Array<[string, AnchorNode]> = []
  const edges: Edge[] = []
  for (const read of reads) {
    for (const s of read.specs) if (!duplicated.has(s.id)) specs.push([s.id, s]), edges.push(...specEdges(s))
    for (const p of read.packs) if (!duplicated.has(p.id)) packs.push([p.id, p]), edges.push(...packEdges(p))
    for (const a of read.anchors) if (!duplicated.has(a.id)) anchors.push([a.id, a]), edges.push(...anchorEdges(a))
  }
  sortEdges(edges)

  const outgoing = new Map<string, Edge[]>()
  const incoming = new Map<string, Edge[]>()
  const push = (map: Map<string, Edge[]>, key: string, e: Edge) => {
    const list = map.get(key)
    if (list === undefined) map.set(key, [e])
    else list.push(e)
  }
  for (const e of edges) {
    push(outgoing, e.from, e)
    push(incoming, e.to, e)
  }
  // Incoming lists sort by (from, type) because `edges` is sorted by from first.

  const nodesByFile = new Map<string, string[]>()
  for (const [id, node] of [...specs, ...packs, ...anchors]) {
    const list = nodesByFile.get(node.file)
    if (list === undefined) nodesByFile.set(node.file, [id])
    else list.push(id)
  }
  for (const list of nodesByFile.values()) list.sort(byCodeUnits)

  return {
    specs: sortedMap(specs),
    packs: sortedMap(packs),
    anchors: sortedMap(anchors),
    edges,
    outgoing,
    incoming,
    nodesByFile: sortedMap(nodesByFile),
    findings: findings.sort(compareFindings)
  }
}

/** Whether any error finding refused a carrier. */
export const hasRefusal = (graph: Graph): boolean => graph.findings.some((f) => f.severity === "error")
