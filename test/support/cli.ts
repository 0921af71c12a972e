// Shared pieces of the end-to-end tests that run the BUILT CLI (bin/specbundle.js) as a subprocess:
// where it is (vitest's globalSetup builds it once per run: test/support/build-once.ts), a git-free
// environment, and one run (waited for, or as a promise that leaves the test worker's event loop free).
import { spawn, spawnSync } from "node:child_process"
import * as path from "node:path"

/** The repository root: the build runs there and fixtures and examples are found from it. */
export const REPO = path.join(import.meta.dirname, "..", "..")

/** The built CLI the tests run, as an absolute path so any cwd works. */
export const BIN = path.join(REPO, "bin", "specbundle.js")

/**
 * Nothing of an outer git (a hook's GIT_DIR) or the system config may reach the runs: every GIT_*
 * goes but GIT_CONFIG_NOSYSTEM=1. GITLAB_CI goes too: in a GitLab job it would give the Markdown
 * report absolute links.
 */
export const gitCleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of Object.keys(env)) if ((key.startsWith("GIT_") && key !== "GIT_CONFIG_NOSYSTEM") || key === "GITLAB_CI") delete env[key]
  return env
}

/**
 * A run's environment with the parse and code caches in the folder `cache`, or without any cache
 * (undefined); in one thread, so a small corpus reads as a large one's warm runs do.
 */
export const cacheEnv = (cache: string | undefined, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...gitCleanEnv(), SPECBUNDLE_WORKERS: "0", ...extra }
  if (cache === undefined) env.SPECBUNDLE_CODE_CACHE = "0"
  else {
    env.SPECBUNDLE_CODE_CACHE_DIR = cache
    delete env.SPECBUNDLE_CODE_CACHE
  }
  return env
}

/** What a finished CLI run gave: the exit status (null when killed) and its two streams. */
export interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** How a run differs from the default: its environment (gitCleanEnv() if absent), its timeout (30 s if absent) and its stdin (empty if absent). */
export interface CliOptions {
  readonly env?: NodeJS.ProcessEnv
  readonly timeout?: number
  readonly input?: string
}

/** Runs `node bin/specbundle.js ...args` in `cwd` and waits for it; one place for the spawn options every copy used. */
export const cli = (cwd: string, args: ReadonlyArray<string>, options: CliOptions = {}): Run => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: options.timeout ?? 30_000,
    env: options.env ?? gitCleanEnv(),
    input: options.input
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/**
 * Runs a command to its end without blocking the event loop (a blocked test worker misses vitest's
 * own messages, whose deadline is 60 s): its exit status and both streams, stdin closed.
 */
export const runAsync = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly timeout: number; readonly input?: string }
): Promise<Run> =>
  new Promise((resolve, reject) => {
    const stdin = options.input === undefined ? "ignore" : "pipe"
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: [stdin, "pipe", "pipe"], timeout: options.timeout })
    let stdout = ""
    let stderr = ""
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c))
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c))
    child.on("error", reject)
    child.on("close", (status) => resolve({ status, stdout, stderr }))
    if (child.stdin !== null) {
      // A run that never reads its stdin (it exited first) closes the pipe: no failure here.
      child.stdin.on("error", () => {})
      child.stdin.end(options.input)
    }
  })

/** `cli` as a promise: the worker's event loop stays free while it runs, and runs can overlap. */
export const cliAsync = (cwd: string, args: ReadonlyArray<string>, options: CliOptions = {}): Promise<Run> =>
  runAsync(process.execPath, [BIN, ...args], { cwd, env: options.env ?? gitCleanEnv(), timeout: options.timeout ?? 30_000, input: options.input })
