// The use-case services in-process, without the CLI: requests as plain data in, typed values and
// failures out, over the real file system and real git (a repository in a temp folder). One
// service replaced shows the layers compose (README, "Library"): the real GitDiff, wrapped.
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as path from "node:path"
import { composeBundleText } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import { Bundler } from "../../src/usecases/Bundler.js"
import { Changes } from "../../src/usecases/Changes.js"
import { Drift } from "../../src/usecases/Drift.js"
import { Corpus } from "../../src/usecases/Corpus.js"
import { Composer } from "../../src/services/Composer.js"
import { GitDiff } from "../../src/services/GitDiff.js"
import { GraphReader } from "../../src/services/GraphReader.js"
import { Impact } from "../../src/services/Impact.js"
import { makeRepo, specCarrier } from "../support/git.js"
import { TestRuntime } from "../support/runtime.js"

const EXAMPLE = path.resolve("examples/bike-dock")

const Live = Layer.mergeAll(Bundler.Default, Corpus.Default, Changes.Default).pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime)))

/** A real repository: a and b committed on main, then b edited and committed on the branch topic (checked out, clean). */
const corpusRepo = () => {
  const repo = makeRepo()
  repo.write("specs/a.sdp.md", specCarrier("spec:a", "A"))
  repo.write("specs/b.sdp.md", specCarrier("spec:b", "B", "relations:\n  refines: spec:a"))
  repo.commit("a and b")
  repo.git("checkout", "-q", "-b", "topic")
  repo.write("specs/b.sdp.md", specCarrier("spec:b", "B, edited", "relations:\n  refines: spec:a"))
  return { root: repo.dir, head: repo.commit("b edited") }
}

/** The use cases built from their parts with the GitDiff given (what a program replacing one service does). */
const withGitDiff = (gitDiff: GitDiff["Service"]) =>
  Bundler.DefaultWithoutDependencies.pipe(
    Layer.provideMerge(Changes.DefaultWithoutDependencies),
    // Drift (the impact report's drift section) on its own services; this test counts only the impact's diffs.
    Layer.provideMerge(Layer.mergeAll(Impact.DefaultWithoutDependencies, Drift.Default)),
    Layer.provideMerge(Layer.mergeAll(GraphReader.Default, Composer.Default, Layer.succeed(GitDiff, gitDiff))),
    Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime))
  )

describe("Bundler over the example corpus", () => {
  it.effect("a Pack request gives the composer's own text for the graph the Corpus use case reads", () =>
    Effect.gen(function* () {
      const bundler = yield* Bundler
      const corpus = yield* Corpus
      const { text, value } = yield* bundler.bundle({ root: EXAMPLE, pack: "pack:rides-v1", budget: "M" })
      const { graph } = yield* corpus.read({ root: EXAMPLE })
      expect(text).toBe(composeBundleText(factsOf(graph), { pack: "pack:rides-v1", budget: 64000 }).text)
      expect(JSON.parse(text)).toEqual(value)
      expect("budgetExceeded" in value).toBe(false)
    }).pipe(Effect.provide(Live))
  )

  it.effect("parts stream in order and each is the part the request names alone", () =>
    Effect.gen(function* () {
      const bundler = yield* Bundler
      const prepared = yield* bundler.prepare({ root: EXAMPLE, pack: "pack:rides-v1", budget: "4000", parts: true })
      const texts = yield* Stream.runCollect(bundler.parts(prepared))
      const { of } = yield* bundler.split(prepared)
      expect(texts.length).toBeGreaterThan(1)
      expect(texts.map((t) => (t._tag === "Part" ? [t.index, t.of] : null))).toEqual(texts.map((_, i) => [i + 1, of]))
      const second = yield* bundler.bundle({ root: EXAMPLE, pack: "pack:rides-v1", budget: "4000", part: "2" })
      expect(second.text).toBe(texts[1].text)
      expect(texts[1]._tag === "Part" && texts[1].used).toBe(texts[1].text.length)
    }).pipe(Effect.provide(Live))
  )

  it.effect("parts: a budget no split fits streams the one budgetExceeded value; a wrong scope fails the stream", () =>
    Effect.gen(function* () {
      const bundler = yield* Bundler
      const prepared = yield* bundler.prepare({ root: EXAMPLE, pack: "pack:rides-v1", budget: "300", parts: true })
      const only = yield* Stream.runCollect(bundler.parts(prepared))
      expect(only.map((p) => p._tag)).toEqual(["Exceeded"])
      expect(only[0]._tag === "Exceeded" && JSON.parse(only[0].text)).toEqual(only[0]._tag === "Exceeded" && only[0].value)
      const unknown = yield* bundler.prepare({ root: EXAMPLE, pack: "pack:none", parts: true })
      const failed = yield* Effect.flip(Stream.runDrain(bundler.parts(unknown)))
      expect(failed.diagnostics.map((d) => d.scope)).toContain("pack")
    }).pipe(Effect.provide(Live))
  )

  it.effect("wrong parameters are a typed failure holding the diagnostics, not output", () =>
    Effect.gen(function* () {
      const bundler = yield* Bundler
      const both = yield* Effect.flip(bundler.bundle({ root: EXAMPLE, pack: "pack:rides-v1", changeset: "HEAD" }))
      expect(both._tag).toBe("ParameterProblems")
      const unknown = yield* Effect.flip(bundler.bundle({ root: EXAMPLE, pack: "pack:none" }))
      expect(unknown._tag).toBe("ParameterProblems")
      if (unknown._tag === "ParameterProblems") expect(unknown.diagnostics.map((d) => d.scope)).toContain("pack")
      const missing = yield* Effect.flip(bundler.bundle({ root: path.join(EXAMPLE, "absent"), pack: "pack:rides-v1" }))
      expect(missing._tag).toBe("ReadError")
      expect(missing.message).toContain("does not exist")
    }).pipe(Effect.provide(Live))
  )

  it.effect("the listing names every Pack and Spec of the graph in id order", () =>
    Effect.gen(function* () {
      const corpus = yield* Corpus
      const listing = yield* corpus.list({ root: EXAMPLE })
      const { graph } = yield* corpus.read({ root: EXAMPLE })
      expect(listing.packs.map((p) => p.id)).toEqual([...graph.packs.keys()].sort())
      expect(listing.specs.map((s) => s.id)).toEqual([...graph.specs.keys()].sort())
      expect(listing.packs.find((p) => p.id === "pack:rides-v1")?.members).toEqual(graph.packs.get("pack:rides-v1")?.members)
    }).pipe(Effect.provide(Live))
  )
})

describe("over a real git repository", () => {
  it.effect("the changeset's impacted ids fill the specs scope, and the manifest records the commit it was built from", () => {
    const { root, head } = corpusRepo()
    return Effect.gen(function* () {
      const bundler = yield* Bundler
      const prepared = yield* bundler.prepare({ root, changeset: "HEAD~1" })
      expect(prepared.params.specs).toEqual(["spec:b"])
      expect(prepared.scope).toEqual({ specs: ["spec:b"], changeset: "HEAD~1" })
      const { value } = yield* bundler.compose(prepared)
      expect(JSON.stringify(value)).toContain("spec:b")
      const manifest = yield* bundler.manifest(prepared, [])
      expect(manifest.builtFrom.commit).toBe(head)
      expect(manifest.builtFrom.dirty).toBe(false)
      expect(manifest.builtFrom.files.map((f) => f.path)).toEqual(["specs/a.sdp.md", "specs/b.sdp.md"])
    }).pipe(Effect.provide(Live))
  })

  it.effect("the impact request reports what the range changed, and a bad revision is a parameter problem", () => {
    const { root } = corpusRepo()
    return Effect.gen(function* () {
      const changes = yield* Changes
      const { report, label } = yield* changes.report({ root, changeset: "main..topic" })
      expect(label).toBe("main..topic")
      expect(report.changedFiles).toEqual([{ path: "specs/b.sdp.md", status: "modified" }])
      expect(report.impactedSpecs.map((s) => s.id)).toEqual(["spec:b"])
      const bad = yield* Effect.flip(changes.report({ root, changeset: "--output=x" }))
      expect(bad._tag).toBe("ParameterProblems")
      const neither = yield* Effect.flip(changes.report({ root }))
      expect(neither.message).toContain("changeset:")
    }).pipe(Effect.provide(Live))
  })

  it.effect("a service replaced: the use cases run on the GitDiff given them (here the real one, counting its diffs)", () => {
    const { root } = corpusRepo()
    return Effect.gen(function* () {
      const real = yield* GitDiff
      const asked: string[] = []
      const counting = GitDiff.make({ ...real, diff: (at, changeset) => (asked.push(at), real.diff(at, changeset)) })
      const prepared = yield* Effect.flatMap(Bundler, (b) => b.prepare({ root, changeset: "HEAD~1" })).pipe(Effect.provide(withGitDiff(counting)))
      expect(prepared.params.specs).toEqual(["spec:b"])
      expect(asked).toEqual([root])
    }).pipe(Effect.provide(GitDiff.Default))
  })
})
