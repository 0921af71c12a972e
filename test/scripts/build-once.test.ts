// The bin/ and dist/ the tests run are the ones built in this run (test/support/build-once.ts, the
// globalSetup): each output is at least as new as a file written just before the build started, so
// a bundle left from older sources, or a build that no longer runs, cannot pass the suite.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, inject, it } from "vitest"
import { REPO } from "../support/cli.js"

const OUTPUTS = [
  "bin/specbundle.js",
  "bin/specbundle-main.cjs",
  "bin/specbundle-worker.cjs",
  "bin/specbundle-front.cjs",
  "bin/specbundle-hook.cjs",
  "bin/specbundle-mcp.cjs",
  "dist/index.js"
]

describe("the build runs once per test run", () => {
  it.each(OUTPUTS)("%s was written by this run's build", (file) => {
    const startedAt = inject("buildStartedAt")
    expect(typeof startedAt).toBe("number")
    expect(fs.statSync(path.join(REPO, file)).mtimeMs).toBeGreaterThanOrEqual(startedAt)
  })
})
