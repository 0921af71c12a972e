// The use cases keep git's tagged failures in their error channel (issue 38 item 3): over a real
// git repository, a revision git does not know fails Changes and Bundler with UnknownRevisionError
// and a refused repository with GitRefusedError, each `Effect.catchTag`-able by a program, with
// the one line the CLI prints as its message.
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { afterEach, beforeEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { Bundler } from "../../src/usecases/Bundler.js"
import { Changes } from "../../src/usecases/Changes.js"
import { Corpus } from "../../src/usecases/Corpus.js"
import { makeRepo, specCarrier, tempDir } from "../support/git.js"
import { TestRuntime } from "../support/runtime.js"

const Live = Layer.mergeAll(Bundler.Default, Corpus.Default, Changes.Default).pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime)))

const corpus = () => {
  const repo = makeRepo()
  repo.write("specs/a.sdp.md", specCarrier("spec:a", "Alpha"))
  repo.commit("corpus")
  return repo
}

describe("a revision git does not know", () => {
  it.effect("fails Changes.report and Bundler.prepare with UnknownRevisionError, which catchTag catches", () =>
    Effect.gen(function* () {
      const { dir } = corpus()
      const changes = yield* Changes
      const bundler = yield* Bundler
      const impact = yield* Effect.flip(changes.report({ root: dir, changeset: "no-such-rev" }))
      expect(impact._tag).toBe("UnknownRevisionError")
      expect(impact.message).toMatch(/^unknown revision "no-such-rev": git does not know it/)
      const bundle = yield* Effect.flip(bundler.prepare({ root: dir, changeset: "HEAD..no-such-rev" }))
      expect(bundle._tag).toBe("UnknownRevisionError")
      const caught = yield* bundler.prepare({ root: dir, changeset: "no-such-rev" }).pipe(
        Effect.map(() => "prepared"),
        Effect.catchTag("UnknownRevisionError", (e) => Effect.succeed(`caught ${e._tag} ${e.revision}`))
      )
      expect(caught).toBe("caught UnknownRevisionError no-such-rev")
    }).pipe(Effect.provide(Live))
  )

  it.effect("a malformed revision stays a parameter problem (the CLI's exit 2)", () =>
    Effect.gen(function* () {
      const { dir } = corpus()
      const changes = yield* Changes
      const failed = yield* Effect.flip(changes.report({ root: dir, changeset: "-x" }))
      expect(failed._tag).toBe("ParameterProblems")
      if (failed._tag === "ParameterProblems") expect(failed.diagnostics.map((d) => d.scope)).toEqual(["changeset"])
    }).pipe(Effect.provide(Live))
  )
})

describe("a repository git refuses (GIT_TEST_ASSUME_DIFFERENT_OWNER)", () => {
  // The Git service reads process.env at each call; the switch is set once the repository is
  // built (the test's own git would be refused too) and restored after each test.
  let saved: string | undefined
  let dir = ""
  beforeEach(() => {
    dir = corpus().dir
    saved = process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER
    process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER = "1"
  })
  afterEach(() => {
    if (saved === undefined) delete process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER
    else process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER = saved
  })

  it.effect("fails Changes, Bundler and Corpus with GitRefusedError, which catchTag catches", () =>
    Effect.gen(function* () {
      const changes = yield* Changes
      const bundler = yield* Bundler
      const corpusService = yield* Corpus
      const impact = yield* Effect.flip(changes.report({ root: dir, changeset: "HEAD" }))
      expect(impact._tag).toBe("GitRefusedError")
      expect(impact.message).toMatch(/^git refuses the repository .*: detected dubious ownership .*run: git config --global --add safe\.directory /)
      const bundle = yield* Effect.flip(bundler.prepare({ root: dir, specs: ["spec:a"] }))
      expect(bundle._tag).toBe("GitRefusedError")
      const read = yield* Effect.flip(corpusService.read({ root: dir }))
      expect(read._tag).toBe("GitRefusedError")
      const caught = yield* changes.report({ root: dir, changeset: "HEAD" }).pipe(
        Effect.map(() => "reported"),
        Effect.catchTag("GitRefusedError", (e) => Effect.succeed(`caught ${e._tag} at ${path.basename(e.repository)}`))
      )
      expect(caught).toBe(`caught GitRefusedError at ${path.basename(dir)}`)
    }).pipe(Effect.provide(Live))
  )
})

describe("configuration and read failures", () => {
  it.effect("a missing configuration file is a ConfigError, a missing root a ReadError, each with its one line", () =>
    Effect.gen(function* () {
      const root = tempDir("specbundle-typed-")
      fs.mkdirSync(path.join(root, "specs"))
      fs.writeFileSync(path.join(root, "specs/a.sdp.md"), specCarrier("spec:a", "A"))
      const corpusService = yield* Corpus
      const config = yield* Effect.flip(corpusService.read({ root, config: path.join(root, "absent.json") }))
      expect(config._tag).toBe("ConfigError")
      expect(config.message).toBe(`${path.join(root, "absent.json")}: configuration file not found`)
      const missing = yield* Effect.flip(corpusService.read({ root: path.join(root, "absent") }))
      expect(missing._tag).toBe("ReadError")
      expect(missing.message).toBe(`${path.join(root, "absent")}: the root folder does not exist`)
    }).pipe(Effect.provide(Live))
  )
})

describe("a root that is no folder: one tag for one cause", () => {
  it.effect("fails a changeset request as a bundle request does: ReadError with the same line, never git's NotARepositoryError", () =>
    Effect.gen(function* () {
      const { dir } = corpus()
      const changes = yield* Changes
      const bundler = yield* Bundler
      for (const [root, reason] of [
        [path.join(dir, "absent"), "the root folder does not exist"],
        [path.join(dir, "specs", "a.sdp.md"), "the root is not a folder"]
      ] as const) {
        const failures = [
          yield* Effect.flip(changes.report({ root, changeset: "HEAD" })),
          yield* Effect.flip(changes.report({ root, staged: true })),
          yield* Effect.flip(bundler.prepare({ root, changeset: "HEAD~1..HEAD" })),
          yield* Effect.flip(bundler.prepare({ root, specs: ["spec:a"] }))
        ]
        expect(failures.map((e) => e._tag)).toEqual(["ReadError", "ReadError", "ReadError", "ReadError"])
        for (const e of failures) expect(e.message).toBe(`${root}: ${reason}`)
      }
    }).pipe(Effect.provide(Live))
  )
})
