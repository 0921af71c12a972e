import { describe, expect, it } from "vitest"
import { factsOf } from "../../src/core/graph/facts.js"
import type { Edge, Graph, SpecKind, SpecNode } from "../../src/core/model.js"
import { CLAUSES, kindEvidenceComplete, kindEvidencePresent } from "../../src/core/graph/readiness.js"
import type { AnyNode, SpecInit } from "../support/nodes.js"
import { anchor, graphOf, gwt, pack, spec } from "../support/nodes.js"

// A `ready` behavior Spec that passes every clause; each test breaks exactly one thing.
const root = spec({ id: "spec:x.root", readiness: "defined", sections: { intent: { outcome: "o" }, behavior: { rules: ["r"] } } })
const subject = (over: Partial<SpecInit> = {}): SpecNode =>
  spec({
    id: "spec:x.s",
    readiness: "ready",
    relations: { refines: "spec:x.root" },
    sections: { intent: { outcome: "The outcome." }, behavior: { rules: ["A rule."] } },
    ...over
  })
const failing = (s: SpecNode, ...others: AnyNode[]): string[] =>
  factsOf(graphOf(s, root, ...others))
    .floor(s.id)
    .floorFailures.map((f) => f.clauseId)

describe("clause table", () => {
  it("lists the thirteen clause ids in table order, each with its own one-line description", () => {
    expect(CLAUSES.map((c) => c.id)).toEqual([
      "id",
      "title",
      "kind",
      "altitude",
      "intent.outcome-or-parent-relation",
      "intent.outcome",
      "at-least-one-relation",
      "kind-evidence-present",
      "kind-evidence-complete",
      "no-blocking-open-questions",
      "all-relations-resolve",
      "typed-dependency-targets-are-defined",
      "anchors-resolve"
    ])
    for (const c of CLAUSES) expect(c.description).toMatch(/^[A-Z][^\n]+\.$/)
    expect(new Set(CLAUSES.map((c) => c.description)).size).toBe(CLAUSES.length)
  })

  it("passes every clause for the honest ready subject", () => {
    expect(failing(subject())).toEqual([])
    expect(factsOf(graphOf(subject(), root)).floor("spec:x.s").floorReached).toBe("ready")
  })

  it("id: fails for an empty id", () => {
    expect(failing(subject({ id: "" }))).toEqual(["id"])
  })

  it("title: fails for a blank title", () => {
    expect(failing(subject({ title: "  " }))).toEqual(["title"])
  })

  it("kind: fails for a missing kind", () => {
    expect(failing(subject({ kind: "" as SpecKind }))[0]).toBe("kind")
  })

  it("altitude: fails for a missing altitude", () => {
    expect(failing(subject({ altitude: undefined as never }))).toEqual(["altitude"])
  })

  it("intent.outcome-or-parent-relation: a refines parent alone passes it, neither fails it", () => {
    expect(failing(subject({ sections: { behavior: { rules: ["r"] } } }))).toEqual(["intent.outcome"])
    const orphan = subject({ relations: { dependsOn: "spec:x.root" }, sections: { behavior: { rules: ["r"] } } })
    expect(failing(orphan)).toEqual(["intent.outcome-or-parent-relation", "intent.outcome"])
    expect(factsOf(graphOf(orphan, root)).floor("spec:x.s").floorReached).toBe("none")
  })

  it("intent.outcome: fails when the outcome is missing even with a parent", () => {
    expect(failing(subject({ sections: { intent: { actor: "a" }, behavior: { rules: ["r"] } } }))).toEqual(["intent.outcome"])
  })

  it("at-least-one-relation: Pack membership does not count as a relation", () => {
    const s = subject({ relations: {} })
    expect(failing(s, pack("pack:p", ["spec:x.s"]))).toEqual(["at-least-one-relation"])
  })

  it("kind-evidence-present: a behavior Spec with no content fails present and complete", () => {
    expect(failing(subject({ sections: { intent: { outcome: "o" } } }))).toEqual(["kind-evidence-present", "kind-evidence-complete"])
  })

  it("kind-evidence-complete: flows alone are present but not complete", () => {
    expect(failing(subject({ sections: { intent: { outcome: "o" }, behavior: { flows: ["f"] } } }))).toEqual(["kind-evidence-complete"])
  })

  it("no-blocking-open-questions: a blocking question fails it, a non-blocking one does not", () => {
    const q = (blocking: boolean) =>
      subject({
        sections: { intent: { outcome: "o", openQuestions: [{ question: "q?", blocking }] }, behavior: { rules: ["r"] } }
      })
    expect(failing(q(true))).toEqual(["no-blocking-open-questions"])
    expect(failing(q(false))).toEqual([])
  })

  it("all-relations-resolve: a target missing from the graph fails it and is no typed-dependency target", () => {
    const f = factsOf(graphOf(subject({ relations: { refines: "spec:x.root", dependsOn: "spec:x.gone" } }), root)).floor("spec:x.s")
    expect(f.floorFailures.map((x) => x.clauseId)).toEqual(["all-relations-resolve"])
    expect(f.floorReached).toBe("defined")
  })

  it("typed-dependency-targets-are-defined: lists distinct low or non-Spec targets by type order then code units", () => {
    const s = subject({
      relations: {
        refines: "spec:x.root",
        dependsOn: ["spec:x.low", "spec:x.Upper", "pack:p"],
        constrainedBy: "spec:x.low",
        verifies: "spec:x.low",
        supersedes: "spec:x.low"
      }
    })
    const low = spec({ id: "spec:x.low", readiness: "scoped" })
    const upper = spec({ id: "spec:x.Upper", readiness: "idea" })
    const f = factsOf(graphOf(s, root, low, upper, pack("pack:p", []))).floor("spec:x.s")
    expect(f.floorFailures).toEqual([
      {
        clauseId: "typed-dependency-targets-are-defined",
        description: expect.any(String),
        targets: [
          { type: "dependsOn", id: "pack:p" },
          { type: "dependsOn", id: "spec:x.Upper", statedReadiness: "idea" },
          { type: "dependsOn", id: "spec:x.low", statedReadiness: "scoped" },
          { type: "constrainedBy", id: "spec:x.low", statedReadiness: "scoped" }
        ]
      }
    ])
  })

  it("typed-dependency-targets-are-defined: a target stating ready or defined passes", () => {
    const ready = spec({ id: "spec:x.r", readiness: "ready" })
    expect(failing(subject({ relations: { refines: "spec:x.root", decidedBy: "spec:x.r" } }), ready)).toEqual([])
  })

  it("anchors-resolve: a binding edge from a node the graph lacks fails it", () => {
    const g = graphOf(subject(), root, anchor({ id: "impl:x.s", satisfies: ["spec:x.s"] }))
    expect(factsOf(g).floor("spec:x.s").floorFailures).toEqual([])
    const ghost: Edge = { from: "test:x.ghost", type: "verifies", to: "spec:x.s", claim: "anchored" }
    const broken: Graph = { ...g, incoming: new Map([...g.incoming, ["spec:x.s", [...(g.incoming.get("spec:x.s") ?? []), ghost]]]) }
    expect(
      factsOf(broken)
        .floor("spec:x.s")
        .floorFailures.map((f) => f.clauseId)
    ).toEqual(["anchors-resolve"])
  })
})

describe("FloorInfo", () => {
  it("reports stated-rung failures in floorFailures and the cumulative next-rung failures in holds", () => {
    const s = subject({
      readiness: "scoped",
      relations: {},
      sections: { intent: { outcome: "o", openQuestions: [{ question: "q", blocking: true }] }, behavior: { flows: ["f"] } }
    })
    const f = factsOf(graphOf(s)).floor("spec:x.s")
    expect(f.floorReached).toBe("idea")
    expect(f.statedNextRung).toBe("defined")
    expect(f.floorFailures.map((x) => x.clauseId)).toEqual(["at-least-one-relation"])
    expect(f.holds.map((x) => x.clauseId)).toEqual(["at-least-one-relation", "kind-evidence-complete", "no-blocking-open-questions"])
  })

  it("has no next rung and empty holds at ready, even when the floor fails", () => {
    const f = factsOf(graphOf(subject({ relations: {} }))).floor("spec:x.s")
    expect(f.statedNextRung).toBeNull()
    expect(f.holds).toEqual([])
    expect(f.floorFailures.map((x) => x.clauseId)).toEqual(["at-least-one-relation"])
  })
})

describe("kind evidence (format 8.3)", () => {
  const evidence = (s: SpecNode, ...others: AnyNode[]): [boolean, boolean] => {
    const g = graphOf(s, ...others)
    return [kindEvidencePresent(s, g), kindEvidenceComplete(s, g)]
  }
  const of = (kind: SpecKind, sections: SpecNode["sections"], over: Partial<SpecInit> = {}) => spec({ id: "spec:k.s", kind, sections, ...over })

  for (const kind of ["behavior", "workflow", "contract"] as const) {
    describe(kind, () => {
      it("is present and complete with inline rules or examples", () => {
        expect(evidence(of(kind, { behavior: { rules: ["r"] } }))).toEqual([true, true])
        expect(evidence(of(kind, { behavior: { examples: ["prose"] } }))).toEqual([true, true])
      })
      it("is present but not complete with flows or constraints alone", () => {
        expect(evidence(of(kind, { behavior: { flows: ["f"] } }))).toEqual([true, false])
        expect(evidence(of(kind, { constraints: [{ statement: "s" }] }))).toEqual([true, false])
      })
      it("is present through a constrainedBy constraint Spec that carries constraints, never complete", () => {
        const s = of(kind, {}, { relations: { constrainedBy: "spec:k.c" } })
        const full = spec({ id: "spec:k.c", kind: "constraint", sections: { constraints: [{ statement: "fast" }] } })
        const empty = spec({ id: "spec:k.c", kind: "constraint" })
        const rule = spec({ id: "spec:k.c", kind: "rule", sections: { constraints: [{ statement: "fast" }] } })
        expect(evidence(s, full)).toEqual([true, false])
        expect(evidence(s, empty)).toEqual([false, false])
        expect(evidence(s, rule)).toEqual([false, false])
      })
      it("is present and complete through a promoted rule or example child carrying its own evidence", () => {
        const s = of(kind, { behavior: { exampleSpace: gwt(["g"], ["w"], ["t"]) } })
        const ruleChild = spec({ id: "spec:k.s.r", kind: "rule", relations: { refines: "spec:k.s" }, sections: { behavior: { rules: ["r"] } } })
        const exampleChild = spec({ id: "spec:k.s.e", kind: "example", relations: { refines: "spec:k.s" }, sections: { behavior: { examples: ["e"] } } })
        const stub = spec({ id: "spec:k.s.e", kind: "example", relations: { refines: "spec:k.s" } })
        const verifierOnly = spec({ id: "spec:k.s.e", kind: "example", relations: { verifies: "spec:k.s" }, sections: { behavior: { examples: ["e"] } } })
        const behaviorChild = spec({ id: "spec:k.s.b", relations: { refines: "spec:k.s" }, sections: { behavior: { rules: ["r"] } } })
        expect(evidence(s)).toEqual([false, false])
        expect(evidence(s, ruleChild)).toEqual([true, true])
        expect(evidence(s, exampleChild)).toEqual([true, true])
        expect(evidence(s, stub)).toEqual([false, false])
        expect(evidence(s, verifierOnly)).toEqual([false, false])
        expect(evidence(s, behaviorChild)).toEqual([false, false])
      })
    })
  }

  it("rule: needs behavior.rules for both cells", () => {
    expect(evidence(of("rule", { behavior: { rules: ["r"] } }))).toEqual([true, true])
    expect(evidence(of("rule", { behavior: { flows: ["f"] } }))).toEqual([false, false])
  })

  it("constraint: present with entries, complete only when every entry has a target", () => {
    expect(evidence(of("constraint", { constraints: [{ statement: "s" }] }))).toEqual([true, false])
    expect(evidence(of("constraint", { constraints: [{ statement: "s", target: "p95<800ms" }] }))).toEqual([true, true])
    expect(evidence(of("constraint", {}))).toEqual([false, false])
  })

  it("model: needs at least one term for both cells", () => {
    expect(evidence(of("model", { model: { terms: { loan: "a loan" } } }))).toEqual([true, true])
    expect(evidence(of("model", { model: { description: "d", terms: {} } }))).toEqual([false, false])
  })

  it("decision: present with a decision section, complete once the decision is written", () => {
    expect(evidence(of("decision", { decision: { context: "c" } }))).toEqual([true, false])
    expect(evidence(of("decision", { decision: { context: "c", decision: "d" } }))).toEqual([true, true])
    expect(evidence(of("decision", {}))).toEqual([false, false])
  })

  describe("example (the concreteness law)", () => {
    const parent = spec({
      id: "spec:k.p",
      sections: {
        behavior: {
          exampleSpace: gwt(
            ["a member with {fines:number} fines", 'a member who is {status:"active"|"lapsed"}'],
            ["the member borrows"],
            ["the loan is {ok:boolean}", "the note reads {note:string}"]
          )
        }
      }
    })
    const example = (given: string[], then: string[] = ["the loan is {ok: true}"], refines = true) =>
      spec({
        id: "spec:k.e",
        kind: "example",
        relations: refines ? { refines: "spec:k.p" } : {},
        sections: { behavior: { examples: [gwt(given, ["the member borrows"], then)] } }
      })

    it("is present with a prose example but complete only with a structured one", () => {
      expect(evidence(of("example", { behavior: { examples: ["a prose example"] } }))).toEqual([true, false])
      expect(evidence(of("example", {}))).toEqual([false, false])
    })

    it("is complete when every used step is bound and fits the parent vocabulary", () => {
      expect(evidence(example(["a member with {fines: 0} fines", 'a member who is {status: "active"}']), parent)).toEqual([true, true])
      expect(evidence(example(["a member with {fines: 2} fines"], ['the note reads {note: "ok"}']), parent)).toEqual([true, true])
    })

    it("is not complete with a bare, typed or malformed slot in any phase", () => {
      expect(evidence(example(["a member with {fines} fines"]), parent)[1]).toBe(false)
      expect(evidence(example(["a member with {fines:number} fines"]), parent)[1]).toBe(false)
      expect(evidence(example(["a member with {fines: lots} fines"]), parent)[1]).toBe(false)
      expect(evidence(example(["a member with {fines: 1} fines"], ["the loan is {ok}"]), parent)[1]).toBe(false)
    })

    it("is not complete when a step's skeleton is not in the parent vocabulary", () => {
      expect(evidence(example(["a member with {debts: 0} fines"]), parent)[1]).toBe(false)
      expect(evidence(example(["a stranger arrives"]), parent)[1]).toBe(false)
    })

    it("is not complete when a bound value does not fit the declared type", () => {
      expect(evidence(example(['a member with {fines: "none"} fines']), parent)[1]).toBe(false)
      expect(evidence(example(['a member who is {status: "banned"}']), parent)[1]).toBe(false)
      expect(evidence(example(["a member with {fines: 0} fines"], ["the loan is {ok: 1}"]), parent)[1]).toBe(false)
    })

    it("only checks binding when no refines parent owns an example space", () => {
      expect(evidence(example(["anything with {n: 3}"], ["done"], false), parent)).toEqual([true, true])
      expect(evidence(example(["anything with {n}"], ["done"], false), parent)).toEqual([true, false])
    })
  })
})
