// The values the context bundle returns (shared/seeds/context-bundle-recipe.txt, bundle-contract.md
// section 2). Key order in these interfaces is the contract order; values are built in that order.
import type { Diagnostics } from "../diagnostic.js"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

/** What the last cut may do to pinned declarations: keep them whole (default) or replace them by their addresses. */
export const DECLARATIONS = ["whole", "addresses"] as const
export type DeclarationMode = (typeof DECLARATIONS)[number]

export type Scope =
  | { readonly pack: string }
  | { readonly pack: string; readonly members: ReadonlyArray<string>; readonly perspective?: string; readonly changeset?: string }
  | { readonly specs: ReadonlyArray<string>; readonly changeset?: string }

export type { Diagnostic, Diagnostics } from "../diagnostic.js"

export interface TokenEstimate {
  readonly value: number
  readonly method: string
}

/** `{ line }`: stands in for a cut entry that has no entry address. */
export type Pointer = { readonly line: number | null }

export interface PackHeader {
  readonly id: string
  readonly title: string
  readonly framing: string
}

/** memberShape's keys in its order: every member row (whole, cut, missing, as text) is built by it. */
export const MEMBER_KEYS = [
  "id",
  "file",
  "title",
  "specKind",
  "altitude",
  "statedReadiness",
  "floorReached",
  "statedNextRung",
  "holds",
  "narrative",
  "sections",
  "questions",
  "footing",
  "declarations",
  "examples",
  "design",
  "decisions",
  "implementedBy",
  "referencedBy",
  "verifiers"
] as const

export type MemberKey = (typeof MEMBER_KEYS)[number]

/** A member row (memberShape); after cuts some fields hold cut forms, so fields are loosely typed. */
export type MemberRow = { readonly [key: string]: Json }

/** The boundary, whole (rows) or cut (ids per direction). */
export type BoundaryValue = { readonly restsOn: ReadonlyArray<Json>; readonly restedOnBy: ReadonlyArray<Json> }

export interface BundleValue {
  readonly scope: Scope
  readonly budget: number
  readonly declarations: DeclarationMode
  readonly used: number
  readonly tokenEstimate: TokenEstimate
  readonly leftOut: ReadonlyArray<string>
  readonly pack: PackHeader | null
  readonly members: ReadonlyArray<MemberRow>
  readonly boundary: BoundaryValue
}

export interface PartValue {
  readonly scope: Scope
  readonly budget: number
  readonly declarations: DeclarationMode
  readonly part: { readonly index: number; readonly of: number }
  readonly used: number
  readonly tokenEstimate: TokenEstimate
  readonly leftOut: ReadonlyArray<string>
  readonly pack: PackHeader | null
  readonly members: ReadonlyArray<MemberRow>
  readonly boundary: BoundaryValue | null
}

export interface BudgetExceeded {
  readonly scope: Scope
  readonly budget: number
  readonly declarations: DeclarationMode
  readonly budgetExceeded: true
  readonly protectedLength: number
  readonly leftOut: ReadonlyArray<string>
}

export interface OversizedItem {
  /** "header", "boundary" or a member id. */
  readonly item: string
  readonly length: number
}

export interface PartsExceeded {
  readonly scope: Scope
  readonly budget: number
  readonly declarations: DeclarationMode
  readonly part: { readonly index: number; readonly of: null }
  readonly budgetExceeded: true
  readonly oversized: ReadonlyArray<OversizedItem>
  readonly leftOut: ReadonlyArray<string>
}

export type BundleResult = BundleValue | PartValue | BudgetExceeded | PartsExceeded | Diagnostics

/** Every part of one split, rendered on demand (the CLI writes part 1 before part 2 is built). */
export interface PartsSplit {
  readonly of: number
  /** The cut stage every part takes (0 = uncut); leftOut is the first `stage` lines. */
  readonly stage: number
  readonly leftOut: ReadonlyArray<string>
  /** 1-based; throws a RangeError outside 1..of. */
  render(index: number): PartValue
  /** Compact JSON text of render(index), built from cached item text (equal to JSON.stringify of it). */
  renderText(index: number): string
}

/** The seed's values (diagnostics, the oversized result) told apart by their keys, or the split. */
export type PartsPlan = Diagnostics | PartsExceeded | PartsSplit

export const TOKEN_METHOD = "UTF-16 code units divided by four, an estimate"

export const DEFAULT_BUDGET = 100000

export const isPartsSplit = (r: PartsPlan): r is PartsSplit => "render" in r

export const isDiagnostics = (r: unknown): r is Diagnostics => typeof r === "object" && r !== null && "diagnostics" in r

export const isPartsExceeded = (r: unknown): r is PartsExceeded => typeof r === "object" && r !== null && "oversized" in r

export const isBudgetExceeded = (r: unknown): r is BudgetExceeded => typeof r === "object" && r !== null && "budgetExceeded" in r && !("oversized" in r)
