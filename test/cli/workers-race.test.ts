// Issue 29: `bundle --changeset` with worker threads sometimes never ended. Each thread that loads
// oxc-parser reserves ~6 GiB of address space; git forked for the changeset's old side while the
// pool's threads held theirs failed (spawn ENOMEM), and the failed run's pool kept the process
// alive. The race is timing-bound, so each command runs many times (two at a time, each with a
// deadline) and every run must end with the 0-worker run's bytes and exit code.
import { execFileSync, spawn } from "node:child_process"
import { availableParallelism } from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { BIN, REPO, gitCleanEnv } from "../support/cli.js"
import { repoAt, runGitIn, tempDir } from "../support/git.js"
import { skipping } from "../support/skip.js"

const RUNS = 50
/** Far above a run's time on a loaded 2-core machine (~2 s idle): a run still going is stuck. */
const DEADLINE_MS = 60_000

interface Outcome {
  readonly status: number | null
  readonly stdout: Buffer
  readonly stuck: boolean
}

/** One CLI run as a child process, killed at the deadline (spawnSync would run one at a time). */
const runOnce = (cwd: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "ignore"] })
    const out: Buffer[] = []
    let stuck = false
    const deadline = setTimeout(() => {
      stuck = true
      child.kill("SIGKILL")
    }, DEADLINE_MS)
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.on("close", (status) => {
      clearTimeout(deadline)
      resolve({ status, stdout: Buffer.concat(out), stuck })
    })
  })

/** `RUNS` runs, two at a time (the machine has two cores); the numbers of the runs unlike `expected`. */
const loop = async (cwd: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, expected: Outcome): Promise<string[]> => {
  const bad: string[] = []
  let next = 0
  const lane = async () => {
    for (let i = next++; i < RUNS; i = next++) {
      const o = await runOnce(cwd, args, env)
      if (o.stuck) bad.push(`run ${i}: still going after ${DEADLINE_MS} ms`)
      else if (o.status !== expected.status || !o.stdout.equals(expected.stdout)) bad.push(`run ${i}: exit ${o.status}, ${o.stdout.length} bytes`)
    }
  }
  await Promise.all([lane(), lane()])
  return bad
}

/** A committed generated corpus with one carrier and one code file edited since. */
const corpus = (specs: number, tsFiles: number): string => {
  const dir = tempDir("specbundle-race-")
  execFileSync(process.execPath, [path.join(REPO, "scripts/gen-corpus.mjs"), dir, "--specs", String(specs), "--packs", "4", "--ts-files", String(tsFiles)])
  const repo = repoAt(dir)
  runGitIn(dir, ["init", "-q", "-b", "main"])
  repo.commit("corpus")
  const carrier = repo.git("ls-files", "*.sdp.md").split("\n")[0]
  const code = repo.git("ls-files", "*.ts").split("\n")[0]
  repo.write(carrier, `${execFileSync("git", ["show", `HEAD:${carrier}`], { cwd: dir, encoding: "utf8" })}\n`)
  repo.write(code, `// edited\n${execFileSync("git", ["show", `HEAD:${code}`], { cwd: dir, encoding: "utf8" })}`)
  return dir
}

const ARGS = ["bundle", "--root", ".", "--changeset", "HEAD", "--budget", "9000"]
/** Without the parse cache (SPECBUNDLE_CODE_CACHE=0 turns both caches off): a warm run starts no workers. */
const envWith = (workers: string | undefined): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...gitCleanEnv(), SPECBUNDLE_CODE_CACHE: "0" }
  delete env.SPECBUNDLE_WORKERS
  return workers === undefined ? env : { ...env, SPECBUNDLE_WORKERS: workers }
}

describe("bundle --changeset with worker threads always ends, with the 0-worker bytes", () => {
  it(`16 forced workers on 240 Specs and 30 code files, ${RUNS} runs`, async () => {
    const dir = corpus(240, 30)
    const expected = await runOnce(dir, ARGS, envWith("0"))
    expect(expected.status).toBe(0)
    expect(JSON.parse(expected.stdout.toString("utf8")).scope.changeset).toBe("HEAD")
    expect(await loop(dir, ARGS, envWith("16"), expected)).toEqual([])
  }, 600_000)

  // The automatic count starts its pool at 2,000 files (one worker a core beyond the first, at most 3).
  it.skipIf(skipping(availableParallelism() < 2, "the automatic worker count", "one core: the automatic count starts no worker"))(
    `the automatic worker count on 2,000 files, ${RUNS} runs`,
    async () => {
      const dir = corpus(1940, 60)
      const expected = await runOnce(dir, ARGS, envWith("0"))
      expect(expected.status).toBe(0)
      expect(await loop(dir, ARGS, envWith(undefined), expected)).toEqual([])
    },
    600_000
  )
})
