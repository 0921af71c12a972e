// The Markdown carrier reader (`*.sdp.md`, sdp-format.md sections 2 to 5): splits the frontmatter
// from the body, reads the Spec or Pack envelope, then the body. Pure: text in, CarrierRead out.
// A carrier breaking any structural rule is refused whole: no nodes, every finding collected.
import type { CarrierRead, PackNode, SpecKind, SpecNode, SpecProse } from "../model.js"
import { SPEC_KINDS, SpecWithProseLater } from "../model.js"
import { type SpecEnvelope, isPackRoot, readPackEnvelope, readSpecEnvelope } from "./markdown-envelope.js"
import { CODES, Sink, utf8Length } from "./markdown-findings.js"
import type { Block } from "./markdown-lines.js"
import { normalizeProse, tokenizeBody } from "./markdown-lines.js"
import { readSpecBody } from "./markdown-spec.js"
import type { YNode } from "./markdown-yaml.js"
import { readFrontmatterYaml } from "./markdown-yaml.js"

const MAX_FRONTMATTER_BYTES = 32 * 1024

/** Findings in line order (stable, so same-line findings keep the order they were found in). */
const refused = (file: string, sink: Sink): CarrierRead => ({
  file,
  specs: [],
  packs: [],
  anchors: [],
  findings: [...sink.findings].sort((a, b) => a.line - b.line)
})

/** The kind as written, when it is a valid one: lets the body check an example fence even if the envelope fails. */
const kindHint = (root: YNode | null): SpecKind | null => {
  if (root === null || root.t !== "map") return null
  const entry = root.entries.find((e) => e.key === "kind")
  if (entry === undefined || entry.value.t !== "str") return null
  return (SPEC_KINDS as ReadonlyArray<string>).includes(entry.value.value) ? (entry.value.value as SpecKind) : null
}

/** Pack body: all prose after the H1 is framing; a Pack has no section tier (format 3.3). */
const readPackFraming = (blocks: ReadonlyArray<Block>, sink: Sink): string => {
  for (const b of blocks) {
    if (b.t === "h2" || b.t === "h3") {
      sink.error(b.line, CODES.heading, "a Pack has no section tier; remove the heading and keep the framing as plain prose")
    } else if (b.t === "entry" || b.t === "fence") {
      sink.error(b.line, CODES.structure, "Pack framing is plain prose; lists and fences are refused")
    }
  }
  return normalizeProse(blocks)
}

/**
 * A Spec whose prose (narrative, sections, locations) is parsed again from its carrier's text the
 * first time any of it is read, instead of kept from the read that checked it. A read that nothing
 * keeps whole (no parse cache, no manifest: the CLI's impact, its staged check, a bundle on stdout)
 * then holds the graph's fields and the text only: on 10,000 Specs the prose is ~16 MB of objects
 * that every young-generation collection copied while the corpus was read (docs/decisions.md). The
 * prose is the same as a whole read's (the same parse of the same text).
 */
class SpecProseOnDemand extends SpecWithProseLater {
  readonly #text: string

  /** From the envelope the first parse read (no object of its own: one Spec each in a large read). */
  constructor(envelope: SpecEnvelope, title: string, file: string, text: string) {
    super(envelope.id, envelope.kind, envelope.altitude, envelope.readiness, title, file, envelope.idLine, envelope.relations)
    this.#text = text
  }

  protected loadProse(): SpecProse {
    const again = parseMarkdownCarrier(this.file, this.#text).specs[0]
    if (again === undefined) throw new Error(`markdown: ${this.file} read differently the second time`)
    return again
  }
}

/**
 * What a `*.sdp.md` file contributes. `proseOnDemand`: a Spec keeps only what the graph needs and
 * parses its prose again when it is read (SpecProseOnDemand); findings and refusals are the same.
 */
export const parseMarkdownCarrier = (file: string, text: string, proseOnDemand = false): CarrierRead => {
  const sink = new Sink(file)
  const lines = text.split("\n")
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop()
  if (lines[0] !== "---") {
    sink.error(1, CODES.frontmatter, "a carrier must start with a --- line, then YAML frontmatter, then a closing --- line")
    return refused(file, sink)
  }
  let close = -1
  let policyBroken = false
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]
    if (line === "---") {
      close = i
      break
    }
    if (line === "...") {
      sink.error(i + 1, CODES.frontmatter, "a ... line is refused inside frontmatter; end the frontmatter with a --- line")
      policyBroken = true
    } else if (line.startsWith("%")) {
      sink.error(i + 1, CODES.frontmatter, "YAML directives (%) are refused in frontmatter; remove the line")
      policyBroken = true
    }
  }
  if (close === -1) {
    sink.error(1, CODES.frontmatter, "the frontmatter is never closed; add a --- line after it")
    return refused(file, sink)
  }
  const yamlText = close > 1 ? lines.slice(1, close).join("\n") + "\n" : ""
  let root: YNode | null = null
  let yamlOk = false
  // At most 3 UTF-8 bytes a UTF-16 unit: most frontmatters are surely short enough without counting.
  if (yamlText.length * 3 > MAX_FRONTMATTER_BYTES && utf8Length(yamlText) > MAX_FRONTMATTER_BYTES) {
    sink.error(2, CODES.frontmatter, "frontmatter is over 32 KiB; shorten it")
  } else if (!policyBroken) {
    const read = readFrontmatterYaml(yamlText, 2, sink)
    root = read.root
    yamlOk = read.ok
    if (root === null) {
      sink.error(1, CODES.frontmatter, "the frontmatter is empty; write the id and the other envelope keys")
      yamlOk = false
    } else if (root.t !== "map") {
      sink.error(2, CODES.frontmatter, "the frontmatter must be a YAML mapping of keys")
      yamlOk = false
    }
  }

  const body = tokenizeBody(lines.slice(close + 1), close + 2, sink)
  const routeToPack = root !== null && isPackRoot(root)

  if (routeToPack) {
    const envelope = yamlOk && root !== null && root.t === "map" ? readPackEnvelope(root, sink) : null
    const framing = readPackFraming(body.blocks, sink)
    if (sink.failed || envelope === null || body.title === null) return refused(file, sink)
    const pack: PackNode = {
      id: envelope.id,
      title: body.title,
      framing,
      file,
      line: envelope.idLine,
      members: envelope.members,
      modelRefs: envelope.modelRefs
    }
    return { file, specs: [], packs: [pack], anchors: [], findings: [] }
  }

  const envelope = yamlOk && root !== null && root.t === "map" ? readSpecEnvelope(root, sink) : null
  const spec = readSpecBody(body.blocks, envelope?.kind ?? kindHint(root), sink, !proseOnDemand)
  if (sink.failed || envelope === null || body.title === null) return refused(file, sink)
  const node: SpecNode =
    spec === undefined
      ? new SpecProseOnDemand(envelope, body.title, file, text)
      : {
          id: envelope.id,
          kind: envelope.kind,
          altitude: envelope.altitude,
          readiness: envelope.readiness,
          title: body.title,
          narrative: spec.narrative,
          file,
          line: envelope.idLine,
          sections: spec.sections,
          relations: envelope.relations,
          locations: spec.locations
        }
  return { file, specs: [node], packs: [], anchors: [], findings: [] }
}
