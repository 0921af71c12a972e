// Tags of the Gherkin carrier (sdp-format.md section 10.1): identity, descriptors, relations,
// and the refusals (kind, pack, supersedes, authored facts, near-miss reserved heads).
import type { Tag } from "@cucumber/messages"
import { idProblem } from "../ids.js"
import { ALTITUDES, RUNGS } from "../model.js"
import { editDistance } from "../suggest.js"
import type { Altitude, AuthoredRelation, Finding, RelationType, Rung } from "../model.js"

export const GRAMMAR = "extract/gherkin-grammar"
const MAX_FINDINGS = 100

/** Findings of one carrier; capped so a broken file cannot flood the report. */
export class FindingSink {
  readonly findings: Finding[] = []
  private count = 0
  constructor(readonly file: string) {}

  add(line: number, message: string, code: string = GRAMMAR): void {
    this.count += 1
    if (this.count < MAX_FINDINGS) {
      // Messages quote source lines: a finding stays one line whatever they hold.
      this.findings.push({ file: this.file, line, code, message: message.replace(/\r/g, "\\r").replace(/\n/g, "\\n"), severity: "error" })
    } else if (this.count === MAX_FINDINGS) {
      this.findings.push({
        file: this.file,
        line: 1,
        code: "extract/too-many-gherkin-findings",
        message: `reporting stopped after ${MAX_FINDINGS - 1} findings in this Gherkin carrier`,
        severity: "error"
      })
    }
  }

  /** How many findings were raised so far (including the ones past the cap). */
  get raised(): number {
    return this.count
  }
}

const RELATION_HEADS: Readonly<Record<string, Exclude<RelationType, "supersedes">>> = {
  refines: "refines",
  "depends-on": "dependsOn",
  "constrained-by": "constrainedBy",
  "decided-by": "decidedBy",
  verifies: "verifies"
}

const RESERVED_HEADS = [
  "spec",
  "altitude",
  "readiness",
  "refines",
  "depends-on",
  "constrained-by",
  "decided-by",
  "verifies",
  "kind",
  "pack",
  "supersedes",
  "example-space"
]
const LAWFUL_HEADS = new Set(["spec", "altitude", "readiness", ...Object.keys(RELATION_HEADS)])

export const EXAMPLE_SPACE_TAG = "@example-space"

export interface Metadata {
  readonly id: string
  readonly idLine: number
  readonly altitude: Altitude
  readonly readiness: Rung
  readonly relations: ReadonlyArray<AuthoredRelation>
}

const headOf = (name: string): string => {
  const body = name.slice(1)
  const dot = body.indexOf(".")
  return dot === -1 ? body : body.slice(0, dot)
}

/** Why a tag that is not a lawful metadata tag is refused, or null for a harmless decoration. */
export const decorationProblem = (name: string): string | null => {
  if (name === "@implemented" || name === "@has-verifier" || name === "@observed") {
    return `tag "${name}" is refused: delivery facts are computed, never authored`
  }
  if (name.startsWith("@claim")) return `tag "${name}" is refused: claims are never authored`
  if (name.startsWith("@status-")) return `tag "${name}" is refused: lifecycle status is the readiness tag`
  if (name.startsWith("@kind.") || name === "@kind") {
    return `tag "${name}" is refused: kind is structural (Feature is behavior, Scenario is example)`
  }
  if (name === "@pack" || name.startsWith("@pack.")) {
    return `tag "${name}" is refused: Pack membership belongs to the Pack manifest`
  }
  if (name === "@supersedes" || name.startsWith("@supersedes.")) {
    return `tag "${name}" is refused: supersedes is not part of the Gherkin carrier`
  }
  const head = headOf(name)
  if (RESERVED_HEADS.includes(head)) return `tag "${name}" is malformed: write @${head}.<value>`
  const near = RESERVED_HEADS.filter((r) => editDistance(head, r) <= (r.length <= 5 ? 1 : 2))
  if (near.length === 1) {
    const hint = LAWFUL_HEADS.has(near[0]) ? `; did you mean "@${near[0]}."?` : ""
    return `tag "${name}" is too close to the reserved head "${near[0]}"${hint}`
  }
  return null
}

const specTarget = (sink: FindingSink, tag: Tag, value: string): string | null => {
  const problem = idProblem(value, "spec")
  if (problem === null) return value
  sink.add(tag.location.line, `tag "${tag.name}": ${problem}`, "extract/invalid-id")
  return null
}

/** Read the metadata tags of a Feature or an ordinary Scenario; null when any of them failed. */
export const readMetadata = (sink: FindingSink, tags: ReadonlyArray<Tag>, keywordLine: number, construct: string): Metadata | null => {
  const before = sink.raised
  let id: string | null = null
  let idLine = keywordLine
  let altitude: Altitude | null = null
  let readiness: Rung | null = null
  const seen = { spec: 0, altitude: 0, readiness: 0 }
  const relations: AuthoredRelation[] = []

  for (const tag of tags) {
    const name = tag.name
    const line = tag.location.line
    const dot = name.indexOf(".")
    const head = dot === -1 ? "" : name.slice(1, dot)
    const value = dot === -1 ? "" : name.slice(dot + 1)
    if ((head === "spec" || head === "altitude" || head === "readiness") && value !== "") {
      seen[head] += 1
      if (seen[head] > 1) {
        sink.add(line, `${construct} carries a second @${head}. tag "${name}"; exactly one is allowed`)
      } else if (head === "spec") {
        id = specTarget(sink, tag, `spec:${value}`)
        idLine = line
      } else if (head === "altitude") {
        if ((ALTITUDES as ReadonlyArray<string>).includes(value)) altitude = value as Altitude
        else sink.add(line, `${construct} altitude tag "${name}" is not one of ${ALTITUDES.join(" | ")}`)
      } else {
        if ((RUNGS as ReadonlyArray<string>).includes(value)) readiness = value as Rung
        else sink.add(line, `${construct} readiness tag "${name}" is not one of ${RUNGS.join(" | ")}`)
      }
      continue
    }
    const type = RELATION_HEADS[head]
    if (type !== undefined && value !== "") {
      const target = specTarget(sink, tag, value)
      if (target === null) continue
      if (relations.some((r) => r.type === type && r.to === target)) {
        sink.add(line, `${construct} repeats the relation ${type} -> ${target}`)
      } else {
        relations.push({ type, to: target })
      }
      continue
    }
    if (name === EXAMPLE_SPACE_TAG) {
      sink.add(line, `${construct} may not carry "${EXAMPLE_SPACE_TAG}"; it marks the one pseudo-scenario`)
      continue
    }
    const problem = decorationProblem(name)
    if (problem !== null) sink.add(line, `${construct} ${problem}`)
  }

  if (seen.spec === 0) sink.add(keywordLine, `${construct} has no @spec.<path> tag; exactly one is required`)
  if (seen.altitude === 0) sink.add(keywordLine, `${construct} has no @altitude.<epic|feature|story> tag`)
  if (seen.readiness === 0) sink.add(keywordLine, `${construct} has no @readiness.<idea|scoped|defined|ready> tag`)
  if (sink.raised !== before || id === null || altitude === null || readiness === null) return null
  return { id, idLine, altitude, readiness, relations }
}
