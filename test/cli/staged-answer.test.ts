// The pre-commit hook's answer kept by the repository's stat data (src/node/savedAnswer.ts): a
// warm `impact --staged` run under an unchanged stamp prints what the last one printed without
// starting git, and every other state prints what a run without any cache prints: after a staged
// edit, a commit, a checkout, a configuration rewritten in place at the same size and mtime, a
// deleted answer file, an answer file of another build, stamp or format, one cut short or not
// JSON, and runs at once. Each change below changes the report, so an answer trusted wrongly
// shows as a difference; the planted answers print "WRONG".
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { sealed, unsealed } from "../support/cache-file.js"
import type { Run } from "../support/cli.js"
import { cacheEnv, cli, cliAsync } from "../support/cli.js"
import type { Repo } from "../support/git.js"
import { codeAnchor, makeRepo, specCarrier, tempDir } from "../support/git.js"
import { gitCallsIn } from "../support/hostile.js"

const HOOK = ["impact", "--staged", "--strict"]

/** Past the racy window (3 s): the stamp of files older than that is trusted. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3500))

interface Setup {
  readonly repo: Repo
  readonly cache: string
  readonly trace: string
}

const setup = (): Setup => {
  const repo = makeRepo()
  repo.write("pack.sdp.md", "---\nid: pack:all\nspecs:\n  - spec:i.one\n  - spec:i.two\n---\n# All\n")
  repo.write("one.sdp.md", specCarrier("spec:i.one", "One"))
  repo.write("two.sdp.md", specCarrier("spec:i.two", "Two"))
  repo.write("src/one.ts", codeAnchor("impl:i.one", ["spec:i.one"]))
  repo.commit("first")
  // Outside the repository: the trace is no untracked file, and its path is the same every run (the environment is part of the key).
  const trace = path.join(tempDir("specbundle-answer-trace-"), "trace.txt")
  return { repo, cache: tempDir("specbundle-answer-cache-"), trace }
}

/** The hook run warm (the answer kept or used) and the git processes it started. */
const warm = ({ repo, cache, trace }: Setup, args = HOOK): Run & { readonly git: number } => {
  fs.rmSync(trace, { force: true })
  const r = cli(repo.dir, args, { env: cacheEnv(cache, { GIT_TRACE: trace }) })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, git: gitCallsIn(trace).length }
}

/** The same run without any cache. */
const cold = ({ repo }: Setup, args = HOOK): Run => cli(repo.dir, args, { env: cacheEnv(undefined) })

const answerFiles = (cache: string): string[] => fs.readdirSync(cache).filter((f) => /^specbundle-parse-answer-[0-9a-f]{40}\.json$/.test(f))

/** A warm run twice (the first keeps the answer, the second may use it) against the uncached run: the same bytes and exit. */
const expectSameAsUncached = (s: Setup, args = HOOK) => {
  const reference = cold(s, args)
  const [first, second] = [warm(s, args), warm(s, args)]
  for (const r of [first, second]) expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual(reference)
  return { reference, first, second }
}

/** Rewrites the one answer file of the cache: `change` gets its JSON value and returns the value to seal (or bytes as they are). */
const plant = (cache: string, change: (saved: Record<string, unknown>) => Record<string, unknown> | Buffer) => {
  const [file] = answerFiles(cache)
  const at = path.join(cache, file)
  const saved = JSON.parse(unsealed(fs.readFileSync(at)).toString("utf8")) as Record<string, unknown>
  const next = change(saved)
  fs.writeFileSync(at, Buffer.isBuffer(next) ? next : sealed(JSON.stringify(next)), { mode: 0o600 })
}

/** `r` printed `reference`'s bytes and exit; it read (started git) or answered from the kept answer (none). */
const expectRun = (r: Run & { readonly git: number }, reference: Run, read: boolean) => {
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual(reference)
  if (read) expect(r.git).toBeGreaterThan(0)
  else expect(r.git).toBe(0)
}

const wrong = (saved: Record<string, unknown>) => ({ ...saved, writes: [["out", "WRONG\n"]], exit: 0 })

describe("the hook's answer kept by the repository's stat data", () => {
  it("an unchanged state: the second warm run starts no git and prints the same bytes, exit 1 of --strict and the findings included", async () => {
    const s = setup()
    s.repo.write("bad.sdp.md", "---\nid: spec:i.bad\nkind: nonsense\n---\n# Bad\n")
    s.repo.write("one.sdp.md", specCarrier("spec:i.one", "One, edited"))
    s.repo.git("add", "-A")
    await settle()
    const { reference, first, second } = expectSameAsUncached(s)
    expect(reference.status).toBe(1)
    expect(reference.stderr).not.toBe("")
    expect(first.git).toBeGreaterThan(0)
    expect(second.git).toBe(0)
    expect(answerFiles(s.cache)).toHaveLength(1)
  }, 300_000)

  it("after a staged edit, a commit, a checkout and a configuration rewritten in place at the same size and mtime", async () => {
    const s = setup()
    const { repo } = s
    // On `other`, two depends on one: a staged edit of one puts two at risk there, not on main.
    repo.git("checkout", "-q", "-b", "other")
    repo.write("two.sdp.md", specCarrier("spec:i.two", "Two", "relations:\n  dependsOn: [spec:i.one]"))
    repo.commit("two depends on one")
    repo.git("checkout", "-q", "main")
    repo.write("one.sdp.md", specCarrier("spec:i.one", "One, edited"))
    repo.git("add", "one.sdp.md")
    await settle()
    expect(expectSameAsUncached(s).second.git).toBe(0)
    // Another file staged.
    repo.write("src/one.ts", codeAnchor("impl:i.one", ["spec:i.two"]))
    repo.git("add", "src/one.ts")
    await settle()
    expect(expectSameAsUncached(s).second.git).toBe(0)
    // The staged edit of one.sdp.md carried over to the other branch.
    repo.git("reset", "-q", "src/one.ts")
    repo.git("checkout", "-q", "src/one.ts")
    repo.git("checkout", "-q", "other")
    await settle()
    const onOther = expectSameAsUncached(s)
    expect(onOther.reference.stdout).toContain("spec:i.two")
    // Committed: nothing staged.
    repo.git("commit", "-q", "-m", "one edited")
    await settle()
    expectSameAsUncached(s)
    // The configuration rewritten in place: same size, mtime put back; only its ctime tells.
    repo.write("one.sdp.md", specCarrier("spec:i.one", "One, edited again"))
    repo.git("add", "one.sdp.md")
    const config = path.join(repo.dir, "specbundle.config.json")
    fs.writeFileSync(config, JSON.stringify({ exclude: ["two.sdp.md"] }))
    await settle()
    const before = expectSameAsUncached(s)
    // touch -r copies the mtime to the nanosecond (fs.utimes takes a double: not exact).
    const reference = path.join(path.dirname(s.trace), "mtime")
    execFileSync("touch", ["-r", config, reference])
    fs.writeFileSync(config, JSON.stringify({ exclude: ["one.sdp.md"] }))
    execFileSync("touch", ["-m", "-r", reference, config])
    expect(fs.statSync(config, { bigint: true }).mtimeNs).toBe(fs.statSync(reference, { bigint: true }).mtimeNs)
    // Within the racy window: no stamp, the run reads.
    const racy = expectSameAsUncached(s)
    expect(racy.first.git).toBeGreaterThan(0)
    expect(racy.reference.stdout).not.toBe(before.reference.stdout)
    await settle()
    expectSameAsUncached(s)
  }, 300_000)

  it("a deleted answer file, one of another build, stamp or format, one cut short or not JSON: ignored, nothing on stderr, then kept anew", async () => {
    const s = setup()
    s.repo.write("one.sdp.md", specCarrier("spec:i.one", "One, edited"))
    s.repo.git("add", "one.sdp.md")
    await settle()
    const { reference } = expectSameAsUncached(s)
    fs.rmSync(path.join(s.cache, answerFiles(s.cache)[0]))
    expectRun(warm(s), reference, true)
    expectRun(warm(s), reference, false)
    const planted: Array<(saved: Record<string, unknown>) => Record<string, unknown> | Buffer> = [
      (saved) => ({ ...wrong(saved), build: "another build" }),
      (saved) => ({ ...wrong(saved), stamp: `${saved.stamp}x` }),
      (saved) => ({ ...wrong(saved), format: 0 }),
      (saved) => ({ ...wrong(saved), key: `${saved.key} ` }),
      (saved) => sealed(JSON.stringify(wrong(saved)).slice(0, 40)),
      (saved) => Buffer.from(JSON.stringify(wrong(saved))).subarray(0, 50),
      () => sealed("not JSON")
    ]
    for (const change of planted) {
      plant(s.cache, change)
      expectRun(warm(s), reference, true)
      expectRun(warm(s), reference, false)
    }
    // The planted answer itself is used when all of it matches (the test above plants what would show).
    plant(s.cache, wrong)
    expect(warm(s).stdout).toBe("WRONG\n")
  }, 300_000)

  it("runs at once keep one whole answer, which the next run uses", async () => {
    const s = setup()
    s.repo.write("one.sdp.md", specCarrier("spec:i.one", "One, edited"))
    s.repo.git("add", "one.sdp.md")
    await settle()
    const reference = cold(s)
    const env = cacheEnv(s.cache, { GIT_TRACE: s.trace })
    const runs = await Promise.all([1, 2, 3].map(() => cliAsync(s.repo.dir, HOOK, { env, timeout: 60_000 })))
    for (const r of runs) expect(r).toEqual(reference)
    expect(answerFiles(s.cache)).toHaveLength(1)
    expectRun(warm(s), reference, false)
  }, 300_000)

  it("another request keeps an answer of its own; a git variable that moves the index keeps none", async () => {
    const s = setup()
    s.repo.write("one.sdp.md", specCarrier("spec:i.one", "One, edited"))
    s.repo.git("add", "one.sdp.md")
    await settle()
    expectSameAsUncached(s)
    const text = [...HOOK, "--format", "text"]
    expect(expectSameAsUncached(s, text).second.git).toBe(0)
    expect(answerFiles(s.cache)).toHaveLength(2)
    // GIT_INDEX_FILE (git's hooks set it): no stamp, so the run reads, and keeps nothing.
    const index = path.join(s.repo.dir, ".git", "index")
    const reference = cli(s.repo.dir, HOOK, { env: cacheEnv(undefined, { GIT_INDEX_FILE: index }) })
    for (let i = 0; i < 2; i++) {
      fs.rmSync(s.trace, { force: true })
      const r = cli(s.repo.dir, HOOK, { env: cacheEnv(s.cache, { GIT_INDEX_FILE: index, GIT_TRACE: s.trace }) })
      expect(r).toEqual(reference)
      expect(gitCallsIn(s.trace).length).toBeGreaterThan(0)
    }
    expect(answerFiles(s.cache)).toHaveLength(2)
  }, 300_000)
})
