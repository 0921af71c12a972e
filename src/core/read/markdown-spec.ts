// A Spec body: narrative before the first H2, then the closed set of H2 section owners
// (sdp-format.md 4.1 to 4.3), each read by its own reader into one draft.
import { nearest } from "../suggest.js"
import type { Sections, SpecKind } from "../model.js"
import { CODES, type Sink } from "./markdown-findings.js"
import type { Block } from "./markdown-lines.js"
import { normalizeProse } from "./markdown-lines.js"
import { buildSections, SpecDraft } from "./markdown-draft.js"
import { readBehaviorOwner, readExampleSpace, readIntent } from "./markdown-behavior.js"
import { readConstraints, readDecision, readModel, readOpenSection, readVerification } from "./markdown-keyed.js"

const VERIFICATION_MODES = ["manual", "reviewed", "contract", "executable"] as const
const PRIMARY = new Set(["Behavior", "Rule", "Workflow", "Contract"])
const SIMPLE_OWNERS = ["Intent", "Behavior", "Rule", "Workflow", "Contract", "Example space", "Constraints", "Model", "Design", "Decision", "UI"]
const ALL_OWNERS = [...SIMPLE_OWNERS, ...VERIFICATION_MODES.map((m) => `Verification — ${m}`)]

const nearestOwner = (text: string): string | null => nearest(text, ALL_OWNERS, 3)

interface Segment {
  /** Owner name ("Verification — <mode>" keeps its mode), or null for narrative / an unknown heading. */
  readonly owner: string | null
  readonly line: number
  readonly blocks: Block[]
}

/** Content where no section owns it: narrative, or what follows an unrecognised heading. */
const checkUnowned = (blocks: ReadonlyArray<Block>, sink: Sink): void => {
  for (const b of blocks) {
    if (b.t === "entry") {
      sink.error(b.line, CODES.structure, "a list entry outside a recognised ## section is refused; move it under a section owner")
    } else if (b.t === "fence") {
      sink.error(b.line, CODES.structure, "a fence outside a section is refused; gwt fences stand in an example's ## Intent or under ## Example space")
    } else if (b.t === "h3") {
      sink.error(b.line, CODES.structure, "### Open questions stands only inside ## Intent")
    }
  }
}

const segment = (blocks: ReadonlyArray<Block>, sink: Sink): { narrative: Block[]; sections: Segment[] } => {
  const narrative: Block[] = []
  const sections: Segment[] = []
  const seen = new Set<string>()
  let primary: string | null = null
  let current: Segment | null = null
  let unknown: Block[] | null = null
  for (const b of blocks) {
    if (b.t !== "h2") {
      if (current !== null) current.blocks.push(b)
      else if (unknown !== null) unknown.push(b)
      else narrative.push(b)
      continue
    }
    current = null
    unknown = null
    const verification = b.text.startsWith("Verification — ") && (VERIFICATION_MODES as ReadonlyArray<string>).includes(b.text.slice("Verification — ".length))
    if (!verification && !SIMPLE_OWNERS.includes(b.text)) {
      const near = nearestOwner(b.text)
      sink.error(
        b.line,
        CODES.heading,
        near === null
          ? `"## ${b.text}" is not a section owner; use one of: ${SIMPLE_OWNERS.join(", ")}, Verification — <mode>`
          : `"## ${b.text}" is not a section owner; did you mean "## ${near}"?`
      )
      unknown = []
      sections.push({ owner: null, line: b.line, blocks: unknown })
      continue
    }
    const family = verification ? "Verification" : b.text
    if (seen.has(family)) {
      sink.error(b.line, CODES.structure, `## ${family} appears twice; each section owner stands at most once`)
      unknown = []
      continue
    }
    seen.add(family)
    if (PRIMARY.has(b.text)) {
      if (primary !== null) {
        sink.error(b.line, CODES.structure, `## ${b.text} and ## ${primary} are both primary behavior owners; keep one per Spec`)
        unknown = []
        continue
      }
      primary = b.text
    }
    current = { owner: b.text, line: b.line, blocks: [] }
    sections.push(current)
  }
  return { narrative, sections }
}

export interface SpecBody {
  readonly narrative: string | null
  readonly sections: Sections
  readonly locations: Readonly<Record<string, number>>
}

/**
 * Checks a Spec's body into `sink` and gives its prose (narrative, sections, locations), or
 * undefined when `keepProse` is false: the same checks and findings, nothing built to keep (a read
 * that parses the prose again when it is read: read/markdown.ts SpecProseOnDemand).
 */
export const readSpecBody = (blocks: ReadonlyArray<Block>, kind: SpecKind | null, sink: Sink, keepProse = true): SpecBody | undefined => {
  const { narrative, sections } = segment(blocks, sink)
  checkUnowned(narrative, sink)
  const d = new SpecDraft(sink, kind, keepProse)
  for (const s of sections) {
    switch (s.owner) {
      case null:
        checkUnowned(s.blocks, sink)
        break
      case "Intent":
        readIntent(d, s.blocks)
        break
      case "Behavior":
      case "Rule":
      case "Workflow":
      case "Contract":
        readBehaviorOwner(d, s.owner, s.blocks, s.line)
        break
      case "Example space":
        readExampleSpace(d, s.blocks, s.line)
        break
      case "Constraints":
        readConstraints(d, s.blocks, s.line)
        break
      case "Model":
        readModel(d, s.blocks)
        break
      case "Design":
        readOpenSection(d, "design", s.blocks)
        break
      case "UI":
        readOpenSection(d, "ui", s.blocks)
        break
      case "Decision":
        readDecision(d, s.blocks)
        break
      default:
        readVerification(d, s.owner.slice("Verification — ".length), s.blocks)
    }
  }
  if (!keepProse) return undefined
  const text = normalizeProse(narrative)
  return { narrative: text === "" ? null : text, sections: buildSections(d), locations: d.locations }
}
