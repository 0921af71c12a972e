// The manifest Schema (src/core/manifest.ts): what `--out` writes is what `stale` reads back, and a
// hand-edited manifest is refused with one line naming the key.
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { manifestText, parseManifest } from "../../src/core/manifest.js"

const HEX = "a".repeat(64)
const manifest = {
  scope: { pack: "pack:p", members: ["spec:a"] },
  budget: 16000,
  declarations: "whole",
  parts: [{ file: "part-001.json", hash: `sha256:${HEX}`, used: 1234 }],
  builtFrom: { root: "/r", exclude: ["vendor"], config: null, commit: null, dirty: null, graphDigest: HEX, files: [{ path: "specs/a.sdp.md", hash: HEX }] }
}

const left = <A>(e: Result.Result<A, string>): string => Result.getOrThrowWith(Result.flip(e), () => new Error("decoded"))

describe("manifest Schema", () => {
  it("writes indented JSON that reads back equal, the Pack subset scope whole", () => {
    const text = Result.getOrThrow(manifestText(manifest))
    expect(text).toBe(`${JSON.stringify(manifest, null, 2)}\n`)
    expect(Result.getOrThrow(parseManifest(text))).toEqual(manifest)
    const specs = { ...manifest, scope: { specs: ["spec:a"], changeset: "HEAD~1" } }
    expect(Result.getOrThrow(parseManifest(Result.getOrThrow(manifestText(specs)))).scope).toEqual(specs.scope)
  })

  it("refuses a hand-edited manifest with one line naming the key", () => {
    type Loose = { [key: string]: any }
    const edit = (f: (m: Loose) => void): string => {
      const m: Loose = structuredClone(manifest)
      f(m)
      return left(parseManifest(JSON.stringify(m)))
    }
    expect(edit((m) => (m.builtFrom.exclude = [5]))).toMatch(/^builtFrom\.exclude\.0: Expected string/)
    expect(edit((m) => delete m.builtFrom.files[0].hash)).toMatch(/^builtFrom\.files\.0\.hash: is missing/)
    expect(edit((m) => (m.extra = 1))).toBe("extra: unknown key")
    expect(edit((m) => (m.parts[0].hash = HEX))).toMatch(/^parts\.0\.hash: /)
    expect(edit((m) => (m.builtFrom.exclude = JSON.parse("[".repeat(3000) + "]".repeat(3000))))).toMatch(/nests deeper than 32 levels/)
    expect(left(parseManifest("{"))).toBe("invalid JSON")
    for (const line of [edit((m) => (m.declarations = "all")), edit((m) => (m.budget = 0))]) expect(line).not.toContain("\n")
  })

  it("refuses to write a value that is not a manifest", () => {
    expect(left(manifestText({ ...manifest, budget: "S" }))).toMatch(/^budget: /)
  })
})
