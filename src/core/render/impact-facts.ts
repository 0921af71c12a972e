// The graph facts the Markdown impact report shows beside the report: titles, stated readiness and
// the floor reached (evaluated for the rows shown only), and the lines of carriers and anchors
// the reasons link to. Pure.
import type { Graph } from "../model.js"
import { evaluateFloor } from "../graph/readiness.js"
import type { ImpactMarkdownFacts, Located, SpecFacts } from "./impact-markdown.js"
import type { ImpactReport } from "../changes/impact.js"

export const impactMarkdownFacts = (report: ImpactReport, graph: Graph): ImpactMarkdownFacts => {
  // The floor is evaluated when a row asks for it: a capped text shows a few hundred of maybe thousands.
  const memo = new Map<string, SpecFacts | undefined>()
  const specs = {
    get: (id: string): SpecFacts | undefined => {
      if (memo.has(id)) return memo.get(id)
      const s = graph.specs.get(id)
      const facts =
        s === undefined ? undefined : { title: s.title, stated: s.readiness, floor: evaluateFloor(s, graph).floorReached, file: s.file, line: s.line }
      memo.set(id, facts)
      return facts
    }
  }
  const packs = new Map<string, Located>()
  // The at-risk Packs too: the picture (impact-diagram.ts) shows their titles.
  for (const id of [...report.impactedPacks.map((r) => r.id), ...report.atRisk.filter((r) => r.nodeType === "Pack").map((r) => r.id)]) {
    const p = graph.packs.get(id)
    if (p !== undefined) packs.set(id, { title: p.title, file: p.file, line: p.line })
  }
  const anchors = new Map<string, Located>()
  for (const row of [...report.impactedSpecs, ...report.impactedPacks]) {
    for (const r of row.reasons) {
      const a = r.via === null ? undefined : graph.anchors.get(r.via.id)
      if (a !== undefined) anchors.set(a.id, { file: a.file, line: a.line })
    }
  }
  return { specs, packs, anchors }
}
