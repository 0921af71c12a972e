// Mermaid itself, in-process: the registry package (a pinned devDependency) on a jsdom window, as
// a page has it. mermaid.parse() reads the text; mermaid.render() draws it as a browser would (with
// a fixed size for each text box, since jsdom lays nothing out), so a label is read back from the
// SVG it draws: the text a reader sees, after every pass Mermaid makes over it (entity codes,
// DOMPurify, icons, maths, <br>).
import { JSDOM } from "jsdom"

const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true })
const { window } = dom
// DOMPurify looks for `window` when it is first imported (by mermaid, below); render() also
// wants a document, the DOM classes and a stylesheet constructor as globals.
const globals = globalThis as Record<string, unknown>
globals.window = window
globals.document = window.document
for (const name of ["Element", "HTMLElement", "SVGElement", "Node", "DOMParser", "XMLSerializer", "MutationObserver", "CSSStyleSheet", "getComputedStyle"])
  if (!(name in globals)) globals[name] = (window as unknown as Record<string, unknown>)[name]
const svgProto = (window as unknown as { SVGElement: { prototype: Record<string, unknown> } }).SVGElement.prototype
svgProto.getBBox = () => ({ x: 0, y: 0, width: 80, height: 20 })
svgProto.getComputedTextLength = () => 80
const { default: mermaid } = await import("mermaid")

export interface MermaidNode {
  readonly id: string
  /** The shape Mermaid read: square, round, subroutine, … */
  readonly type: string
  readonly classes: ReadonlyArray<string>
  /** The label's lines as the drawn picture shows them. */
  readonly lines: ReadonlyArray<string>
}

export interface MermaidGraph {
  readonly diagramType: string
  readonly nodes: ReadonlyArray<MermaidNode>
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string; readonly stroke: string }>
}

/** Throws Mermaid's parse error (with its line) when the text is not a diagram it accepts. */
export const parseMermaid = async (text: string): Promise<string> => (await mermaid.parse(text)).diagramType

interface FlowVertex {
  id: string
  type?: string
  classes: string[]
}

interface FlowEdge {
  start: string
  end: string
  stroke: string
}

let renders = 0

/** The text without the word joiners (U+2060) the renderer's escaping may put in: they show nothing. */
const visible = (text: string): string => text.replaceAll("\u2060", "")

/** Each node's label lines in the SVG Mermaid draws for `text` (HTML labels, Mermaid's default, or SVG text). */
export const drawnLabels = async (text: string, htmlLabels = true): Promise<Map<string, string[]>> => {
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict", htmlLabels, flowchart: { htmlLabels } })
  const id = `d${++renders}`
  const { svg } = await mermaid.render(id, text)
  const holder = window.document.createElement("div")
  holder.innerHTML = svg
  const labels = new Map<string, string[]>()
  for (const g of holder.querySelectorAll("g.node")) {
    // <g id="d1-flowchart-n3-2">: the node id is the part after the diagram's.
    const nodeId = g.id.slice(`${id}-flowchart-`.length).replace(/-\d+$/, "")
    const label = g.querySelector(htmlLabels ? "span.nodeLabel" : "text")
    if (label === null) throw new Error(`no label drawn for ${nodeId}`)
    if (htmlLabels) {
      const lines = label.innerHTML.replace(/^<p>|<\/p>$/g, "").split(/<br\s*\/?>/i)
      labels.set(
        nodeId,
        lines.map((html) => {
          const part = window.document.createElement("span")
          part.innerHTML = html
          return visible(part.textContent ?? "")
        })
      )
    } else
      labels.set(
        nodeId,
        [...label.querySelectorAll("tspan.text-outer-tspan")].map((t) => visible(t.textContent ?? ""))
      )
  }
  return labels
}

/** The flowchart as Mermaid's parser read it, each label as Mermaid draws it. */
export const readFlowchart = async (text: string): Promise<MermaidGraph> => {
  const diagramType = await parseMermaid(text)
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text)
  const db = diagram.db as unknown as { getVertices(): Map<string, FlowVertex>; getEdges(): FlowEdge[] }
  const drawn = await drawnLabels(text)
  const nodes = [...db.getVertices().values()].map((v) => ({ id: v.id, type: v.type ?? "", classes: [...v.classes], lines: drawn.get(v.id) ?? [] }))
  const edges = db.getEdges().map((e) => ({ from: e.start, to: e.end, stroke: e.stroke }))
  return { diagramType, nodes, edges }
}
