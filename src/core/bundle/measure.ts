// JSON arithmetic: the compact text of a bundle or part is its header template around the item
// texts, so lengths are sums, and `used` (which counts its own digits) is a small fixed point.
import type { DeclarationMode, PackHeader, Scope } from "./types.js"
import { TOKEN_METHOD } from "./types.js"

export interface Header {
  readonly scope: Scope
  readonly budget: number
  readonly declarations: DeclarationMode
  readonly leftOut: ReadonlyArray<string>
  readonly pack: PackHeader | null
}

const J = JSON.stringify

export const digits = (n: number): number => String(n).length

/** Text of a bundle value; numbers are passed as text so "" gives the number-free length. */
export const bundleText = (h: Header, used: string, token: string, members: string, boundary: string): string =>
  `{"scope":${J(h.scope)},"budget":${h.budget},"declarations":${J(h.declarations)},"used":${used},` +
  `"tokenEstimate":{"value":${token},"method":${J(TOKEN_METHOD)}},"leftOut":${J(h.leftOut)},` +
  `"pack":${J(h.pack)},"members":[${members}],"boundary":${boundary}}`

export const partText = (h: Header, index: string, of: string, used: string, token: string, members: string, boundary: string): string =>
  `{"scope":${J(h.scope)},"budget":${h.budget},"declarations":${J(h.declarations)},` +
  `"part":{"index":${index},"of":${of}},"used":${used},` +
  `"tokenEstimate":{"value":${token},"method":${J(TOKEN_METHOD)}},"leftOut":${J(h.leftOut)},` +
  `"pack":${J(h.pack)},"members":[${members}],"boundary":${boundary}}`

/**
 * `used` for a value whose text is `base` code units long without the digits of used and of
 * tokenEstimate.value: the least u with u = base + digits(u) + digits(ceil(u / 4)). The map is
 * monotone, so iterating from base climbs to that fixed point in a few steps.
 */
export const solveUsed = (base: number): number => {
  let u = base
  for (;;) {
    const next = base + digits(u) + digits(Math.ceil(u / 4))
    if (next === u) return u
    u = next
  }
}

/** The largest base whose solved `used` stays within the budget (-1 when none does). */
export const maxBase = (budget: number): number => {
  let b = budget - 2
  while (b >= 0 && solveUsed(b) > budget) b--
  return b
}

/**
 * The least budget B at which a value fits, for a value that is `base` code units long without the
 * digits of used, of tokenEstimate.value and of the budget it holds: solveUsed(base + digits(B)) <= B.
 * Each digit count is tried from one up, so the first fit is the least.
 */
export const leastBudget = (base: number): number => {
  for (let d = 1; ; d++) {
    const b = Math.max(10 ** (d - 1), solveUsed(base + d))
    if (b < 10 ** d) return b
  }
}

/** Length of a member list's text: the items and the commas between them. */
export const listLength = (lengths: ReadonlyArray<number>, from = 0, to = lengths.length): number => {
  let sum = to > from ? to - from - 1 : 0
  for (let i = from; i < to; i++) sum += lengths[i]
  return sum
}
