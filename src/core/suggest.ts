// "Did you mean": the one home for edit distance, used for unknown subcommands, options, Spec and
// Pack ids. Pure and small: it runs on a wrong argument, never on the happy path.

/** Levenshtein distance (insert, delete, substitute), one row at a time. */
export const editDistance = (a: string, b: string): number => {
  if (a === b) return 0
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = row
  }
  return prev[b.length]
}

/**
 * The candidates close to `word`, nearest first (ties in code-unit order), at most `max`.
 * Close: within a third of the word's length (1 to 4 edits), or one contains the other; and no
 * more than one edit farther than the nearest.
 */
export const suggest = (word: string, candidates: Iterable<string>, max = 3): string[] => {
  const limit = Math.min(4, Math.max(1, Math.floor(word.length / 3)))
  const scored: Array<[number, string]> = []
  for (const c of candidates) {
    if (c === word) continue
    const d = editDistance(word, c)
    if (d <= limit || (word.length >= 3 && (c.includes(word) || word.includes(c)))) scored.push([d, c])
  }
  scored.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0))
  const nearest = scored.length > 0 ? scored[0][0] : 0
  return scored
    .filter(([d]) => d <= nearest + 1)
    .slice(0, max)
    .map(([, c]) => c)
}

/** ` Did you mean "a" or "b"?` (with a leading space), or "" when nothing is close. */
export const didYouMean = (word: string, candidates: Iterable<string>, quote = (s: string) => JSON.stringify(s)): string => {
  const near = suggest(word, candidates)
  if (near.length === 0) return ""
  const shown = near.map(quote)
  return ` Did you mean ${shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}`}?`
}

/** The candidate nearest to `text` within `below` edits (exclusive), the first on ties; null when none. */
export const nearest = (text: string, candidates: ReadonlyArray<string>, below: number): string | null => {
  let best: string | null = null
  let bestDistance = below
  for (const candidate of candidates) {
    const distance = editDistance(text, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}
