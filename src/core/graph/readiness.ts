// The readiness floor (sdp-format.md section 8; sdp-reader-semantics.md section 4): clauses per
// rung, kind evidence with promoted children, the example concreteness law. Pure.
import type { ClauseFailure, Edge, FloorInfo, Graph, Rung, SpecNode, TargetRef } from "../model.js"
import { RELATION_TYPES, RUNGS, TYPED_DEPENDENCIES, byCodeUnits } from "../model.js"
import type { VocabularyStep } from "./slots.js"
import { stepFitsVocabulary, vocabularyStep } from "./slots.js"

interface Clause {
  readonly id: string
  readonly rung: Rung
  readonly description: string
  /** null when the clause passes, else its failure. */
  readonly check: (spec: SpecNode, graph: Graph) => ClauseFailure | null
}

const AUTHORED: ReadonlySet<string> = new Set(RELATION_TYPES)
const TYPED: ReadonlySet<string> = new Set(TYPED_DEPENDENCIES)

const filled = (s: string | undefined): boolean => typeof s === "string" && s.trim().length > 0

/** Declared edges of the six authored types out of the Spec. */
const declaredOut = (spec: SpecNode, graph: Graph): Edge[] => (graph.outgoing.get(spec.id) ?? []).filter((e) => e.claim === "declared" && AUTHORED.has(e.type))

const inGraph = (graph: Graph, id: string): boolean => graph.specs.has(id) || graph.packs.has(id) || graph.anchors.has(id)

const rungIndex = (r: Rung): number => RUNGS.indexOf(r)

// ---------------------------------------------------------------------------------------------
// Kind evidence (section 8.3)

const nonEmpty = (list: ReadonlyArray<unknown> | undefined): boolean => (list?.length ?? 0) > 0

const hasRulesOrExamples = (s: SpecNode): boolean => nonEmpty(s.sections.behavior?.rules) || nonEmpty(s.sections.behavior?.examples)

const constraintPresent = (s: SpecNode): boolean => nonEmpty(s.sections.constraints)

/** A rule/example child counts by its own "present" cell, which needs no graph. */
const childPresent = (child: SpecNode): boolean =>
  child.kind === "rule" ? nonEmpty(child.sections.behavior?.rules) : nonEmpty(child.sections.behavior?.examples)

const hasPromotedChild = (spec: SpecNode, graph: Graph): boolean =>
  (graph.incoming.get(spec.id) ?? []).some((e) => {
    if (e.type !== "refines" || e.claim !== "declared") return false
    const child = graph.specs.get(e.from)
    return child !== undefined && (child.kind === "rule" || child.kind === "example") && childPresent(child)
  })

const hasConstraintTarget = (spec: SpecNode, graph: Graph): boolean =>
  declaredOut(spec, graph).some((e) => {
    if (e.type !== "constrainedBy") return false
    const target = graph.specs.get(e.to)
    return target !== undefined && target.kind === "constraint" && constraintPresent(target)
  })

/** The example space steps of every direct declared refines parent, or null when none owns one. */
const parentVocabulary = (spec: SpecNode, graph: Graph): VocabularyStep[] | null => {
  let steps: VocabularyStep[] | null = null
  for (const e of declaredOut(spec, graph)) {
    if (e.type !== "refines") continue
    const space = graph.specs.get(e.to)?.sections.behavior?.exampleSpace
    if (space === undefined) continue
    steps ??= []
    for (const text of [...space.given, ...space.when, ...space.then]) steps.push(vocabularyStep(text))
  }
  return steps
}

/** Concreteness law (section 4.8): a structured entry exists and every used step fits. */
const exampleComplete = (spec: SpecNode, graph: Graph): boolean => {
  const structured = (spec.sections.behavior?.examples ?? []).filter((x) => typeof x !== "string")
  if (!structured.some((g) => g.given.length > 0 && g.when.length > 0 && g.then.length > 0)) return false
  const vocabulary = parentVocabulary(spec, graph)
  return structured.every((g) => [...g.given, ...g.when, ...g.then].every((step) => stepFitsVocabulary(step, vocabulary)))
}

export const kindEvidencePresent = (spec: SpecNode, graph: Graph): boolean => {
  const s = spec.sections
  switch (spec.kind) {
    case "behavior":
    case "workflow":
    case "contract":
      return (
        hasRulesOrExamples(spec) || nonEmpty(s.behavior?.flows) || constraintPresent(spec) || hasConstraintTarget(spec, graph) || hasPromotedChild(spec, graph)
      )
    case "example":
      return nonEmpty(s.behavior?.examples)
    case "rule":
      return nonEmpty(s.behavior?.rules)
    case "constraint":
      return constraintPresent(spec)
    case "model":
      return s.model !== undefined && Object.keys(s.model.terms).length > 0
    case "decision":
      return s.decision !== undefined && Object.keys(s.decision).length > 0
  }
}

export const kindEvidenceComplete = (spec: SpecNode, graph: Graph): boolean => {
  const s = spec.sections
  switch (spec.kind) {
    case "behavior":
    case "workflow":
    case "contract":
      return hasRulesOrExamples(spec) || hasPromotedChild(spec, graph)
    case "example":
      return exampleComplete(spec, graph)
    case "rule":
      return nonEmpty(s.behavior?.rules)
    case "constraint":
      return constraintPresent(spec) && (s.constraints ?? []).every((c) => filled(c.target))
    case "model":
      return s.model !== undefined && Object.keys(s.model.terms).length > 0
    case "decision":
      return filled(s.decision?.decision)
  }
}

// ---------------------------------------------------------------------------------------------
// The clause table (section 8.2), in evaluation order

/** Distinct resolving typed targets below `defined` or not a Spec, type order then id. */
export const typedTargetsBelowDefined = (spec: SpecNode, graph: Graph): TargetRef[] => {
  const seen = new Set<string>()
  const out: TargetRef[] = []
  for (const e of declaredOut(spec, graph)) {
    if (!TYPED.has(e.type) || !inGraph(graph, e.to)) continue
    const key = `${e.type} ${e.to}`
    if (seen.has(key)) continue
    seen.add(key)
    const target = graph.specs.get(e.to)
    const type = e.type as TargetRef["type"]
    if (target === undefined) out.push({ type, id: e.to })
    else if (rungIndex(target.readiness) < rungIndex("defined")) out.push({ type, id: e.to, statedReadiness: target.readiness })
  }
  const order = (t: TargetRef) => TYPED_DEPENDENCIES.indexOf(t.type)
  return out.sort((a, b) => order(a) - order(b) || byCodeUnits(a.id, b.id))
}

const simple = (id: string, rung: Rung, description: string, passes: (s: SpecNode, g: Graph) => boolean): Clause => ({
  id,
  rung,
  description,
  check: (s, g) => (passes(s, g) ? null : { clauseId: id, description })
})

const TYPED_DESCRIPTION = "Every refines, dependsOn, constrainedBy and decidedBy target is a Spec stating defined or ready."

export const CLAUSES: ReadonlyArray<Clause> = [
  simple("id", "idea", "The Spec has an id.", (s) => filled(s.id)),
  simple("title", "idea", "The Spec has a title.", (s) => filled(s.title)),
  simple("kind", "idea", "The Spec states its kind.", (s) => filled(s.kind)),
  simple("altitude", "idea", "The Spec states its altitude.", (s) => filled(s.altitude)),
  simple(
    "intent.outcome-or-parent-relation",
    "idea",
    "The Spec writes an intended outcome or declares a parent it refines.",
    (s, g) => filled(s.sections.intent?.outcome) || declaredOut(s, g).some((e) => e.type === "refines")
  ),
  simple("intent.outcome", "scoped", "The Spec writes its intended outcome.", (s) => filled(s.sections.intent?.outcome)),
  simple(
    "at-least-one-relation",
    "scoped",
    "The Spec declares at least one relation itself; Pack membership does not count.",
    (s, g) => declaredOut(s, g).length > 0
  ),
  simple("kind-evidence-present", "scoped", "The content its kind calls for is present.", kindEvidencePresent),
  simple("kind-evidence-complete", "defined", "The content its kind calls for is complete.", kindEvidenceComplete),
  simple(
    "no-blocking-open-questions",
    "defined",
    "No open question is marked blocking.",
    (s) => !(s.sections.intent?.openQuestions ?? []).some((q) => q.blocking === true)
  ),
  simple("all-relations-resolve", "ready", "Every declared relation points at a Spec the corpus holds.", (s, g) =>
    declaredOut(s, g).every((e) => inGraph(g, e.to))
  ),
  {
    id: "typed-dependency-targets-are-defined",
    rung: "ready",
    description: TYPED_DESCRIPTION,
    check: (s, g) => {
      const targets = typedTargetsBelowDefined(s, g)
      return targets.length === 0 ? null : { clauseId: "typed-dependency-targets-are-defined", description: TYPED_DESCRIPTION, targets }
    }
  },
  simple("anchors-resolve", "ready", "Every code or test binding into the Spec comes from an anchor the corpus holds.", (s, g) =>
    (g.incoming.get(s.id) ?? []).every(
      (e) => !(e.type === "satisfies" || e.type === "models" || (e.type === "verifies" && e.claim === "anchored")) || inGraph(g, e.from)
    )
  )
]

/** Clause id -> our one-line description. */
export const CLAUSE_DESCRIPTIONS: ReadonlyMap<string, string> = new Map(CLAUSES.map((c) => [c.id, c.description]))

/** The failures of every clause up to and including `upTo`, in table order. */
export const failuresUpTo = (results: ReadonlyArray<ClauseFailure | null>, upTo: Rung): ClauseFailure[] => {
  const limit = rungIndex(upTo)
  const out: ClauseFailure[] = []
  CLAUSES.forEach((c, i) => {
    const f = results[i]
    if (f !== null && rungIndex(c.rung) <= limit) out.push(f)
  })
  return out
}

/** Evaluate every clause once, then read the floor, the stated rung's and the next rung's failures. */
export const evaluateFloor = (spec: SpecNode, graph: Graph): FloorInfo => {
  const results = CLAUSES.map((c) => c.check(spec, graph))
  let floorReached: Rung | "none" = "none"
  for (const rung of RUNGS) {
    if (CLAUSES.some((c, i) => c.rung === rung && results[i] !== null)) break
    floorReached = rung
  }
  const stated = rungIndex(spec.readiness)
  const statedNextRung: Rung | null = stated + 1 < RUNGS.length ? RUNGS[stated + 1] : null
  return {
    floorReached,
    statedNextRung,
    holds: statedNextRung === null ? [] : failuresUpTo(results, statedNextRung),
    floorFailures: failuresUpTo(results, spec.readiness)
  }
}
