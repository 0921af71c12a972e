// The read-only use cases over a corpus: `check` (the graph and its findings) and the listing of
// its Packs and Specs that the MCP server offers. The configuration's excludes apply as to bundle.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import type { Graph } from "../core/model.js"
import { byCodeUnits } from "../core/model.js"
import type { FileHash } from "../services/GraphReader.js"
import { GraphReader } from "../services/GraphReader.js"
import { requestExcludes, settledExcludes } from "./excludes.js"
import type { CorpusRequest } from "./requests.js"
import { problems } from "./requests.js"
import { loadConfig, settingsOf } from "./settings.js"

export interface CorpusRead {
  readonly graph: Graph
  /** Every file the reader used (root-relative path, SHA-256), sorted: listed when first called (an impact report never calls it). */
  readonly files: () => ReadonlyArray<FileHash>
  /** The excludes used, normalized: the request's and the configuration's. */
  readonly exclude: ReadonlyArray<string>
  /** Those that left some path out (the rest match nothing: worth a warning). */
  readonly excluded: ReadonlySet<string>
}

/** What an agent needs to pick a scope: Packs with their members, Specs with kind and title, in id order. */
export interface Listing {
  readonly packs: ReadonlyArray<{ readonly id: string; readonly title: string; readonly members: ReadonlyArray<string> }>
  readonly specs: ReadonlyArray<{ readonly id: string; readonly kind: string; readonly title: string; readonly file: string }>
}

export const listingOf = (graph: Graph): Listing => ({
  packs: [...graph.packs.values()].sort((a, b) => byCodeUnits(a.id, b.id)).map((p) => ({ id: p.id, title: p.title, members: p.members })),
  specs: [...graph.specs.values()].sort((a, b) => byCodeUnits(a.id, b.id)).map((s) => ({ id: s.id, kind: s.kind, title: s.title, file: s.file }))
})

export { summaryOf } from "../core/render/corpus-lines.js"

/** The service as built from its dependencies. */
const make = Effect.gen(function* () {
  const reader = yield* GraphReader
  const fs = yield* FileSystem.FileSystem

  /** Reads the working tree under the root with the request's and the configuration's excludes. */
  const read = Effect.fn("Corpus.read")(function* (request: CorpusRequest) {
    const flags = requestExcludes(request.exclude ?? [])
    if (flags.diagnostics.length > 0) return yield* problems(flags.diagnostics)
    const loaded = yield* loadConfig(request).pipe(Effect.provideService(FileSystem.FileSystem, fs))
    const settings = yield* settingsOf(loaded, undefined, { exclude: flags.paths })
    const exclude = yield* settledExcludes(settings.exclude, loaded.path)
    const { graph, files, excluded } = yield* reader.readTree({ root: request.root, exclude })
    return { graph, files, exclude, excluded } satisfies CorpusRead
  })

  const list = (request: CorpusRequest) => Effect.map(read(request), ({ graph }) => listingOf(graph))

  /**
   * The root's path from its repository's top with a trailing "/" ("" at the top, or outside any
   * repository): GitLab's Code Quality report names files from there, as `impact --format gitlab` does.
   */
  const repositoryPrefix = (root: string) => reader.repositoryPrefix(root)

  return { read, list, repositoryPrefix } as const
})

export class Corpus extends Context.Service<Corpus, Effect.Success<typeof make>>()("specbundle/Corpus") {
  /** The service from its parts, for a double in a test or a program (what `Layer.succeed(Corpus, …)` takes). */
  static readonly make = (service: Corpus["Service"]): Corpus["Service"] => service
  /** The live service; its dependencies still to provide. */
  static readonly DefaultWithoutDependencies: Layer.Layer<Corpus, never, FileSystem.FileSystem | GraphReader> = Layer.effect(this, make)
  /** The live service with everything under it but a FileSystem and the runtime (WorkerPool, ParseCache: src/node/runtime.ts). */
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide(GraphReader.Default))
}
