// Drift's caches (issue 51) with the built CLI over the example history: the range's ends are read
// under parse caches of their own, so a bundle of the same range keeps its shards whatever drift
// reads; and a range pass's result is kept by its commits, so a re-run over an unchanged range
// (a pre-push hook's) runs no git log and lists no tree, and prints the bytes an uncached run prints.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cacheEnv, cli } from "../support/cli.js"
import { exampleHistory, tempDir } from "../support/git.js"
import { parseCacheFiles } from "../support/cache-file.js"
import { gitCallsIn } from "../support/hostile.js"

const ok = (cwd: string, args: string[], env: NodeJS.ProcessEnv) => {
  const r = cli(cwd, args, { env, timeout: 60_000 })
  expect(r.status, r.stderr).toBe(0)
  return r
}

describe("drift's caches", () => {
  it("a bundle of a range, drift over it, drift over the same commits named otherwise, the bundle again: neither of the last two rewrites a parse shard", () => {
    const repo = exampleHistory("specbundle-drift-cache-")
    const cache = tempDir("specbundle-drift-cache-dir-")
    const env = cacheEnv(cache)
    const bundle = ["bundle", "--changeset", "HEAD~1...HEAD", "--parts", "--out", path.join(tempDir("specbundle-drift-cache-out-"), "out")]
    ok(repo.dir, bundle, env)
    ok(repo.dir, ["drift", "--changeset", "HEAD~1...HEAD"], env)
    // The parse shards (the results file takes the second request's result).
    const shards = () => Object.fromEntries(Object.entries(parseCacheFiles(cache)).filter(([f]) => !f.endsWith("-drift-results.json")))
    const before = shards()
    // Another text for the same range: its result is not kept yet, so both ends are read again.
    ok(repo.dir, ["drift", "--changeset", "main~1...main"], env)
    ok(repo.dir, bundle, env)
    expect(shards()).toEqual(before)
  }, 120_000)

  it("a re-run over an unchanged range runs no git log and lists no tree, writes nothing, and prints what an uncached run prints", () => {
    const repo = exampleHistory("specbundle-drift-cache-")
    const cache = tempDir("specbundle-drift-cache-dir-")
    for (const format of ["json", "text"]) {
      const args = ["drift", "--changeset", "HEAD~1..HEAD", "--format", format]
      const uncached = ok(repo.dir, args, cacheEnv(undefined))
      const first = ok(repo.dir, args, cacheEnv(cache))
      const kept = parseCacheFiles(cache)
      const trace = path.join(tempDir("specbundle-drift-cache-trace-"), "trace")
      const again = ok(repo.dir, args, cacheEnv(cache, { GIT_TRACE: trace }))
      expect([again.stdout, again.stderr]).toEqual([uncached.stdout, uncached.stderr])
      expect([first.stdout, first.stderr]).toEqual([uncached.stdout, uncached.stderr])
      const calls = gitCallsIn(trace)
      expect(calls.length).toBeGreaterThan(0)
      expect(calls.filter((c) => /^(log|ls-tree|cat-file|diff)\b/.test(c))).toEqual([])
      expect(parseCacheFiles(cache)).toEqual(kept)
    }
    // Another range is another result: computed, and kept beside the first.
    const other = ok(repo.dir, ["drift", "--changeset", "HEAD~1...HEAD"], cacheEnv(cache))
    expect(other.stdout).toBe(ok(repo.dir, ["drift", "--changeset", "HEAD~1...HEAD"], cacheEnv(undefined)).stdout)
  }, 120_000)
})
