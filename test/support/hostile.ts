// Shared pieces of the hostile-input tests: running the built CLI as a subprocess, checking that
// stderr holds no stack trace, and the reader-output invariants every fuzzed read must keep.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as fc from "fast-check"
import type { CarrierRead } from "../../src/core/model.js"

export const CLI = path.resolve("bin/specbundle.js")

export interface CliRun {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Git variables a test run inside a hook would inherit: they must not aim at the outer repository.
 * The V8 code cache goes to the test file's temp folder (test/support/code-cache-env.ts); without
 * that setup file it is off, so a test never writes into the user's real cache.
 */
export const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete env[key]
  if (!env.SPECBUNDLE_CODE_CACHE_DIR) env.SPECBUNDLE_CODE_CACHE = "0"
  return env
}

/**
 * Runs `node bin/specbundle.js ...args` in `cwd` and waits for it; `env` adds to cleanEnv(). A run
 * that hangs is killed at `timeout` (status null): a deadline against hangs, never a measurement.
 */
export const runCli = (args: ReadonlyArray<string>, cwd: string, options: { readonly env?: NodeJS.ProcessEnv; readonly timeout?: number } = {}): CliRun => {
  const env = { ...cleanEnv(), ...options.env }
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env, timeout: options.timeout ?? 60_000, maxBuffer: 256 * 1024 * 1024 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The git commands a run started, from its GIT_TRACE file (one "trace: built-in: git …" line each). */
export const gitCallsIn = (trace: string): string[] =>
  fs.existsSync(trace)
    ? fs
        .readFileSync(trace, "utf8")
        .split("\n")
        .flatMap((l) => /trace: built-in: git (.*)$/.exec(l)?.[1] ?? [])
    : []

/** Lines of a stack trace (`    at f (file:1:2)`) in the text; [] when there is none. */
export const stackLines = (text: string): string[] => text.split("\n").filter((l) => /^\s+at /.test(l))

/** The non-empty lines of the text (stderr of a one-line failure has exactly one). */
export const nonEmptyLines = (text: string): string[] => text.split("\n").filter((l) => l.trim() !== "")

/** A carrier's reader stops collecting findings at 100, so a broken file cannot flood the report (sdp-format.md section 1). */
export const CARRIER_FINDINGS_CAP = 100

/**
 * Problems with a reader's output, as text (empty when the read keeps every invariant). `carrier`
 * (a Spec carrier, not a code file): a refusal drops every node, and its findings stop at the cap.
 */
export const readProblems = (read: CarrierRead, file: string, carrier: boolean): string[] => {
  const problems: string[] = []
  if (read.file !== file) problems.push(`read.file ${JSON.stringify(read.file)} is not ${JSON.stringify(file)}`)
  for (const f of read.findings) {
    if (typeof f.file !== "string" || f.file === "") problems.push(`finding without file: ${JSON.stringify(f)}`)
    if (!Number.isInteger(f.line) || f.line < 0) problems.push(`finding line is not an integer >= 0: ${JSON.stringify(f)}`)
    if (typeof f.code !== "string" || !/^[a-z][a-z0-9-]*\/[a-z0-9-]+$/.test(f.code)) problems.push(`finding code malformed: ${JSON.stringify(f)}`)
    if (typeof f.message !== "string" || f.message === "" || /[\r\n]/.test(f.message)) problems.push(`finding message not one line: ${JSON.stringify(f)}`)
    if (f.severity !== "error" && f.severity !== "warning") problems.push(`finding severity: ${JSON.stringify(f)}`)
  }
  if (carrier && read.findings.length > CARRIER_FINDINGS_CAP) problems.push(`${read.findings.length} findings, past the cap of ${CARRIER_FINDINGS_CAP}`)
  const refused = read.findings.some((f) => f.severity === "error")
  const nodes = read.specs.length + read.packs.length + read.anchors.length
  if (carrier && refused && nodes > 0) problems.push(`refused carrier still has ${nodes} node(s)`)
  for (const n of [...read.specs, ...read.packs, ...read.anchors]) {
    if (n.file !== file) problems.push(`node ${n.id} names file ${n.file}`)
    if (!Number.isInteger(n.line) || n.line < 1) problems.push(`node ${n.id} line ${n.line}`)
  }
  return problems
}

// ---------------------------------------------------------------------------------------------
// Mutations: a list of operations with raw random parameters, applied in order.

export const TEXT_OPS = [
  "truncate",
  "insert",
  "swap",
  "duplicate",
  "delete-line",
  "deep-yaml",
  "long-line",
  "cr",
  "crlf",
  "bom",
  "unicode",
  "yaml-char",
  "alias-bomb"
] as const
export const BYTE_OPS = ["invalid-utf8", "nul", "random-bytes", "truncate-bytes"] as const

export interface Mutation {
  readonly op: string
  readonly a: number
  readonly b: number
  readonly n: number
  readonly s: string
  readonly bytes: ReadonlyArray<number>
}

export const mutationOf = (ops: ReadonlyArray<string>): fc.Arbitrary<Mutation> =>
  fc.record({
    op: fc.constantFrom(...ops),
    a: fc.nat(),
    b: fc.nat(),
    n: fc.integer({ min: 1, max: 4000 }),
    s: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.constantFrom("---", ":", "- ", "# ", "## Rule", "```", "@spec.", "Feature:", "/**", " * @sdpAnchor impl:x", "*/", "{", "}", "${")
    ),
    bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 })
  })

const INVALID_UTF8 = [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]

const lines = (t: string) => t.split("\n")

export const applyText = (text: string, m: Mutation): string => {
  const at = (len: number) => (len === 0 ? 0 : m.a % (len + 1))
  const ls = lines(text)
  const li = ls.length === 0 ? 0 : m.a % ls.length
  const lj = ls.length === 0 ? 0 : m.b % ls.length
  switch (m.op) {
    case "truncate":
      return text.slice(0, at(text.length))
    case "insert":
      return text.slice(0, at(text.length)) + m.s + text.slice(at(text.length))
    case "swap": {
      const c = [...ls]
      ;[c[li], c[lj]] = [c[lj], c[li]]
      return c.join("\n")
    }
    case "duplicate":
      return [...ls.slice(0, li + 1), ...ls.slice(li)].join("\n")
    case "delete-line":
      return [...ls.slice(0, li), ...ls.slice(li + 1)].join("\n")
    case "deep-yaml": {
      // Deep nesting, block or flow, right after the opening frontmatter fence (or at a random line).
      const depth = m.n
      const nested =
        m.b % 2 === 0
          ? Array.from({ length: Math.min(depth, 600) }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " v"
          : `deep: ${"[".repeat(depth)}x${"]".repeat(m.b % 3 === 0 ? depth : 0)}`
      const where = ls[0] === "---" ? 1 : li
      return [...ls.slice(0, where), nested, ...ls.slice(where)].join("\n")
    }
    case "long-line": {
      const unit = m.s === "" ? "a" : m.s
      const long = unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000)
      return [...ls.slice(0, li), long, ...ls.slice(li)].join("\n")
    }
    case "cr":
      return text.slice(0, at(text.length)) + "\r" + text.slice(at(text.length))
    case "crlf":
      return m.b % 2 === 0 ? text.replace(/\n/g, "\r\n") : text.slice(0, at(text.length)) + "\r\n" + text.slice(at(text.length))
    case "bom":
      return m.b % 2 === 0 ? "\uFEFF" + text : text.slice(0, at(text.length)) + "\uFEFF" + text.slice(at(text.length))
    case "unicode": {
      const chars = [String.fromCodePoint(0x1f600 + (m.b % 80)), "\u0000", "\u2028", "\u2029", "\u0085", "\uD800", "\uDFFF", "\u200B", "\u00A0", "\u{10FFFF}"]
      return text.slice(0, at(text.length)) + chars[m.b % chars.length] + m.s + text.slice(at(text.length))
    }
    case "yaml-char": {
      const specials = [":", "-", "{", "[", "#", "&a", "*a", "!!str", "|", ">", "`", "%YAML 1.2", "? ", "'", '"', "\t"]
      return text.slice(0, at(text.length)) + specials[m.b % specials.length] + text.slice(at(text.length))
    }
    case "alias-bomb": {
      const bomb = [
        "a: &a [x, x, x, x, x, x, x, x, x]",
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
        "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]"
      ]
      const where = ls[0] === "---" ? 1 : li
      return [...ls.slice(0, where), ...bomb, ...ls.slice(where)].join("\n")
    }
  }
  return text
}

export const applyBytes = (bytes: Uint8Array, m: Mutation): Uint8Array => {
  const at = bytes.length === 0 ? 0 : m.a % (bytes.length + 1)
  const splice = (insert: ReadonlyArray<number>) => Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at)])
  switch (m.op) {
    case "invalid-utf8":
      return splice(INVALID_UTF8[m.b % INVALID_UTF8.length])
    case "nul":
      return splice([0])
    case "random-bytes":
      return splice(m.bytes)
    case "truncate-bytes":
      // Cuts may land inside a multi-byte sequence.
      return bytes.subarray(0, at)
  }
  return bytes
}

export const textCase = (seeds: ReadonlyArray<string>) =>
  fc
    .record({
      seed: fc.constantFrom(...seeds),
      muts: fc.array(mutationOf(TEXT_OPS), { minLength: 1, maxLength: 4 })
    })
    .map(({ seed, muts }) => ({ text: muts.reduce(applyText, seed), ops: muts.map((m) => m.op).join(",") }))
