// The rules both anchor forms share (sdp-format.md sections 7.1 and 7.2): which fields a flavor
// may carry, id grammar of the anchor and of every target, list shapes, and the field values.
import { idProblem, namespaceOf } from "../ids.js"
import type { AnchorFlavor, AnchorNode } from "../model.js"

export type AnchorField = "label" | "satisfies" | "verifies" | "models" | "references" | "component" | "uses" | "role" | "layer" | "context"

/** What a form read out of the source, before validation. Lists keep their authored order. */
export interface RawAnchor {
  readonly id: string
  readonly form: "constant" | "comment"
  readonly line: number
  readonly label: string | null
  readonly lists: Partial<Record<"satisfies" | "verifies" | "models" | "references" | "uses", ReadonlyArray<string>>>
  readonly scalars: Partial<Record<"component" | "role" | "layer" | "context", string>>
}

export interface Problem {
  readonly line: number
  readonly code: string
  readonly message: string
}

export const CODE_NAMESPACES = ["impl", "api", "component"]
export const LAYERS = ["edge", "application", "domain", "adapter", "infrastructure"] as const
const KEBAB = /^[a-z][a-z0-9-]*$/

export const flavorOf = (id: string): AnchorFlavor | null => {
  const ns = namespaceOf(id)
  return CODE_NAMESPACES.includes(ns) ? "code" : ns === "test" ? "test" : ns === "oracle" ? "oracle" : null
}

/** Fields each flavor may carry; `layer`/`context` further need a component: id. */
export const FIELDS: Readonly<Record<AnchorFlavor, ReadonlyArray<AnchorField>>> = {
  code: ["label", "satisfies", "references", "component", "uses", "role", "layer", "context"],
  test: ["label", "verifies"],
  oracle: ["label", "models"]
}

/** Validate a raw anchor; problems refuse this anchor only (the caller drops it). */
export const validateAnchor = (raw: RawAnchor, file: string): { anchor: AnchorNode | null; problems: Problem[] } => {
  const problems: Problem[] = []
  const fail = (message: string, code = "extract/invalid-anchor") => problems.push({ line: raw.line, code, message })
  const idIssue = idProblem(raw.id)
  const flavor = idIssue === null ? flavorOf(raw.id) : null
  if (idIssue !== null) fail(`anchor id ${idIssue}`, "extract/invalid-id")
  else if (flavor === null) fail(`anchor id "${raw.id}" must be in impl:, api:, component:, test: or oracle:`, "extract/invalid-id")
  if (flavor === null) return { anchor: null, problems }
  const isComponent = namespaceOf(raw.id) === "component"
  const present = [...Object.keys(raw.lists), ...Object.keys(raw.scalars)] as AnchorField[]
  for (const field of present) {
    if (!FIELDS[flavor].includes(field)) fail(`a ${flavor} anchor may not carry "${field}"`, "extract/unrecognized-property")
    else if ((field === "layer" || field === "context") && !isComponent) fail(`"${field}" is only for component: anchors`)
  }
  const checkIds = (field: string, ids: ReadonlyArray<string>, namespaces: ReadonlyArray<string>) => {
    if (ids.length === 0) fail(`"${field}" must not be an empty list`)
    const seen = new Set<string>()
    for (const id of ids) {
      const issue = idProblem(id)
      if (issue !== null) fail(`"${field}": ${issue}`, "extract/invalid-id")
      else if (!namespaces.includes(namespaceOf(id)))
        fail(`"${field}" target "${id}" must be in ${namespaces.map((n) => `${n}:`).join(" or ")}`, "extract/invalid-id")
      if (seen.has(id)) fail(`"${field}" lists "${id}" twice`)
      seen.add(id)
    }
  }
  for (const [field, ids] of Object.entries(raw.lists)) checkIds(field, ids, field === "uses" ? CODE_NAMESPACES : ["spec"])
  const { component, role, layer, context } = raw.scalars
  if (component !== undefined) checkIds("component", [component], ["component"])
  if (layer !== undefined && !(LAYERS as ReadonlyArray<string>).includes(layer)) fail(`layer "${layer}" is not one of ${LAYERS.join(" | ")}`)
  if (raw.form === "comment") {
    if (role !== undefined && !KEBAB.test(role)) fail(`role "${role}" must be one lowercase kebab token`)
    if (context !== undefined && !KEBAB.test(context)) fail(`context "${context}" must be one lowercase kebab token`)
  }
  if (flavor === "test" && raw.lists.verifies === undefined) fail("a test anchor needs verifies")
  if (flavor === "oracle" && raw.lists.models?.length !== 1) fail("an oracle anchor models exactly one Spec")
  const references = new Set(raw.lists.references ?? [])
  for (const target of raw.lists.satisfies ?? []) {
    if (references.has(target)) fail(`"${target}" is in both satisfies and references`)
  }
  if (problems.length > 0) return { anchor: null, problems }
  return {
    anchor: {
      id: raw.id,
      nodeType: flavor === "code" ? "CodeNode" : "Anchor",
      flavor,
      form: raw.form,
      label: raw.label,
      file,
      line: raw.line,
      satisfies: raw.lists.satisfies ?? [],
      verifies: raw.lists.verifies ?? [],
      models: raw.lists.models ?? [],
      references: raw.lists.references ?? [],
      component: component ?? null,
      uses: raw.lists.uses ?? [],
      role: role ?? null,
      layer: layer ?? null,
      context: context ?? null
    },
    problems
  }
}
