// The library entrance: the use-case services, the services under them, their layers, and the
// pure composer. An Effect program provides `layer` (or the services' own `Default` layers with a
// runtime: `layerRuntime`, or doubles through `X.make`) and a FileSystem (`layerNode` here, or
// `NodeServices.layer` from @effect/platform-node).
import * as Layer from "effect/Layer"
import { UseCasesLive } from "./usecases/layer.js"
import * as NodeFileSystemSync from "./node/NodeFileSystemSync.js"
import { InThread } from "./node/runtime.js"

// Use cases: requests as plain data in, typed values out, the tagged failures of UseCaseError out
// (ParameterProblems, ConfigError, ReadError and git's: each one `Effect.catchTag`s by its tag).
export { Bundler, requestProblems, scopeOf } from "./usecases/Bundler.js"
export type { BundlePart, BundleValue, FittedBundle, PartText, PreparedBundle, TokenCounter, TokensRequest } from "./usecases/Bundler.js"
export { Changes } from "./usecases/Changes.js"
export type { ChangesetImpact, ChangesetScope } from "./usecases/Changes.js"
export { Corpus, listingOf, summaryOf } from "./usecases/Corpus.js"
export type { CorpusRead, Listing } from "./usecases/Corpus.js"
export { Drift, DriftRequest, driftProblems } from "./usecases/Drift.js"
export type { DriftResult } from "./usecases/Drift.js"
export { ConfigError, ParameterProblems } from "./usecases/requests.js"
export type { ConfigReason } from "./usecases/requests.js"
export { TokenizerUnavailable } from "./node/tokenizer.js"
// How the use cases name a field in their problems: the fields' own names unless a program provides its own.
export { FIELD_NAMES, FieldSpelling } from "./usecases/spelling.js"
export type { Spelling } from "./usecases/spelling.js"
// Each request is an Effect Schema (its type of the same name): what the CLI's flags, the MCP
// tools' parameters and these types are built from.
export { BundleRequest, ChangesetRequest, CheckRequest, CorpusRequest, ImpactRequest, ListRequest } from "./usecases/requests.js"
export type { Diagnostic, UseCaseError } from "./usecases/requests.js"

// The services under them.
export { Composer } from "./services/Composer.js"
export type { ComposedPart, ComposedValue, PartsOutcome } from "./services/Composer.js"
export { GitDiff, decodeChangeset } from "./services/GitDiff.js"
export type { DiffResult, NewSource, RepoLocation, RepoState } from "./services/GitDiff.js"
export { GraphReader, ReadError } from "./services/GraphReader.js"
export type { FileHash, ReadResult, TreeOptions } from "./services/GraphReader.js"
export { Impact } from "./services/Impact.js"
export type { ImpactOptions, ImpactResult } from "./services/Impact.js"
export {
  Git,
  GitFailedError,
  GitMissingError,
  GitRefusedError,
  InvalidRevisionError,
  NotARepositoryError,
  ShallowCloneError,
  UnknownRevisionError,
  UnmergedPathError
} from "./node/git.js"
export type { GitError, GitOutput } from "./node/git.js"
// What the readers run on: the worker pool, the parse cache, the settings from the environment.
export { ParseCache, Settings, SettingsProblem, WorkerPool } from "./node/runtime.js"
export type { RunSettings } from "./node/runtime.js"

// The pure core: graph in, bundle out; no Effect, no I/O.
export { composeBundle, composeBundleText, isDiagnostics, planParts, validateParams } from "./core/bundle/index.js"
export type { BundleParams, BundleResult, Diagnostics } from "./core/bundle/index.js"
export { factsOf } from "./core/graph/facts.js"
export { BUILT_IN_PERSPECTIVES, lookupPerspective, perspectiveNames, resolvePerspective, selectMembers } from "./core/graph/perspective.js"
export type { Criteria, Perspective, PerspectiveRequest, PerspectiveSelection, Perspectives } from "./core/graph/perspective.js"
export { buildGraph, hasRefusal } from "./core/graph/graph.js"
export { impactReport } from "./core/changes/impact.js"
export type { ImpactReport } from "./core/changes/impact.js"
export { REVIEWS_FILE, planDrift, substanceOf } from "./core/changes/drift.js"
export type { DriftReason, DriftReport, DriftRow } from "./core/changes/drift.js"
export { DRIFT_FORMATS, driftOutput } from "./core/render/drift.js"
export type { Manifest, PartRecord } from "./core/manifest.js"
export type { Finding, Graph, PackNode, SpecNode } from "./core/model.js"
export { formatFinding } from "./core/render/finding-text.js"

/**
 * The library's runtime: files parsed in the calling thread, and a parse cache in memory for as
 * long as the layer lives (a ManagedRuntime's, a scope's): a read after the first re-reads only
 * the files that changed and gives back the graph it built when none did. Nothing is written to disk.
 */
export const layerRuntime = InThread

/** The use cases (src/usecases/layer.ts, as the CLI and the MCP server have them) with everything under them and the library's runtime; needs a FileSystem. */
export const layer = UseCasesLive.pipe(Layer.provide(layerRuntime))

/** Node's file system as the CLI uses it (synchronous reads, see NodeFileSystemSync.ts). */
export const layerNode = layer.pipe(Layer.provide(NodeFileSystemSync.layer))
