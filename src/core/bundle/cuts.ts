// The cut forms of the seed (pointer, boundaryRows, footingCut, narrativeCut, exampleCut,
// questionCut, sectionCut, declarationCut). Pure functions of one value; the stage decides which apply.
import { isEntryAddress } from "../ids.js"
import { TYPED_DEPENDENCIES, byCodeUnits } from "../model.js"
import type { BoundaryValue, Json, Pointer } from "./types.js"

// -- mention scanning (sdp-format.md section 5) -----------------------------------------------

const STOP = new Set([..."`\"'()[]{}<>|"])
const TRAILING = new Set([...".,;:!?*_~"])
const ASCII_WORD = /[A-Za-z0-9-]/
const UNICODE_WORD = /[\p{L}\p{N}]/u
const ASCII_PUNCT = /[!-/:-@[-`{-~]/

const endsToken = (ch: string): boolean => /\s/.test(ch) || STOP.has(ch) || (ch.charCodeAt(0) > 127 && !UNICODE_WORD.test(ch))

/** Entry addresses written in a text, in order of first appearance, each once. */
export const addressesIn = (text: string): string[] => {
  const found: string[] = []
  let from = 0
  for (;;) {
    const at = text.indexOf("spec:", from)
    if (at < 0) return found
    from = at + 5
    if (at > 0 && ASCII_WORD.test(text[at - 1])) continue
    let token = ""
    let i = at
    while (i < text.length) {
      const ch = text[i]
      if (ch === "\\" && i + 1 < text.length && ASCII_PUNCT.test(text[i + 1])) {
        token += text[i + 1]
        i += 2
        continue
      }
      if (endsToken(ch)) break
      token += ch
      i++
    }
    while (token.length > 0 && TRAILING.has(token[token.length - 1])) token = token.slice(0, -1)
    if (isEntryAddress(token) && !found.includes(token)) found.push(token)
    from = Math.max(from, i)
  }
}

// -- pointers ----------------------------------------------------------------------------------

export const pointer = (line: number | undefined): Pointer => ({ line: line ?? null })

/**
 * A cut entry: its address, or its pointer; when its text names other entry addresses, the list
 * of them, led by its own address or else ended by its pointer (the pointer line).
 */
export const cutEntry = (text: string | null, own: string | null, line: number | undefined): Json => {
  const links = text === null ? [] : addressesIn(text).filter((a) => a !== own)
  if (links.length === 0) return own ?? pointer(line)
  return own !== null ? [own, ...links] : [...links, pointer(line)]
}

// -- boundary and footing ----------------------------------------------------------------------

const idOf = (row: Json): Json => (typeof row === "object" && row !== null && "id" in row ? row.id : row)

export const boundaryCut = (boundary: BoundaryValue): BoundaryValue => ({
  restsOn: boundary.restsOn.map(idOf),
  restedOnBy: boundary.restedOnBy.map(idOf)
})

/** { refines, dependsOn, constrainedBy, decidedBy }: ids in code-unit order, empty types left out. */
export const footingCut = (rows: ReadonlyArray<{ readonly type: string; readonly id: string }>): { [type: string]: Json } => {
  const out: { [type: string]: Json } = {}
  for (const type of TYPED_DEPENDENCIES) {
    const ids = [...new Set(rows.filter((r) => r.type === type).map((r) => r.id))].sort(byCodeUnits)
    if (ids.length > 0) out[type] = ids
  }
  return out
}

export const narrativeCut = (narrative: string | null): string | null => {
  if (narrative === null) return null
  const found = addressesIn(narrative)
  return found.length > 0 ? found.join(" ") : null
}
