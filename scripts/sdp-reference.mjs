#!/usr/bin/env node
// The SDP reference repository (libar-dev/software-delivery-protocol, Apache-2.0) cloned at run
// time into a folder, its history pinned to one commit, for the drift test on its real history
// (test/cli/drift-sdp.test.ts) and the bench's drift row (scripts/bench-drift-sdp.mjs). Nothing of
// it is kept in this repository. Where from, in order: $SPECBUNDLE_SDP_REPO (a path or URL git
// clones; when set, only it), the machine's mirror if present, else GitHub; each clone bounded in time.
//
//   node scripts/sdp-reference.mjs DIR
// prints one JSON line: {"dir","source","pin","exclude"} after a clone, or {"skip": "why"} (exit 0
// both: the caller skips with that line).
import { execFileSync } from "node:child_process"
import { existsSync, rmSync } from "node:fs"
import * as path from "node:path"

/** The commit the history is pinned to: main on 2026-08-21 (458 commits). */
export const SDP_PIN = "bb97d829eea7b3689d5d8569d307e1bb5e77fd0d"
/** The Spec corpus is the repository itself less these folders (its own package.json scripts leave them out too). */
export const SDP_EXCLUDE = ["explorations", "examples", "test/fixtures/import/parity"]
export const SDP_MIRROR = "/work/.mirror/libar-dev+software-delivery-protocol/repo"
export const SDP_URL = "https://github.com/libar-dev/software-delivery-protocol.git"

/** The places to clone from, in order, each with its time bound in ms. */
const sources = () => {
  const given = process.env.SPECBUNDLE_SDP_REPO
  if (given !== undefined && given !== "") return [{ source: given, timeout: 180_000 }]
  return [...(existsSync(SDP_MIRROR) ? [{ source: SDP_MIRROR, timeout: 60_000 }] : []), { source: SDP_URL, timeout: 120_000 }]
}

const gitEnv = () => {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX"]) delete env[key]
  return env
}

/** The last line git wrote on stderr, or how the run ended. */
const whyOf = (e) => {
  if (e?.code === "ETIMEDOUT" || e?.signal === "SIGTERM") return "timed out"
  const lines = String(e?.stderr ?? e?.message ?? e)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
  return lines.pop() ?? "failed"
}

/**
 * Clones the reference into `dir` (which must not exist yet) and checks out the pinned commit,
 * detached: `{ dir, source, pin, exclude }`, or `{ skip }` saying why none of the sources served.
 */
export const cloneSdpReference = (dir) => {
  const env = gitEnv()
  const tried = []
  for (const { source, timeout } of sources()) {
    rmSync(dir, { recursive: true, force: true })
    try {
      execFileSync("git", ["clone", "-q", "--no-checkout", source, dir], { env, timeout, stdio: ["ignore", "ignore", "pipe"], killSignal: "SIGKILL" })
    } catch (e) {
      tried.push(`${source}: ${whyOf(e)}`)
      continue
    }
    try {
      execFileSync("git", ["-C", dir, "cat-file", "-e", `${SDP_PIN}^{commit}`], { env, stdio: ["ignore", "ignore", "pipe"] })
    } catch {
      tried.push(`${source}: has no commit ${SDP_PIN.slice(0, 12)}`)
      continue
    }
    execFileSync("git", ["-C", dir, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", SDP_PIN], { env, stdio: ["ignore", "ignore", "pipe"] })
    return { dir, source, pin: SDP_PIN, exclude: SDP_EXCLUDE }
  }
  rmSync(dir, { recursive: true, force: true })
  return { skip: `the SDP reference repository could not be cloned (${tried.join("; ")}); set SPECBUNDLE_SDP_REPO to a clone of it` }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dir = process.argv[2]
  if (dir === undefined) {
    process.stderr.write("usage: node scripts/sdp-reference.mjs DIR\n")
    process.exitCode = 2
  } else process.stdout.write(`${JSON.stringify(cloneSdpReference(path.resolve(dir)))}\n`)
}
