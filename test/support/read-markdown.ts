// Helpers for the Markdown carrier tests: small carriers built line by line, parsed, inspected.
import { expect } from "vitest"
import type { CarrierRead, Finding, PackNode, SpecNode } from "../../src/core/model.js"
import { parseMarkdownCarrier } from "../../src/core/read/markdown.js"

export const FILE = "specs/loans/borrow-book.sdp.md"

/** Five envelope lines: the closing --- is file line 7, the H1 file line 8. */
export const SPEC_FRONT = ["id: spec:loans.borrow-book", "kind: behavior", "altitude: feature", "readiness: defined", "relations: {}"]

export const withKind = (kind: string): string[] => SPEC_FRONT.map((l) => (l.startsWith("kind:") ? `kind: ${kind}` : l))

export const carrier = (front: ReadonlyArray<string>, body: ReadonlyArray<string>): string => ["---", ...front, "---", ...body].join("\n") + "\n"

/** A behavior Spec whose body is `# Borrow` followed by `body` (first body line after H1 = file line 9). */
export const specText = (body: ReadonlyArray<string>, front: ReadonlyArray<string> = SPEC_FRONT): string => carrier(front, ["# Borrow", ...body])

/**
 * The carrier read whole. Every case also reads it as a read that keeps no prose does (checked,
 * its prose parsed again when read: SpecProseOnDemand), which must print the same bytes: the same
 * findings and refusals from a first parse that builds no sections and records no locations.
 */
export const parse = (text: string): CarrierRead => {
  const whole = parseMarkdownCarrier(FILE, text)
  expect(JSON.stringify(parseMarkdownCarrier(FILE, text, true))).toBe(JSON.stringify(whole))
  return whole
}

export const onlySpec = (text: string): SpecNode => {
  const read = parse(text)
  expect(read.findings).toEqual([])
  expect(read.specs).toHaveLength(1)
  return read.specs[0]
}

export const onlyPack = (text: string): PackNode => {
  const read = parse(text)
  expect(read.findings).toEqual([])
  expect(read.packs).toHaveLength(1)
  return read.packs[0]
}

/** Asserts the carrier is refused whole and returns its findings. */
export const refused = (text: string): ReadonlyArray<Finding> => {
  const read = parse(text)
  expect(read.specs).toEqual([])
  expect(read.packs).toEqual([])
  expect(read.findings.length).toBeGreaterThan(0)
  for (const f of read.findings) {
    expect(f.severity).toBe("error")
    expect(f.file).toBe(FILE)
    expect(f.message).not.toContain("\n")
  }
  return read.findings
}

/** `[line, code]` pairs, for compact assertions. */
export const where = (findings: ReadonlyArray<Finding>): Array<[number, string]> => findings.map((f) => [f.line, f.code])
