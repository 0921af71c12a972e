// The graph vocabulary every part of specbundle shares. Pure data: no I/O, no Effect.
// Shapes follow shared/docs/sdp-format.md (sections 3, 4, 6, 7) and sdp-reader-semantics.md.

export const RUNGS = ["idea", "scoped", "defined", "ready"] as const
export type Rung = (typeof RUNGS)[number]

export const SPEC_KINDS = ["behavior", "workflow", "example", "rule", "constraint", "model", "decision", "contract"] as const
export type SpecKind = (typeof SPEC_KINDS)[number]

export const ALTITUDES = ["epic", "feature", "story"] as const
export type Altitude = (typeof ALTITUDES)[number]

/** The six relations an author writes, in the fixed type order used by every list. */
export const RELATION_TYPES = ["refines", "dependsOn", "constrainedBy", "decidedBy", "verifies", "supersedes"] as const
export type RelationType = (typeof RELATION_TYPES)[number]

/** The four typed dependencies (footing, restsOn, the ready target clause). */
export const TYPED_DEPENDENCIES = ["refines", "dependsOn", "constrainedBy", "decidedBy"] as const
export type TypedDependency = (typeof TYPED_DEPENDENCIES)[number]

export type EdgeType = RelationType | "belongsTo" | "satisfies" | "models" | "memberOf" | "uses" | "references"
export type Claim = "declared" | "anchored" | "inferred"

export interface Edge {
  readonly from: string
  readonly type: EdgeType
  readonly to: string
  readonly claim: Claim
}

/** One problem found while reading. `error` findings refuse their whole carrier. */
export interface Finding {
  readonly file: string
  /** 1-based line; 0 when the problem concerns the file as a whole before any line (e.g. unreadable). */
  readonly line: number
  readonly code: string
  readonly message: string
  readonly severity: "error" | "warning"
}

// ---------------------------------------------------------------------------------------------
// Sections of a Spec (graph key order of sdp-format.md section 6.2; objects are built in that order)

/** A structured example or example space: step text without the keyword, slots verbatim. */
export interface Gwt {
  readonly given: ReadonlyArray<string>
  readonly when: ReadonlyArray<string>
  readonly then: ReadonlyArray<string>
}

export interface OpenQuestion {
  readonly question: string
  readonly blocking: boolean
  readonly key?: string
}

export interface IntentSection {
  readonly description?: string
  readonly actor?: string
  readonly problem?: string
  readonly outcome?: string
  readonly value?: string
  readonly risks?: ReadonlyArray<string>
  readonly assumptions?: ReadonlyArray<string>
  readonly openQuestions?: ReadonlyArray<OpenQuestion>
}

/** An unkeyed rule is its text; a keyed rule (`- rule.<key>: text`, format section 4.9) an object. */
export type BehaviorRule = string | { readonly key: string; readonly rule: string }

export interface BehaviorSection {
  readonly description?: string
  readonly rules?: ReadonlyArray<BehaviorRule>
  /** Markdown and Gherkin only produce structured examples; a prose string is kept for completeness. */
  readonly examples?: ReadonlyArray<Gwt | string>
  readonly flows?: ReadonlyArray<string>
  readonly exampleSpace?: Gwt
}

export interface ConstraintEntry {
  readonly flavor?: string
  readonly statement: string
  readonly target?: string
  readonly measurableBy?: string
}

export interface ModelSection {
  readonly description?: string
  /** term -> definition, authored order (integer-like terms are refused, so insertion order holds). */
  readonly terms: Readonly<Record<string, string>>
}

export interface DecisionSection {
  readonly description?: string
  readonly context?: string
  readonly decision?: string
  readonly rationale?: ReadonlyArray<string>
  readonly alternatives?: ReadonlyArray<string>
  readonly consequences?: ReadonlyArray<string>
}

export interface VerificationSection {
  readonly description?: string
  readonly mode: string
  readonly criteria: ReadonlyArray<string>
}

/** Open keyed section (Design, UI): `description` first, then keys in authored order. */
export type OpenSection = Readonly<Record<string, string>>

export interface Sections {
  readonly intent?: IntentSection
  readonly behavior?: BehaviorSection
  readonly constraints?: ReadonlyArray<ConstraintEntry>
  readonly model?: ModelSection
  readonly design?: OpenSection
  readonly decision?: DecisionSection
  readonly verification?: VerificationSection
  readonly ui?: OpenSection
}

// ---------------------------------------------------------------------------------------------
// Nodes

export interface AuthoredRelation {
  readonly type: RelationType
  readonly to: string
}

export interface SpecNode {
  readonly id: string
  readonly kind: SpecKind
  readonly altitude: Altitude
  readonly readiness: Rung
  readonly title: string
  /** Prose between the H1 and the first H2, paragraphs joined by a blank line; null when none. */
  readonly narrative: string | null
  /** Carrier path, root-relative, `/` separators. */
  readonly file: string
  /** Line of the id (frontmatter `id:` key, or the Gherkin tag). */
  readonly line: number
  readonly sections: Sections
  /** Authored relations in authored order (types in written order, targets in list order). */
  readonly relations: ReadonlyArray<AuthoredRelation>
  /**
   * The location table: 1-based carrier line of each entry, keyed by the entry's path inside
   * `sections` written with dots and [index]: "intent.outcome", "intent.risks[0]",
   * "intent.openQuestions[2]", "behavior.rules[1]", "behavior.examples[0]", "behavior.exampleSpace",
   * "behavior.flows[0]", "constraints[0].target", "model.terms.cart", "design.loanService",
   * "ui.layout", "decision.rationale[0]", "verification.criteria[0]", "design.description".
   * Every entry the reader parsed from a line has a row.
   */
  readonly locations: Readonly<Record<string, number>>
}

export interface PackNode {
  readonly id: string
  readonly title: string
  /** Body prose after the H1; "" when none. */
  readonly framing: string
  readonly file: string
  readonly line: number
  /** Manifest order. */
  readonly members: ReadonlyArray<string>
  readonly modelRefs: ReadonlyArray<string>
}

export type AnchorFlavor = "code" | "test" | "oracle"

/** A code anchor (CodeNode: impl:, api:, component:) or a test/oracle anchor (Anchor). */
export interface AnchorNode {
  readonly id: string
  readonly nodeType: "CodeNode" | "Anchor"
  readonly flavor: AnchorFlavor
  readonly form: "constant" | "comment"
  readonly label: string | null
  readonly file: string
  /** Line where the builder call starts (constant form) or the comment block starts. */
  readonly line: number
  readonly satisfies: ReadonlyArray<string>
  readonly verifies: ReadonlyArray<string>
  readonly models: ReadonlyArray<string>
  readonly references: ReadonlyArray<string>
  readonly component: string | null
  readonly uses: ReadonlyArray<string>
  readonly role: string | null
  readonly layer: string | null
  readonly context: string | null
}

/** What one file contributed. A refused carrier has no nodes and at least one error finding. */
export interface CarrierRead {
  readonly file: string
  readonly specs: ReadonlyArray<SpecNode>
  readonly packs: ReadonlyArray<PackNode>
  readonly anchors: ReadonlyArray<AnchorNode>
  readonly findings: ReadonlyArray<Finding>
}

/** The derived graph. Everything is sorted by code units; maps iterate in id order. */
export interface Graph {
  readonly specs: ReadonlyMap<string, SpecNode>
  readonly packs: ReadonlyMap<string, PackNode>
  readonly anchors: ReadonlyMap<string, AnchorNode>
  /** Sorted by (from, type, to); dangling targets are kept. */
  readonly edges: ReadonlyArray<Edge>
  readonly outgoing: ReadonlyMap<string, ReadonlyArray<Edge>>
  readonly incoming: ReadonlyMap<string, ReadonlyArray<Edge>>
  /** root-relative file -> ids of the nodes it holds, sorted. */
  readonly nodesByFile: ReadonlyMap<string, ReadonlyArray<string>>
  /** Sorted by file, line, code, message. */
  readonly findings: ReadonlyArray<Finding>
}

/** Plain code-unit comparison: never localeCompare (deterministic on every machine). */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** A Spec's prose: what a Spec that holds only the graph's fields gets when it is first read. */
export type SpecProse = Pick<SpecNode, "narrative" | "sections" | "locations">

/**
 * A Spec holding the graph's fields, its prose got the first time any of it is read
 * (`loadProse`, once): the parse cache's Specs (node/cacheFormat.ts) and those of a Markdown read
 * that keeps no prose (read/markdown.ts). Plain data to every reader (getters on the class, so
 * creating one costs what a plain object does); `toJSON` gives the key order the reader's own
 * objects have, so printing one prints the same bytes as a Spec read whole.
 */
export abstract class SpecWithProseLater implements SpecNode {
  #prose: SpecProse | undefined

  constructor(
    readonly id: string,
    readonly kind: SpecKind,
    readonly altitude: SpecNode["altitude"],
    readonly readiness: Rung,
    readonly title: string,
    readonly file: string,
    readonly line: number,
    readonly relations: ReadonlyArray<AuthoredRelation>
  ) {}

  protected abstract loadProse(): SpecProse

  #read(): SpecProse {
    this.#prose ??= this.loadProse()
    return this.#prose
  }

  get narrative(): string | null {
    return this.#read().narrative
  }
  get sections(): Sections {
    return this.#read().sections
  }
  get locations(): Readonly<Record<string, number>> {
    return this.#read().locations
  }

  toJSON(): SpecNode {
    const { id, kind, altitude, readiness, title, narrative, file, line, sections, relations, locations } = this
    return { id, kind, altitude, readiness, title, narrative, file, line, sections, relations, locations }
  }
}

// ---------------------------------------------------------------------------------------------
// Derived facts (computed by src/core/graph/facts.ts from a Graph; never stored on nodes)

export interface TargetRef {
  readonly type: TypedDependency
  readonly id: string
  /** Absent when the target is not a Spec. */
  readonly statedReadiness?: Rung
}

/** One failing readiness clause (sdp-format.md section 8.2). `targets` only on the typed-dependency clause. */
export interface ClauseFailure {
  readonly clauseId: string
  readonly description: string
  readonly targets?: ReadonlyArray<TargetRef>
}

export interface FloorInfo {
  /** Highest rung whose cumulative clauses pass, or "none". */
  readonly floorReached: Rung | "none"
  /** Rung above the stated rung; null at `ready`. */
  readonly statedNextRung: Rung | null
  /** Clauses failing when evaluated up to statedNextRung (cumulative); [] when it holds or at ready. */
  readonly holds: ReadonlyArray<ClauseFailure>
  /** Clauses failing up to the stated rung: non-empty means the statement is dishonest. */
  readonly floorFailures: ReadonlyArray<ClauseFailure>
}

/** Recipe 21 row: one per declared typed-dependency relation out of the Spec. */
export interface FootingRow {
  readonly type: TypedDependency
  readonly id: string
  readonly claim: Claim
  readonly resolved: boolean
  readonly statedReadiness: Rung | null
  readonly floorReached: Rung | "none" | null
}

export interface ComponentRef {
  readonly id: string
  readonly layer: string | null
  readonly context: string | null
}

/** A code unit with a satisfies (implementedBy) or references (referencedBy) edge into a Spec. */
export interface CodeUnitRow {
  readonly id: string
  readonly claim: Claim
  readonly file: string | null
  readonly line: number | null
  readonly role: string | null
  readonly component: ComponentRef | null
}

export interface VerifierRow {
  readonly id: string
  readonly claim: Claim
  readonly enabled: boolean
  readonly file: string | null
  readonly line: number | null
}

export interface DecisionRef {
  readonly id: string
  readonly statedReadiness: Rung | null
  readonly resolved: boolean
}

export interface DesignCounts {
  readonly entries: number
  readonly declarations: number
  readonly openQuestions: number
  readonly blockingQuestions: number
}

export interface BoundaryVia {
  readonly type: RelationType
  /** Joined member ids, no duplicates, in scope order. */
  readonly members: ReadonlyArray<string>
}

export interface BoundaryRow {
  readonly id: string
  readonly title: string | null
  readonly statedReadiness: Rung
  readonly implemented: boolean
  readonly via: ReadonlyArray<BoundaryVia>
}

export interface Boundary {
  readonly restsOn: ReadonlyArray<BoundaryRow>
  readonly restedOnBy: ReadonlyArray<BoundaryRow>
}

/** A pinned declaration: a Design entry whose value opens with an inline code span. */
export interface PinnedDeclaration {
  readonly key: string
  /** The span's content, verbatim. */
  readonly declaration: string
}

/** Read-only questions over one graph; implementations memoize per graph. */
export interface Facts {
  readonly graph: Graph
  implemented(specId: string): boolean
  hasVerifier(specId: string): boolean
  /** An example-kind Spec verified by a resolving test anchor. */
  isEnabledExample(specId: string): boolean
  floor(specId: string): FloorInfo
  footing(specId: string): ReadonlyArray<FootingRow>
  implementedBy(specId: string): ReadonlyArray<CodeUnitRow>
  referencedBy(specId: string): ReadonlyArray<CodeUnitRow>
  /** Every verifies edge into the Spec, sorted by verifier id. */
  verifiers(specId: string): ReadonlyArray<VerifierRow>
  /** Distinct declared decidedBy targets, sorted by id. */
  decisions(specId: string): ReadonlyArray<DecisionRef>
  designCounts(specId: string): DesignCounts
  /** Design entries (not UI) whose value opens with an inline code span, in Design order. */
  pinnedDeclarations(specId: string): ReadonlyArray<PinnedDeclaration>
  /** Example-kind Specs that refine or verify the Spec (declared), sorted by id. */
  examplesOf(specId: string): ReadonlyArray<string>
  /** The Pack design's boundary over all its members (sdp-reader-semantics.md 3.2; bundle-contract.md section 2). */
  packBoundary(packId: string): Boundary
  /** The boundary of an ordered Spec list (bundle-contract.md section 2). */
  specsBoundary(specIds: ReadonlyArray<string>): Boundary
}
