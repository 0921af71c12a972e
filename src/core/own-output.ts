// What specbundle itself writes into a work tree: a bundle value (`bundle -o FILE`, any
// `--format`: compact, pretty, one value a line), a part file and manifest.json (`--out DIR`,
// `watch --out`). An untracked file that holds one is specbundle's output, not a changed file of
// the project (GitDiff leaves it out of a changeset). Pure: the caller reads the bytes.

/** Only a `.json` file can be one (what `-o` and `--out` write is JSON, whatever the name says otherwise). */
export const mayBeOwnOutput = (path: string): boolean => path.endsWith(".json")

/** Bytes enough to tell: every value specbundle writes opens with its scope. */
export const OWN_OUTPUT_HEAD = 64

/** Whether the first bytes open a value as specbundle writes one (`{"scope":`, or indented). */
export const opensLikeOwnOutput = (head: string): boolean => /^\{\s*"scope"\s*:/.test(head)

const KEYS = ["scope", "budget", "declarations"] as const

/** A value of the contract's shape: an object whose first keys are scope, budget and declarations, in that order. */
const isOwnValue = (value: unknown): boolean => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  return KEYS.every((k, i) => keys[i] === k)
}

/**
 * Whether the text is what specbundle writes: one JSON value (a bundle, a part, a budgetExceeded
 * value or a manifest) or one value a line (`--parts`), each opening with scope, budget and
 * declarations in that order (bundle-contract.md section 3's key order).
 */
export const isOwnOutput = (text: string): boolean => {
  if (!opensLikeOwnOutput(text)) return false
  const parse = (t: string): unknown => {
    try {
      return JSON.parse(t)
    } catch {
      return undefined
    }
  }
  const whole = parse(text)
  if (whole !== undefined) return isOwnValue(whole)
  const lines = text.split("\n").filter((l) => l.trim() !== "")
  return lines.length > 1 && lines.every((l) => isOwnValue(parse(l)))
}
