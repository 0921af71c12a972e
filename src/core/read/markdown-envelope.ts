// The frontmatter envelopes of a Spec and of a Pack (sdp-format.md sections 3.1 to 3.4): closed key
// sets, static enum values, `spec:` relation targets, Pack members in manifest order.
import { idProblem } from "../ids.js"
import type { Altitude, AuthoredRelation, RelationType, Rung, SpecKind } from "../model.js"
import { ALTITUDES, RELATION_TYPES, RUNGS, SPEC_KINDS } from "../model.js"
import { CODES, RESERVED_KEYS, type Sink } from "./markdown-findings.js"
import type { YMap, YNode } from "./markdown-yaml.js"

export interface SpecEnvelope {
  readonly id: string
  readonly idLine: number
  readonly kind: SpecKind
  readonly altitude: Altitude
  readonly readiness: Rung
  readonly relations: ReadonlyArray<AuthoredRelation>
}

export interface PackEnvelope {
  readonly id: string
  readonly idLine: number
  readonly members: ReadonlyArray<string>
  readonly modelRefs: ReadonlyArray<string>
}

/** Routing is by the id's namespace, never by file name. */
export const isPackRoot = (root: YNode | null): boolean =>
  root !== null && root.t === "map" && root.entries.some((e) => e.key === "id" && e.value.t === "str" && e.value.value.startsWith("pack:"))

const SPEC_KEYS = ["id", "kind", "altitude", "readiness", "relations"] as const
const PACK_KEYS = ["id", "specs", "modelRefs"] as const

const enumValue = <T extends string>(node: YNode, key: string, allowed: ReadonlyArray<T>, sink: Sink): T | null => {
  if (node.t === "str" && (allowed as ReadonlyArray<string>).includes(node.value)) return node.value as T
  const shown = node.t === "str" ? `"${node.value}"` : `a ${node.t === "seq" ? "list" : "mapping"}`
  sink.error(node.line, CODES.nonStatic, `${key} is ${shown}; write one of ${allowed.join(", ")}`)
  return null
}

const idValue = (node: YNode, namespace: string, sink: Sink): string | null => {
  if (node.t !== "str") {
    sink.error(node.line, CODES.invalidId, `id must be one ${namespace}: id written as text`)
    return null
  }
  const problem = idProblem(node.value, namespace)
  if (problem !== null) {
    sink.error(node.line, CODES.invalidId, `${problem}; fix the id`)
    return null
  }
  return node.value
}

const refuseKey = (key: string, line: number, where: string, sink: Sink): void => {
  if (RESERVED_KEYS.has(key)) {
    sink.error(line, CODES.reserved, `"${key}" is a derived fact or graph shape, not authorable; remove it from the ${where}`)
  } else {
    sink.error(line, CODES.unrecognized, `property "${key}" is not accepted in a ${where}; remove it`)
  }
}

/** A list of `spec:` ids (members, modelRefs, relation targets); duplicates refused. */
const specIdList = (node: YNode, what: string, sink: Sink, allowEmpty: boolean, allowScalar: boolean): string[] | null => {
  let items: ReadonlyArray<YNode>
  if (node.t === "str" && allowScalar) items = [node]
  else if (node.t === "seq") items = node.items
  else {
    sink.error(node.line, CODES.frontmatter, `${what} must be a YAML list of spec: ids`)
    return null
  }
  if (items.length === 0 && !allowEmpty) {
    sink.error(node.line, CODES.frontmatter, `${what} is an empty list; list at least one spec: id or remove the key`)
    return null
  }
  const out: string[] = []
  let ok = true
  for (const item of items) {
    if (item.t !== "str") {
      sink.error(item.line, CODES.frontmatter, `${what} entries must be spec: ids written as text`)
      ok = false
      continue
    }
    const problem = idProblem(item.value, "spec")
    if (problem !== null) {
      sink.error(item.line, CODES.invalidId, `${problem} (in ${what}); write a whole spec: id`)
      ok = false
    } else if (out.includes(item.value)) {
      sink.error(item.line, CODES.frontmatter, `duplicate entry in ${what}: ${item.value}; list it once`)
      ok = false
    } else out.push(item.value)
  }
  return ok ? out : null
}

const readRelations = (node: YNode, sink: Sink): AuthoredRelation[] | null => {
  if (node.t !== "map") {
    sink.error(node.line, CODES.frontmatter, "relations must be a mapping; write relations: {} when there are none")
    return null
  }
  const out: AuthoredRelation[] = []
  let ok = true
  for (const e of node.entries) {
    if (!(RELATION_TYPES as ReadonlyArray<string>).includes(e.key)) {
      refuseKey(e.key, e.keyLine, `relations mapping (types: ${RELATION_TYPES.join(", ")})`, sink)
      ok = false
      continue
    }
    const targets = specIdList(e.value, `relations.${e.key}`, sink, false, true)
    if (targets === null) ok = false
    else for (const to of targets) out.push({ type: e.key as RelationType, to })
  }
  return ok ? out : null
}

const missing = (keys: ReadonlyArray<string>, root: YMap, where: string, sink: Sink): void => {
  for (const k of keys) {
    if (!root.entries.some((e) => e.key === k)) {
      sink.error(1, CODES.frontmatter, `${where} frontmatter is missing the required key "${k}"; add it`)
    }
  }
}

export const readSpecEnvelope = (root: YMap, sink: Sink): SpecEnvelope | null => {
  let id: string | null = null
  let idLine = 0
  let kind: SpecKind | null = null
  let altitude: Altitude | null = null
  let readiness: Rung | null = null
  let relations: AuthoredRelation[] | null = null
  for (const e of root.entries) {
    switch (e.key) {
      case "id":
        id = idValue(e.value, "spec", sink)
        idLine = e.keyLine
        break
      case "kind":
        kind = enumValue(e.value, "kind", SPEC_KINDS, sink)
        break
      case "altitude":
        altitude = enumValue(e.value, "altitude", ALTITUDES, sink)
        break
      case "readiness":
        readiness = enumValue(e.value, "readiness", RUNGS, sink)
        break
      case "relations":
        relations = readRelations(e.value, sink)
        break
      case "title":
        sink.error(e.keyLine, CODES.frontmatter, "title is not a frontmatter key; the H1 line is the title")
        break
      default:
        refuseKey(e.key, e.keyLine, "Spec frontmatter", sink)
    }
  }
  missing(SPEC_KEYS, root, "Spec", sink)
  if (id === null || kind === null || altitude === null || readiness === null || relations === null) return null
  return { id, idLine, kind, altitude, readiness, relations }
}

export const readPackEnvelope = (root: YMap, sink: Sink): PackEnvelope | null => {
  let id: string | null = null
  let idLine = 0
  let members: string[] | null = null
  let modelRefs: string[] | null = []
  for (const e of root.entries) {
    switch (e.key) {
      case "id":
        id = idValue(e.value, "pack", sink)
        idLine = e.keyLine
        break
      case "specs":
        members = specIdList(e.value, "specs", sink, true, false)
        break
      case "modelRefs":
        modelRefs = specIdList(e.value, "modelRefs", sink, true, false)
        break
      default:
        refuseKey(e.key, e.keyLine, "Pack frontmatter (keys: id, specs, modelRefs)", sink)
    }
  }
  missing(PACK_KEYS.slice(0, 2), root, "Pack", sink)
  if (id === null || members === null || modelRefs === null) return null
  return { id, idLine, members, modelRefs }
}
