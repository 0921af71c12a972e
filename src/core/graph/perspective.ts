// Perspectives (recipe page rule line 30): a named, pure filter over the derived facts of a Pack's
// members that returns an ordered subset of their ids. The bundle takes that subset as `members`,
// so one filter serves both the `perspective` listing and the bundle. Exact meanings of every
// criterion: docs/decisions.md, "Perspectives". Pure: the caller passes the impacted ids.
import { knownPacks } from "../bundle/params.js"
import type { Diagnostic, Diagnostics } from "../bundle/types.js"
import type { Altitude, Facts, PackNode, RelationType, Rung, SpecKind } from "../model.js"
import { RELATION_TYPES, RUNGS } from "../model.js"

export type OneOrMany<T> = T | ReadonlyArray<T>
export type FloorRung = Rung | "none"
export const FLOOR_RUNGS: ReadonlyArray<FloorRung> = ["none", ...RUNGS]
export const QUESTION_FILTERS = ["any", "blocking", "none"] as const
export const DIRECTIONS = ["out", "in", "either"] as const
export const ORDERS = ["manifest", "floor"] as const

export interface RelatesTo {
  /** Ids or `*` patterns of the other end; any one matches. */
  readonly id: OneOrMany<string>
  /** Authored relation types; any one matches. Default: all six. */
  readonly type?: OneOrMany<RelationType>
  /** "out" (the member declares it, the default), "in" (declared on the member), or "either". */
  readonly direction?: (typeof DIRECTIONS)[number]
}

/** One set of criteria: every criterion given must hold (and); a list inside one is an or. */
export interface Criteria {
  readonly kind?: OneOrMany<SpecKind>
  readonly altitude?: OneOrMany<Altitude>
  readonly readiness?: OneOrMany<Rung>
  readonly floorAtLeast?: FloorRung
  readonly floorAtMost?: FloorRung
  readonly floorBelowStated?: boolean
  readonly holds?: boolean
  readonly questions?: (typeof QUESTION_FILTERS)[number]
  readonly implemented?: boolean
  readonly hasVerifier?: boolean
  readonly hasEnabledExamples?: boolean
  readonly relatesTo?: RelatesTo
  readonly layer?: OneOrMany<string>
  readonly ids?: OneOrMany<string>
  readonly impacted?: boolean
}

export interface Perspective extends Criteria {
  readonly description?: string
  /** Alternatives: at least one must hold, beside every other criterion. */
  readonly anyOf?: ReadonlyArray<Criteria>
  /** "manifest" (default) or "floor": least ready first, ties in manifest order. */
  readonly order?: (typeof ORDERS)[number]
}

export type Perspectives = Readonly<Record<string, Perspective>>

/** The perspectives that need no configuration, in the order they are listed. */
export const BUILT_IN_PERSPECTIVES: Perspectives = {
  blocked: {
    description: "Members with a blocking open question or a failing clause of their stated next rung (holds).",
    anyOf: [{ questions: "blocking" }, { holds: true }]
  },
  changed: { description: "Members a changeset impacts (needs --changeset or --staged).", impacted: true },
  "not-ready": { description: "Members whose floor reached is below their stated rung.", floorBelowStated: true },
  unimplemented: { description: "Members no code unit implements (no anchored satisfies).", implemented: false },
  unverified: { description: "Members with no verifier (no test anchor, no enabled example).", hasVerifier: false }
}

const own = (record: Perspectives | undefined, name: string): Perspective | undefined =>
  record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined

/** Built-in names first, then the configured ones, each group in code-unit order. */
export const perspectiveNames = (configured: Perspectives | undefined): string[] => [
  ...Object.keys(BUILT_IN_PERSPECTIVES).sort(),
  ...Object.keys(configured ?? {})
    .filter((n) => own(BUILT_IN_PERSPECTIVES, n) === undefined)
    .sort()
]

export const lookupPerspective = (name: string, configured: Perspectives | undefined): Perspective | undefined =>
  own(BUILT_IN_PERSPECTIVES, name) ?? own(configured, name)

const listOf = <T>(value: OneOrMany<T>): ReadonlyArray<T> => (Array.isArray(value) ? (value as ReadonlyArray<T>) : [value as T])

/** `*` matches any run of characters (none included); everything else matches itself. */
export const idPattern = (pattern: string): ((id: string) => boolean) => {
  if (!pattern.includes("*")) return (id) => id === pattern
  const source = pattern
    .split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*")
  const re = new RegExp(`^${source}$`)
  return (id) => re.test(id)
}

const anyPattern = (patterns: OneOrMany<string>): ((id: string) => boolean) => {
  const tests = listOf(patterns).map(idPattern)
  return (id) => tests.some((t) => t(id))
}

const floorRank = (r: FloorRung): number => FLOOR_RUNGS.indexOf(r)

/** Whether the perspective reads a changeset's impacted ids (then a changeset must be given). */
export const needsChangeset = (p: Perspective): boolean => p.impacted !== undefined || (p.anyOf ?? []).some((c) => c.impacted !== undefined)

export interface SelectContext {
  /** The Spec ids a changeset impacts; absent when no changeset was given (nothing is impacted). */
  readonly impacted?: ReadonlySet<string>
}

type Test = (id: string) => boolean

const relationTest = (facts: Facts, r: RelatesTo): Test => {
  const types = new Set<string>(r.type === undefined ? RELATION_TYPES : listOf(r.type))
  const other = anyPattern(r.id)
  const direction = r.direction ?? "out"
  const authored = (e: { type: string; claim: string }) => e.claim === "declared" && types.has(e.type)
  return (id) =>
    (direction !== "in" && (facts.graph.outgoing.get(id) ?? []).some((e) => authored(e) && other(e.to))) ||
    (direction !== "out" && (facts.graph.incoming.get(id) ?? []).some((e) => authored(e) && other(e.from)))
}

/** One predicate per criterion given, all of which must hold. */
const criteriaTest = (facts: Facts, c: Criteria, context: SelectContext): Test => {
  const tests: Test[] = []
  const spec = (id: string) => facts.graph.specs.get(id)
  const oneOf = <T>(value: OneOrMany<T> | undefined, read: (id: string) => T | undefined) => {
    if (value === undefined) return
    const allowed = new Set<T>(listOf(value))
    tests.push((id) => {
      const v = read(id)
      return v !== undefined && allowed.has(v)
    })
  }
  const flag = (value: boolean | undefined, read: Test) => {
    if (value !== undefined) tests.push((id) => read(id) === value)
  }
  const floor = (id: string) => facts.floor(id).floorReached
  oneOf(c.kind, (id) => spec(id)?.kind)
  oneOf(c.altitude, (id) => spec(id)?.altitude)
  oneOf(c.readiness, (id) => spec(id)?.readiness)
  const { floorAtLeast, floorAtMost } = c
  if (floorAtLeast !== undefined) tests.push((id) => floorRank(floor(id)) >= floorRank(floorAtLeast))
  if (floorAtMost !== undefined) tests.push((id) => floorRank(floor(id)) <= floorRank(floorAtMost))
  flag(c.floorBelowStated, (id) => {
    const s = spec(id)
    return s !== undefined && floorRank(floor(id)) < floorRank(s.readiness)
  })
  flag(c.holds, (id) => facts.floor(id).holds.length > 0)
  if (c.questions !== undefined) {
    const q = c.questions
    tests.push((id) => {
      const counts = facts.designCounts(id)
      return q === "blocking" ? counts.blockingQuestions > 0 : q === "any" ? counts.openQuestions > 0 : counts.openQuestions === 0
    })
  }
  flag(c.implemented, facts.implemented)
  flag(c.hasVerifier, facts.hasVerifier)
  flag(c.hasEnabledExamples, (id) => facts.examplesOf(id).some(facts.isEnabledExample))
  if (c.relatesTo !== undefined) tests.push(relationTest(facts, c.relatesTo))
  if (c.layer !== undefined) {
    const layers = new Set(listOf(c.layer))
    tests.push((id) => [...facts.implementedBy(id), ...facts.referencedBy(id)].some((u) => u.component?.layer != null && layers.has(u.component.layer)))
  }
  if (c.ids !== undefined) tests.push(anyPattern(c.ids))
  flag(c.impacted, (id) => context.impacted?.has(id) ?? false)
  return (id) => tests.every((t) => t(id))
}

/**
 * The Pack's members the perspective selects: manifest order (a repeated manifest entry counts
 * once), or by floor reached, least ready first, ties in manifest order.
 */
export const selectMembers = (facts: Facts, pack: PackNode, perspective: Perspective, context: SelectContext = {}): string[] => {
  const all = criteriaTest(facts, perspective, context)
  const alternatives = perspective.anyOf?.map((c) => criteriaTest(facts, c, context))
  const seen = new Set<string>()
  const picked: string[] = []
  for (const id of pack.members) {
    if (seen.has(id)) continue
    seen.add(id)
    if (all(id) && (alternatives === undefined || alternatives.some((t) => t(id)))) picked.push(id)
  }
  if (perspective.order !== "floor") return picked
  return picked
    .map((id, index) => ({ id, index, rank: floorRank(facts.floor(id).floorReached) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((row) => row.id)
}

/** A perspective request as any entrance has it: raw values, checked here. */
export interface PerspectiveRequest {
  readonly pack: unknown
  readonly perspective: unknown
  /** The configured perspectives (specbundle.config.json `perspectives`). */
  readonly perspectives?: Perspectives
  /** The ids a changeset impacts, or absent when no changeset was given. */
  readonly impacted?: ReadonlyArray<string>
  /** How the problems cite a request field (the CLI: `--changeset`); the field's own name when absent. */
  readonly cite?: (field: string) => string
  /** The changeset as given, stated in the bundle's scope beside the perspective. */
  readonly changeset?: string
}

/** The bundle parameters a perspective fills: its Pack, the members it chose, and its name. */
export interface PerspectiveSelection {
  readonly pack: string
  readonly members: ReadonlyArray<string>
  readonly perspective: string
  readonly changeset?: string
}

const show = (value: unknown): string =>
  typeof value === "string"
    ? JSON.stringify(value)
    : value === null || typeof value !== "object"
      ? String(value)
      : Array.isArray(value)
        ? "a list"
        : "an object"

/** Resolves a name against the built-ins and the configuration and runs it over the Pack. */
export const resolvePerspective = (facts: Facts, request: PerspectiveRequest): PerspectiveSelection | Diagnostics => {
  const problems: Diagnostic[] = []
  const { pack: packId, perspective: name } = request
  const cite = request.cite ?? ((field: string) => field)
  const pack = typeof packId === "string" ? facts.graph.packs.get(packId) : undefined
  if (packId === undefined) problems.push({ scope: "pack", problem: "A perspective filters a Pack's members: give pack." })
  else if (typeof packId !== "string") problems.push({ scope: "pack", problem: `pack must be a Pack id, not ${show(packId)}.` })
  else if (pack === undefined) problems.push({ scope: "pack", problem: `Unknown Pack ${show(packId)}.${knownPacks(facts.graph, packId)}` })

  const known = perspectiveNames(request.perspectives)
  const perspective = typeof name === "string" ? lookupPerspective(name, request.perspectives) : undefined
  if (typeof name !== "string") {
    problems.push({ scope: "perspective", problem: `perspective must be a perspective name, not ${show(name)}; known: ${known.join(", ")}.` })
  } else if (perspective === undefined) {
    problems.push({ scope: "perspective", problem: `Unknown perspective ${show(name)}; known: ${known.join(", ")}.` })
  } else if (request.impacted === undefined && needsChangeset(perspective)) {
    problems.push({
      scope: "perspective",
      problem: `The perspective ${show(name)} selects what a changeset impacts: give a changeset (${cite("changeset")} REV or ${cite("staged")}).`
    })
  }
  if (problems.length > 0 || pack === undefined || perspective === undefined) return { diagnostics: problems }
  const impacted = request.impacted === undefined ? undefined : new Set(request.impacted)
  const members = selectMembers(facts, pack, perspective, impacted === undefined ? {} : { impacted })
  return {
    pack: pack.id,
    members,
    perspective: name as string,
    ...(request.changeset === undefined ? {} : { changeset: request.changeset })
  }
}
