// The findings a Markdown carrier collects while it is read. Any error refuses the whole carrier;
// collection stops at 100 so a badly broken file cannot flood the report (sdp-format.md section 1).
import type { Finding } from "../model.js"

export const FINDING_CAP = 100

export const CODES = {
  frontmatter: "extract/invalid-frontmatter",
  structure: "extract/invalid-markdown-structure",
  unrecognized: "extract/unrecognized-property",
  reserved: "extract/reserved-property",
  nonStatic: "extract/non-static-envelope",
  invalidId: "extract/invalid-id",
  heading: "extract/unrecognized-heading",
  unownedProse: "extract/unowned-prose",
  yamlAlias: "extract/yaml-alias"
} as const

/** Names of derived facts and graph shapes: never authorable as keys (format sections 3.1, 4.4). */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  "implemented",
  "has-verifier",
  "hasVerifier",
  "observed",
  "claim",
  "deliveryFacts",
  "nodeType",
  "specKind",
  "satisfies",
  "verifies",
  "belongsTo",
  "models"
])

export class Sink {
  readonly findings: Finding[] = []
  constructor(readonly file: string) {}

  error(line: number, code: string, message: string): void {
    if (this.findings.length >= FINDING_CAP) return
    // Messages quote authored text (a quoted YAML key may hold "\n"): a finding stays one line.
    this.findings.push({ file: this.file, line, code, message: message.replace(/\r/g, "\\r").replace(/\n/g, "\\n"), severity: "error" })
  }

  get failed(): boolean {
    return this.findings.length > 0
  }
}

/** UTF-8 byte length without allocating (limits are stated in KiB of UTF-8). */
export const utf8Length = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4
      i++
    } else n += 3
  }
  return n
}
