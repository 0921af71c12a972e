// The `bundle` handler, loaded when the command runs (bundle.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import type { BudgetExceeded, BundleParams, PartsExceeded } from "../core/bundle/index.js"
import { isBudgetExceeded, isDiagnostics, isPartsExceeded } from "../core/bundle/index.js"
import { numericText, resolveBudget } from "../core/config.js"
import { factsOf } from "../core/facts.js"
import { hasRefusal } from "../core/graph.js"
import type { Graph } from "../core/model.js"
import { resolvePerspective } from "../core/perspective.js"
import { Composer } from "../services/Composer.js"
import type { FileHash } from "../services/GraphReader.js"
import { GraphReader } from "../services/GraphReader.js"
import { repoState } from "../services/gitInfo.js"
import type { BundleArgs } from "./bundle.js"
import type { Diagnostic } from "./diagnostics.js"
import { failWithDiagnostics } from "./diagnostics.js"
import { CliFailure, ExitWith } from "./errors.js"
import { flagExcludes, settledExcludes, warnUnmatched } from "./excludes.js"
import { ServicesLive } from "./live.js"
import type { Manifest, PartRecord } from "./out.js"
import { MANIFEST, ensureDir, graphDigest, partFileName, removeOtherParts, ticket, writeAtomic, writeManifest } from "./out.js"
import { writeErr, writeFindings, writeOut } from "./output.js"
import { withProgress } from "./progress.js"
import { readChangeset } from "./read-changeset.js"
import type { LoadedConfig } from "./settings.js"
import { loadConfig, settingsOf } from "./settings.js"

const list = (value: string): string[] => value.split(",").map((s) => s.trim())
const get = Option.getOrUndefined

/**
 * Problems the composer cannot see: how the command line combines scopes and modes. `perspective`
 * is the flag's or the profile's; beside it a changeset gives the impacted ids, not the scope.
 */
const argumentProblems = (args: BundleArgs, perspective: string | undefined): Diagnostic[] => {
  const problems: Diagnostic[] = [...flagExcludes(args.exclude).diagnostics]
  const changesets = (Option.isSome(args.changeset) ? 1 : 0) + (args.staged ? 1 : 0)
  if (changesets > 1) problems.push({ scope: "changeset", problem: "Give --changeset or --staged, not both." })
  if (changesets > 0 && (Option.isSome(args.specs) || (Option.isSome(args.pack) && perspective === undefined))) {
    problems.push({ scope: "scope", problem: "Give one scope: --pack, --specs, or a changeset (--changeset / --staged)." })
  }
  if (perspective !== undefined) {
    if (Option.isSome(args.specs)) problems.push({ scope: "perspective", problem: "A perspective filters a Pack's members; it is not taken with --specs." })
    else if (Option.isNone(args.pack)) problems.push({ scope: "perspective", problem: "A perspective filters a Pack's members: give --pack." })
    if (Option.isSome(args.members)) problems.push({ scope: "perspective", problem: "A perspective chooses the members: give --perspective or --members, not both." })
  }
  if (args.parts && Option.isSome(args.part)) problems.push({ scope: "part", problem: "Give --part K or --parts, not both." })
  return problems
}

export interface Loaded {
  readonly graph: Graph
  readonly files: ReadonlyArray<FileHash>
  readonly params: BundleParams
  readonly exclude: ReadonlyArray<string>
  readonly configPath: string | null
  /** The commit whose tree the graph was read from (`A..B` not checked out), else null: ask the work tree. */
  readonly builtFromCommit: string | null
}

/** Validates the arguments, loads config and the graph, and builds the composer's parameters. */
export const loadBundleInput = (args: BundleArgs) =>
  Effect.gen(function* () {
    const loaded = yield* loadConfig(args)
    const settings = yield* settingsOf(loaded, get(args.profile), {
      exclude: flagExcludes(args.exclude).paths,
      budget: get(args.budget),
      declarations: get(args.declarations),
      perspective: get(args.perspective)
    }).pipe(Effect.catchAll((e) => failWithDiagnostics([{ scope: "profile", problem: e.line }])))
    const problems = argumentProblems(args, settings.perspective)
    if (problems.length > 0) return yield* failWithDiagnostics(problems)
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const base: BundleParams = {
      budget: resolveBudget(settings.budget, settings.tiers),
      ...(settings.declarations === undefined ? {} : { declarations: settings.declarations }),
      ...(Option.isSome(args.part) ? { part: numericText(args.part.value) } : {})
    }
    if (Option.isSome(args.changeset) || args.staged) {
      const { graph, files, specs, label, builtFromCommit } = yield* readChangeset(args, exclude)
      yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
      yield* warnUnmatched(exclude, args.root, args.quiet)
      const scope = settings.perspective === undefined ? { specs, changeset: label } : yield* chosen(graph, args, settings.perspective, loaded, specs, label)
      const params: BundleParams = { ...base, ...scope }
      return { graph, files, params, exclude, configPath: loaded.path, builtFromCommit } satisfies Loaded
    }
    const reader = yield* GraphReader
    const { graph, files } = yield* withProgress(reader.readTree({ root: args.root, exclude }), `reading ${args.root}`, args.quiet).pipe(
      Effect.mapError((e) => new CliFailure({ line: e.message }))
    )
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(exclude, args.root, args.quiet)
    if (settings.perspective !== undefined) {
      const scope = yield* chosen(graph, args, settings.perspective, loaded)
      return { graph, files, params: { ...base, ...scope }, exclude, configPath: loaded.path, builtFromCommit: null } satisfies Loaded
    }
    const params: BundleParams = {
      ...base,
      ...(Option.isSome(args.pack) ? { pack: args.pack.value } : {}),
      ...(Option.isSome(args.members) ? { members: list(args.members.value) } : {}),
      ...(Option.isSome(args.specs) ? { specs: list(args.specs.value) } : {})
    }
    return { graph, files, params, exclude, configPath: loaded.path, builtFromCommit: null } satisfies Loaded
  })

const show = (compact: string, format: BundleArgs["format"]): string =>
  format === "pretty" ? JSON.stringify(JSON.parse(compact), null, 2) + "\n" : compact + "\n"

/** Writes the parts and the manifest into `dir`; the previous set stays whole until each rename. */
export const writeOutDir = (dir: string, args: BundleArgs, input: Loaded, texts: Stream.Stream<{ text: string; used: number | null }, never>) =>
  Effect.gen(function* () {
    yield* ensureDir(dir)
    const records: PartRecord[] = []
    // `--part K` writes part-00K.json: the part's own number (bundle-contract.md section 3).
    const first = typeof input.params.part === "number" ? input.params.part : 1
    yield* Stream.runForEach(texts, ({ text, used }) => {
      const file = partFileName(first + records.length)
      const bytes = text + "\n"
      records.push({ file, hash: ticket(bytes), used })
      return writeAtomic(dir, file, bytes)
    })
    const state = input.builtFromCommit !== null ? { commit: input.builtFromCommit, dirty: false } : yield* repoState(nodePath.resolve(args.root))
    const manifest: Manifest = {
      scope: scopeOf(input.params),
      budget: input.params.budget ?? null,
      declarations: input.params.declarations ?? "whole",
      parts: records,
      builtFrom: {
        root: nodePath.resolve(args.root),
        exclude: input.exclude,
        config: input.configPath,
        commit: state.commit,
        dirty: state.dirty,
        graphDigest: graphDigest(input.files),
        files: input.files
      }
    }
    yield* writeManifest(dir, manifest)
    yield* removeOtherParts(dir, records.map((r) => r.file))
    if (!args.quiet) yield* writeErr(`wrote ${records.length} part file(s) and ${MANIFEST} to ${dir}`)
    return records.length
  })

const scopeOf = (params: BundleParams): unknown => {
  if (params.pack !== undefined) {
    if (params.members === undefined) return { pack: params.pack }
    if (params.perspective === undefined) return { pack: params.pack, members: params.members }
    const changeset = params.changeset === undefined ? {} : { changeset: params.changeset }
    return { pack: params.pack, members: params.members, perspective: params.perspective, ...changeset }
  }
  return params.changeset !== undefined ? { specs: params.specs, changeset: params.changeset } : { specs: params.specs }
}

/** The members a perspective chooses (src/core/perspective.ts), as the bundle's Pack scope. */
const chosen = (graph: Graph, args: BundleArgs, perspective: string, loaded: LoadedConfig, impacted?: ReadonlyArray<string>, changeset?: string) => {
  const selection = resolvePerspective(factsOf(graph), {
    pack: get(args.pack),
    perspective,
    perspectives: loaded.config?.perspectives,
    ...(impacted === undefined ? {} : { impacted }),
    ...(changeset === undefined ? {} : { changeset })
  })
  return isDiagnostics(selection) ? failWithDiagnostics(selection.diagnostics) : Effect.succeed(selection)
}

/**
 * The one stderr line beside a budgetExceeded value (a value, exit 0): what would fit, so an agent
 * loop is not handed an empty context in silence (bundle-contract.md section 1).
 */
export const exceededLine = (value: BudgetExceeded | PartsExceeded): string => {
  if ("oversized" in value) {
    const largest = value.oversized.reduce((m, o) => (o.length > m.length ? o : m), value.oversized[0])
    return `specbundle: budgetExceeded: ${largest.item} alone needs ${largest.length} code units, over --budget ${value.budget} for one part; --budget ${fittingBudget(largest.length, value.budget)} or more fits`
  }
  // protectedLength is already the least budget that returns a bundle (contract section 2).
  return `specbundle: budgetExceeded: the fully cut bundle needs ${value.protectedLength} code units, over --budget ${value.budget}; --budget ${value.protectedLength} or more fits, or --parts splits it`
}

/**
 * The least budget a value measured at `length` under `budget` fits: the value quotes its own
 * budget, so its length moves with the budget's digits (a fixed point, reached in a step or two).
 */
export const fittingBudget = (length: number, budget: number): number => {
  let n = length
  for (let i = 0; i < 4; i++) n = length - String(budget).length + String(n).length
  return n
}

/**
 * Composes and writes; the exit code follows the result (2 diagnostics, 1 with --strict and a refusal).
 * Succeeds with the number of parts written (1 for a single value).
 */
export const composeAndWrite = (args: BundleArgs, input: Loaded) =>
  Effect.gen(function* () {
    const composer = yield* Composer
    const out = get(args.out)
    let count = 1
    let exceeded = false
    if (args.parts) {
      const outcome = yield* composer.parts(input.graph, input.params)
      if (outcome._tag === "Diagnostics") return yield* failWithDiagnostics(outcome.value.diagnostics)
      if (outcome._tag === "Oversized") yield* writeErr(exceededLine(outcome.value))
      exceeded = outcome._tag === "Oversized"
      const texts: Stream.Stream<{ text: string; used: number | null }> =
        outcome._tag === "Oversized" ? Stream.make({ text: outcome.text, used: null }) : outcome.parts
      if (out !== undefined) count = yield* writeOutDir(out, args, input, texts)
      else {
        count = 0
        yield* Stream.runForEach(texts, ({ text }) => {
          count += 1
          return writeOut(show(text, args.format))
        })
      }
    } else {
      const { value, text } = yield* composer.compose(input.graph, input.params)
      if (isDiagnostics(value)) return yield* failWithDiagnostics(value.diagnostics)
      if (isBudgetExceeded(value) || isPartsExceeded(value)) {
        exceeded = true
        yield* writeErr(exceededLine(value))
      }
      const used = "used" in value ? (value.used as number) : null
      if (out !== undefined) yield* writeOutDir(out, args, input, Stream.make({ text, used }))
      else yield* writeOut(show(text, args.format))
    }
    if (args.strict && hasRefusal(input.graph)) return yield* new ExitWith({ code: 1 })
    // 3, not 1: a gate can tell "did not fit" from "failed"; the value is already written.
    if (exceeded && args.failOnExceeded === true) {
      yield* writeErr(`the bundle did not fit the budget (${input.params.budget ?? "default"}): budgetExceeded, exit 3 (--fail-on-exceeded)`)
      return yield* new ExitWith({ code: 3 })
    }
    return count
  })

export const runBundle = (args: BundleArgs) =>
  loadBundleInput(args).pipe(
    Effect.flatMap((input) => composeAndWrite(args, input)),
    Effect.asVoid,
    Effect.withSpan("bundle"),
    Effect.provide(ServicesLive)
  )
