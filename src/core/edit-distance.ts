// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" suggestions.

export const editDistance = (a: string, b: string): number => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = cur
  }
  return prev[b.length]
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
