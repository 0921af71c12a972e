// The perspective filter (src/core/graph/perspective.ts) criterion by criterion, over the corpus written
// for it (test/fixtures/perspectives, whose README tabulates each member's facts). The graph is read
// once from disk; everything after is the pure filter.
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { composeBundle, isDiagnostics } from "../../src/core/bundle/index.js"
import { factsOf } from "../../src/core/graph/facts.js"
import type { Facts, PackNode } from "../../src/core/model.js"
import type { Perspective } from "../../src/core/graph/perspective.js"
import { BUILT_IN_PERSPECTIVES, idPattern, needsChangeset, perspectiveNames, resolvePerspective, selectMembers } from "../../src/core/graph/perspective.js"
import { readTree } from "../support/tmp.js"

const CORPUS = path.join(import.meta.dirname, "..", "fixtures", "perspectives")
const ALPHA = "spec:lens.alpha"
const BETA = "spec:lens.beta"
const GAMMA = "spec:lens.gamma"
const DELTA = "spec:lens.delta"
const BETA_OK = "spec:lens.beta.ok"
const MISSING = "spec:lens.missing"
const MANIFEST = [ALPHA, BETA, GAMMA, DELTA, BETA_OK, MISSING]

let facts: Facts
let pack: PackNode
beforeAll(async () => {
  const { graph } = await readTree(CORPUS)
  expect(graph.findings).toEqual([])
  facts = factsOf(graph)
  pack = graph.packs.get("pack:lens-v1")!
})

const select = (p: Perspective, impacted?: ReadonlyArray<string>) =>
  selectMembers(facts, pack, p, impacted === undefined ? {} : { impacted: new Set(impacted) })

describe("the fixture is what its README says", () => {
  it("floors, holds and the manifest", () => {
    expect(pack.members).toEqual(MANIFEST)
    expect(MANIFEST.map((id) => facts.floor(id).floorReached)).toEqual(["ready", "scoped", "idea", "scoped", "ready", "none"])
    expect(MANIFEST.map((id) => facts.floor(id).holds.length > 0)).toEqual([false, false, true, true, false, false])
    expect(facts.graph.specs.has(MISSING)).toBe(false)
  })
})

describe("each criterion on its own", () => {
  it("an empty perspective keeps every member in manifest order", () => {
    expect(select({})).toEqual(MANIFEST)
  })

  it("kind, altitude and stated readiness: one value, or a list read as or", () => {
    expect(select({ kind: "behavior" })).toEqual([ALPHA, DELTA])
    expect(select({ kind: ["rule", "decision"] })).toEqual([BETA, GAMMA])
    expect(select({ altitude: "story" })).toEqual([BETA, DELTA, BETA_OK])
    expect(select({ altitude: ["epic", "feature"] })).toEqual([ALPHA, GAMMA])
    expect(select({ readiness: "ready" })).toEqual([BETA])
    expect(select({ readiness: ["idea", "scoped"] })).toEqual([GAMMA, DELTA])
  })

  it("floor reached at least / at most a rung (none < idea < scoped < defined < ready)", () => {
    expect(select({ floorAtLeast: "defined" })).toEqual([ALPHA, BETA_OK])
    expect(select({ floorAtLeast: "scoped" })).toEqual([ALPHA, BETA, DELTA, BETA_OK])
    expect(select({ floorAtMost: "scoped" })).toEqual([BETA, GAMMA, DELTA, MISSING])
    expect(select({ floorAtMost: "none" })).toEqual([MISSING])
    expect(select({ floorAtLeast: "idea", floorAtMost: "idea" })).toEqual([GAMMA])
  })

  it("floor below the stated rung, and its negation", () => {
    expect(select({ floorBelowStated: true })).toEqual([BETA])
    // A member the graph lacks states no rung, so it is not below one.
    expect(select({ floorBelowStated: false })).toEqual([ALPHA, GAMMA, DELTA, BETA_OK, MISSING])
  })

  it("holds present or absent", () => {
    expect(select({ holds: true })).toEqual([GAMMA, DELTA])
    expect(select({ holds: false })).toEqual([ALPHA, BETA, BETA_OK, MISSING])
  })

  it("open questions: any, blocking, none", () => {
    expect(select({ questions: "any" })).toEqual([ALPHA, BETA])
    expect(select({ questions: "blocking" })).toEqual([BETA])
    expect(select({ questions: "none" })).toEqual([GAMMA, DELTA, BETA_OK, MISSING])
  })

  it("implemented or not (an anchored satisfies; a references binding does not count)", () => {
    expect(select({ implemented: true })).toEqual([ALPHA, DELTA])
    expect(select({ implemented: false })).toEqual([BETA, GAMMA, BETA_OK, MISSING])
  })

  it("has a verifier or not (a test anchor, or an enabled example)", () => {
    expect(select({ hasVerifier: true })).toEqual([ALPHA, BETA, BETA_OK])
    expect(select({ hasVerifier: false })).toEqual([GAMMA, DELTA, MISSING])
  })

  it("has enabled examples: delta's draft example is not enabled (no test anchor verifies it)", () => {
    expect(facts.examplesOf(DELTA)).toEqual(["spec:lens.delta.draft"])
    expect(select({ hasEnabledExamples: true })).toEqual([BETA])
    expect(select({ hasEnabledExamples: false })).toEqual([ALPHA, GAMMA, DELTA, BETA_OK, MISSING])
  })

  it("relates to an id by a relation type, out by default, in, or either way", () => {
    expect(select({ relatesTo: { id: ALPHA, type: "dependsOn" } })).toEqual([BETA])
    expect(select({ relatesTo: { id: ALPHA, type: "refines" } })).toEqual([])
    expect(select({ relatesTo: { id: ALPHA, type: "dependsOn", direction: "in" } })).toEqual([])
    expect(select({ relatesTo: { id: BETA_OK, type: "verifies", direction: "in" } })).toEqual([BETA])
    expect(select({ relatesTo: { id: "spec:lens.g*", type: ["decidedBy", "constrainedBy"] } })).toEqual([DELTA])
    // Either way, any type: beta's dependsOn reaches alpha, beta.ok's refines and verifies leave from it.
    expect(select({ relatesTo: { id: BETA, direction: "either" } })).toEqual([ALPHA, BETA_OK])
    expect(select({ relatesTo: { id: [BETA, "spec:lens.base"] } })).toEqual([ALPHA, BETA_OK])
  })

  it("a component layer of a code unit that implements or references the member", () => {
    expect(select({ layer: "edge" })).toEqual([ALPHA])
    expect(select({ layer: "domain" })).toEqual([GAMMA, DELTA])
    expect(select({ layer: ["edge", "domain"] })).toEqual([ALPHA, GAMMA, DELTA])
    expect(select({ layer: "adapter" })).toEqual([])
  })

  it("ids matching a pattern: * matches any run, other characters match themselves", () => {
    expect(select({ ids: "spec:lens.beta*" })).toEqual([BETA, BETA_OK])
    expect(select({ ids: [MISSING, "*.gamma"] })).toEqual([GAMMA, MISSING])
    expect(select({ ids: "spec:lens.beta" })).toEqual([BETA])
    expect(idPattern("spec:a.b")("spec:aXb")).toBe(false)
    expect(idPattern("spec:(a)+*")("spec:(a)+x")).toBe(true)
  })

  it("impacted by a changeset: the ids the caller passes, none when it passes none", () => {
    expect(select({ impacted: true }, [DELTA, "spec:lens.base"])).toEqual([DELTA])
    expect(select({ impacted: false }, [DELTA])).toEqual([ALPHA, BETA, GAMMA, BETA_OK, MISSING])
    expect(select({ impacted: true })).toEqual([])
  })
})

describe("combining and ordering", () => {
  it("criteria combine with and", () => {
    expect(select({ kind: "behavior", implemented: true, layer: "domain" })).toEqual([DELTA])
    expect(select({ altitude: "story", hasVerifier: true })).toEqual([BETA, BETA_OK])
    expect(select({ altitude: "story", hasVerifier: true, questions: "blocking" })).toEqual([BETA])
  })

  it("anyOf: at least one alternative, beside every other criterion", () => {
    expect(select({ anyOf: [{ questions: "blocking" }, { holds: true }] })).toEqual([BETA, GAMMA, DELTA])
    expect(select({ kind: "behavior", anyOf: [{ questions: "blocking" }, { holds: true }] })).toEqual([DELTA])
  })

  it("order floor: least ready first, ties in manifest order", () => {
    expect(select({ order: "floor" })).toEqual([MISSING, GAMMA, BETA, DELTA, ALPHA, BETA_OK])
    expect(select({ order: "manifest" })).toEqual(MANIFEST)
    expect(select({ hasVerifier: true, order: "floor" })).toEqual([BETA, ALPHA, BETA_OK])
  })

  it("a manifest entry written twice is selected once", () => {
    const twice: PackNode = { ...pack, members: [GAMMA, ALPHA, GAMMA] }
    expect(selectMembers(facts, twice, {})).toEqual([GAMMA, ALPHA])
  })
})

describe("the built-ins", () => {
  it("blocked, not-ready, unverified, unimplemented, changed", () => {
    expect(select(BUILT_IN_PERSPECTIVES.blocked!)).toEqual([BETA, GAMMA, DELTA])
    expect(select(BUILT_IN_PERSPECTIVES["not-ready"]!)).toEqual([BETA])
    expect(select(BUILT_IN_PERSPECTIVES.unverified!)).toEqual([GAMMA, DELTA, MISSING])
    expect(select(BUILT_IN_PERSPECTIVES.unimplemented!)).toEqual([BETA, GAMMA, BETA_OK, MISSING])
    expect(select(BUILT_IN_PERSPECTIVES.changed!, [BETA_OK, ALPHA])).toEqual([ALPHA, BETA_OK])
    expect(
      Object.entries(BUILT_IN_PERSPECTIVES)
        .filter(([, p]) => needsChangeset(p))
        .map(([n]) => n)
    ).toEqual(["changed"])
  })
})

describe("resolvePerspective: a request from any entrance", () => {
  const configured: Record<string, Perspective> = { "floor-first": { order: "floor", hasVerifier: true } }

  it("fills pack, members and the perspective's name, and the changeset when one was given", () => {
    expect(resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "not-ready" })).toEqual({
      pack: "pack:lens-v1",
      members: [BETA],
      perspective: "not-ready"
    })
    expect(resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "changed", impacted: [DELTA], changeset: "HEAD~1" })).toEqual({
      pack: "pack:lens-v1",
      members: [DELTA],
      perspective: "changed",
      changeset: "HEAD~1"
    })
    expect(resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "floor-first", perspectives: configured })).toEqual({
      pack: "pack:lens-v1",
      members: [BETA, ALPHA, BETA_OK],
      perspective: "floor-first"
    })
  })

  it("an empty selection is a valid result", () => {
    expect(resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "changed", impacted: [] })).toEqual({
      pack: "pack:lens-v1",
      members: [],
      perspective: "changed"
    })
  })

  it("diagnoses an unknown name with the known ones, changed without a changeset, and a bad Pack", () => {
    const unknown = resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "nope", perspectives: configured })
    expect(unknown).toEqual({
      diagnostics: [
        { scope: "perspective", problem: 'Unknown perspective "nope"; known: blocked, changed, not-ready, unimplemented, unverified, floor-first.' }
      ]
    })
    const changed = resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "changed" })
    expect(isDiagnostics(changed) && changed.diagnostics.map((d) => d.scope)).toEqual(["perspective"])
    expect(isDiagnostics(changed) && changed.diagnostics[0]!.problem).toMatch(/changeset/)
    const both = resolvePerspective(facts, { pack: "pack:nope", perspective: 3 })
    expect(isDiagnostics(both) && both.diagnostics).toEqual([
      { scope: "pack", problem: 'Unknown Pack "pack:nope". Known Packs: pack:lens-v1.' },
      { scope: "perspective", problem: "perspective must be a perspective name, not 3; known: blocked, changed, not-ready, unimplemented, unverified." }
    ])
    const noPack = resolvePerspective(facts, { pack: undefined, perspective: "blocked" })
    expect(isDiagnostics(noPack) && noPack.diagnostics[0]!.scope).toBe("pack")
  })

  it("lists built-ins first, then configured names, and never reads a prototype member as a name", () => {
    expect(perspectiveNames(configured)).toEqual(["blocked", "changed", "not-ready", "unimplemented", "unverified", "floor-first"])
    expect(isDiagnostics(resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "constructor" }))).toBe(true)
  })
})

describe("the composer states the perspective and takes it only beside pack and members", () => {
  it("the selection, spread into the parameters, is the scope", () => {
    const selection = resolvePerspective(facts, { pack: "pack:lens-v1", perspective: "changed", impacted: [DELTA, ALPHA], changeset: "main...HEAD" })
    const value = composeBundle(facts, { ...(selection as object) }) as unknown as { scope: unknown; members: Array<{ id: string }> }
    expect(value.scope).toEqual({ pack: "pack:lens-v1", members: [ALPHA, DELTA], perspective: "changed", changeset: "main...HEAD" })
    expect(Object.keys(value.scope as object)).toEqual(["pack", "members", "perspective", "changeset"])
    expect(value.members.map((m) => m.id)).toEqual([ALPHA, DELTA])
  })

  it("a perspective without members, or not a name, and a changeset beside pack alone are diagnostics", () => {
    const scopes = (params: object) => {
      const r = composeBundle(facts, params)
      return isDiagnostics(r) ? r.diagnostics.map((d) => d.scope) : []
    }
    expect(scopes({ pack: "pack:lens-v1", perspective: "blocked" })).toEqual(["perspective"])
    expect(scopes({ specs: [ALPHA], perspective: "blocked" })).toEqual(["perspective"])
    expect(scopes({ pack: "pack:lens-v1", members: [ALPHA], perspective: 7 })).toEqual(["perspective"])
    expect(scopes({ pack: "pack:lens-v1", members: [ALPHA], changeset: "HEAD" })).toEqual(["changeset"])
    expect(scopes({ pack: "pack:lens-v1", members: [ALPHA], perspective: "x", changeset: "HEAD" })).toEqual([])
  })
})
