// The impact picture at the top of the Markdown report: a Mermaid flowchart (left to right) of the
// changed files, the Specs they impact, then the Packs (impacted through their manifest, or at risk
// through a member) and the Specs at risk one hop away, drawn dashed. At most MAX_NODES nodes: a
// column that does not fit shows its first nodes and one count node ("+12 more files") that takes
// the edges of the rest. Node ids are generated (n1, n2, …); corpus text only ever appears inside a
// quoted label, escaped with Mermaid's entity codes. Deterministic text. Pure.
import type { AtRiskRow, ImpactReport } from "../changes/impact.js"
import { byCodeUnits } from "../model.js"
import { counted, noun } from "../plural.js"

/** Nodes in one picture, count nodes included: past ~40 a flowchart in a comment is too small to read. */
export const MAX_NODES = 40
/** Characters of one label line (an id, a title, a path) shown before the rest is cut with an ellipsis. */
export const LABEL_MAX = 60

/** The titles the labels show beside the ids (ImpactMarkdownFacts has this shape). */
export interface DiagramTitles {
  readonly specs: { get(id: string): { readonly title: string } | undefined }
  readonly packs: { get(id: string): { readonly title?: string } | undefined }
}

export interface ImpactDiagramOptions {
  readonly maxNodes?: number
  /** The text's longest length: past it the picture shows fewer nodes, down to one count node per column, or nothing. */
  readonly maxChars?: number
}

// Mermaid-safe text. Inside a quoted label only `"` ends the string, but Mermaid reads more than
// its parser does: `#name;` entity codes, HTML (`<b>`, `<br>`), `%%{…}%%` directives anywhere in
// the text, and a `style …:…#…;` line loses its `;`. So every ASCII character outside letters,
// digits, space and plain punctuation becomes a numeric entity code (`#34;`), which Mermaid turns
// into an HTML character reference after parsing.
const SAFE_ASCII = /^[A-Za-z0-9 .,\-_()'?!/+*]$/
// Drawing a label, Mermaid reads the text again after DOMPurify has decoded those references:
// `$$…$$` becomes maths, `fa:fa-x` an icon, and its own entity placeholders (`ﬂ°°35¶ß`) become
// `&`, `&#` and `;`. An invisible word joiner (U+2060) inside each such pair leaves nothing to act
// on and changes nothing a reader sees.
const JOINER = "\u2060"
const defuse = (text: string): string => text.replace(/\$(?=\$)|\uFB02(?=\u00B0)|\u00B6(?=\u00DF)|(?<=fa[bklrs]?):(?=fa-)/g, (c) => c + JOINER)

/** One line: control characters and line or paragraph separators become a space. */
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim()

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff

/** The text as a reader sees it in a label: one line, at most `max` code units, cut at the end (or, for a path, at the start). */
export const labelText = (text: string, max = LABEL_MAX, from: "end" | "start" = "end"): string => {
  const line = oneLine(text)
  if (line.length <= max) return line
  if (from === "end") {
    let end = max - 1
    if (isHighSurrogate(line.charCodeAt(end - 1))) end -= 1
    return `${line.slice(0, end)}…`
  }
  let start = line.length - (max - 1)
  if (isHighSurrogate(line.charCodeAt(start - 1))) start += 1
  return `…${line.slice(start)}`
}

/** Text for inside a quoted Mermaid label, drawn as it reads: ASCII punctuation as numeric entity codes, and the pairs Mermaid would act on split. */
export const mermaidEscape = (text: string): string => {
  let out = ""
  for (const ch of defuse(text)) {
    const code = ch.codePointAt(0)!
    out += code >= 0x80 || SAFE_ASCII.test(ch) ? ch : `#${code};`
  }
  return out
}

/** Where a label breaks its line (Mermaid keeps `<br/>` in every security level). */
export const LINE_BREAK = "<br/>"

type Kind = "file" | "spec" | "pack" | "riskSpec" | "riskPack"

/**
 * The whole picture before the cap: the nodes (files, then impacted Specs, then Packs and at-risk
 * nodes), where each column starts, and the edges as pairs of node indices, `risk` when dashed.
 * Indices, not keys: a report may hold tens of thousands of rows, and only the drawn ones are labelled.
 */
interface Picture {
  readonly kinds: ReadonlyArray<Kind>
  /** A file's path, or a Spec's or Pack's id. */
  readonly names: ReadonlyArray<string>
  readonly starts: readonly [number, number, number, number]
  readonly from: ReadonlyArray<number>
  readonly to: ReadonlyArray<number>
  readonly risk: ReadonlyArray<boolean>
}

/** A node's label lines as the reader sees them, not yet escaped; asked only of the nodes drawn (a title may cost a look-up). */
const linesOf = (kind: Kind, name: string, titles: DiagramTitles): string[] => {
  if (kind === "file") return [labelText(name, LABEL_MAX, "start")]
  const title = labelText((kind === "spec" || kind === "riskSpec" ? titles.specs.get(name)?.title : titles.packs.get(name)?.title) ?? "")
  return title === "" ? [labelText(name)] : [labelText(name), title]
}

const pictureOf = (report: ImpactReport): Picture => {
  const { impactedSpecs, impactedPacks } = report
  const paths = new Set<string>()
  for (const row of impactedSpecs) for (const r of row.reasons) paths.add(r.file)
  for (const row of impactedPacks) for (const r of row.reasons) paths.add(r.file)
  const files = [...paths].sort(byCodeUnits)
  const fileAt = new Map(files.map((f, i) => [f, i]))
  const kinds: Kind[] = files.map(() => "file")
  const names: string[] = [...files]
  const from: number[] = []
  const to: number[] = []
  const risk: boolean[] = []
  const edge = (a: number, b: number, dashed: boolean) => {
    from.push(a)
    to.push(b)
    risk.push(dashed)
  }
  const add = (kind: Kind, name: string) => {
    kinds.push(kind)
    names.push(name)
  }
  const specStart = kinds.length
  for (const row of impactedSpecs) {
    for (const r of row.reasons) edge(fileAt.get(r.file)!, kinds.length, false)
    add("spec", row.id)
  }
  const rightStart = kinds.length
  for (const row of impactedPacks) {
    for (const r of row.reasons) edge(fileAt.get(r.file)!, kinds.length, false)
    add("pack", row.id)
  }
  // At risk: a Spec or Pack one hop from an impacted one (drawnRisk); the edge runs from the
  // impacted side, whichever way the relation points.
  const impacted = new Map<string, number>()
  impactedSpecs.forEach((row, i) => impacted.set(row.id, specStart + i))
  impactedPacks.forEach((row, i) => impacted.set(row.id, rightStart + i))
  for (const [row, seedIds] of drawnRisk(report)) {
    const seeds = [...new Set(seedIds.map((id) => impacted.get(id)!))].sort((a, b) => a - b)
    for (const seed of seeds) edge(seed, kinds.length, true)
    add(row.nodeType === "Primitive" ? "riskSpec" : "riskPack", row.id)
  }
  return { kinds, names, starts: [0, specStart, rightStart, kinds.length], from, to, risk }
}

/**
 * The at-risk rows the picture draws, each with the impacted ids it hangs from: Specs and Packs
 * one hop from an impacted Spec or Pack. Anchors and code units are not drawn (the files column
 * holds files), nor a node at risk only through a removed id (removed ids are not drawn): the
 * Markdown count line says how many of its at-risk rows the picture holds.
 */
export const drawnRisk = (report: ImpactReport): Array<readonly [AtRiskRow, string[]]> => {
  const impacted = new Set([...report.impactedSpecs.map((r) => r.id), ...report.impactedPacks.map((r) => r.id)])
  const out: Array<readonly [AtRiskRow, string[]]> = []
  for (const row of report.atRisk) {
    if (row.nodeType !== "Primitive" && row.nodeType !== "Pack") continue
    const seeds = row.reasons.map((r) => (r.from === row.id ? r.to : r.from)).filter((id) => impacted.has(id))
    if (seeds.length > 0) out.push([row, seeds])
  }
  return out
}

/**
 * Nodes per column under `cap`: a column shorter than an even share gets all it has, and the
 * others split the rest evenly, the Specs' column taking what does not divide.
 */
const shares = (sizes: readonly [number, number, number], cap: number): [number, number, number] => {
  const out: [number, number, number] = [0, 0, 0]
  let open = ([0, 1, 2] as const).filter((c) => sizes[c] > 0)
  let left = cap
  for (;;) {
    const even = Math.floor(left / open.length)
    const short = open.filter((c) => sizes[c] <= even)
    if (short.length === 0) break
    for (const c of short) {
      out[c] = sizes[c]
      left -= sizes[c]
    }
    open = open.filter((c) => sizes[c] > even)
    if (open.length === 0) return out
  }
  for (const c of open) out[c] = Math.floor(left / open.length)
  out[open.includes(1) ? 1 : open[0]] += left % open.length
  return out
}

const NOUNS: Readonly<Record<Kind, string>> = { file: "file", spec: "Spec", pack: "Pack", riskSpec: "at-risk Spec", riskPack: "at-risk Pack" }

/** "+12 more files", "30 Specs" (the whole column folded), "+7 more: 2 Packs, 5 at-risk Specs". */
const countLabel = (folded: ReadonlyMap<Kind, number>, shown: number): string => {
  const parts = [...folded].map(([kind, n]) => counted(n, NOUNS[kind]))
  if (shown === 0) return parts.join(", ")
  const total = [...folded.values()].reduce((a, b) => a + b, 0)
  if (folded.size > 1) return `+${total} more: ${parts.join(", ")}`
  const [kind] = folded.keys()
  return `+${total} more ${noun(total, NOUNS[kind])}`
}

// Files square, Specs rounded, Packs square with a heavy border (the `pack` class). Only
// rectangles: Mermaid's polygon shapes (`[[…]]`, `{{…}}`) can fail the whole drawing on an edge it
// cannot clip to them when a label holds an entity code.
const SHAPES: Readonly<Record<Kind, readonly [string, string]>> = {
  file: ['["', '"]'],
  spec: ['("', '")'],
  pack: ['["', '"]'],
  riskSpec: ['("', '")'],
  riskPack: ['["', '"]']
}

const HEAD = [
  "flowchart LR",
  "  accTitle: What the change impacts",
  "  accDescr: Changed files, the Specs they impact, then the Packs; dashed, the Specs and Packs at risk one hop away."
]
// Dark text on a light fill, so an at-risk node reads in a dark theme too; dashed, so not by colour alone.
const RISK_CLASS = "  classDef risk fill:#fff8c5,stroke:#9a6700,color:#1f2328,stroke-dasharray:4 3"
const PACK_CLASS = "  classDef pack stroke-width:3px"
const MORE_CLASS = "  classDef more font-style:italic"

/** The Mermaid text with at most `cap` nodes (cap at least one per non-empty column). */
const render = (picture: Picture, titles: DiagramTitles, cap: number): string => {
  const { kinds, names, starts, from, to, risk } = picture
  const sizes = [0, 1, 2].map((c) => starts[c + 1] - starts[c]) as [number, number, number]
  const room = sizes[0] + sizes[1] + sizes[2] <= cap ? sizes : shares(sizes, cap)
  // A column over its room shows one node fewer and a count node for the rest.
  const shown = room.map((r, c) => (r < sizes[c] ? r - 1 : r))
  const kept = new Uint8Array(kinds.length)
  /** Keeps the column's first nodes, those marked in `first` ahead of the rest. */
  const keep = (c: number, first: Uint8Array | null) => {
    let left = shown[c]
    for (const pass of first === null ? [1] : [1, 0])
      for (let i = starts[c]; i < starts[c + 1] && left > 0; i++)
        if ((first === null || first[i] === pass) && kept[i] === 0) {
          kept[i] = 1
          left--
        }
  }
  /** The nodes an edge joins to a kept node. */
  const touching = (): Uint8Array => {
    const mark = new Uint8Array(kinds.length)
    for (let e = 0; e < from.length; e++) {
      if (kept[to[e]] === 1) mark[from[e]] = 1
      if (kept[from[e]] === 1) mark[to[e]] = 1
    }
    return mark
  }
  // The Specs first (the report's order), then the files, then the right column, those touching a kept node first.
  keep(1, null)
  keep(0, touching())
  keep(2, touching())

  const lines = [...HEAD]
  // Each node's drawn id: its own (kept) or its column's count node.
  const drawnAt = new Int32Array(kinds.length)
  const risky: number[] = []
  const packs: number[] = []
  const more: number[] = []
  let count = 0
  const add = (kind: Kind, label: string): number => {
    count += 1
    const [open, close] = SHAPES[kind]
    lines.push(`  n${count}${open}${label}${close}`)
    return count
  }
  for (let c = 0; c < 3; c++) {
    const folded = new Map<Kind, number>()
    for (let i = starts[c]; i < starts[c + 1]; i++) {
      const kind = kinds[i]
      if (kept[i] === 0) {
        folded.set(kind, (folded.get(kind) ?? 0) + 1)
        continue
      }
      drawnAt[i] = add(kind, linesOf(kind, names[i], titles).map(mermaidEscape).join(LINE_BREAK))
      if (kind === "riskSpec" || kind === "riskPack") risky.push(drawnAt[i])
      if (kind === "pack" || kind === "riskPack") packs.push(drawnAt[i])
    }
    if (folded.size === 0) continue
    const id = add(folded.keys().next().value!, mermaidEscape(countLabel(folded, shown[c])))
    more.push(id)
    for (let i = starts[c]; i < starts[c + 1]; i++) if (kept[i] === 0) drawnAt[i] = id
  }
  // One edge per pair of drawn nodes; dashed only when every edge it stands for is a risk edge.
  const drawn = new Map<number, boolean>()
  for (let e = 0; e < from.length; e++) {
    const k = drawnAt[from[e]] * (count + 1) + drawnAt[to[e]]
    drawn.set(k, (drawn.get(k) ?? true) && risk[e])
  }
  for (const [k, dashed] of [...drawn].sort((a, b) => a[0] - b[0]))
    lines.push(`  n${Math.floor(k / (count + 1))} ${dashed ? "-.->" : "-->"} n${k % (count + 1)}`)
  if (packs.length > 0) lines.push(PACK_CLASS, `  class ${packs.map((i) => `n${i}`).join(",")} pack`)
  if (risky.length > 0) lines.push(RISK_CLASS, `  class ${risky.map((i) => `n${i}`).join(",")} risk`)
  if (more.length > 0) lines.push(MORE_CLASS, `  class ${more.map((i) => `n${i}`).join(",")} more`)
  return lines.join("\n") + "\n"
}

/**
 * The Mermaid flowchart of what the report impacts, or null when nothing is impacted (or when
 * even one count node per column is longer than `maxChars`).
 */
export const impactDiagram = (report: ImpactReport, titles: DiagramTitles, options: ImpactDiagramOptions = {}): string | null => {
  const picture = pictureOf(report)
  const { starts } = picture
  if (starts[3] === starts[1]) return null
  const least = [0, 1, 2].filter((c) => starts[c + 1] > starts[c]).length
  const maxChars = options.maxChars ?? Number.POSITIVE_INFINITY
  let cap = Math.max(least, Math.min(options.maxNodes ?? MAX_NODES, starts[3]))
  for (;;) {
    const text = render(picture, titles, cap)
    if (text.length <= maxChars) return text
    if (cap <= least) return null
    // Fewer nodes in proportion to the overshoot, at least one fewer each time: a few rounds at most.
    cap = Math.max(least, Math.min(cap - 1, Math.floor((cap * maxChars) / text.length)))
  }
}

/** What sits under the picture in the report, so the dashed style is not its only key. */
export const DIAGRAM_LEGEND = "Changed files → impacted Specs → Packs; dashed: at risk, one hop away."

/** The picture as a Markdown block (a ```mermaid fence and its legend), or "" when there is none or it does not fit `maxChars`. */
export const impactDiagramMarkdown = (report: ImpactReport, titles: DiagramTitles, maxChars = Number.POSITIVE_INFINITY): string => {
  const open = "```mermaid\n"
  const close = `\`\`\`\n\n${DIAGRAM_LEGEND}\n\n`
  const text = impactDiagram(report, titles, { maxChars: maxChars - open.length - close.length })
  return text === null ? "" : `${open}${text}${close}`
}
