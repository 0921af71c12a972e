// The drift use case through the library's layer (src/index.ts `layerNode`), without the CLI, in a
// real git repository whose root is a sub-folder: a request as plain data in, the report out (paths
// root-relative), a wrong request as ParameterProblems, the accept's record at the root.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Drift, layerNode } from "../../src/index.js"
import { codeAnchor, makeRepo, specCarrier } from "../support/git.js"

describe("the Drift use case", () => {
  it.effect("reports the drift under a sub-folder root, refuses a wrong request by its tag, and accepts", () =>
    Effect.gen(function* () {
      const repo = makeRepo()
      repo.write("pkg/specs/a.sdp.md", specCarrier("spec:a", "A"))
      repo.write("pkg/specs/b.sdp.md", specCarrier("spec:b", "B", "relations:\n  dependsOn: spec:a"))
      repo.write("pkg/src/a.ts", codeAnchor("impl:a", ["spec:a"]))
      repo.commit("first")
      repo.write("pkg/src/a.ts", `${codeAnchor("impl:a", ["spec:a"])}// later\n`)
      repo.write("other/x.ts", codeAnchor("impl:x", ["spec:a"]))
      const later = repo.commit("code")
      const root = path.join(repo.dir, "pkg")
      const drift = yield* Drift
      const { report } = yield* drift.run({ root })
      expect(report.root).toBe("pkg")
      expect(report.drifted).toEqual([
        {
          id: "spec:a",
          file: "specs/a.sdp.md",
          watermark: { commit: expect.any(String), by: "carrier" },
          reasons: [{ file: "src/a.ts", via: { id: "impl:a", edgeType: "satisfies", claim: "anchored" }, commits: [later] }]
        }
      ])
      const refused = yield* drift.run({ root, changeset: "HEAD" }).pipe(
        Effect.flip,
        Effect.map((e) => e._tag)
      )
      expect(refused).toBe("ParameterProblems")
      const accepted = yield* drift.run({ root, accept: true, specs: ["spec:a"] })
      expect(accepted.report.drifted).toEqual([])
      expect(accepted.accepted).toEqual({ ids: ["spec:a"], commit: later })
      expect(fs.readFileSync(path.join(root, "specbundle.reviews"), "utf8")).toContain(`spec:a\t${later}\n`)
    }).pipe(Effect.provide(layerNode))
  )
})
