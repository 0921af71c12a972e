// Test factories for graph nodes: write only what a test is about, the rest gets a lawful default.
//
//   spec({ id: "spec:a.b", kind: "rule", relations: { refines: "spec:a" } })  -> SpecNode
//   pack("pack:p", ["spec:a", "spec:a.b"])                                       -> PackNode
//   anchor({ id: "impl:a.b", satisfies: ["spec:a.b"], component: "component:a" }) -> AnchorNode
//   gwt(["given step"], ["when step"], ["then step"])                           -> Gwt
//   graphOf(node, node, ...)  -> buildGraph over one CarrierRead per file (nodes grouped by `file`)
//   readsOf(node, ...)        -> those CarrierReads, for tests that add findings or refusals
//
// Defaults:
// - spec: kind "behavior", altitude "feature", readiness "idea", title "Title of <id>",
//   narrative null, file "specs/<id without spec:>.sdp.md", line 2, sections {}, locations {}.
//   `relations` takes either AuthoredRelation[] (authored order as given) or an object
//   `{ refines: "spec:x", dependsOn: ["spec:y", "spec:z"] }` (key order, then list order).
// - pack: title "Title of <id>", framing "", file "specs/<name>.pack.sdp.md", line 2, modelRefs [].
// - anchor: nodeType and flavor from the namespace (impl/api/component: CodeNode "code";
//   test: Anchor "test"; oracle: Anchor "oracle"), form "constant", label null, file
//   "src/<name>.ts" (code) or "test/<name>.test.ts" (test/oracle), line 1, empty target lists,
//   component/role/layer/context null.
import { buildGraph } from "../../src/core/graph/graph.js"
import type { AnchorNode, AuthoredRelation, CarrierRead, Graph, Gwt, PackNode, RelationType, SpecNode } from "../../src/core/model.js"

export type RelationsInit = Partial<Record<RelationType, string | ReadonlyArray<string>>>

export type SpecInit = Partial<Omit<SpecNode, "relations">> & {
  readonly id: string
  readonly relations?: RelationsInit | ReadonlyArray<AuthoredRelation>
}

const localName = (id: string): string => id.slice(id.indexOf(":") + 1)

const toRelations = (init: SpecInit["relations"]): ReadonlyArray<AuthoredRelation> => {
  if (init === undefined) return []
  if (Array.isArray(init)) return init as ReadonlyArray<AuthoredRelation>
  const out: AuthoredRelation[] = []
  for (const [type, targets] of Object.entries(init as RelationsInit)) {
    if (targets === undefined) continue
    for (const to of typeof targets === "string" ? [targets] : targets) out.push({ type: type as RelationType, to })
  }
  return out
}

export const spec = (init: SpecInit): SpecNode => ({
  kind: "behavior",
  altitude: "feature",
  readiness: "idea",
  title: `Title of ${init.id}`,
  narrative: null,
  file: `specs/${localName(init.id)}.sdp.md`,
  line: 2,
  sections: {},
  locations: {},
  ...init,
  relations: toRelations(init.relations)
})

export const pack = (id: string, members: ReadonlyArray<string>, init: Partial<PackNode> = {}): PackNode => ({
  id,
  title: `Title of ${id}`,
  framing: "",
  file: `specs/${localName(id)}.pack.sdp.md`,
  line: 2,
  members,
  modelRefs: [],
  ...init
})

export const anchor = (init: Partial<AnchorNode> & { readonly id: string }): AnchorNode => {
  const ns = init.id.slice(0, init.id.indexOf(":"))
  const code = ns === "impl" || ns === "api" || ns === "component"
  return {
    nodeType: code ? "CodeNode" : "Anchor",
    flavor: code ? "code" : ns === "oracle" ? "oracle" : "test",
    form: "constant",
    label: null,
    file: code ? `src/${localName(init.id)}.ts` : `test/${localName(init.id)}.test.ts`,
    line: 1,
    satisfies: [],
    verifies: [],
    models: [],
    references: [],
    component: null,
    uses: [],
    role: null,
    layer: null,
    context: null,
    ...init
  }
}

export const gwt = (given: ReadonlyArray<string>, when: ReadonlyArray<string>, then: ReadonlyArray<string>): Gwt => ({
  given,
  when,
  then
})

export type AnyNode = SpecNode | PackNode | AnchorNode

const isAnchor = (n: AnyNode): n is AnchorNode => "nodeType" in n
const isPack = (n: AnyNode): n is PackNode => "members" in n

/** One CarrierRead per distinct file, nodes in the order given. */
export const readsOf = (...nodes: ReadonlyArray<AnyNode>): CarrierRead[] => {
  const byFile = new Map<string, { specs: SpecNode[]; packs: PackNode[]; anchors: AnchorNode[] }>()
  for (const n of nodes) {
    let read = byFile.get(n.file)
    if (read === undefined) byFile.set(n.file, (read = { specs: [], packs: [], anchors: [] }))
    if (isAnchor(n)) read.anchors.push(n)
    else if (isPack(n)) read.packs.push(n)
    else read.specs.push(n)
  }
  return [...byFile].map(([file, r]) => ({ file, ...r, findings: [] }))
}

export const graphOf = (...nodes: ReadonlyArray<AnyNode>): Graph => buildGraph(readsOf(...nodes))
