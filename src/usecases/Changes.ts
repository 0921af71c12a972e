// The impact use case: a changeset (as text, or the staged changes) over a root in, the impact
// report and the new graph out. It also gives the bundle use case its scope: the impacted Spec ids
// the graph holds. Runs the Impact service; a malformed revision is a parameter problem.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as nodePath from "node:path"
import type { Changeset } from "../core/changes/changeset.js"
import { changedPaths, changesetText } from "../core/changes/changeset.js"
import type { ImpactReport } from "../core/changes/impact.js"
import type { Graph } from "../core/model.js"
import { linkBaseProblem } from "../core/render/impact-markdown.js"
import { decodeChangeset } from "../services/GitDiff.js"
import type { DiffResult } from "../services/GitDiff.js"
import type { FileHash, HashOption } from "../services/GraphReader.js"
import { rootFolder } from "../services/GraphReader.js"
import { requestExcludes, settledExcludes } from "./excludes.js"
import { Impact } from "../services/Impact.js"
import { Drift } from "./Drift.js"
import type { ChangesetRequest, Diagnostic, ImpactRequest } from "./requests.js"
import { type ParameterProblems, problems } from "./requests.js"
import { loadConfig, settingsOf } from "./settings.js"
import { FIELD_NAMES, FieldSpelling, type Spelling } from "./spelling.js"

export interface ChangesetImpact {
  readonly report: ImpactReport
  /** The new graph (its findings are the caller's to show). */
  readonly graph: Graph
  /** Every file the reader used (root-relative path, SHA-256), sorted: listed when first called (an impact report never calls it). */
  readonly files: () => ReadonlyArray<FileHash>
  /** The changeset as the caller gave it ("--staged" for the staged changes). */
  readonly label: string
  readonly diff: DiffResult
  /** The excludes that left some path out (the rest match nothing: worth a warning). */
  readonly excluded: ReadonlySet<string>
}

export interface ChangesetScope {
  readonly graph: Graph
  /** Every file the reader used (root-relative path, SHA-256), sorted: listed when first called (an impact report never calls it). */
  readonly files: () => ReadonlyArray<FileHash>
  /** Impacted Spec ids the graph holds, in the report's (id) order. */
  readonly specs: ReadonlyArray<string>
  /** Impacted ids the graph does not hold (a dangling binding, a refused carrier): left out of the scope. */
  readonly dangling: ReadonlyArray<string>
  readonly label: string
  /** The commit whose tree the graph was read from (`A..B` not checked out), else null: the work tree. */
  readonly builtFromCommit: string | null
  /** The commit the old side resolved to (null: --staged before the first commit). */
  readonly base: string | null
  /** The excludes that left some path out. */
  readonly excluded: ReadonlySet<string>
}

/** A changeset as a request names it: REV or a range, the staged changes, or (impact) the changed paths. */
type ChangeRequest = ChangesetRequest & { readonly paths?: ReadonlyArray<string> | undefined }

/** The paths of a request, normalized, or the problem of the first one refused (under the paths field: the CLI's --paths-from, the MCP tool's `paths`). */
const pathsOf = (paths: ReadonlyArray<string>, spell: Spelling): { paths: string[] } | Diagnostic => {
  const checked = changedPaths(paths)
  return "problem" in checked ? { scope: spell.name("paths"), problem: checked.problem } : checked
}

const decode = (request: ChangeRequest, spell: Spelling): Effect.Effect<Changeset, ParameterProblems> => {
  if (request.paths !== undefined) {
    const checked = pathsOf(request.paths, spell)
    return "problem" in checked ? Effect.fail(problems([checked])) : Effect.succeed({ _tag: "Paths", paths: checked.paths } as const)
  }
  return request.staged === true
    ? Effect.succeed({ _tag: "Staged" } as const)
    : decodeChangeset(request.changeset ?? "").pipe(Effect.mapError((e) => problems([{ scope: spell.name("changeset"), problem: e.message }])))
}

/**
 * What is wrong with an impact request before anything is read: its excludes, its changeset count,
 * its link base (an http(s) URL, with markdown: the rule lives here once for every entrance).
 * Fields are named as `spell` names them (src/usecases/spelling.ts).
 */
export const impactProblems = (request: ImpactRequest, spell: Spelling = FIELD_NAMES): Diagnostic[] => {
  const c = spell.cite
  const found: Diagnostic[] = [...requestExcludes(request.exclude ?? [], spell).diagnostics]
  const given = [request.changeset !== undefined, request.staged === true, request.paths !== undefined].filter(Boolean).length
  if (given !== 1) {
    found.push({ scope: spell.name("changeset"), problem: `Give exactly one of ${c("changeset")} REV|A..B|A...B, ${c("staged")} or ${c("paths")} FILE|-.` })
  }
  if (request.paths !== undefined) {
    const checked = pathsOf(request.paths, spell)
    if ("problem" in checked) found.push(checked)
    // Drift is measured over commits; a list of paths names none.
    if (request.drift === true)
      found.push({ scope: spell.name("drift"), problem: `${c("drift")} goes with ${c("changeset")} or ${c("staged")}, not ${c("paths")}.` })
  }
  if (request.linkBase !== undefined) {
    const scope = spell.name("linkBase")
    // A library request that renders nothing gives no format: its link base is only checked.
    if (request.format !== undefined && request.format !== "markdown") found.push({ scope, problem: `${c("linkBase")} goes with ${c("format")} markdown.` })
    else {
      const problem = linkBaseProblem(request.linkBase, c("linkBase"))
      if (problem !== null) found.push({ scope, problem })
    }
  }
  return found
}

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const impact = yield* Impact
  const drift = yield* Drift
  const fs = yield* FileSystem.FileSystem

  /** The changeset's impact under settled excludes (no configuration read here). */
  const run = Effect.fn("Changes.run")(function* (root: string, request: ChangeRequest, exclude: ReadonlyArray<string>, read: HashOption = {}) {
    const spell = yield* FieldSpelling
    const changeset = yield* decode(request, spell)
    // A missing root is the corpus read's ReadError, as a bundle request's, never git's.
    yield* rootFolder(fs, nodePath.resolve(root))
    const label = request.staged === true ? "--staged" : (request.changeset ?? changesetText(changeset))
    const result = yield* impact
      .run({ root, changeset, exclude, label, ...read })
      // A malformed revision is a wrong parameter; git's own failures keep their tags.
      .pipe(Effect.catchTag("InvalidRevisionError", (e) => Effect.fail(problems([{ scope: spell.name("changeset"), problem: e.message }]))))
    return { ...result, label } satisfies ChangesetImpact
  })

  /**
   * The impact report use case: checks the request, reads the configuration's excludes, runs.
   * `read.hashes: false` when the caller will not list the files (the CLI's report).
   */
  const report = Effect.fn("Changes.report")(function* (request: ImpactRequest, read: HashOption = {}) {
    const found = impactProblems(request, yield* FieldSpelling)
    if (found.length > 0) return yield* problems(found)
    const flags = requestExcludes(request.exclude ?? [])
    const loaded = yield* loadConfig(request).pipe(Effect.provideService(FileSystem.FileSystem, fs))
    const settings = yield* settingsOf(loaded, undefined, { exclude: flags.paths })
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const result = yield* run(request.root, request, exclude, read)
    if (request.drift !== true) return { ...result, exclude, driftNotes: [] as ReadonlyArray<string> }
    // The drift section, last in the report (a report without it keeps its bytes).
    const section = yield* drift.section(request)
    return { ...result, report: { ...result.report, drift: section.report }, exclude, driftNotes: section.notes }
  })

  /** A bundle's scope from a changeset: "a changeset's impacted Spec ids fill the specs scope". */
  const scope = Effect.fn("Changes.scope")(function* (root: string, request: ChangesetRequest, exclude: ReadonlyArray<string>, read: HashOption = {}) {
    const { report, graph, files, label, diff, excluded } = yield* run(root, request, exclude, read)
    const ids = report.impactedSpecs.map((r) => r.id)
    return {
      graph,
      files,
      specs: ids.filter((id) => graph.specs.has(id)),
      dangling: ids.filter((id) => !graph.specs.has(id)),
      label,
      builtFromCommit: diff.newSource._tag === "Tree" ? diff.newSource.commit : null,
      base: diff.oldCommit,
      excluded
    } satisfies ChangesetScope
  })

  return { report, scope, run } as const
})

export class Changes extends Context.Service<Changes, Effect.Success<typeof make>>()("specbundle/Changes") {
  /** The service from its parts, for a double in a test or a program (what `Layer.succeed(Changes, …)` takes). */
  static readonly make = (service: Changes["Service"]): Changes["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Changes, never, FileSystem.FileSystem | Impact | Drift> = Layer.effect(this, make)
  /** The live service with everything under it but a FileSystem and the runtime (WorkerPool, ParseCache: src/node/runtime.ts). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(Layer.mergeAll(Impact.Default, Drift.Default)))
}
