// Member rows as objects and as compact JSON text. The text is built from fragments: the fields no
// cut changes are serialized once per member, and each cut field again only when a stage changes
// it (cut-table.ts says which), so trying all stages over a 10,000-member Pack stays cheap. Equal
// to JSON.stringify(row).
import { CUT_FIELDS, fieldAt, fieldFormStage } from "./cut-table.js"
import type { Facts } from "../model.js"
import type { MemberBase } from "./member.js"
import { memberBase, missingMember, rowAt } from "./member.js"
import type { MemberRow } from "./types.js"
import { MEMBER_KEYS } from "./types.js"

const J = JSON.stringify

const isCutField = new Set(CUT_FIELDS)

interface TextCache {
  /** The fixed text before each cut field (with its key) and, last, the text after the final one. */
  readonly fixed: ReadonlyArray<string>
  /** Per cut field: the stage its cached text is the form of, and that text. */
  readonly forms: number[]
  readonly texts: string[]
}

const fixedText = (base: MemberBase): TextCache => {
  const fixed: string[] = []
  let segment = "{"
  for (const key of MEMBER_KEYS) {
    segment += `${segment === "{" ? "" : ","}${J(key)}:`
    if (isCutField.has(key)) {
      fixed.push(segment)
      segment = ""
    } else {
      segment += J(base.uncut(key))
    }
  }
  fixed.push(`${segment}}`)
  return { fixed, forms: CUT_FIELDS.map(() => -1), texts: CUT_FIELDS.map(() => "") }
}

const textAt = (base: MemberBase, cache: TextCache, stage: number): string => {
  let text = ""
  CUT_FIELDS.forEach((key, i) => {
    const form = fieldFormStage(key, stage)
    if (cache.forms[i] !== form) {
      cache.forms[i] = form
      cache.texts[i] = J(fieldAt(key, base.uncut(key), base, form))
    }
    text += cache.fixed[i] + cache.texts[i]
  })
  return text + cache.fixed[CUT_FIELDS.length]
}

export interface MemberRows {
  row(index: number, stage: number): MemberRow
  text(index: number, stage: number): string
}

/** Rows and texts for the members in scope order, each member's facts computed once. */
export const memberRows = (facts: Facts, memberIds: ReadonlyArray<string>): MemberRows => {
  const inBundle = new Set(memberIds)
  const bases: Array<MemberBase | null | undefined> = new Array(memberIds.length)
  const caches: Array<TextCache | undefined> = new Array(memberIds.length)
  const baseOf = (index: number): MemberBase | null => {
    let base = bases[index]
    if (base === undefined) {
      const spec = facts.graph.specs.get(memberIds[index])
      base = spec === undefined ? null : memberBase(facts, spec, inBundle)
      bases[index] = base
    }
    return base
  }
  return {
    row: (index, stage) => {
      const base = baseOf(index)
      return base === null ? missingMember(memberIds[index]) : rowAt(base, stage)
    },
    text: (index, stage) => {
      const base = baseOf(index)
      if (base === null) return J(missingMember(memberIds[index]))
      let cache = caches[index]
      if (cache === undefined) caches[index] = cache = fixedText(base)
      return textAt(base, cache, stage)
    }
  }
}
