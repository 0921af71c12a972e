// A member's sections and questions, uncut, and the cuts that change them (exampleCut, questionCut,
// sectionCut, declarationCut). Each cut is a function of the value the cuts before it left; the
// table in cut-table.ts says which runs when. Sections keep the graph's own key order.
import { entryAddress } from "../ids.js"
import type { SpecNode } from "../model.js"
import { addressesIn, cutEntry } from "./cuts.js"
import type { Json } from "./types.js"

/** What a section cut needs of its member (a MemberBase satisfies it). */
export interface SectionsOwner {
  readonly spec: SpecNode
  /** Keys of the member's pinned declarations. */
  readonly pinned: ReadonlySet<string>
}

type JsonObject = { [key: string]: Json }

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Rebuilds `value`, replacing each node for which `at` gives a value and walking into the others;
 * `undefined` object fields are dropped. Paths are those of the location table.
 */
const rewrite = (value: unknown, path: string, at: (path: string, node: unknown) => Json | undefined): Json => {
  const hit = at(path, value)
  if (hit !== undefined) return hit
  if (Array.isArray(value)) return value.map((v, i) => rewrite(v, `${path}[${i}]`, at))
  if (isObject(value)) {
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = rewrite(v, path === "" ? k : `${path}.${k}`, at)
    return out
  }
  return value as Json
}

/** Every string written in a value (an example's steps), joined so that no two run into one token. */
const textOf = (value: unknown): string => {
  if (typeof value === "string") return value
  if (Array.isArray(value)) return value.map(textOf).join("\n")
  if (isObject(value)) return Object.values(value).map(textOf).join("\n")
  return ""
}

/** A cut entry that has no address of its own: its pointer, or the addresses its text names then the pointer. */
export const cutUnaddressed = (value: unknown, line: number | undefined): Json => cutEntry(textOf(value), null, line)

const EXAMPLE_ENTRY = /^behavior\.examples\[\d+\]$/
const isExamplePath = (path: string): boolean => path === "behavior.exampleSpace" || EXAMPLE_ENTRY.test(path)
const OPEN_ENTRY = /^(design|ui)\.([^.[]+)$/

/** The member's `sections`, uncut: as the graph holds them, without intent.openQuestions. */
export const sectionsOf = (spec: SpecNode): Json => {
  const out: JsonObject = {}
  for (const [name, value] of Object.entries(spec.sections)) {
    if (value === undefined) continue
    // Shared with the graph, not copied: cuts rebuild what they change and nothing writes to a row.
    if (name !== "intent") {
      out[name] = value as Json
      continue
    }
    const intent: JsonObject = {}
    for (const [k, v] of Object.entries(value)) if (k !== "openQuestions" && v !== undefined) intent[k] = v as Json
    // An Intent left with no field (its questions are in questions) is left out (docs/decisions.md).
    if (Object.keys(intent).length > 0) out.intent = intent
  }
  return out
}

/** exampleCut on sections: behavior.examples entries and the example space become pointers (or address lists). */
export const exampleCut = (sections: Json, owner: SectionsOwner): Json => {
  if (!isObject(sections) || !isObject(sections.behavior)) return sections
  const loc = owner.spec.locations
  const behavior = rewrite(sections.behavior, "behavior", (path, node) => (isExamplePath(path) ? cutUnaddressed(node, loc[path]) : undefined))
  return { ...sections, behavior }
}

/** sectionCut: every entry other than a pinned declaration becomes its address, else its pointer. */
export const sectionCut = (sections: Json, owner: SectionsOwner): Json => {
  const { spec, pinned } = owner
  const loc = spec.locations
  return rewrite(sections, "", (path, node) => {
    if (isExamplePath(path)) return node as Json // the example cut's, taken before
    if (/^behavior\.rules\[\d+\]$/.test(path) && isObject(node) && typeof node.key === "string" && typeof node.rule === "string") {
      return cutEntry(node.rule, entryAddress(spec.id, "rule", node.key), loc[path] ?? loc[`rule.${node.key}`])
    }
    if (typeof node !== "string") return undefined
    const open = OPEN_ENTRY.exec(path)
    if (open === null || open[2] === "description") return cutEntry(node, null, loc[path])
    const [, name, key] = open
    if (name === "design" && pinned.has(key)) return node // the declaration cut's
    return cutEntry(node, entryAddress(spec.id, name as "design" | "ui", key), loc[path])
  })
}

/** declarationCut: each pinned declaration in Design becomes its address (or the address list). */
export const declarationCut = (sections: Json, owner: SectionsOwner): Json => {
  if (!isObject(sections) || !isObject(sections.design)) return sections
  const { spec, pinned } = owner
  const design: JsonObject = {}
  for (const [key, value] of Object.entries(sections.design)) {
    design[key] = pinned.has(key) && typeof value === "string" ? cutEntry(value, entryAddress(spec.id, "design", key), spec.locations[`design.${key}`]) : value
  }
  return { ...sections, design }
}

/** questions, uncut: { index, question, blocking, key, address, line } in authored order. */
export const questionsOf = (spec: SpecNode): Json =>
  (spec.sections.intent?.openQuestions ?? []).map((q, index) => {
    const row: JsonObject = { index, question: q.question, blocking: q.blocking }
    if (q.key !== undefined) row.key = q.key
    row.address = q.key !== undefined ? entryAddress(spec.id, "question", q.key) : null
    row.line = spec.locations[`intent.openQuestions[${index}]`] ?? spec.locations[`question[${index}]`] ?? null
    return row
  })

/** questionCut: a non-blocking question becomes its address or pointer, or { pointer, links }. */
export const questionCut = (questions: Json): Json =>
  Array.isArray(questions)
    ? questions.map((q) => {
        if (!isObject(q) || q.blocking !== false) return q
        const address = typeof q.address === "string" ? q.address : null
        const links = addressesIn(String(q.question)).filter((a) => a !== address)
        const at: Json = address ?? { line: q.line as number | null }
        return links.length > 0 ? { pointer: at, links } : at
      })
    : questions
