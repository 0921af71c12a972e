// The bench's drift rows on real history (issue 51): `specbundle drift` over the SDP reference
// repository's history pinned at bb97d82 (458 commits, 161 Specs, 157 anchors; cloned at run time
// by scripts/sdp-reference.mjs), with the caches warm and without any, each against `git log
// --name-only` over the same history in the same clone (scripts/bench-git-log.mjs), interleaved.
// A third row sets drift against `check` on the same corpus: what the history pass adds to the read.
// Where the repository cannot be cloned the rows say why (n/a) and the bench goes on.
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import * as path from "node:path"
import { cloneSdpReference } from "./sdp-reference.mjs"

const NO_CACHE = { SPECBUNDLE_CODE_CACHE: "0" }

export const sdpDriftRows = ({ cliRow, log, tmp, cli }) => {
  const name = "drift --quiet, the SDP reference history at bb97d82"
  const parent = mkdtempSync(path.join(tmp, "specbundle-bench-sdp-"))
  try {
    log("cloning the SDP reference repository")
    const ref = cloneSdpReference(path.join(parent, "sdp"))
    if (ref.skip !== undefined) {
      log(`skipped: ${name}: ${ref.skip}`)
      return [{ name, na: "n/a (the SDP reference repository could not be cloned; see stderr)", target: "info" }]
    }
    const commits = Number(execFileSync("git", ["-C", ref.dir, "rev-list", "--count", "HEAD"], { encoding: "utf8" }).trim())
    const args = ["drift", "--root", ref.dir, ...ref.exclude.flatMap((e) => ["--exclude", e]), "--quiet"]
    const gitLog = { cmd: [path.join(import.meta.dirname, "bench-git-log.mjs"), ref.dir], label: `git log --name-only HEAD, ${commits} commits (node)` }
    log(`${name}, warm caches`)
    const warm = cliRow(`${name} (${commits} commits, 161 Specs)`, args, gitLog, "info", null)
    log(`${name}, no cache`)
    const cold = cliRow("the same without any cache (SPECBUNDLE_CODE_CACHE=0)", args, gitLog, "info", null, undefined, undefined, NO_CACHE)
    // What drift adds to reading the corpus (the graph read `check` does too): its history pass.
    log(`${name}, against check`)
    const check = { cmd: [cli, "check", ...args.slice(1, -1), "--quiet"], label: "check --quiet, the same corpus (the read alone)" }
    const overRead = cliRow(`${name}, against reading the corpus`, args, check, "info", null)
    return [warm, cold, overRead]
  } finally {
    rmSync(parent, { recursive: true, force: true })
  }
}
