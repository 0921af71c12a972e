// A member's sections and questions at a cut stage (exampleCut, questionCut, sectionCut,
// declarationCut). Sections keep the graph's own key order; intent.openQuestions moves to questions.
import { entryAddress } from "../ids.js"
import type { SpecNode } from "../model.js"
import { addressesIn, cutEntry, pointer } from "./cuts.js"
import type { Json } from "./types.js"
import { STAGE } from "./types.js"

const EXAMPLE_ENTRY = /^behavior\.examples\[\d+\]$/

type Locations = SpecNode["locations"]

const walk = (spec: SpecNode, value: unknown, path: string, stage: number): Json => {
  const loc: Locations = spec.locations
  if (path === "behavior.exampleSpace" || EXAMPLE_ENTRY.test(path)) {
    return stage >= STAGE.example ? pointer(loc[path]) : (value as Json)
  }
  if (typeof value === "string") return stage >= STAGE.section ? cutEntry(value, null, loc[path]) : value
  if (Array.isArray(value)) return value.map((v, i) => walk(spec, v, `${path}[${i}]`, stage))
  if (typeof value === "object" && value !== null) {
    const out: { [key: string]: Json } = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = walk(spec, v, `${path}.${k}`, stage)
    return out
  }
  return value as Json
}

/** A keyed rule `{ key, rule }` is an entry with its own `#rule.<key>` address. */
const walkRules = (spec: SpecNode, rules: ReadonlyArray<unknown>, stage: number): Json =>
  rules.map((r, i) => {
    const path = `behavior.rules[${i}]`
    if (typeof r === "object" && r !== null && "key" in r && "rule" in r) {
      const { key, rule } = r as { key: string; rule: string }
      if (stage < STAGE.section) return { key, rule }
      return cutEntry(rule, entryAddress(spec.id, "rule", key), spec.locations[path] ?? spec.locations[`rule.${key}`])
    }
    return walk(spec, r, path, stage)
  })

/** Design and UI: keyed entries are addressable; pinned declarations wait for the declaration cut. */
const walkOpen = (spec: SpecNode, name: "design" | "ui", section: Readonly<Record<string, string>>, pinned: ReadonlySet<string>, stage: number): Json => {
  const out: { [key: string]: Json } = {}
  for (const [key, value] of Object.entries(section)) {
    const path = `${name}.${key}`
    if (key === "description" || typeof value !== "string") {
      out[key] = walk(spec, value, path, stage)
      continue
    }
    const cutAt = name === "design" && pinned.has(key) ? STAGE.declaration : STAGE.section
    out[key] = stage >= cutAt ? cutEntry(value, entryAddress(spec.id, name, key), spec.locations[path]) : value
  }
  return out
}

/** The member's `sections`: as the graph holds them, without intent.openQuestions, cut to `stage`. */
export const sectionsAt = (spec: SpecNode, pinned: ReadonlySet<string>, stage: number): Json => {
  const out: { [key: string]: Json } = {}
  for (const [name, value] of Object.entries(spec.sections)) {
    if (value === undefined) continue
    if (name === "intent") {
      const intent: { [key: string]: unknown } = {}
      for (const [k, v] of Object.entries(value)) if (k !== "openQuestions" && v !== undefined) intent[k] = v
      // An Intent that held only questions leaves nothing to show here.
      if (Object.keys(intent).length > 0) out.intent = walk(spec, intent, "intent", stage)
    } else if (name === "behavior") {
      const behavior: { [key: string]: Json } = {}
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined) continue
        behavior[k] = k === "rules" && Array.isArray(v) ? walkRules(spec, v, stage) : walk(spec, v, `behavior.${k}`, stage)
      }
      out.behavior = behavior
    } else if (name === "design" || name === "ui") {
      out[name] = walkOpen(spec, name, value as Record<string, string>, pinned, stage)
    } else {
      out[name] = walk(spec, value, name, stage)
    }
  }
  return out
}

/** questions: { index, question, blocking, key, address, line }; non-blocking ones cut at the question cut. */
export const questionsAt = (spec: SpecNode, stage: number): Json[] =>
  (spec.sections.intent?.openQuestions ?? []).map((q, index) => {
    const address = q.key !== undefined ? entryAddress(spec.id, "question", q.key) : null
    const line = spec.locations[`intent.openQuestions[${index}]`] ?? spec.locations[`question[${index}]`] ?? null
    if (stage >= STAGE.question && !q.blocking) {
      const links = addressesIn(q.question).filter((a) => a !== address)
      const at: Json = address ?? { line }
      return links.length > 0 ? { pointer: at, links } : at
    }
    const row: { [key: string]: Json } = { index, question: q.question, blocking: q.blocking }
    if (q.key !== undefined) row.key = q.key
    row.address = address
    row.line = line
    return row
  })
