import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import { Impact } from "../../src/services/Impact.js"
import { codeAnchor, makeRepo, specCarrier } from "../support/git.js"
import { TestRuntime } from "../support/runtime.js"

const TestLayer = Impact.Default.pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime)))

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id)

layer(TestLayer)("Impact", (it) => {
  describe("REV against the working tree", () => {
    it.effect("an untracked new carrier is impacted and present in the graph", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/a.sdp.md", specCarrier("spec:a"))
        repo.commit("base")
        repo.write("specs/new.sdp.md", specCarrier("spec:new", "New", "relations:\n  refines: spec:a"))
        const impact = yield* Impact
        const { report, graph, files } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Rev", rev: "HEAD" }, exclude: [] })
        expect(report.changeset).toBe("HEAD")
        expect(report.root).toBe(".")
        expect(report.changedFiles).toEqual([{ path: "specs/new.sdp.md", status: "untracked" }])
        expect(report.impactedSpecs).toEqual([{ id: "spec:new", reasons: [{ file: "specs/new.sdp.md", via: null }] }])
        expect(report.atRisk.map((r) => [r.id, r.reasons[0].edgeType])).toEqual([["spec:a", "refines"]])
        expect([...graph.specs.keys()]).toEqual(["spec:a", "spec:new"])
        expect(files().map((f) => f.path)).toEqual(["specs/a.sdp.md", "specs/new.sdp.md"])
      })
    )

    it.effect("an anchored code file's change reaches its Spec through the binding", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/a.sdp.md", specCarrier("spec:a"))
        repo.write("src/a.ts", codeAnchor("impl:a", ["spec:a"]))
        repo.write("src/plain.ts", "export const y = 2\n")
        repo.commit("base")
        repo.write("src/a.ts", codeAnchor("impl:a", ["spec:a"]) + "export const z = 3\n")
        repo.write("src/plain.ts", "export const y = 3\n")
        const impact = yield* Impact
        const { report } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Rev", rev: "HEAD" }, exclude: [] })
        expect(report.impactedSpecs).toEqual([
          { id: "spec:a", reasons: [{ file: "src/a.ts", via: { id: "impl:a", edgeType: "satisfies", claim: "anchored" } }] }
        ])
        expect(report.coverageUnknown).toEqual(["src/plain.ts"])
      })
    )

    it.effect("excluded paths are read nowhere: their change is coverage-unknown", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/a.sdp.md", specCarrier("spec:a"))
        repo.write("drafts/b.sdp.md", specCarrier("spec:b"))
        repo.commit("base")
        repo.git("rm", "-q", "drafts/b.sdp.md")
        const impact = yield* Impact
        const { report, graph } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Rev", rev: "HEAD" }, exclude: ["drafts"] })
        expect(report.removedSpecs).toEqual([])
        expect(report.coverageUnknown).toEqual(["drafts/b.sdp.md"])
        expect([...graph.specs.keys()]).toEqual(["spec:a"])
      })
    )
  })

  describe("deletes and renames", () => {
    it.effect("a deleted carrier's id is in removedSpecs and a Spec refining it is at risk", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/parent.sdp.md", specCarrier("spec:parent"))
        repo.write("specs/child.sdp.md", specCarrier("spec:child", "Child", "relations:\n  refines: spec:parent"))
        repo.commit("base")
        repo.remove("specs/parent.sdp.md")
        repo.commit("delete parent")
        const impact = yield* Impact
        const { report } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Range", from: "HEAD~1", to: "HEAD" }, exclude: [] })
        expect(report.changedFiles).toEqual([{ path: "specs/parent.sdp.md", status: "deleted" }])
        expect(report.removedSpecs).toEqual([{ id: "spec:parent", file: "specs/parent.sdp.md" }])
        expect(report.impactedSpecs).toEqual([])
        expect(report.coverageUnknown).toEqual([])
        expect(ids(report.atRisk)).toEqual(["spec:child"])
      })
    )

    it.effect("a renamed carrier whose Spec still exists is impacted through both paths, not removed", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/old-home.sdp.md", specCarrier("spec:moving", "A Spec that moves between folders unchanged"))
        repo.commit("base")
        repo.git("mv", "specs/old-home.sdp.md", "specs/new-home.sdp.md")
        repo.commit("move")
        const impact = yield* Impact
        const { report } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Range", from: "HEAD~1", to: "HEAD" }, exclude: [] })
        expect(report.changedFiles).toEqual([{ path: "specs/new-home.sdp.md", status: "renamed", oldPath: "specs/old-home.sdp.md" }])
        expect(report.impactedSpecs).toEqual([
          {
            id: "spec:moving",
            reasons: [
              { file: "specs/new-home.sdp.md", via: null },
              { file: "specs/old-home.sdp.md", via: null }
            ]
          }
        ])
        expect(report.removedSpecs).toEqual([])
      })
    )

    it.effect("a deleted code file impacts the Spec it satisfied", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/a.sdp.md", specCarrier("spec:a"))
        repo.write("src/a.ts", codeAnchor("impl:a", ["spec:a"]))
        repo.commit("base")
        repo.remove("src/a.ts")
        const impact = yield* Impact
        const { report } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Rev", rev: "HEAD" }, exclude: [] })
        expect(report.impactedSpecs).toEqual([
          { id: "spec:a", reasons: [{ file: "src/a.ts", via: { id: "impl:a", edgeType: "satisfies", claim: "anchored" } }] }
        ])
        expect(report.coverageUnknown).toEqual([])
      })
    )
  })

  describe("graphs from git objects", () => {
    it.effect("A..B against another branch composes from B's tree", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/a.sdp.md", specCarrier("spec:a"))
        repo.commit("base")
        repo.git("checkout", "-q", "-b", "feature")
        repo.write("specs/feature.sdp.md", specCarrier("spec:feature"))
        repo.commit("feature")
        repo.git("checkout", "-q", "main")
        const impact = yield* Impact
        const { report, graph, diff } = yield* impact.run({
          root: repo.dir,
          changeset: { _tag: "Range", from: "main", to: "feature" },
          exclude: [],
          label: "main..feature"
        })
        expect(diff.newSource._tag).toBe("Tree")
        expect(report.changeset).toBe("main..feature")
        expect(ids(report.impactedSpecs)).toEqual(["spec:feature"])
        expect([...graph.specs.keys()]).toEqual(["spec:a", "spec:feature"])
      })
    )

    it.effect("--staged reads the staged (broken) carrier, not the fixed working copy", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/a.sdp.md", specCarrier("spec:a"))
        repo.commit("base")
        repo.write("specs/a.sdp.md", "---\nid: spec:a\nkind: nonsense\n---\n# Broken\n")
        repo.git("add", "specs/a.sdp.md")
        repo.write("specs/a.sdp.md", specCarrier("spec:a", "Fixed only in the working tree"))
        const impact = yield* Impact
        const { report, graph } = yield* impact.run({ root: repo.dir, changeset: { _tag: "Staged" }, exclude: [] })
        expect(graph.findings.some((f) => f.file === "specs/a.sdp.md" && f.severity === "error")).toBe(true)
        expect(graph.specs.has("spec:a")).toBe(false)
        // The refused carrier's old Spec stays impacted: a refusal is not a removal.
        expect(report.impactedSpecs).toEqual([{ id: "spec:a", reasons: [{ file: "specs/a.sdp.md", via: null }] }])
        expect(report.removedSpecs).toEqual([])
      })
    )
  })

  it.effect("a sub-folder root reports root-relative paths, its place in the repository, and what lies outside", () =>
    Effect.gen(function* () {
      const repo = makeRepo()
      repo.write("packages/app/specs/a.sdp.md", specCarrier("spec:app.a"))
      repo.write("packages/lib/specs/b.sdp.md", specCarrier("spec:lib.b"))
      repo.commit("base")
      repo.write("packages/app/specs/a.sdp.md", specCarrier("spec:app.a", "Changed"))
      repo.write("packages/lib/specs/b.sdp.md", specCarrier("spec:lib.b", "Changed"))
      const impact = yield* Impact
      const { report, graph } = yield* impact.run({
        root: path.join(repo.dir, "packages", "app"),
        changeset: { _tag: "Rev", rev: "HEAD" },
        exclude: []
      })
      expect(report.root).toBe("packages/app")
      expect(report.changedFiles).toEqual([{ path: "specs/a.sdp.md", status: "modified" }])
      expect(ids(report.impactedSpecs)).toEqual(["spec:app.a"])
      expect(report.outsideRoot).toEqual(["packages/lib/specs/b.sdp.md"])
      expect([...graph.specs.keys()]).toEqual(["spec:app.a"])
    })
  )
})
