// The drift use case (issue 51): which Specs drifted from the code and Specs they are bound to since
// their watermark, absolutely (HEAD's history, the work tree's graph and reviews file) or as a
// changeset introduces it (A..B, A...B: drifted at B and clean at A or the merge base); and the
// accept that records "read and found right at HEAD" in the reviews file.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as nodePath from "node:path"
import { parseChangeset } from "../core/changes/changeset.js"
import type { DriftReport } from "../core/changes/drift.js"
import { REVIEWS_FILE, formatReviews, generationsOf, introduced } from "../core/changes/drift.js"
import type { Finding } from "../core/model.js"
import { byCodeUnits } from "../core/model.js"
import { counted } from "../core/plural.js"
import { DRIFT_FORMATS } from "../core/render/drift.js"
import { rootLabel } from "../services/Impact.js"
import type { PassResult } from "../services/DriftPass.js"
import { DriftPass, STAGED } from "../services/DriftPass.js"
import { requestExcludes, settledExcludes } from "./excludes.js"
import { choice, text, texts, toggle } from "./fields.js"
import type { Diagnostic } from "./requests.js"
import { DriftFailure, corpusFields, problems } from "./requests.js"
import { FIELD_NAMES, FieldSpelling, type Spelling } from "./spelling.js"
import { loadConfig, settingsOf } from "./settings.js"

/** A drift request: the corpus, an optional changeset (A..B or A...B), an accept, the format. */
export const DriftRequest = Schema.Struct({
  ...corpusFields,
  changeset: text({
    description: "Only the drift a range introduces: A..B or A...B.",
    help: "Report only the drift this range introduces: A..B (Specs clean at A and drifted at B) or A...B (clean at the merge base of A and B).",
    value: "A...B"
  }),
  accept: toggle({
    description: "Record the listed Specs (specs) or, with all, every Spec as reviewed at HEAD in the reviews file at the root.",
    help: `Record the Specs named after the flags (or, with --all, every Spec) as read and found right at HEAD, in ${REVIEWS_FILE} at the root; commit that file.`,
    // The MCP server is read-only: the drift tool reports, the CLI records reviews.
    mcp: false
  }),
  all: toggle({
    description: "With accept: every Spec whose carrier is committed (a baseline).",
    help: "With --accept: every Spec whose carrier is committed, drifted or not (a baseline).",
    mcp: false
  }),
  specs: texts({
    description: "With accept: the Spec ids to record.",
    help: "With --accept: the Spec ids to record, comma-separated.",
    value: "ID,...",
    list: "comma",
    mcp: false
  }),
  format: choice(DRIFT_FORMATS, {
    description: "json (default), text, markdown, github or gitlab: as drift --format prints it.",
    help: "json: compact JSON on one line; text: for people; markdown: a pull-request comment; github: workflow annotations; gitlab: a GitLab Code Quality report.",
    default: "json"
  })
})
export type DriftRequest = typeof DriftRequest.Type

export interface DriftResult {
  readonly report: DriftReport
  /** The findings of the graph at the pass's tip (the caller's to show). */
  readonly findings: ReadonlyArray<Finding>
  /** Lines worth a warning on stderr: a shallow clone's history, records naming unknown commits, lines of the file that are no record. */
  readonly notes: ReadonlyArray<string>
  /** With accept: the ids recorded and the commit. */
  readonly accepted: { readonly ids: ReadonlyArray<string>; readonly commit: string } | null
  readonly exclude: ReadonlyArray<string>
  readonly excluded: ReadonlySet<string>
}

/** What is wrong with a drift request before anything is read, each field named as `spell` names it (src/usecases/spelling.ts). */
export const driftProblems = (request: DriftRequest, spell: Spelling = FIELD_NAMES): Diagnostic[] => {
  const found: Diagnostic[] = [...requestExcludes(request.exclude ?? []).diagnostics]
  const ids = request.specs ?? []
  const [changeset, accept, all] = [spell.name("changeset"), spell.name("accept"), spell.cite("all")]
  const c = spell.cite
  if (request.changeset !== undefined) {
    const parsed = parseChangeset(request.changeset)
    if (Result.isFailure(parsed)) found.push({ scope: changeset, problem: parsed.failure.problem })
    else if (parsed.success._tag !== "Range" && parsed.success._tag !== "MergeBase")
      found.push({ scope: changeset, problem: `drift ${c("changeset")} takes a range, A..B or A...B (the drift it introduces).` })
    if (request.accept === true) found.push({ scope: accept, problem: `${c("accept")} records reviews at HEAD; it does not go with ${c("changeset")}.` })
  }
  if (request.accept === true && request.all !== true && ids.length === 0)
    found.push({ scope: accept, problem: `${c("accept")} needs the Spec ids to record, or ${all} for every Spec.` })
  if (request.accept === true && request.all === true && ids.length > 0) found.push({ scope: accept, problem: `Give Spec ids or ${all}, not both.` })
  if (request.accept !== true && (request.all === true || ids.length > 0)) found.push({ scope: accept, problem: `Spec ids and ${all} go with ${c("accept")}.` })
  for (const id of ids) if (id === "") found.push({ scope: accept, problem: "An empty Spec id." })
  return found
}

const short = (commit: string) => commit.slice(0, 12)

/** The stderr notes of a pass. */
const notesOf = (pass: PassResult, label: string): string[] => {
  const notes: string[] = []
  if (pass.atBoundary.length > 0)
    notes.push(
      `${label}: shallow clone: the history stops after ${counted(pass.commits, "commit")}; the watermark of ${counted(pass.atBoundary.length, "Spec")} is its oldest commit, which may be later than their last change (git fetch --unshallow for exact drift)`
    )
  if (pass.unknownReviews.length > 0)
    notes.push(
      `${REVIEWS_FILE}: ${counted(pass.unknownReviews.length, "record")} name${pass.unknownReviews.length === 1 ? "s" : ""} a commit ${label} does not reach (rebased or squashed away, or beyond a shallow clone): ${pass.unknownReviews.map((u) => `${u.id} ${short(u.commit)}`).join(", ")}; accept again after reading`
    )
  for (const p of pass.reviewProblems) notes.push(`${REVIEWS_FILE}:${p.line}: ${p.problem}`)
  return notes
}

const make = Effect.gen(function* () {
  const drift = yield* DriftPass
  const fs = yield* FileSystem.FileSystem

  /** What a run and the staged section both start from: the settled excludes and where the root sits in git. */
  const settle = Effect.fnUntraced(function* (request: Pick<DriftRequest, "root" | "exclude" | "config">) {
    const flags = requestExcludes(request.exclude ?? [])
    const loaded = yield* loadConfig(request).pipe(Effect.provideService(FileSystem.FileSystem, fs))
    const settings = yield* settingsOf(loaded, undefined, { exclude: flags.paths })
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const location = yield* drift.locate(request.root)
    return { exclude, location, root: rootLabel(location) }
  })

  const run = Effect.fn("Drift.run")(function* (request: DriftRequest) {
    const found = driftProblems(request, yield* FieldSpelling)
    if (found.length > 0) return yield* problems(found)
    const { exclude, location, root } = yield* settle(request)

    if (request.changeset !== undefined) {
      const parsed = parseChangeset(request.changeset)
      if (Result.isFailure(parsed) || (parsed.success._tag !== "Range" && parsed.success._tag !== "MergeBase")) return yield* problems(found)
      const cs = parsed.success
      const a = yield* drift.resolve(location.top, cs.from)
      const b = yield* drift.resolve(location.top, cs.to)
      const base = cs._tag === "MergeBase" ? yield* drift.mergeBase(location.top, a, b, request.changeset) : a
      const shallow = yield* drift.shallowOf(location.top)
      // Both ends are commits: the same request over the same commits gives the same result, kept
      // (with the loader's cache) so that a re-run (a pre-push hook over an unchanged range) makes
      // no pass over history and reads no tree.
      const key = JSON.stringify([request.changeset, a, b, base, exclude, [...shallow].sort()])
      const kept = drift.keptResult(location, key) as
        | { readonly report: DriftReport; readonly notes: string[]; readonly findings: Finding[]; readonly excluded: string[] }
        | undefined
      if (kept !== undefined) return { ...kept, excluded: new Set(kept.excluded), accepted: null, exclude } satisfies DriftResult
      const log = yield* drift.history(location, b, shallow)
      // A..B with A off B's line: A's own history (a second pass).
      const baseLog = log.some((c) => c.commit === base) ? drift.below(log, base) : yield* drift.history(location, base, shallow)
      const atBase = yield* drift.passAt(location, { _tag: "Commit", commit: base, side: "base" }, base, baseLog, exclude, shallow)
      const atTip = yield* drift.passAt(location, { _tag: "Commit", commit: b }, b, log, exclude, shallow)
      const report: DriftReport = {
        changeset: request.changeset,
        root,
        commit: b,
        base,
        reviews: REVIEWS_FILE,
        specs: atTip.specs,
        drifted: introduced(atBase.rows, atTip.rows)
      }
      const excluded = new Set([...atBase.excluded, ...atTip.excluded])
      const notes = notesOf(atTip, cs.to)
      drift.keepResult(location, key, { report, notes, findings: atTip.graph.findings, excluded: [...excluded].sort(byCodeUnits) })
      return { report, findings: atTip.graph.findings, notes, accepted: null, exclude, excluded } satisfies DriftResult
    }

    const head = yield* drift
      .resolve(location.top, "HEAD")
      .pipe(Effect.catchTag("UnknownRevisionError", () => Effect.fail(new DriftFailure({ trouble: { _tag: "Unborn", top: location.top } }))))
    const shallow = yield* drift.shallowOf(location.top)
    const log = yield* drift.history(location, head, shallow)
    let pass: PassResult = yield* drift.passAt(location, { _tag: "WorkTree" }, head, log, exclude, shallow)
    let accepted: DriftResult["accepted"] = null
    if (request.accept === true) {
      // --all: a baseline, every Spec the pass looked at; a file holding every Spec changes only
      // in place afterwards, which two branches merge without a conflict unless they accept the same Spec.
      const ids = request.all === true ? pass.watched : [...new Set(request.specs ?? [])]
      const unknown = ids.filter((id) => !pass.graph.specs.has(id))
      if (unknown.length > 0)
        return yield* problems(unknown.map((id) => ({ scope: "accept", problem: `${id}: no such Spec in the corpus (specbundle list specs names them).` })))
      // Every other record kept (a merge's two commits for one Spec: the newer of those HEAD reaches).
      const gen = generationsOf(log)
      const generation = new Map(log.map((c, i) => [c.commit, gen[i]]))
      const later = (x: string, y: string) => (generation.get(y) ?? -1) - (generation.get(x) ?? -1) || byCodeUnits(y, x)
      const records = new Map<string, string>()
      for (const [id, commits] of pass.reviews) records.set(id, [...commits].sort(later)[0])
      for (const id of ids) records.set(id, head)
      const text = formatReviews(records)
      const path = nodePath.join(location.root, REVIEWS_FILE)
      if (ids.length > 0 && text !== pass.reviewsText)
        yield* fs.writeFileString(path, text).pipe(Effect.mapError((e) => new DriftFailure({ trouble: { _tag: "Unwritable", path, problem: e.message } })))
      const after = yield* drift.evaluate(location, pass.graph, log, ids.length > 0 ? text : pass.reviewsText, shallow)
      pass = { ...pass, ...after }
      accepted = { ids: [...ids].sort(byCodeUnits), commit: head }
    }
    const report: DriftReport = { changeset: "HEAD", root, commit: head, base: null, reviews: REVIEWS_FILE, specs: pass.specs, drifted: pass.rows }
    return { report, findings: pass.graph.findings, notes: notesOf(pass, "HEAD"), accepted, exclude, excluded: pass.excluded } satisfies DriftResult
  })

  /**
   * The drift the staged change would introduce: Specs clean at HEAD and drifted at the commit the
   * index would make (STAGED, HEAD its parent; its reviews file the index's). Before the first
   * commit there is no history: nothing drifted.
   */
  const staged = Effect.fn("Drift.staged")(function* (request: Pick<DriftRequest, "root" | "exclude" | "config">) {
    const { exclude, location, root } = yield* settle(request)
    const head = yield* drift.resolve(location.top, "HEAD").pipe(Effect.catchTag("UnknownRevisionError", () => Effect.succeed(null)))
    const empty: DriftReport = { changeset: "--staged", root, commit: STAGED, base: head, reviews: REVIEWS_FILE, specs: 0, drifted: [] }
    if (head === null) return { report: empty, notes: [] as string[] }
    const shallow = yield* drift.shallowOf(location.top)
    const log = yield* drift.history(location, head, shallow)
    const atHead = yield* drift.passAt(location, { _tag: "Commit", commit: head, side: "base" }, head, log, exclude, shallow)
    const commit = yield* drift.stagedCommit(location, head)
    const atIndex = yield* drift.passAt(location, { _tag: "Index" }, STAGED, [commit, ...log], exclude, shallow)
    const report: DriftReport = { ...empty, specs: atIndex.specs, drifted: introduced(atHead.rows, atIndex.rows) }
    return { report, notes: notesOf(atIndex, "HEAD") }
  })

  // A malformed revision is a wrong parameter, as for impact (Changes.ts); git's own failures keep their tags.
  const invalid = (e: { readonly message: string }) =>
    Effect.gen(function* () {
      const spell = yield* FieldSpelling
      return yield* problems([{ scope: spell.name("changeset"), problem: e.message }])
    })

  /**
   * The drift section of an impact report (issue 51): for a range A..B or A...B the drift it
   * introduces (as `drift --changeset`); for REV against the work tree, the drift of REV..HEAD
   * (uncommitted edits are no history yet); for the staged changes, the drift their commit would
   * introduce over HEAD.
   */
  const section = (request: Pick<DriftRequest, "root" | "exclude" | "config"> & { readonly changeset?: string; readonly staged?: boolean }) =>
    Effect.gen(function* () {
      if (request.staged === true) return yield* staged(request)
      const given = request.changeset ?? "HEAD"
      const parsed = parseChangeset(given)
      const range = Result.isSuccess(parsed) && (parsed.success._tag === "Range" || parsed.success._tag === "MergeBase") ? given : `${given}..HEAD`
      const result = yield* run({ root: request.root, exclude: request.exclude, config: request.config, changeset: range, format: "json" })
      return { report: result.report, notes: result.notes }
    })

  return {
    run: (request: DriftRequest) => run(request).pipe(Effect.catchTag("InvalidRevisionError", invalid)),
    section: (request: Parameters<typeof section>[0]) => section(request).pipe(Effect.catchTag("InvalidRevisionError", invalid))
  } as const
})

export class Drift extends Context.Service<Drift, Effect.Success<typeof make>>()("specbundle/Drift") {
  /** The service from its parts, for a double in a test or a program. */
  static readonly make = (service: Drift["Service"]): Drift["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Drift, never, FileSystem.FileSystem | DriftPass> = Layer.effect(this, make)
  /** The live service with everything under it but a FileSystem and the runtime (WorkerPool, ParseCache). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(DriftPass.Default))
}
