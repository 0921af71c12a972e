// The slot notation inside gwt step text (sdp-format.md section 4.8): typed slots declare a
// vocabulary dimension, bound slots fix one value, bare and malformed slots leave it unbound.
// Used by the example concreteness law of the readiness floor. Pure.

export type SlotType =
  | { readonly kind: "number" }
  | { readonly kind: "string" }
  | { readonly kind: "boolean" }
  | { readonly kind: "enum"; readonly values: ReadonlyArray<string> }

export type SlotValue = string | number | boolean

export type Slot =
  | { readonly form: "typed"; readonly name: string; readonly type: SlotType }
  | { readonly form: "bound"; readonly name: string; readonly value: SlotValue }
  | { readonly form: "bare"; readonly name: string }
  | { readonly form: "malformed"; readonly name: string }

interface Group {
  readonly start: number
  /** Index just past the closing brace. */
  readonly end: number
  readonly inner: string
}

const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_]*$/
const NUMBER_RE = /^-?(?:\d+\.?\d*|\.\d+)$/

/**
 * Brace groups, quote-aware, never nested. An unquoted `{` inside an open group drops the
 * earlier brace as prose and starts again there; an unterminated group is prose.
 */
const scanGroups = (text: string): Group[] => {
  const groups: Group[] = []
  let i = 0
  while (i < text.length) {
    if (text[i] !== "{") {
      i++
      continue
    }
    let j = i + 1
    let quoted = false
    let close = -1
    let restart = -1
    for (; j < text.length; j++) {
      const c = text[j]
      if (c === '"') quoted = !quoted
      else if (!quoted && c === "}") {
        close = j
        break
      } else if (!quoted && c === "{") {
        restart = j
        break
      }
    }
    if (restart >= 0) {
      i = restart
      continue
    }
    if (close < 0) {
      i++
      continue
    }
    groups.push({ start: i, end: close + 1, inner: text.slice(i + 1, close) })
    i = close + 1
  }
  return groups
}

/** The text of exactly one double-quoted literal without inner quotes, or null. */
const quotedLiteral = (raw: string): string | null => {
  const s = raw.trim()
  if (s.length < 2 || !s.startsWith('"') || !s.endsWith('"')) return null
  const body = s.slice(1, -1)
  return body.includes('"') ? null : body
}

/** `"a"|"b"|…` with at least two literals; `|` inside quotes does not split. */
const enumLiterals = (raw: string): string[] | null => {
  const parts: string[] = []
  let current = ""
  let quoted = false
  for (const c of raw) {
    if (c === '"') quoted = !quoted
    if (c === "|" && !quoted) {
      parts.push(current)
      current = ""
    } else current += c
  }
  parts.push(current)
  if (parts.length < 2) return null
  const values: string[] = []
  for (const p of parts) {
    const v = quotedLiteral(p)
    if (v === null) return null
    values.push(v)
  }
  return values
}

/** Classify one group; null when it is prose (its content does not open with an identifier). */
const classify = (inner: string): Slot | null => {
  const content = inner.trim()
  const colon = content.indexOf(":")
  const name = (colon < 0 ? content : content.slice(0, colon)).trim()
  if (!IDENT_RE.test(name)) return null
  // An object key named __proto__ misbehaves wherever slots become objects: never usable.
  if (name === "__proto__") return { form: "malformed", name }
  if (colon < 0) return { form: "bare", name }
  const rest = content.slice(colon + 1).trim()
  if (rest === "number" || rest === "string" || rest === "boolean") return { form: "typed", name, type: { kind: rest } }
  const values = enumLiterals(rest)
  if (values !== null) return { form: "typed", name, type: { kind: "enum", values } }
  const literal = quotedLiteral(rest)
  if (literal !== null) return { form: "bound", name, value: literal }
  if (NUMBER_RE.test(rest)) return { form: "bound", name, value: Number(rest) }
  if (rest === "true" || rest === "false") return { form: "bound", name, value: rest === "true" }
  return { form: "malformed", name }
}

/** Every slot of a step text in authored order; prose brace groups are skipped. */
export const parseSlots = (text: string): Slot[] => {
  const slots: Slot[] = []
  for (const g of scanGroups(text)) {
    const slot = classify(g.inner)
    if (slot !== null) slots.push(slot)
  }
  return slots
}

/** The step's identity: each slot replaced by `{name}`, prose braces kept. */
export const skeleton = (text: string): string => {
  let out = ""
  let at = 0
  for (const g of scanGroups(text)) {
    const slot = classify(g.inner)
    if (slot === null) continue
    out += text.slice(at, g.start) + `{${slot.name}}`
    at = g.end
  }
  return out + text.slice(at)
}

/** True when every slot of the step binds a value (a step without slots is concrete). */
export const isConcrete = (text: string): boolean => parseSlots(text).every((s) => s.form === "bound")

/** Whether a bound value fits a declared vocabulary type. */
export const valueFits = (value: SlotValue, type: SlotType): boolean => {
  switch (type.kind) {
    case "number":
      return typeof value === "number"
    case "string":
      return typeof value === "string"
    case "boolean":
      return typeof value === "boolean"
    case "enum":
      return typeof value === "string" && type.values.includes(value)
  }
}

const sameType = (a: SlotType, b: SlotType): boolean =>
  a.kind === b.kind && (a.kind !== "enum" || (b.kind === "enum" && a.values.length === b.values.length && a.values.every((v, i) => v === b.values[i])))

/** One vocabulary step, ready for matching. */
export interface VocabularyStep {
  readonly skeleton: string
  /** name -> declared type; null when the step names the slot without one usable type. */
  readonly types: ReadonlyMap<string, SlotType | null>
}

export const vocabularyStep = (text: string): VocabularyStep => {
  const types = new Map<string, SlotType | null>()
  for (const slot of parseSlots(text)) {
    const prior = types.get(slot.name)
    if (slot.form !== "typed") types.set(slot.name, null)
    else if (prior === undefined) types.set(slot.name, slot.type)
    else if (prior !== null && !sameType(prior, slot.type)) types.set(slot.name, null)
  }
  return { skeleton: skeleton(text), types }
}

/**
 * The concreteness law for one used step against a parent vocabulary: all slots bound, the
 * skeleton matches at least one vocabulary step, and in every matching step each slot is
 * declared with one type that the bound value fits. With `vocabulary` null (no parent owns an
 * example space) only the binding is checked.
 */
export const stepFitsVocabulary = (text: string, vocabulary: ReadonlyArray<VocabularyStep> | null): boolean => {
  const slots = parseSlots(text)
  if (!slots.every((s) => s.form === "bound")) return false
  if (vocabulary === null) return true
  const key = skeleton(text)
  const matches = vocabulary.filter((v) => v.skeleton === key)
  if (matches.length === 0) return false
  for (const slot of slots) {
    if (slot.form !== "bound") return false
    for (const m of matches) {
      const type = m.types.get(slot.name)
      if (type === undefined || type === null || !valueFits(slot.value, type)) return false
    }
  }
  return true
}
