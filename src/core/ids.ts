// The id grammar of sdp-format.md section 3.4, and entry addresses (section 5).

const SEGMENT = "[A-Za-z0-9][A-Za-z0-9-]*"
const ID_RE = new RegExp(`^([a-z][a-z0-9-]*):(${SEGMENT}(?:\\.${SEGMENT})*)$`)
const ADDRESS_RE = new RegExp(`^spec:(${SEGMENT}(?:\\.${SEGMENT})*)#(design|ui|question|rule)\\.([a-z][A-Za-z0-9]*)$`)

/** Lower-camel entry key: Design/UI keys, question keys, rule keys. */
export const ENTRY_KEY_RE = /^[a-z][A-Za-z0-9]*$/

/** A whole identity (no `#` sub-part): `namespace:seg.seg`. */
export const isId = (value: string): boolean => ID_RE.test(value)

export const namespaceOf = (id: string): string => id.slice(0, id.indexOf(":"))

export const isSpecId = (value: string): boolean => isId(value) && value.startsWith("spec:")
export const isPackId = (value: string): boolean => isId(value) && value.startsWith("pack:")

export type EntrySection = "design" | "ui" | "question" | "rule"

/** `spec:<id>#<section>.<key>`. */
export const entryAddress = (specId: string, section: EntrySection, key: string): string => `${specId}#${section}.${key}`

export const isEntryAddress = (value: string): boolean => ADDRESS_RE.test(value)

/** Why a string is not a usable id, or null when it is one. */
export const idProblem = (value: string, namespace?: string): string | null => {
  if (value.includes("#")) {
    return isEntryAddress(value)
      ? `"${value}" is an entry address, not an identity`
      : `"${value}" has a # sub-part; an entry address is spec:<id>#<design|ui|question|rule>.<key>`
  }
  if (!isId(value)) return `"${value}" is not an id (namespace:segment.segment, no spaces or "_")`
  if (namespace !== undefined && namespaceOf(value) !== namespace) {
    return `"${value}" must be in the ${namespace}: namespace`
  }
  return null
}
