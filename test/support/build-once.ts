// vitest's globalSetup (vitest.config.ts): builds bin/ and dist/ once per test run, always, before
// any test file, so no test can run a bundle left over from older sources (issue 39). A build that
// fails ends the run with the build's own output.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** The mtime (ms) of a file written just before this run's build: every output is at least as new. */
    readonly buildStartedAt: number
  }
}

const REPO = path.join(import.meta.dirname, "..", "..")

export default function setup(project: TestProject): void {
  // A file's mtime, not Date.now(): the kernel stamps files from a coarser clock, and the build's
  // outputs are stamped from the same one.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-build-"))
  const marker = path.join(dir, "started")
  fs.writeFileSync(marker, "")
  const startedAt = fs.statSync(marker).mtimeMs
  fs.rmSync(dir, { recursive: true, force: true })

  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO, encoding: "utf8" })
  if (build.status !== 0) {
    throw new Error(`node scripts/build.mjs failed (exit ${build.status ?? build.signal}):\n${build.stderr}${build.stdout}`)
  }
  process.stdout.write("globalSetup: node scripts/build.mjs built bin/ and dist/ for this run\n")
  project.provide("buildStartedAt", startedAt)
}
