// The request Schemas (src/usecases/requests.ts): what the library's request types say is what the
// use cases accept, a number where the CLI gives text included; the entrances' derivations keep
// each field's name, words and choice list.
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as path from "node:path"
import { DECLARATIONS } from "../../src/core/bundle/types.js"
import { IMPACT_FORMATS } from "../../src/core/render/outputs.js"
import { Bundler } from "../../src/usecases/Bundler.js"
import { FLAG_NAMES } from "../../src/entrances/cli/flags.js"
import { impactProblems } from "../../src/usecases/Changes.js"
import { Corpus } from "../../src/usecases/Corpus.js"
import { BundleRequest, ImpactRequest, requestOf } from "../../src/usecases/requests.js"
import { TestRuntime } from "../support/runtime.js"

const EXAMPLE = path.resolve("examples/bike-dock")
const Live = Layer.mergeAll(Bundler.Default, Corpus.Default).pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime)))

describe("request types", () => {
  it.effect("a number budget and part compose as their text does (the types say string or number)", () =>
    Effect.gen(function* () {
      const bundler = yield* Bundler
      const asNumbers: BundleRequest = { root: EXAMPLE, pack: "pack:rides-v1", budget: 4000, part: 2 }
      const asText: BundleRequest = { root: EXAMPLE, pack: "pack:rides-v1", budget: "4000", part: "2" }
      const a = yield* bundler.bundle(asNumbers)
      const b = yield* bundler.bundle(asText)
      expect(JSON.parse(a.text).part.index).toBe(2)
      expect(a.text).toBe(b.text)
    }).pipe(Effect.provide(Live))
  )

  it("declarations is the composer's list, and a program cannot name another", () => {
    // @ts-expect-error: the type holds "whole" | "addresses", the composer's DECLARATIONS
    const wrong: BundleRequest = { root: ".", declarations: "all" }
    const decode = Schema.decodeUnknownResult(BundleRequest)
    expect(Result.isFailure(decode(wrong))).toBe(true)
    for (const declarations of DECLARATIONS) expect(Result.isSuccess(decode({ root: ".", declarations }))).toBe(true)
    expect(Result.isSuccess(decode({ root: ".", budget: 4000 }))).toBe(true)
    expect(Result.isFailure(decode({ root: ".", budget: true }))).toBe(true)
  })

  it("the JSON Schema of a request shows each choice list as an enum, the core's own constant", () => {
    const document = Schema.toJsonSchemaDocument(ImpactRequest).schema as { properties: Record<string, { enum?: ReadonlyArray<string> }> }
    expect(document.properties.format.enum).toEqual([...IMPACT_FORMATS])
    const bundle = Schema.toJsonSchemaDocument(BundleRequest).schema as { properties: Record<string, { enum?: ReadonlyArray<string> }> }
    expect(bundle.properties.declarations.enum).toEqual([...DECLARATIONS])
  })

  it("requestOf keeps the request's own fields that are given, and nothing else", () => {
    const args = { root: "r", pack: "p", members: undefined, quiet: true, out: "dir", budget: "M" }
    expect(requestOf(BundleRequest, args)).toEqual({ root: "r", pack: "p", budget: "M" })
  })
})

describe("impact requests: the link base's rule, once for every entrance", () => {
  it("refuses a link base that is no http(s) URL, and one beside another format, naming the field as the caller spells it", () => {
    const base = { root: ".", changeset: "HEAD" } as const
    expect(impactProblems({ ...base, format: "markdown", linkBase: "https://github.com/o/r/blob/a32ce65" }, FLAG_NAMES)).toEqual([])
    expect(impactProblems({ ...base, format: "markdown", linkBase: "notaurl" }, FLAG_NAMES)).toEqual([
      { scope: "link-base", problem: '--link-base must be an http(s) URL such as https://github.com/OWNER/REPO/blob/SHA/, not "notaurl".' }
    ])
    expect(impactProblems({ ...base, format: "json", linkBase: "https://x.example/" }, FLAG_NAMES)).toEqual([
      { scope: "link-base", problem: "--link-base goes with --format markdown." }
    ])
    // The library's spelling, the fields themselves (the MCP tools' too).
    expect(impactProblems({ ...base, format: "json", linkBase: "https://x.example/" })).toEqual([
      { scope: "linkBase", problem: "linkBase goes with format markdown." }
    ])
    // A program's request renders nothing: its link base is only checked.
    expect(impactProblems({ ...base, linkBase: "notaurl" })).toEqual([
      { scope: "linkBase", problem: 'linkBase must be an http(s) URL such as https://github.com/OWNER/REPO/blob/SHA/, not "notaurl".' }
    ])
  })
})
