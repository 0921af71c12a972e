// The gwt and gwt-vocabulary fence grammar (sdp-format.md section 4.6): Given, one When, Then;
// And continues the current phase; phases never go back. Steps are kept verbatim after the keyword.
import type { Gwt } from "../model.js"
import { CODES, type Sink } from "./markdown-findings.js"
import type { Located } from "./markdown-lines.js"

const STEP = /^(Given|When|Then|And) (.+)$/s
const PHASES = ["given", "when", "then"] as const

export const parseGwtFence = (steps: ReadonlyArray<Located>, openLine: number, sink: Sink): Gwt | null => {
  const out = { given: [] as string[], when: [] as string[], then: [] as string[] }
  let phase = -1
  let ok = true
  const fail = (line: number, message: string) => {
    sink.error(line, CODES.structure, message)
    ok = false
  }
  for (const step of steps) {
    const m = STEP.exec(step.text)
    if (m === null) {
      fail(
        step.line,
        step.text.trim() === ""
          ? "blank lines are refused inside a gwt fence; remove it"
          : 'each fence line is "Given|When|Then|And <text>" at column one (no But, no *, no indent)'
      )
      continue
    }
    const keyword = m[1]
    if (keyword === "And" && phase === -1) {
      // Report once, then read on as if a Given had opened the fence.
      fail(step.line, "a fence must start with Given, not And")
      phase = 0
      continue
    }
    const next = keyword === "And" ? phase : PHASES.indexOf(keyword.toLowerCase() as (typeof PHASES)[number])
    if (phase === -1 && next !== 0) {
      fail(step.line, "a fence must start with a Given step")
      phase = 0
    }
    if (next < phase) {
      fail(step.line, `${keyword} after ${PHASES[phase]} steps goes back a phase; order steps Given, When, Then`)
      continue
    }
    if (next === 1 && out.when.length > 0) {
      fail(step.line, "a fence takes exactly one When step; move extra actions into Given or Then")
      continue
    }
    phase = next
    out[PHASES[next]].push(m[2])
  }
  if (ok && out.given.length === 0) fail(openLine, "a fence must start with a Given step")
  else if (ok && out.when.length === 0) fail(openLine, "a fence needs exactly one When step")
  else if (ok && out.then.length === 0) fail(openLine, "a fence needs at least one Then step")
  return ok ? out : null
}
