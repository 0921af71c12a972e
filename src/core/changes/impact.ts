// The impact report (bundle-contract.md section 5): the blast radius of sdp-reader-semantics.md
// section 2 over the new graph, plus what the old side of deleted and renamed-away files held.
// Pure: the Impact service gathers the graph, the old reads and the changed files.
import type { ChangedFile, ChangeStatus } from "./changeset.js"
import type { DriftReport } from "./drift.js"
import { classifyPath } from "../read/discover.js"
import type { AnchorNode, CarrierRead, Claim, Edge, EdgeType, Graph, PackNode, SpecNode } from "../model.js"
import { byCodeUnits } from "../model.js"
import type { AtRiskReason, MemberChange } from "./impact-members.js"
import { memberChanges } from "./impact-members.js"

export type { AtRiskReason } from "./impact-members.js"

export interface ImpactVia {
  readonly id: string
  readonly edgeType: EdgeType
  readonly claim: Claim
}

export interface ImpactReason {
  readonly file: string
  readonly via: ImpactVia | null
}

export interface ImpactRow {
  readonly id: string
  readonly reasons: ReadonlyArray<ImpactReason>
}

export interface RemovedSpec {
  readonly id: string
  readonly file: string
}

export interface RemovedPack {
  readonly id: string
  readonly file: string
}

/** A binding the old side of a modified or renamed code file held and the new graph lacks. */
export interface LostBinding {
  readonly spec: string
  readonly anchor: string
  readonly claim: Claim
  readonly file: string
}

export type NodeType = "Primitive" | "Pack" | "Anchor" | "CodeNode"

export interface AtRiskRow {
  readonly id: string
  readonly nodeType: NodeType
  readonly reasons: ReadonlyArray<AtRiskReason>
}

export interface ChangedFileRow {
  readonly path: string
  readonly status: ChangeStatus
  readonly oldPath?: string
}

/** Keys in the contract's order; JSON.stringify of this value is the printed report. */
export interface ImpactReport {
  readonly changeset: string
  readonly root: string
  readonly changedFiles: ReadonlyArray<ChangedFileRow>
  readonly impactedSpecs: ReadonlyArray<ImpactRow>
  readonly impactedPacks: ReadonlyArray<ImpactRow>
  readonly removedSpecs: ReadonlyArray<RemovedSpec>
  readonly removedPacks: ReadonlyArray<RemovedPack>
  readonly lostBindings: ReadonlyArray<LostBinding>
  readonly atRisk: ReadonlyArray<AtRiskRow>
  readonly coverageUnknown: ReadonlyArray<string>
  readonly unlinked: ReadonlyArray<{ readonly file: string; readonly id: string }>
  readonly outsideRoot: ReadonlyArray<string>
  /** Only when asked (impact --drift): the Specs this change leaves drifted, as `drift --format json` gives them. */
  readonly drift?: DriftReport
}

export interface ImpactInput {
  /** The changeset as the user gave it. */
  readonly changeset: string
  /** The root relative to the repository ("." at the top). */
  readonly root: string
  /** Root-relative changes. */
  readonly changedFiles: ReadonlyArray<ChangedFile>
  /** The new graph. */
  readonly graph: Graph
  /** What the old side of deleted, renamed-away and modified files held (modified code files: for lostBindings only). */
  readonly oldReads: ReadonlyArray<CarrierRead>
  readonly outsideRoot: ReadonlyArray<string>
}

const TRAVERSABLE: ReadonlySet<EdgeType> = new Set<EdgeType>(["satisfies", "verifies", "references"])

const stripDot = (path: string): string => (path.startsWith("./") ? path.slice(2) : path)

/** Groups a graph's nodes back into per-file reads (old blobs come back from the reader as a graph). */
export const carrierReadsOf = (graph: Graph): CarrierRead[] => {
  const byFile = new Map<string, { specs: SpecNode[]; packs: PackNode[]; anchors: AnchorNode[] }>()
  const at = (file: string) => {
    let entry = byFile.get(file)
    if (entry === undefined) byFile.set(file, (entry = { specs: [], packs: [], anchors: [] }))
    return entry
  }
  for (const s of graph.specs.values()) at(s.file).specs.push(s)
  for (const p of graph.packs.values()) at(p.file).packs.push(p)
  for (const a of graph.anchors.values()) at(a.file).anchors.push(a)
  return [...byFile.entries()].sort((a, b) => byCodeUnits(a[0], b[0])).map(([file, n]) => ({ file, ...n, findings: [] }))
}

/** Resolving models edges into a target: from oracle anchors the graph holds. */
const modelsInto = (graph: Graph, target: string, except?: string): number =>
  (graph.incoming.get(target) ?? []).filter((e) => e.type === "models" && e.from !== except && graph.anchors.has(e.from)).length

/** The binding edges a new-graph anchor's change travels along (semantics 2.2). */
const bindingsOf = (graph: Graph, anchorId: string): Edge[] =>
  (graph.outgoing.get(anchorId) ?? []).filter((e) => TRAVERSABLE.has(e.type) || (e.type === "models" && modelsInto(graph, e.to) === 1))

/** The same for an anchor only the old side holds; a models edge counts when no other oracle now models its target. */
const oldBindingsOf = (graph: Graph, a: AnchorNode): Edge[] => {
  const edge = (type: EdgeType, to: string): Edge => ({ from: a.id, type, to, claim: "anchored" })
  return [
    ...a.satisfies.map((t) => edge("satisfies", t)),
    ...a.verifies.map((t) => edge("verifies", t)),
    ...a.models.filter((t) => modelsInto(graph, t, a.id) === 0).map((t) => edge("models", t)),
    ...a.references.map((t) => edge("references", t))
  ]
}

const reasonKey = (r: ImpactReason): string => `${r.file}\0${r.via?.id ?? ""}\0${r.via?.edgeType ?? ""}`

const compareReasons = (a: ImpactReason, b: ImpactReason): number =>
  byCodeUnits(a.file, b.file) || byCodeUnits(a.via?.id ?? "", b.via?.id ?? "") || byCodeUnits(a.via?.edgeType ?? "", b.via?.edgeType ?? "")

const compareRisk = (a: AtRiskReason, b: AtRiskReason): number => byCodeUnits(a.from, b.from) || byCodeUnits(a.edgeType, b.edgeType) || byCodeUnits(a.to, b.to)

class Collector {
  private readonly rows = new Map<string, Map<string, ImpactReason>>()
  add(id: string, reason: ImpactReason): void {
    let reasons = this.rows.get(id)
    if (reasons === undefined) this.rows.set(id, (reasons = new Map()))
    reasons.set(reasonKey(reason), reason)
  }
  has(id: string): boolean {
    return this.rows.has(id)
  }
  ids(): string[] {
    return [...this.rows.keys()]
  }
  result(): ImpactRow[] {
    return [...this.rows.entries()]
      .sort((a, b) => byCodeUnits(a[0], b[0]))
      .map(([id, reasons]) => ({ id, reasons: [...reasons.values()].sort(compareReasons) }))
  }
}

const nodeTypeOf = (graph: Graph, id: string): { nodeType: NodeType; file: string } | null => {
  const spec = graph.specs.get(id)
  if (spec !== undefined) return { nodeType: "Primitive", file: spec.file }
  const pack = graph.packs.get(id)
  if (pack !== undefined) return { nodeType: "Pack", file: pack.file }
  const anchor = graph.anchors.get(id)
  if (anchor !== undefined) return { nodeType: anchor.nodeType, file: anchor.file }
  return null
}

const changedFileRow = (c: ChangedFile): ChangedFileRow =>
  c.oldPath === undefined ? { path: stripDot(c.path), status: c.status } : { path: stripDot(c.path), status: c.status, oldPath: stripDot(c.oldPath) }

const ANCHOR_BINDINGS = ["satisfies", "verifies", "models", "references"] as const

/**
 * Bindings the old side of modified and renamed code files held that the new graph no longer has
 * (the anchor now binds another Spec, or is gone). Named at the old path; sorted by spec, anchor.
 */
const lostBindings = (graph: Graph, changed: ReadonlyArray<ChangedFileRow>, oldByFile: ReadonlyMap<string, CarrierRead>): LostBinding[] => {
  const rows = new Map<string, LostBinding>()
  for (const c of changed) {
    if (c.status !== "modified" && c.status !== "renamed") continue
    const file = c.oldPath ?? c.path
    for (const a of oldByFile.get(file)?.anchors ?? []) {
      const now = graph.outgoing.get(a.id) ?? []
      for (const type of ANCHOR_BINDINGS) {
        for (const spec of a[type]) {
          if (now.some((e) => e.type === type && e.to === spec)) continue
          rows.set(`${spec}\0${a.id}\0${file}`, { spec, anchor: a.id, claim: "anchored", file })
        }
      }
    }
  }
  return [...rows.values()].sort((x, y) => byCodeUnits(x.spec, y.spec) || byCodeUnits(x.anchor, y.anchor) || byCodeUnits(x.file, y.file))
}

/**
 * For each impacted Pack the new graph holds: its members' changes against the old manifest (the
 * old side's read; none for a manifest added in the changeset). A Pack with no old reading of a
 * modified manifest is left out: every member stays at risk through belongsTo, as before.
 */
const packMemberships = (
  graph: Graph,
  packIds: ReadonlyArray<string>,
  oldReads: ReadonlyArray<CarrierRead>,
  changedFiles: ReadonlyArray<ChangedFileRow>
): Map<string, Map<string, MemberChange>> => {
  const oldPacks = new Map(oldReads.flatMap((r) => r.packs.map((p): [string, PackNode] => [p.id, p])))
  const added = new Set(changedFiles.filter((c) => c.status === "added" || c.status === "untracked").map((c) => c.path))
  const result = new Map<string, Map<string, MemberChange>>()
  for (const id of packIds) {
    const now = graph.packs.get(id)
    if (now === undefined) continue
    const before = oldPacks.get(id)?.members ?? (added.has(now.file) ? [] : null)
    if (before !== null) result.set(id, memberChanges(before, now.members))
  }
  return result
}

export const impactReport = (input: ImpactInput): ImpactReport => {
  const { graph } = input
  const changedFiles = input.changedFiles.map(changedFileRow).sort((a, b) => byCodeUnits(a.path, b.path) || byCodeUnits(a.status, b.status))
  // Both paths of a rename count (bundle-contract.md section 1).
  const paths = [...new Set(changedFiles.flatMap((c) => (c.oldPath === undefined ? [c.path] : [c.path, c.oldPath])))].sort(byCodeUnits)
  const changed = new Set(paths)
  const oldByFile = new Map(input.oldReads.map((r) => [stripDot(r.file), r]))
  // A modified code file's old side only names the bindings it lost (lostBindings below).
  const modifiedCode = new Set(changedFiles.filter((c) => c.status === "modified" && classifyPath(c.path) === "anchor-candidate").map((c) => c.path))

  const specs = new Collector()
  const packs = new Collector()
  const removed = new Map<string, RemovedSpec>()
  const removedPacks = new Map<string, RemovedPack>()
  const coverageUnknown: string[] = []
  const unlinked: Array<{ file: string; id: string }> = []
  const remove = (id: string, file: string) => removed.set(`${id}\0${file}`, { id, file })
  // A carrier the new side refuses does not show its Specs are gone: they stay impacted.
  const refused = new Set(graph.findings.filter((f) => f.severity === "error").map((f) => f.file))

  for (const file of paths) {
    const ids = graph.nodesByFile.get(file) ?? []
    const old = modifiedCode.has(file) ? undefined : oldByFile.get(file)
    const oldCount = old === undefined ? 0 : old.specs.length + old.packs.length + old.anchors.length
    if (ids.length === 0 && oldCount === 0) {
      coverageUnknown.push(file)
      continue
    }
    for (const id of ids) {
      if (graph.specs.has(id)) specs.add(id, { file, via: null })
      else if (graph.packs.has(id)) packs.add(id, { file, via: null })
      else {
        const bindings = bindingsOf(graph, id)
        for (const e of bindings) specs.add(e.to, { file, via: { id, edgeType: e.type, claim: e.claim } })
        if (bindings.length === 0 && graph.anchors.get(id)?.nodeType === "CodeNode") unlinked.push({ file, id })
      }
    }
    if (old === undefined) continue
    for (const s of old.specs) {
      if (graph.specs.has(s.id) || refused.has(file)) specs.add(s.id, { file, via: null })
      else remove(s.id, file)
    }
    // A Pack the new graph lacks went with its manifest: removed, not impacted.
    for (const p of old.packs) {
      if (graph.packs.has(p.id) || refused.has(file)) packs.add(p.id, { file, via: null })
      else removedPacks.set(`${p.id}\0${file}`, { id: p.id, file })
    }
    for (const a of old.anchors) {
      // An anchor still at this path speaks for itself through the new graph.
      if (graph.anchors.get(a.id)?.file === file) continue
      for (const e of oldBindingsOf(graph, a)) {
        if (graph.specs.has(e.to)) specs.add(e.to, { file, via: { id: a.id, edgeType: e.type, claim: e.claim } })
        else remove(e.to, file)
      }
    }
  }

  // One hop from every impacted (and removed) id, skipping dangling ends, impacted ends, and
  // nodes whose own file changed (semantics 2.3). A changed Pack manifest puts at risk only the
  // members it added, removed or moved, each saying which, not every member through belongsTo.
  const removedIds = new Set([...removed.values(), ...removedPacks.values()].map((r) => r.id))
  const seeds = new Set([...specs.ids(), ...packs.ids(), ...removedIds])
  const membership = packMemberships(graph, packs.ids(), input.oldReads, changedFiles)
  const risk = new Map<string, { nodeType: NodeType; reasons: Map<string, AtRiskReason> }>()
  const addRisk = (other: string, reason: AtRiskReason) => {
    if (seeds.has(other)) return
    const node = nodeTypeOf(graph, other)
    if (node === null || changed.has(node.file)) return
    let row = risk.get(other)
    if (row === undefined) risk.set(other, (row = { nodeType: node.nodeType, reasons: new Map() }))
    row.reasons.set(`${reason.from}\0${reason.edgeType}\0${reason.to}`, reason)
  }
  for (const seed of seeds) {
    const members = membership.get(seed)
    for (const e of [...(graph.outgoing.get(seed) ?? []), ...(graph.incoming.get(seed) ?? [])]) {
      const other = e.from === seed ? e.to : e.from
      if (other === seed || (members !== undefined && e.type === "belongsTo" && e.to === seed)) continue
      addRisk(other, { from: e.from, edgeType: e.type, to: e.to, claim: e.claim })
    }
    for (const [id, member] of members ?? []) addRisk(id, { from: id, edgeType: "belongsTo", to: seed, claim: "declared", member })
  }
  const atRisk: AtRiskRow[] = [...risk.entries()]
    .sort((a, b) => byCodeUnits(a[0], b[0]))
    .map(([id, row]) => ({ id, nodeType: row.nodeType, reasons: [...row.reasons.values()].sort(compareRisk) }))

  return {
    changeset: input.changeset,
    root: input.root,
    changedFiles,
    impactedSpecs: specs.result(),
    impactedPacks: packs.result(),
    removedSpecs: [...removed.values()].sort((a, b) => byCodeUnits(a.id, b.id) || byCodeUnits(a.file, b.file)),
    removedPacks: [...removedPacks.values()].sort((a, b) => byCodeUnits(a.id, b.id) || byCodeUnits(a.file, b.file)),
    lostBindings: lostBindings(graph, changedFiles, oldByFile),
    atRisk,
    coverageUnknown,
    unlinked: unlinked.sort((a, b) => byCodeUnits(a.file, b.file) || byCodeUnits(a.id, b.id)),
    outsideRoot: [...new Set(input.outsideRoot)].sort(byCodeUnits)
  }
}
