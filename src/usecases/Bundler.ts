// The bundle use case: a BundleRequest in; the graph read, the scope settled (a changeset's
// impacted Spec ids fill `specs` here), the composed value or a Stream of parts out, and the
// manifest of a written set. Diagnostics are a typed failure; findings stay on the graph as data.
// Nothing here writes to stdout or stderr: the entrances render.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import type { BundleParams, BundleResult, PartsExceeded } from "../core/bundle/index.js"
import { isDiagnostics } from "../core/bundle/index.js"
import { budgetTierProblem, numericText, resolveBudget } from "../core/config.js"
import type { ManifestDraft, PartRecord } from "../core/manifest.js"
import { graphDigest } from "../core/manifest.js"
import { factsOf } from "../core/graph/facts.js"
import type { Graph } from "../core/model.js"
import { perspectiveNames, resolvePerspective } from "../core/graph/perspective.js"
import { type CountTokens, type Encoding, type TokenFit, budgetTokensProblems, fitTokenBudget } from "../core/tokens.js"
import { loadTokenizer } from "../node/tokenizer.js"
import { Changes } from "./Changes.js"
import { Composer } from "../services/Composer.js"
import { settledExcludes, requestExcludes } from "./excludes.js"
import { GitDiff } from "../services/GitDiff.js"
import type { FileHash, HashOption } from "../services/GraphReader.js"
import { GraphReader } from "../services/GraphReader.js"
import type { BundleRequest, Diagnostic, MembersRequest } from "./requests.js"
import { type ParameterProblems, problems } from "./requests.js"
import { loadConfig, settingsOf } from "./settings.js"
import { FIELD_NAMES, FieldSpelling, type Spelling } from "./spelling.js"

/** A request with its graph read and its parameters settled: what compose, parts and manifest take. */
export interface PreparedBundle {
  /** The root, absolute. */
  readonly root: string
  readonly graph: Graph
  /** Every file the reader used (root-relative path, SHA-256), sorted: listed when first called (an impact report never calls it). */
  readonly files: () => ReadonlyArray<FileHash>
  /** The composer's parameters (the scope, budget, declarations, part). */
  readonly params: BundleParams
  /** The scope as the manifest records it. */
  readonly scope: unknown
  /** The excludes used: the request's and the configuration's. */
  readonly exclude: ReadonlyArray<string>
  /** Those that left some path out (the rest match nothing: worth a warning). */
  readonly excluded: ReadonlySet<string>
  readonly configPath: string | null
  /** The commit whose tree the graph was read from (`A..B` not checked out), else null: the work tree. */
  readonly builtFromCommit: string | null
  /** A changeset bundle's old side: the commit it resolved to (null: none yet); undefined for a Pack or Specs scope. */
  readonly base?: string | null
  /** Impacted ids the graph does not hold, left out of a changeset's scope (worth a warning). */
  readonly dangling: ReadonlyArray<string>
}

/** A perspective's members (`Bundler.members`): the selection as `perspective --format json` prints it, and the graph read. */
export interface PerspectiveMembers {
  readonly graph: Graph
  readonly selection: { readonly pack: string; readonly members: ReadonlyArray<string>; readonly perspective: string; readonly changeset?: string }
}

/** What `Bundler.tokens` reads: the token fields, and whether a code-unit budget was given too. */
export interface TokensRequest {
  readonly tokens?: Encoding | undefined
  readonly budgetTokens?: string | number | undefined
  readonly budget?: string | number | undefined
}

/** An encoding's counter and the token target (`budgetTokens`), when one was given. */
export interface TokenCounter {
  readonly encoding: Encoding
  readonly count: CountTokens
  readonly target: number | undefined
}

/** A prepared request at the budget a token target translates to, and the fit found (null: no target, or nothing to fit). */
export interface FittedBundle {
  readonly prepared: PreparedBundle
  readonly fit: TokenFit | null
}

/** One value: the bundle, a part, or budgetExceeded, and its compact JSON text (what the budget measured). */
export interface BundleValue {
  readonly value: BundleResult
  readonly text: string
}

/** A part's compact text; `used` is null for the oversized value that stands in for the parts. */
export interface PartText {
  readonly text: string
  readonly used: number | null
}

export const partText = (part: BundlePart): PartText => ({ text: part.text, used: part._tag === "Part" ? part.used : null })

/**
 * One element of `Bundler.parts`: a part of the split bundle (its compact JSON text, 1-based index,
 * the count and its `used`), or, when no split fits the budget, the one budgetExceeded value.
 */
export type BundlePart =
  | { readonly _tag: "Part"; readonly index: number; readonly of: number; readonly used: number; readonly text: string }
  | { readonly _tag: "Exceeded"; readonly value: PartsExceeded; readonly text: string }

/**
 * Problems the composer cannot see: how a request combines scopes and modes. `perspective` is the
 * request's or the profile's; beside it a changeset gives the impacted ids, not the scope. Fields
 * are named as `spell` names them (src/usecases/spelling.ts: the CLI's flags, the MCP tool's
 * parameters).
 */
export const requestProblems = (request: BundleRequest, perspective: string | undefined = request.perspective, spell: Spelling = FIELD_NAMES): Diagnostic[] => {
  const c = spell.cite
  const found: Diagnostic[] = [...requestExcludes(request.exclude ?? [], spell).diagnostics]
  const changesets = (request.changeset !== undefined ? 1 : 0) + (request.staged === true ? 1 : 0)
  if (changesets > 1) found.push({ scope: spell.name("changeset"), problem: `Give ${c("changeset")} or ${c("staged")}, not both.` })
  // Without a scope (a perspective says itself that it needs --pack):
  if (changesets === 0 && request.pack === undefined && request.specs === undefined && perspective === undefined) {
    found.push({ scope: "scope", problem: `A bundle takes one scope: give ${c("pack")} ID, ${c("specs")} ID,ID,..., ${c("changeset")} REV or ${c("staged")}.` })
  }
  if (changesets > 0 && (request.specs !== undefined || (request.pack !== undefined && perspective === undefined))) {
    found.push({ scope: "scope", problem: `Give one scope: ${c("pack")}, ${c("specs")}, or a changeset (${c("changeset")} / ${c("staged")}).` })
  }
  if (perspective !== undefined) {
    const scope = spell.name("perspective")
    if (request.specs !== undefined) found.push({ scope, problem: `A perspective filters a Pack's members; it is not taken with ${c("specs")}.` })
    else if (request.pack === undefined) found.push({ scope, problem: `A perspective filters a Pack's members: give ${c("pack")}.` })
    if (request.members !== undefined)
      found.push({ scope, problem: `A perspective chooses the members: give ${c("perspective")} or ${c("members")}, not both.` })
  }
  if (request.parts === true && request.part !== undefined)
    found.push({ scope: spell.name("part"), problem: `Give ${c("part")} K or ${c("parts")}, not both.` })
  return found
}

/** The scope as the manifest records it. */
export const scopeOf = (params: BundleParams): unknown => {
  if (params.pack !== undefined) {
    if (params.members === undefined) return { pack: params.pack }
    if (params.perspective === undefined) return { pack: params.pack, members: params.members }
    const changeset = params.changeset === undefined ? {} : { changeset: params.changeset }
    return { pack: params.pack, members: params.members, perspective: params.perspective, ...changeset }
  }
  return params.changeset !== undefined ? { specs: params.specs, changeset: params.changeset } : { specs: params.specs }
}

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const reader = yield* GraphReader
  const changes = yield* Changes
  const composer = yield* Composer
  const git = yield* GitDiff

  /**
   * Checks the request, reads the configuration and the graph, settles the composer's parameters.
   * `read.hashes: false` when no manifest will be asked for (the files are then not hashed).
   */
  const prepare = Effect.fn("Bundler.prepare")(function* (request: BundleRequest, read: HashOption = {}) {
    const spell = yield* FieldSpelling
    const loaded = yield* loadConfig(request).pipe(Effect.provideService(FileSystem.FileSystem, fs))
    const settings = yield* settingsOf(loaded, request.profile, {
      exclude: requestExcludes(request.exclude ?? []).paths,
      budget: request.budget,
      declarations: request.declarations,
      perspective: request.perspective
    }).pipe(
      // A profile the file does not name is the request's mistake.
      Effect.catchTag("ConfigError", (e) =>
        Effect.fail(
          e.reason === "unknown-profile"
            ? problems([{ scope: spell.name("profile"), problem: e.path === null ? `${spell.cite("profile")}: ${e.problem}` : e.message }])
            : e
        )
      )
    )
    const found = requestProblems(request, settings.perspective, spell)
    const tier = budgetTierProblem(settings.budget, settings.tiers)
    if (tier !== null) found.push({ scope: spell.name("budget"), problem: tier })
    if (found.length > 0) return yield* problems(found)
    /** The members a perspective chooses (src/core/graph/perspective.ts), as the bundle's Pack scope. */
    const chosen = (graph: Graph, perspective: string, impacted?: ReadonlyArray<string>, changeset?: string) => {
      const selection = resolvePerspective(factsOf(graph), {
        pack: request.pack,
        perspective,
        perspectives: loaded.config?.perspectives,
        cite: spell.cite,
        ...(impacted === undefined ? {} : { impacted }),
        ...(changeset === undefined ? {} : { changeset })
      })
      return isDiagnostics(selection) ? Effect.fail(problems(selection.diagnostics)) : Effect.succeed(selection)
    }
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const base: BundleParams = {
      budget: resolveBudget(settings.budget, settings.tiers),
      ...(settings.declarations === undefined ? {} : { declarations: settings.declarations }),
      ...(request.part !== undefined ? { part: typeof request.part === "number" ? request.part : numericText(request.part) } : {})
    }
    const root = nodePath.resolve(request.root)
    const common = { root, exclude, configPath: loaded.path }
    if (request.changeset !== undefined || request.staged === true) {
      const s = yield* changes.scope(request.root, request, exclude, read)
      const scope = settings.perspective === undefined ? { specs: s.specs, changeset: s.label } : yield* chosen(s.graph, settings.perspective, s.specs, s.label)
      const params: BundleParams = { ...base, ...scope }
      return {
        ...common,
        graph: s.graph,
        files: s.files,
        excluded: s.excluded,
        params,
        scope: scopeOf(params),
        builtFromCommit: s.builtFromCommit,
        base: s.base,
        dangling: s.dangling
      } satisfies PreparedBundle
    }
    const { graph, files, excluded } = yield* reader.readTree({ root: request.root, exclude, ...read })
    if (settings.perspective !== undefined) {
      const params: BundleParams = { ...base, ...(yield* chosen(graph, settings.perspective)) }
      return { ...common, graph, files, excluded, params, scope: scopeOf(params), builtFromCommit: null, dangling: [] } satisfies PreparedBundle
    }
    const params: BundleParams = {
      ...base,
      ...(request.pack !== undefined ? { pack: request.pack } : {}),
      ...(request.members !== undefined ? { members: request.members } : {}),
      ...(request.specs !== undefined ? { specs: request.specs } : {})
    }
    return { ...common, graph, files, excluded, params, scope: scopeOf(params), builtFromCommit: null, dangling: [] } satisfies PreparedBundle
  })

  /** One value (the bundle, or the part the request named); diagnostics fail. */
  const compose = Effect.fn("Bundler.compose")(function* (prepared: PreparedBundle) {
    const { value, text } = yield* composer.compose(prepared.graph, prepared.params)
    if (isDiagnostics(value)) return yield* problems(value.diagnostics)
    return { value, text } satisfies BundleValue
  })

  /**
   * The split: `of` parts (null when no split fits the budget: `parts` then holds the one
   * oversized value, which `exceeded` also gives), each composed when the stream pulls it. `of`
   * costs no part composed (the MCP tool's count); the CLI writes `exceeded`'s hint first.
   */
  const split = Effect.fn("Bundler.split")(function* (prepared: PreparedBundle) {
    const outcome = yield* composer.parts(prepared.graph, prepared.params)
    if (outcome._tag === "Diagnostics") return yield* problems(outcome.value.diagnostics)
    if (outcome._tag === "Oversized") {
      const only: BundlePart = { _tag: "Exceeded", value: outcome.value, text: outcome.text }
      return { of: null, exceeded: outcome.value as PartsExceeded | null, parts: Stream.make(only) }
    }
    return {
      of: outcome.of as number | null,
      exceeded: null as PartsExceeded | null,
      parts: Stream.map(outcome.parts, (p): BundlePart => ({ _tag: "Part", index: p.index, of: p.of, used: p.used, text: p.text }))
    }
  })

  /** Every part in order, as `bundle --parts` prints them, each composed when the stream pulls it. */
  const parts = (prepared: PreparedBundle): Stream.Stream<BundlePart, ParameterProblems> => Stream.unwrap(Effect.map(split(prepared), (s) => s.parts))

  /** The manifest of a written set of parts: the scope, the parameters and what it was built from. */
  const manifest = Effect.fn("Bundler.manifest")(function* (prepared: PreparedBundle, records: ReadonlyArray<PartRecord>) {
    const state = prepared.builtFromCommit !== null ? { commit: prepared.builtFromCommit, dirty: false } : yield* git.repoState(prepared.root)
    return {
      scope: prepared.scope,
      budget: prepared.params.budget ?? null,
      declarations: prepared.params.declarations ?? "whole",
      parts: records,
      builtFrom: {
        root: prepared.root,
        exclude: prepared.exclude,
        config: prepared.configPath,
        commit: state.commit,
        dirty: state.dirty,
        ...(prepared.base === undefined ? {} : { base: prepared.base }),
        graphDigest: graphDigest(prepared.files()),
        files: prepared.files()
      }
    } satisfies ManifestDraft
  })

  /** The whole use case for one value: request in, the compact JSON text out. */
  const bundle = (request: BundleRequest) => Effect.flatMap(prepare(request), compose)

  /**
   * `tokens` and `budgetTokens` as given, checked before anything is read: the encoding's counter
   * (its tokenizer bundle required from `dir`, and only when asked) and the token target.
   */
  const tokens = Effect.fn("Bundler.tokens")(function* (request: TokensRequest, dir: string) {
    const spell = yield* FieldSpelling
    let target: number | undefined
    if (request.budgetTokens !== undefined) {
      const given = { encoding: request.tokens !== undefined, budget: request.budget !== undefined }
      const checked = budgetTokensProblems(String(request.budgetTokens), spell, given)
      if (isDiagnostics(checked)) return yield* problems(checked.diagnostics)
      target = checked.target
    }
    if (request.tokens === undefined) return undefined
    const count = loadTokenizer(request.tokens, dir, spell.cite("tokens"))
    if (typeof count !== "function") return yield* count
    return { encoding: request.tokens, count, target } satisfies TokenCounter
  })

  /**
   * With a token target, the request at the code-unit budget the target translates to
   * (core/tokens.ts fitTokenBudget), and the fit found; `split`: every part must fit. Without a
   * target, or when the composer refuses the request (compose then reports its diagnostics), the
   * request as it was and no fit.
   */
  const fit = (prepared: PreparedBundle, counter: TokenCounter | undefined, split: boolean): FittedBundle => {
    if (counter?.target === undefined) return { prepared, fit: null }
    const found = fitTokenBudget(factsOf(prepared.graph), prepared.params, split, counter.count, counter.target)
    if (isDiagnostics(found)) return { prepared, fit: null }
    return { prepared: { ...prepared, params: { ...prepared.params, budget: found.budget } }, fit: found }
  }

  /**
   * The members a perspective selects from a Pack: the very list `bundle --pack ID --perspective
   * NAME` composes (the bundle's own preparation). Without a name, a problem that lists the
   * perspectives the configuration knows.
   */
  const members = Effect.fn("Bundler.members")(function* (request: MembersRequest) {
    const spell = yield* FieldSpelling
    if (request.name === undefined) {
      const loaded = yield* loadConfig(request).pipe(Effect.provideService(FileSystem.FileSystem, fs))
      const known = perspectiveNames(loaded.config?.perspectives)
      return yield* problems([{ scope: spell.name("perspective"), problem: `Give a perspective name; known: ${known.join(", ")}.` }])
    }
    const { name, format: _, ...rest } = request
    const prepared = yield* prepare({ ...rest, perspective: name }, { hashes: false })
    const { pack, members, perspective, changeset } = prepared.params
    return {
      graph: prepared.graph,
      // The perspective's selection, settled into the bundle's parameters (src/core/graph/perspective.ts).
      selection: {
        pack: String(pack),
        members: members as ReadonlyArray<string>,
        perspective: String(perspective ?? name),
        ...(changeset === undefined ? {} : { changeset: String(changeset) })
      }
    } satisfies PerspectiveMembers
  })

  return { prepare, compose, split, parts, manifest, bundle, tokens, fit, members } as const
})

export class Bundler extends Context.Service<Bundler, Effect.Success<typeof make>>()("specbundle/Bundler") {
  /** The service from its parts, for a double in a test or a program (what `Layer.succeed(Bundler, …)` takes). */
  static readonly make = (service: Bundler["Service"]): Bundler["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Bundler, never, FileSystem.FileSystem | GraphReader | Changes | Composer | GitDiff> = Layer.effect(
    this,
    make
  )
  /** The live service with everything under it but a FileSystem and the runtime (WorkerPool, ParseCache: src/node/runtime.ts). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(
    Layer.provide(Layer.mergeAll(GraphReader.Default, Changes.Default, Composer.Default, GitDiff.Default))
  )
}
