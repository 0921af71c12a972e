// Derived facts over one graph (sdp-format.md 6.4, 7.3, 8; sdp-reader-semantics.md 3.2, 5).
// Pure and memoized: one Facts object per graph, one cache per question, and every question
// reads graph.incoming / graph.outgoing so 10,000 Specs stay linear.
import { packBoundaryOf, specsBoundaryOf } from "./boundary.js"
import type {
  Boundary,
  CodeUnitRow,
  DecisionRef,
  DesignCounts,
  Edge,
  Facts,
  FloorInfo,
  FootingRow,
  Graph,
  PinnedDeclaration,
  TypedDependency,
  VerifierRow
} from "../model.js"
import { TYPED_DEPENDENCIES, byCodeUnits } from "../model.js"
import { evaluateFloor } from "./readiness.js"

/**
 * The content of the inline code span that opens `value`, or null: a run of N backticks at the
 * very start, closed by the next run of exactly N backticks on the same line.
 */
export const openingCodeSpan = (value: string): string | null => {
  let n = 0
  while (n < value.length && value[n] === "`") n++
  if (n === 0) return null
  const lineEnd = value.indexOf("\n")
  const end = lineEnd < 0 ? value.length : lineEnd
  let i = n
  while (i < end) {
    if (value[i] !== "`") {
      i++
      continue
    }
    let j = i
    while (j < end && value[j] === "`") j++
    if (j - i === n) return value.slice(n, i)
    i = j
  }
  return null
}

const NO_FLOOR: FloorInfo = { floorReached: "none", statedNextRung: null, holds: [], floorFailures: [] }
const TYPED: ReadonlySet<string> = new Set(TYPED_DEPENDENCIES)
const typeOrder = (t: TypedDependency): number => TYPED_DEPENDENCIES.indexOf(t)

/** A per-key cache around a pure function. */
const memo = <V>(fn: (key: string) => V): ((key: string) => V) => {
  const cache = new Map<string, V>()
  return (key) => {
    let v = cache.get(key)
    if (v === undefined && !cache.has(key)) {
      v = fn(key)
      cache.set(key, v)
    }
    return v as V
  }
}

const byFrom = (a: Edge, b: Edge): number => byCodeUnits(a.from, b.from)

const makeFacts = (graph: Graph): Facts => {
  const into = (id: string): ReadonlyArray<Edge> => graph.incoming.get(id) ?? []
  const outOf = (id: string): ReadonlyArray<Edge> => graph.outgoing.get(id) ?? []
  const exists = (id: string): boolean => graph.specs.has(id) || graph.packs.has(id) || graph.anchors.has(id)

  const implemented = memo((id) => into(id).some((e) => e.type === "satisfies" && e.claim === "anchored" && graph.anchors.get(e.from)?.nodeType === "CodeNode"))

  /** An anchored verifies edge from a test/oracle Anchor present in the graph. */
  const anchoredVerifier = (e: Edge): boolean => e.type === "verifies" && e.claim === "anchored" && graph.anchors.get(e.from)?.nodeType === "Anchor"

  const isEnabledExample = memo((id) => graph.specs.get(id)?.kind === "example" && into(id).some(anchoredVerifier))

  const hasVerifier = memo((id) => into(id).some((e) => anchoredVerifier(e) || (e.type === "verifies" && e.claim === "declared" && isEnabledExample(e.from))))

  const floor = memo((id): FloorInfo => {
    const spec = graph.specs.get(id)
    return spec === undefined ? NO_FLOOR : evaluateFloor(spec, graph)
  })

  const footing = memo((id): ReadonlyArray<FootingRow> => {
    const seen = new Set<string>()
    const rows: FootingRow[] = []
    for (const e of outOf(id)) {
      if (e.claim !== "declared" || !TYPED.has(e.type)) continue
      const key = `${e.type} ${e.to}`
      if (seen.has(key)) continue
      seen.add(key)
      const target = graph.specs.get(e.to)
      rows.push({
        type: e.type as TypedDependency,
        id: e.to,
        claim: e.claim,
        resolved: exists(e.to),
        statedReadiness: target?.readiness ?? null,
        floorReached: target === undefined ? null : floor(e.to).floorReached
      })
    }
    return rows.sort((a, b) => typeOrder(a.type) - typeOrder(b.type) || byCodeUnits(a.id, b.id))
  })

  const codeUnits = (id: string, type: "satisfies" | "references"): CodeUnitRow[] => {
    const seen = new Set<string>()
    const rows: CodeUnitRow[] = []
    for (const e of [...into(id)].filter((x) => x.type === type).sort(byFrom)) {
      if (seen.has(`${e.from} ${e.claim}`)) continue
      seen.add(`${e.from} ${e.claim}`)
      const unit = graph.anchors.get(e.from)
      const componentId = outOf(e.from)
        .filter((x) => x.type === "memberOf")
        .map((x) => x.to)
        .sort(byCodeUnits)[0]
      const component = componentId === undefined ? undefined : graph.anchors.get(componentId)
      rows.push({
        id: e.from,
        claim: e.claim,
        file: unit?.file ?? null,
        line: unit?.line ?? null,
        role: unit?.role ?? null,
        component: componentId === undefined ? null : { id: componentId, layer: component?.layer ?? null, context: component?.context ?? null }
      })
    }
    return rows
  }
  const implementedBy = memo((id) => codeUnits(id, "satisfies"))
  const referencedBy = memo((id) => codeUnits(id, "references"))

  const verifiers = memo((id): ReadonlyArray<VerifierRow> => {
    const seen = new Set<string>()
    const rows: VerifierRow[] = []
    for (const e of [...into(id)].filter((x) => x.type === "verifies").sort(byFrom)) {
      if (seen.has(`${e.from} ${e.claim}`)) continue
      seen.add(`${e.from} ${e.claim}`)
      const anchor = graph.anchors.get(e.from)
      if (anchor !== undefined) {
        rows.push({ id: e.from, claim: e.claim, enabled: e.claim === "anchored", file: anchor.file, line: anchor.line })
        continue
      }
      const source = graph.specs.get(e.from)
      rows.push({
        id: e.from,
        claim: e.claim,
        enabled: e.claim === "declared" && isEnabledExample(e.from),
        file: source?.file ?? null,
        line: source?.line ?? null
      })
    }
    return rows
  })

  const decisions = memo((id): ReadonlyArray<DecisionRef> => {
    const targets = new Set(
      outOf(id)
        .filter((e) => e.type === "decidedBy" && e.claim === "declared")
        .map((e) => e.to)
    )
    return [...targets].sort(byCodeUnits).map((t) => {
      const target = graph.specs.get(t)
      return { id: t, statedReadiness: target?.readiness ?? null, resolved: target !== undefined }
    })
  })

  const pinnedDeclarations = memo((id): ReadonlyArray<PinnedDeclaration> => {
    const design = graph.specs.get(id)?.sections.design ?? {}
    const rows: PinnedDeclaration[] = []
    for (const [key, value] of Object.entries(design)) {
      if (key === "description" || typeof value !== "string") continue
      const declaration = openingCodeSpan(value)
      if (declaration !== null) rows.push({ key, declaration })
    }
    return rows
  })

  const designCounts = memo((id): DesignCounts => {
    const s = graph.specs.get(id)?.sections
    const keys = (o: Readonly<Record<string, string>> | undefined) => Object.keys(o ?? {}).filter((k) => k !== "description").length
    const questions = (s?.intent?.openQuestions ?? []).filter((q) => q.question.length > 0)
    return {
      entries: keys(s?.design) + keys(s?.ui),
      declarations: pinnedDeclarations(id).length,
      openQuestions: questions.length,
      blockingQuestions: questions.filter((q) => q.blocking === true).length
    }
  })

  const examplesOf = memo((id): ReadonlyArray<string> => {
    const ids = new Set<string>()
    for (const e of into(id)) {
      if (e.claim !== "declared" || (e.type !== "refines" && e.type !== "verifies")) continue
      if (graph.specs.get(e.from)?.kind === "example") ids.add(e.from)
    }
    return [...ids].sort(byCodeUnits)
  })

  const packBoundary = memo((packId): Boundary => packBoundaryOf(graph, packId, implemented))
  const specsBoundaryCache = new Map<string, Boundary>()
  const specsBoundary = (specIds: ReadonlyArray<string>): Boundary => {
    const key = specIds.join("\n")
    let b = specsBoundaryCache.get(key)
    if (b === undefined) specsBoundaryCache.set(key, (b = specsBoundaryOf(graph, specIds, implemented)))
    return b
  }

  return {
    graph,
    implemented,
    hasVerifier,
    isEnabledExample,
    floor,
    footing,
    implementedBy,
    referencedBy,
    verifiers,
    decisions,
    designCounts,
    pinnedDeclarations,
    examplesOf,
    packBoundary,
    specsBoundary
  }
}

const perGraph = new WeakMap<Graph, Facts>()

/** The facts of one graph; the same graph always gives the same (memoized) Facts object. */
export const factsOf = (graph: Graph): Facts => {
  let facts = perGraph.get(graph)
  if (facts === undefined) perGraph.set(graph, (facts = makeFacts(graph)))
  return facts
}
