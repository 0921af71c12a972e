// Parts (rule.parts, rule.partBoundaries, rule.partCuts, rule.partHeader, rule.sameParts,
// rule.oversizedItem): items are the boundary then each member; each part takes the longest run
// that fits; the first stage at which every part fits wins. Lengths come from JSON arithmetic.
import * as Result from "effect/Result"
import { digits, listLength, maxBase, partText, solveUsed } from "./measure.js"
import type { Composition, StageItems } from "./stages.js"
import type { OversizedItem, PartValue, PartsExceeded, PartsSplit } from "./types.js"
import { TOKEN_METHOD } from "./types.js"

/** Number-free length of a part with no members and an empty boundary text. */
const partFixed = (c: Composition, stage: number): number => partText(c.header(stage), "", "", "", "", "", "").length

/** The part ends, or the item that fails to fit in its place. */
type Split = Result.Result<ReadonlyArray<number>, OversizedItem>

/** Greedy split with the digit count of `of` assumed; ends[k] is the member index ending part k+1. */
const splitWith = (c: Composition, items: StageItems, fixed: number, limit: number, ofDigits: number): Split => {
  const lengths = items.memberLengths
  const ends: number[] = []
  let part = 1
  let base = fixed + digits(part) + ofDigits + items.boundaryText.length
  if (base > limit) return Result.fail({ item: "boundary", length: solveUsed(base) })
  let count = 0
  for (let j = 0; j < lengths.length; j++) {
    const add = lengths[j] + (count > 0 ? 1 : 0)
    if (base + add <= limit) {
      base += add
      count++
      continue
    }
    ends.push(j)
    part++
    base = fixed + digits(part) + ofDigits + 4 + lengths[j]
    count = 1
    if (base > limit) return Result.fail({ item: c.request.memberIds[j], length: solveUsed(base) })
  }
  ends.push(lengths.length)
  return Result.succeed(ends)
}

/** Splits at one stage; `of` changes the part length by its digits, so settle that first. */
const splitAt = (c: Composition, stage: number, limit: number): Split => {
  const items = c.items(stage)
  const fixed = partFixed(c, stage)
  let ofDigits = 1
  for (;;) {
    const split = splitWith(c, items, fixed, limit, ofDigits)
    if (Result.isFailure(split)) return split
    const need = digits(split.success.length)
    // More digits only make parts smaller, so the count never shrinks back below `need`.
    if (need <= ofDigits) return split
    ofDigits = need
  }
}

/** Items that exceed the budget alone after every permitted cut, measured as part 1 of 1. */
const oversizedItems = (c: Composition, limit: number): OversizedItem[] => {
  const stage = c.maxStage
  const fixed = partFixed(c, stage) + 2
  const header = fixed + 4
  if (header > limit) return [{ item: "header", length: solveUsed(header) }]
  const items = c.items(stage)
  const found: OversizedItem[] = []
  const boundary = fixed + items.boundaryText.length
  if (boundary > limit) found.push({ item: "boundary", length: solveUsed(boundary) })
  items.memberLengths.forEach((length, j) => {
    if (header + length > limit) found.push({ item: c.request.memberIds[j], length: solveUsed(header + length) })
  })
  return found
}

export const partsExceeded = (c: Composition, oversized: ReadonlyArray<OversizedItem>): PartsExceeded => ({
  scope: c.request.scope,
  budget: c.request.budget,
  declarations: c.request.declarations,
  part: { index: c.request.part ?? 1, of: null },
  budgetExceeded: true,
  oversized,
  leftOut: c.header(c.maxStage).leftOut
})

const splitPlan = (c: Composition, stage: number, ends: ReadonlyArray<number>): PartsSplit => {
  const items = c.items(stage)
  const header = c.header(stage)
  const fixed = partFixed(c, stage)
  const of = ends.length
  const range = (index: number): [number, number] => {
    if (!Number.isInteger(index) || index < 1 || index > of) throw new RangeError(`part ${index} is outside 1..${of}`)
    return [index === 1 ? 0 : ends[index - 2], ends[index - 1]]
  }
  const usedOf = (index: number, from: number, to: number): number =>
    solveUsed(fixed + digits(index) + digits(of) + listLength(items.memberLengths, from, to) + (index === 1 ? items.boundaryText.length : 4))
  return {
    of,
    stage,
    leftOut: header.leftOut,
    render: (index) => {
      const [from, to] = range(index)
      const used = usedOf(index, from, to)
      const value: PartValue = {
        scope: header.scope,
        budget: header.budget,
        declarations: header.declarations,
        part: { index, of },
        used,
        tokenEstimate: { value: Math.ceil(used / 4), method: TOKEN_METHOD },
        leftOut: header.leftOut,
        pack: header.pack,
        members: items.rows(from, to),
        boundary: index === 1 ? items.boundary : null
      }
      return value
    },
    renderText: (index) => {
      const [from, to] = range(index)
      const used = usedOf(index, from, to)
      return partText(
        header,
        String(index),
        String(of),
        String(used),
        String(Math.ceil(used / 4)),
        items.memberTexts.slice(from, to).join(","),
        index === 1 ? items.boundaryText : "null"
      )
    }
  }
}

/**
 * The split every part request reads (independent of `part`), or the oversized items. Stages are
 * tried from no cut; only when none fits are items measured alone after every permitted cut.
 */
export const planSplit = (c: Composition): Result.Result<PartsSplit, PartsExceeded> => {
  const limit = maxBase(c.request.budget)
  let last: Split | null = null
  for (let stage = 0; stage <= c.maxStage; stage++) {
    last = splitAt(c, stage, limit)
    if (Result.isSuccess(last)) return Result.succeed(splitPlan(c, stage, last.success))
  }
  const oversized = oversizedItems(c, limit)
  // Every item fits alone as part 1 of 1 but not in its place among many parts (more digits).
  return Result.fail(partsExceeded(c, oversized.length > 0 ? oversized : last !== null && Result.isFailure(last) ? [last.failure] : []))
}
