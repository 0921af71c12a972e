// Drift (issue 51): a Spec has drifted when, after its watermark, a file it is bound to changed (an
// anchored code file, a test or oracle anchor) or a Spec it stands on or is verified by changed in
// substance. The watermark is the latest commit (by generation, then id) that changed the Spec's own
// carrier (editing a Spec is reviewing it) together with the reviews recorded in the reviews file
// (`specbundle drift --accept`). Pure: the Drift service reads git's log, the graph and the blobs.
//
// History is a DAG: "after the watermark" means "not an ancestor of (or equal to) any watermark
// commit", so a change made on a branch the review never saw counts. The log's topological order
// only serves to skip walks: every answer is the same for any topological order of the same
// commits (what the drift cache gives: the commits since the kept tip, then the kept ones).
import type { Claim, EdgeType, Graph, SpecNode } from "../model.js"
import { TYPED_DEPENDENCIES, byCodeUnits } from "../model.js"
import { splitZ } from "./changeset.js"

/** The record file's name, at the corpus root. */
export const REVIEWS_FILE = "specbundle.reviews"

/** One changed path of a commit: its path now and, for a rename, before. Root-relative. */
export interface HistoryChange {
  /** A, M, D, T or R (git's --name-status letter, without a rename score). */
  readonly status: string
  readonly path: string
  readonly oldPath?: string
}

export interface HistoryCommit {
  readonly commit: string
  readonly parents: ReadonlyArray<string>
  readonly changes: ReadonlyArray<HistoryChange>
}

/** The log's format: a record separator, the commit and its parents, then git's -z name-status entries. */
export const LOG_FORMAT = "--format=%x1e%H %P"

/**
 * `git log --topo-order -z --name-status LOG_FORMAT` as commits, newest first; paths rebased with
 * `rebase` (repository-relative to root-relative, null: outside the root, dropped).
 */
export const parseLogZ = (text: string, rebase: (path: string) => string | null = (p) => p): HistoryCommit[] => {
  const commits: HistoryCommit[] = []
  for (const chunk of text.split("\x1e")) {
    if (chunk === "") continue
    const end = chunk.indexOf("\0")
    const header = (end < 0 ? chunk : chunk.slice(0, end)).trim().split(" ")
    const items = end < 0 ? [] : splitZ(chunk.slice(end + 1).replace(/^\n/, ""))
    const changes: HistoryChange[] = []
    for (let i = 0; i < items.length; i++) {
      const letter = items[i].charAt(0)
      if (letter === "R" || letter === "C") {
        const oldPath = rebase(items[i + 1] ?? "")
        const path = rebase(items[i + 2] ?? "")
        i += 2
        if (path !== null && oldPath !== null) changes.push(letter === "R" ? { status: "R", path, oldPath } : { status: "A", path })
        else if (path !== null) changes.push({ status: "A", path })
        else if (oldPath !== null && letter === "R") changes.push({ status: "D", path: oldPath })
      } else {
        const path = rebase(items[i + 1] ?? "")
        i += 1
        if (path !== null) changes.push({ status: letter, path })
      }
    }
    commits.push({ commit: header[0], parents: header.slice(1).filter((p) => p !== ""), changes })
  }
  return commits
}

// ---------------------------------------------------------------------------------------------
// The reviews file: one record per Spec, `id<TAB>commit`, sorted by id (code units), a blank line
// between records so that two branches changing neighbouring records merge without a conflict
// (git's merge conflicts on adjoining changed lines, not on changes one unchanged line apart).

const REVIEWS_HEADER = [
  "# specbundle drift: the commit at which each Spec was last read and found right.",
  "# Written by `specbundle drift --accept ID...`; one record per Spec, sorted, a blank line apart.",
  ""
]

export interface ReviewsRead {
  /** Spec id -> the commits recorded for it (a merge can leave two; each counts). */
  readonly reviews: ReadonlyMap<string, ReadonlyArray<string>>
  /** 1-based line numbers and the problem, for lines that are no record. */
  readonly problems: ReadonlyArray<{ readonly line: number; readonly problem: string }>
}

const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/

export const parseReviews = (text: string): ReviewsRead => {
  const reviews = new Map<string, string[]>()
  const problems: Array<{ line: number; problem: string }> = []
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "")
    if (line.trim() === "" || line.startsWith("#")) return
    const [id, commit, ...rest] = line.split("\t")
    if (commit === undefined || rest.length > 0 || id === "" || !COMMIT.test(commit)) {
      problems.push({ line: i + 1, problem: "not a review record (ID<TAB>full commit id)" })
      return
    }
    const list = reviews.get(id) ?? []
    if (!list.includes(commit)) list.push(commit)
    reviews.set(id, list)
  })
  return { reviews, problems }
}

/** The file's text: the header, then each Spec's record (one commit each: the newest given), sorted. */
export const formatReviews = (records: ReadonlyMap<string, string>): string => {
  const ids = [...records.keys()].sort(byCodeUnits)
  return [...REVIEWS_HEADER, ...ids.map((id) => `${id}\t${records.get(id)}\n`)].join("\n")
}

// ---------------------------------------------------------------------------------------------
// The report

/** Through what a change reached the Spec: impact.ts's vocabulary (the anchor or Spec, the edge, its claim). */
export interface DriftVia {
  readonly id: string
  readonly edgeType: EdgeType
  readonly claim: Claim
}

export interface DriftReason {
  /** The file that changed (its path in the graph read). */
  readonly file: string
  readonly via: DriftVia
  /** The commits after the watermark that changed it (for a Spec, in substance), oldest first. */
  readonly commits: ReadonlyArray<string>
}

export interface Watermark {
  readonly commit: string
  /** carrier: the latest commit (by generation, then id) that changed the Spec's carrier; review: a record of the reviews file. */
  readonly by: "carrier" | "review"
}

export interface DriftRow {
  readonly id: string
  readonly file: string
  readonly watermark: Watermark
  readonly reasons: ReadonlyArray<DriftReason>
}

// ---------------------------------------------------------------------------------------------
// The pass

/** What a spec's substance check needs: the Spec, the commit, where its carrier was before and after. */
export interface SubstanceQuestion {
  readonly spec: string
  readonly commit: string
  /** The commit's first parent, or null for a root commit (the Spec was added). */
  readonly parent: string | null
  /** The carrier's path at the commit, or null when the commit deleted it. */
  readonly path: string | null
  /** The carrier's path at the parent, or null when the commit added it. */
  readonly oldPath: string | null
}

export const substanceKey = (spec: string, commit: string): string => `${spec}\0${commit}`

interface Touch {
  readonly index: number
  readonly change: HistoryChange
}

/** Where the graph's files were touched: each tip path's commits (index into history, newest first), following renames backwards. */
const touchesOf = (history: ReadonlyArray<HistoryCommit>, paths: ReadonlySet<string>): Map<string, Touch[]> => {
  const touches = new Map<string, Touch[]>()
  // A name in history -> the tip paths it stands for (a rename adds the old name, older commits used it).
  const names = new Map<string, Set<string>>()
  for (const p of paths) names.set(p, new Set([p]))
  history.forEach((c, index) => {
    for (const change of c.changes) {
      const tips = names.get(change.path)
      if (tips === undefined) continue
      for (const tip of tips) {
        let list = touches.get(tip)
        if (list === undefined) touches.set(tip, (list = []))
        list.push({ index, change })
      }
      if (change.oldPath !== undefined) {
        let old = names.get(change.oldPath)
        if (old === undefined) names.set(change.oldPath, (old = new Set()))
        for (const tip of tips) old.add(tip)
      }
    }
  })
  return touches
}

/**
 * Each commit's generation (1 + its parents' greatest, 0 for a root or a shallow boundary): "later"
 * and "older" by (generation, commit id) do not depend on which topological order the log came in.
 */
export const generationsOf = (history: ReadonlyArray<HistoryCommit>): Int32Array => {
  const index = new Map(history.map((c, i) => [c.commit, i]))
  const gen = new Int32Array(history.length)
  for (let i = history.length - 1; i >= 0; i--) {
    let g = 0
    for (const p of history[i].parents) {
      const at = index.get(p)
      if (at !== undefined && gen[at] + 1 > g) g = gen[at] + 1
    }
    gen[i] = g
  }
  return gen
}

/** Ancestry over the history: is commit i an ancestor of (or equal to) commit w? */
const ancestry = (history: ReadonlyArray<HistoryCommit>) => {
  const index = new Map(history.map((c, i) => [c.commit, i]))
  const linear = history.every((c) => c.parents.length <= 1)
  const reach = new Map<number, Uint8Array>()
  const reachOf = (w: number): Uint8Array => {
    let marks = reach.get(w)
    if (marks !== undefined) return marks
    marks = new Uint8Array(history.length)
    marks[w] = 1
    // Topological order: a commit comes before its parents, so one sweep down marks every ancestor.
    for (let i = w; i < history.length; i++) {
      if (marks[i] === 0) continue
      for (const p of history[i].parents) {
        const at = index.get(p)
        if (at !== undefined) marks[at] = 1
      }
    }
    reach.set(w, marks)
    return marks
  }
  const isAncestor = (i: number, w: number): boolean => (i < w ? false : linear ? true : reachOf(w)[i] === 1)
  return { index, isAncestor }
}

export interface DriftPlan {
  /** How many Specs the pass looked at (those whose carrier some commit holds). */
  readonly specs: number
  /** Their ids, sorted. */
  readonly watched: ReadonlyArray<string>
  /** The substance questions the caller answers (read the carrier before and after, parse, compare). */
  readonly questions: ReadonlyArray<SubstanceQuestion>
  /** The report, given the set of substanceKey(spec, commit) that changed in substance. */
  readonly finish: (substantive: ReadonlySet<string>) => ReadonlyArray<DriftRow>
  /** Specs whose watermark is the history's oldest commit when that commit is a shallow clone's boundary. */
  readonly atBoundary: ReadonlyArray<string>
  /** Review records naming a commit outside the history (rebased or squashed away, or beyond a shallow clone). */
  readonly unknownReviews: ReadonlyArray<{ readonly id: string; readonly commit: string }>
}

export interface DriftInput {
  /** The tip's history, newest first in topological order (parseLogZ), root-relative paths. */
  readonly history: ReadonlyArray<HistoryCommit>
  /** The graph at the tip. */
  readonly graph: Graph
  readonly reviews: ReadonlyMap<string, ReadonlyArray<string>>
  /** The commits of a shallow clone's boundary (`.git/shallow`): their parents are not in the history. */
  readonly shallow?: ReadonlySet<string>
}

const BINDINGS: ReadonlySet<EdgeType> = new Set<EdgeType>(["satisfies", "verifies", "models", "references"])
const STANDS_ON: ReadonlySet<EdgeType> = new Set<EdgeType>(TYPED_DEPENDENCIES)

/** A related file of a Spec: an anchor's file (any change counts) or another Spec's carrier (a change in substance counts). */
interface Binding {
  readonly file: string
  readonly via: DriftVia
  readonly spec: string | null
}

/** What each Spec is bound to in the graph: its anchors' files, its verifier Specs, the Specs it stands on. */
const bindingsOf = (graph: Graph, spec: SpecNode): Binding[] => {
  const out = new Map<string, Binding>()
  const add = (b: Binding) => out.set(`${b.file}\0${b.via.id}\0${b.via.edgeType}`, b)
  for (const e of graph.incoming.get(spec.id) ?? []) {
    if (!BINDINGS.has(e.type) || e.from === spec.id) continue
    const anchor = graph.anchors.get(e.from)
    if (anchor !== undefined) add({ file: anchor.file, via: { id: e.from, edgeType: e.type, claim: e.claim }, spec: null })
    const verifier = e.type === "verifies" ? graph.specs.get(e.from) : undefined
    if (verifier !== undefined) add({ file: verifier.file, via: { id: e.from, edgeType: e.type, claim: e.claim }, spec: verifier.id })
  }
  for (const e of graph.outgoing.get(spec.id) ?? []) {
    if (!STANDS_ON.has(e.type) || e.to === spec.id) continue
    const target = graph.specs.get(e.to)
    if (target !== undefined) add({ file: target.file, via: { id: e.to, edgeType: e.type, claim: e.claim }, spec: target.id })
  }
  return [...out.values()]
}

const compareReasons = (a: DriftReason, b: DriftReason): number =>
  byCodeUnits(a.file, b.file) || byCodeUnits(a.via.id, b.via.id) || byCodeUnits(a.via.edgeType, b.via.edgeType)

/**
 * The drift pass at the history's tip, in two steps: plan (what is bound to what, which commits
 * each Spec has not seen, which Spec changes need a substance check), then finish with the answers.
 */
export const planDrift = (input: DriftInput): DriftPlan => {
  const { history, graph } = input
  const specs = [...graph.specs.values()].sort((a, b) => byCodeUnits(a.id, b.id))
  const bindings = new Map(specs.map((s) => [s.id, bindingsOf(graph, s)]))
  const paths = new Set<string>()
  for (const s of specs) {
    paths.add(s.file)
    for (const b of bindings.get(s.id) ?? []) paths.add(b.file)
  }
  const touches = touchesOf(history, paths)
  const { index, isAncestor } = ancestry(history)
  const gen = generationsOf(history)
  /** Orders history indices oldest first, whatever order the log came in. */
  const older = (a: number, b: number): number => gen[a] - gen[b] || byCodeUnits(history[a].commit, history[b].commit)
  const shallow = input.shallow ?? new Set<string>()

  const unknownReviews: Array<{ id: string; commit: string }> = []
  const atBoundary: string[] = []
  interface Plan {
    readonly spec: SpecNode
    readonly watermark: Watermark
    readonly reasons: Array<{ binding: Binding; touches: Touch[] }>
  }
  const plans: Plan[] = []
  const questions = new Map<string, SubstanceQuestion>()
  for (const spec of specs) {
    const own = touches.get(spec.file)
    // A carrier no commit holds (not committed yet): nothing to have drifted from.
    if (own === undefined || own.length === 0) continue
    const latest = own.reduce((a, b) => (older(a.index, b.index) < 0 ? b : a))
    const marks: Array<{ at: number; by: Watermark["by"] }> = [{ at: latest.index, by: "carrier" }]
    for (const commit of input.reviews.get(spec.id) ?? []) {
      const at = index.get(commit)
      if (at === undefined) unknownReviews.push({ id: spec.id, commit })
      else marks.push({ at, by: "review" })
    }
    const seen = (i: number) => marks.some((m) => isAncestor(i, m.at))
    const newest = marks.reduce((a, b) => (older(a.at, b.at) < 0 || (a.at === b.at && b.by === "carrier") ? b : a))
    if (shallow.size > 0 && marks.every((m) => shallow.has(history[m.at].commit))) atBoundary.push(spec.id)
    const reasons: Plan["reasons"] = []
    for (const binding of bindings.get(spec.id) ?? []) {
      if (binding.file === spec.file) continue
      const unseen = (touches.get(binding.file) ?? []).filter((t) => !seen(t.index))
      if (unseen.length === 0) continue
      reasons.push({ binding, touches: unseen })
      if (binding.spec === null) continue
      for (const t of unseen) {
        const key = substanceKey(binding.spec, history[t.index].commit)
        if (questions.has(key)) continue
        const c = history[t.index]
        questions.set(key, {
          spec: binding.spec,
          commit: c.commit,
          parent: c.parents[0] ?? null,
          path: t.change.status === "D" ? null : t.change.path,
          oldPath: t.change.status === "A" || c.parents.length === 0 ? null : (t.change.oldPath ?? t.change.path)
        })
      }
    }
    plans.push({ spec, watermark: { commit: history[newest.at].commit, by: newest.by }, reasons })
  }

  const finish = (substantive: ReadonlySet<string>): DriftRow[] =>
    plans.flatMap((p): DriftRow[] => {
      const reasons = p.reasons
        .map(({ binding, touches: list }): DriftReason => {
          const kept = binding.spec === null ? list : list.filter((t) => substantive.has(substanceKey(binding.spec!, history[t.index].commit)))
          // Oldest first, by generation then id: the same bytes whatever order the log came in.
          const ordered = kept.map((t) => t.index).sort(older)
          return { file: binding.file, via: binding.via, commits: [...new Set(ordered.map((i) => history[i].commit))] }
        })
        .filter((r) => r.commits.length > 0)
        .sort(compareReasons)
      return reasons.length === 0 ? [] : [{ id: p.spec.id, file: p.spec.file, watermark: p.watermark, reasons }]
    })

  return {
    specs: plans.length,
    watched: plans.map((p) => p.spec.id),
    questions: [...questions.values()].sort((a, b) => byCodeUnits(a.spec, b.spec) || byCodeUnits(a.commit, b.commit)),
    finish,
    atBoundary,
    unknownReviews: unknownReviews.sort((a, b) => byCodeUnits(a.id, b.id) || byCodeUnits(a.commit, b.commit))
  }
}

// ---------------------------------------------------------------------------------------------
// Substance: what a Spec says, not how its carrier lays it out

/**
 * A Spec's substance: its parsed value without where things sit (the carrier's path, the id's line,
 * the location table) and with every run of white space in text taken as one space, so moving,
 * re-indenting or re-flowing a carrier is not a change, and any changed word, relation, rung or
 * section entry is. null: the Spec is absent on that side.
 */
export const substanceOf = (spec: SpecNode | undefined): string | null => {
  if (spec === undefined) return null
  const normal = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(/\s+/g, " ").trim()
    if (Array.isArray(value)) return value.map(normal)
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(value).sort(byCodeUnits)) out[key] = normal((value as Record<string, unknown>)[key])
      return out
    }
    return value
  }
  return JSON.stringify(
    normal({
      id: spec.id,
      kind: spec.kind,
      altitude: spec.altitude,
      readiness: spec.readiness,
      title: spec.title,
      narrative: spec.narrative,
      sections: spec.sections,
      relations: spec.relations
    })
  )
}

// ---------------------------------------------------------------------------------------------
// The value every entrance prints

export interface DriftReport {
  /** "HEAD" for the absolute pass, else the changeset as given (A..B, A...B). */
  readonly changeset: string
  readonly root: string
  /** The commit the pass ran at (B for a changeset). */
  readonly commit: string
  /** For a changeset: the commit it is compared with (A, or the merge base for A...B); else null. */
  readonly base: string | null
  /** The reviews file, root-relative. */
  readonly reviews: string
  /** Specs the pass looked at (those with a committed carrier). */
  readonly specs: number
  /** Sorted by id. For a changeset: only Specs clean at the base and drifted at the commit. */
  readonly drifted: ReadonlyArray<DriftRow>
}

/** The rows a changeset introduces: drifted at its tip, clean at its base (by id). */
export const introduced = (atBase: ReadonlyArray<DriftRow>, atTip: ReadonlyArray<DriftRow>): DriftRow[] => {
  const before = new Set(atBase.map((r) => r.id))
  return atTip.filter((r) => !before.has(r.id))
}

/** The accept command for a report's drifted Specs. */
export const acceptCommand = (r: DriftReport): string => `specbundle drift --accept ${r.drifted.map((d) => d.id).join(" ")}`
