// How many generated cases of a property test reached each branch it is about, printed as one line
// and held to a floor: a generator that drifted so that (say) no case exceeds its budget would leave
// that branch untested while the property still passed. The floors are each test's own: the count a
// run falls below only with a negligible chance at the rates a long run measured.
import { expect } from "vitest"

export interface Reached<K extends string> {
  /** One generated case. */
  case(): void
  /** That case reached `branch`. */
  hit(branch: K): void
  /** Prints `<property>: N cases, <branch> n, …` and asserts each floor (after fc.assert has passed). */
  check(): void
}

export const reached = <K extends string>(property: string, floors: Readonly<Record<K, number>>): Reached<K> => {
  const counts = Object.fromEntries(Object.keys(floors).map((k) => [k, 0])) as Record<K, number>
  let cases = 0
  return {
    case: () => void cases++,
    hit: (branch) => void counts[branch]++,
    check: () => {
      console.log(
        `${property}: ${cases} cases, ${Object.entries(counts)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")}`
      )
      for (const [k, floor] of Object.entries(floors) as Array<[K, number]>) expect(counts[k], `${property}: cases reaching ${k}`).toBeGreaterThanOrEqual(floor)
    }
  }
}
