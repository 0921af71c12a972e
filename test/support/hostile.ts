// Shared pieces of the hostile-input tests: running the built CLI as a subprocess, checking that
// stderr holds no stack trace, and the reader-output invariants every fuzzed read must keep.
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { expect } from "vitest"
import type { CarrierRead } from "../../src/core/model.js"

export const CLI = path.resolve("bin/specbundle.js")

export interface CliRun {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

/** Git variables a test run inside a hook would inherit: they must not aim at the outer repository. */
export const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete env[key]
  return env
}

/** Runs `node bin/specbundle.js ...args` in `cwd` and waits for it. */
export const runCli = (args: ReadonlyArray<string>, cwd: string, timeout = 60_000): CliRun => {
  const start = performance.now()
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: cleanEnv(), timeout, maxBuffer: 256 * 1024 * 1024 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - start }
}

/** No line of a stack trace (`    at f (file:1:2)`) anywhere in the text. */
export const expectNoStack = (text: string): void => {
  const stackLines = text.split("\n").filter((l) => /^\s+at /.test(l))
  expect(stackLines).toEqual([])
}

/** A one-line failure: exactly one non-empty stderr line, no stack trace. */
export const expectOneLine = (text: string): string => {
  expectNoStack(text)
  const lines = text.split("\n").filter((l) => l.trim() !== "")
  expect(lines).toHaveLength(1)
  return lines[0]
}

/** Problems with a reader's output, as text (empty when the read keeps every invariant). */
export const readProblems = (read: CarrierRead, file: string, refusalDropsAll: boolean): string[] => {
  const problems: string[] = []
  if (read.file !== file) problems.push(`read.file ${JSON.stringify(read.file)} is not ${JSON.stringify(file)}`)
  for (const f of read.findings) {
    if (typeof f.file !== "string" || f.file === "") problems.push(`finding without file: ${JSON.stringify(f)}`)
    if (!Number.isInteger(f.line) || f.line < 0) problems.push(`finding line is not an integer >= 0: ${JSON.stringify(f)}`)
    if (typeof f.code !== "string" || !/^[a-z][a-z0-9-]*\/[a-z0-9-]+$/.test(f.code)) problems.push(`finding code malformed: ${JSON.stringify(f)}`)
    if (typeof f.message !== "string" || f.message === "" || /[\r\n]/.test(f.message)) problems.push(`finding message not one line: ${JSON.stringify(f)}`)
    if (f.severity !== "error" && f.severity !== "warning") problems.push(`finding severity: ${JSON.stringify(f)}`)
  }
  const refused = read.findings.some((f) => f.severity === "error")
  const nodes = read.specs.length + read.packs.length + read.anchors.length
  if (refusalDropsAll && refused && nodes > 0) problems.push(`refused carrier still has ${nodes} node(s)`)
  for (const n of [...read.specs, ...read.packs, ...read.anchors]) {
    if (n.file !== file) problems.push(`node ${n.id} names file ${n.file}`)
    if (!Number.isInteger(n.line) || n.line < 1) problems.push(`node ${n.id} line ${n.line}`)
  }
  return problems
}
