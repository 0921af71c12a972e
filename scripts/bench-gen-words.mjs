// Deterministic randomness and plain prose for the corpus generator (scripts/gen-corpus.mjs).
// Prose avoids every character the SDP Markdown grammar treats specially: no colon, no angle
// bracket, no backtick, no leading dash, no `spec:` mention.

/** A seeded 32-bit generator (mulberry32): the same seed gives the same stream on every machine. */
export const makeRng = (seed) => {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = (list) => list[Math.floor(next() * list.length)]
  const chance = (p) => next() < p
  return { next, int, pick, chance }
}

/** A stable 32-bit hash of a string (FNV-1a), to derive one stream per purpose from one seed. */
export const hash32 = (text) => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h >>> 0
}

export const pad = (n, width = 3) => String(n).padStart(width, "0")

export const NOUNS = [
  "ledger",
  "invoice",
  "payment",
  "account",
  "order",
  "shipment",
  "refund",
  "customer",
  "report",
  "schedule",
  "session",
  "token",
  "catalog",
  "basket",
  "receipt",
  "voucher",
  "batch",
  "journal",
  "tariff",
  "quota",
  "contract",
  "profile",
  "message",
  "channel",
  "archive",
  "export",
  "import",
  "review",
  "budget",
  "forecast",
  "warehouse",
  "parcel",
  "route",
  "carrier",
  "ticket",
  "booking"
]
export const VERBS = [
  "posting",
  "approval",
  "matching",
  "settlement",
  "renewal",
  "closing",
  "transfer",
  "recovery",
  "sync",
  "audit",
  "split",
  "merge",
  "rollover",
  "dispatch",
  "intake",
  "handover",
  "billing",
  "tracking",
  "pricing",
  "routing",
  "cleanup",
  "rotation",
  "reconciliation",
  "allocation"
]
const ADJECTIVES = [
  "pending",
  "settled",
  "overdue",
  "partial",
  "stale",
  "current",
  "locked",
  "visible",
  "shared",
  "draft",
  "final",
  "regional",
  "nightly",
  "manual",
  "automatic",
  "external",
  "internal",
  "signed"
]
const ACTORS = ["clerk", "auditor", "operator", "customer", "reviewer", "planner", "courier", "admin"]
const VERBS3 = [
  "records",
  "checks",
  "rejects",
  "keeps",
  "sends",
  "stores",
  "reads",
  "updates",
  "closes",
  "opens",
  "splits",
  "totals",
  "marks",
  "holds",
  "releases",
  "counts",
  "signs",
  "lists"
]
const LINKS = ["before", "after", "while", "once", "unless", "when", "so that", "because"]

export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1)

/** One sentence of 8 to 16 words ending with a period. */
export const sentence = (rng) => {
  const parts = [
    rng.chance(0.5) ? "the" : "every",
    rng.pick(ADJECTIVES),
    rng.pick(NOUNS),
    rng.pick(VERBS3),
    "the",
    rng.pick(NOUNS),
    rng.pick(LINKS),
    "the",
    rng.pick(ACTORS),
    rng.pick(VERBS3),
    rng.chance(0.5) ? "a" : "each",
    rng.pick(ADJECTIVES),
    rng.pick(NOUNS)
  ]
  if (rng.chance(0.4)) parts.push("in", "the", rng.pick(VERBS), "step")
  return cap(parts.join(" ")) + "."
}

export const sentences = (rng, n) => Array.from({ length: n }, () => sentence(rng)).join(" ")

/** A paragraph hard-wrapped at about 100 columns (lines joined by the reader). */
export const paragraph = (rng, n) => {
  const words = sentences(rng, n).split(" ")
  const lines = []
  let line = ""
  for (const w of words) {
    if (line.length + w.length + 1 > 100 && line !== "") {
      lines.push(line)
      line = w
    } else line = line === "" ? w : `${line} ${w}`
  }
  if (line !== "") lines.push(line)
  return lines.join("\n")
}

export const actor = (rng) => rng.pick(ACTORS)
export const adjective = (rng) => rng.pick(ADJECTIVES)

/** A lower-camel key, e.g. `ledgerPosting`. */
export const camel = (a, b) => a + cap(b.replace(/-/g, ""))

/** A question sentence ending with a question mark. */
export const question = (rng) =>
  `Should the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.pick(VERBS3).replace(/s$/, "")} the ${rng.pick(NOUNS)} ${rng.pick(LINKS)} the ${rng.pick(ACTORS)} signs it?`
