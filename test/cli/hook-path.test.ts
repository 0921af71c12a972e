// The pre-commit hook's command lines (`impact --staged [--strict] [--quiet] [--root DIR]`, and
// `hook run pre-commit [--root DIR]`, what an installed hook runs) run from
// a bundle of their own without effect/cli (src/hook.ts, bin/specbundle-hook.cjs): the same bytes on
// stdout and stderr and the same exit code as the CLI's bundle, in real git states, for every
// command line it takes; every other command line (the near misses) left to the CLI's bundle with
// nothing done. The "full" side is the same build without the hook bundle (the loader then runs
// the CLI's, cache and all), as a partial build would be.
import { spawnSync } from "node:child_process"
import { buildSync } from "esbuild"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { ImpactArgs } from "../../src/entrances/cli/commands/impact.js"
import { impactCommand } from "../../src/entrances/cli/commands/impact.js"
import { type HookArgs, hookCommand } from "../../src/entrances/cli/commands/hook.js"
import { hookArgs, preCommitRoot } from "../../src/entrances/cli/hook-argv.js"
import { REPO } from "../support/cli.js"
import { tempDir } from "../support/git.js"
import { BROKEN, CLI, env, git, repo, spec } from "../support/hooks.js"
import { runPaused } from "../support/pause.js"

/**
 * The build without the hook bundle: the loader runs the CLI's bundle for every command line. Kept
 * inside the repository's node_modules, so the bundle's require("oxc-parser") resolves as bin/'s.
 */
const FULL = (() => {
  const bin = fs.mkdtempSync(path.join(REPO, "node_modules", ".specbundle-no-hook-"))
  afterAll(() => fs.rmSync(bin, { recursive: true, force: true }))
  for (const name of fs.readdirSync(path.dirname(CLI)))
    if (name !== "specbundle-hook.cjs") fs.copyFileSync(path.join(path.dirname(CLI), name), path.join(bin, name))
  return path.join(bin, "specbundle.js")
})()

/** Which bundle answered: the loader's exports (the main module's) are the last bundle's it ran (the hook's has answerHook). */
const PROBE = (() => {
  const file = path.join(tempDir("specbundle-hook-probe-"), "probe.cjs")
  fs.writeFileSync(
    file,
    `process.on("exit", () => { if (process.env.SPECBUNDLE_TEST_PROBE) require("node:fs").writeFileSync(process.env.SPECBUNDLE_TEST_PROBE, typeof process.mainModule.exports.answerHook) })\n`
  )
  return file
})()

interface Ran {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a build's loader with the code and parse caches on (a folder per build); which bundle answered, for the hook's. */
const runWith = (cli: string, cwd: string, args: ReadonlyArray<string>, cache: string): Ran & { readonly hook: boolean } => {
  const probe = path.join(cache, "answered-by")
  fs.rmSync(probe, { force: true })
  const e: NodeJS.ProcessEnv = { ...env(), SPECBUNDLE_CODE_CACHE_DIR: cache, SPECBUNDLE_TEST_PROBE: probe }
  delete e.SPECBUNDLE_CODE_CACHE
  const r = spawnSync(process.execPath, ["--require", PROBE, cli, ...args], { cwd, env: e, encoding: "utf8" })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, hook: fs.readFileSync(probe, "utf8") === "function" }
}

const CACHE_HOOK = tempDir("specbundle-hook-cache-")
const CACHE_FULL = tempDir("specbundle-full-cache-")

/** Both builds, twice each (a cold and a warm cache): the same answer every time. */
const both = (cwd: string, args: ReadonlyArray<string>) => {
  const full = runWith(FULL, cwd, args, CACHE_FULL)
  const hook = runWith(CLI, cwd, args, CACHE_HOOK)
  const again = runWith(CLI, cwd, args, CACHE_HOOK)
  const strip = ({ status, stdout, stderr }: Ran) => ({ status, stdout, stderr })
  expect(strip(hook), args.join(" ")).toEqual(strip(full))
  expect(strip(again), args.join(" ")).toEqual(strip(full))
  expect(full.hook).toBe(false)
  return { full, hook: hook.hook && again.hook }
}

/** The git states a hook runs in. */
const STATES: ReadonlyArray<readonly [string, () => string]> = [
  ["nothing staged", () => repo()],
  [
    "a staged Spec edit",
    () => {
      const dir = repo()
      fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha, edited"))
      git(dir, "add", "-A")
      return dir
    }
  ],
  [
    "a staged code edit and an untracked file",
    () => {
      const dir = repo()
      fs.mkdirSync(path.join(dir, "src"))
      fs.writeFileSync(path.join(dir, "src", "fare.ts"), "export const fare = 1\n")
      git(dir, "add", "-A")
      fs.writeFileSync(path.join(dir, "notes.txt"), "untracked\n")
      return dir
    }
  ],
  [
    "a staged carrier that does not read (--strict: exit 1)",
    () => {
      const dir = repo()
      fs.writeFileSync(path.join(dir, "specs", "broken.sdp.md"), BROKEN)
      git(dir, "add", "-A")
      return dir
    }
  ],
  [
    "before the first commit",
    () => {
      const dir = tempDir("specbundle-hook-unborn-")
      git(dir, "init", "-q", "-b", "main")
      fs.mkdirSync(path.join(dir, "specs"))
      fs.writeFileSync(path.join(dir, "specs", "a.sdp.md"), spec("spec:a", "Alpha"))
      git(dir, "add", "-A")
      return dir
    }
  ],
  ["outside a repository", () => tempDir("specbundle-hook-no-repo-")]
]

/** Command lines the hook bundle takes. */
const ACCEPTED: ReadonlyArray<ReadonlyArray<string>> = [
  ["impact", "--staged"],
  ["impact", "--staged", "--strict", "--quiet"],
  ["impact", "--quiet", "--staged", "--strict"],
  ["impact", "--root", ".", "--staged", "--strict", "--quiet"],
  ["impact", "--staged", "--root", "specs"],
  ["impact", "--staged", "--strict", "--root", "missing"],
  ["impact", "--staged", "--root", "a folder that is not there"]
]

/** What an installed pre-commit hook runs (hook install, hook print): the hook bundle takes it too. */
const PRE_COMMIT: ReadonlyArray<ReadonlyArray<string>> = [
  ["hook", "run", "pre-commit"],
  ["hook", "run", "pre-commit", "--root", "."],
  ["hook", "run", "pre-commit", "--root", "specs"]
]

/** Near misses: the CLI's bundle answers them (refusals, other flags, other forms of the same flags). */
const NEAR: ReadonlyArray<ReadonlyArray<string>> = [
  ["impact", "--strict"],
  ["impact", "--staged", "--staged"],
  ["impact", "--staged", "--strict", "--strict"],
  ["impact", "--staged", "--root"],
  ["impact", "--staged", "--root", ""],
  ["impact", "--staged", "--root", "--quiet"],
  ["impact", "--staged", "--root", ".", "--root", "."],
  ["impact", "--staged", "--root=."],
  ["impact", "--staged", "--verbose"],
  ["impact", "--staged", "--format", "text"],
  ["impact", "--staged", "--changeset", "HEAD"],
  ["impact", "--staged", "extra"],
  ["impact", "--staged", "--"],
  ["impact", "--staged", "--log-level", "debug"],
  ["impact", "--Staged"],
  ["--staged", "impact"],
  ["hook", "run", "pre-commit", "extra"],
  ["hook", "run", "pre-commit", "--root"],
  ["hook", "run", "pre-commit", "--root", "--force"],
  ["hook", "run", "pre-commit", "--root", ".", "--manager", "husky"],
  ["hook", "run", "pre-push"],
  ["hook", "print", "pre-commit"]
]

describe("the hook's command lines without effect/cli: the CLI's answer, byte for byte", () => {
  it.each(STATES.map(([name, make]) => [name, make] as const))("%s: every command line the hook bundle takes answers as the CLI's", (_, make) => {
    const dir = make()
    for (const args of [...ACCEPTED, ...PRE_COMMIT]) expect(both(dir, args).hook, args.join(" ")).toBe(true)
  })

  it("a staged carrier that does not read: --strict exits 1 with its finding on stderr, through both", () => {
    const dir = STATES[3]?.[1]() as string
    const { full } = both(dir, ["impact", "--staged", "--strict"])
    expect(full.status).toBe(1)
    expect(full.stderr).toContain("broken.sdp.md")
  })

  it.each(NEAR.map((args) => [args.join(" "), args] as const))("`%s` is left to the CLI's bundle: the same answer", (_, args) => {
    const dir = STATES[1]?.[1]() as string
    expect(both(dir, args).hook).toBe(false)
  })

  it("a setting the CLI refuses (SPECBUNDLE_WORKERS) is refused alike: the { diagnostics } value, exit 2", () => {
    const dir = repo()
    const args = ["impact", "--staged", "--quiet"]
    const run = (cli: string, cache: string) => {
      const r = spawnSync(process.execPath, [cli, ...args], {
        cwd: dir,
        env: { ...env(), SPECBUNDLE_CODE_CACHE_DIR: cache, SPECBUNDLE_WORKERS: "many" },
        encoding: "utf8"
      })
      return { status: r.status, stdout: r.stdout, stderr: r.stderr }
    }
    const full = run(FULL, CACHE_FULL)
    expect(full.status).toBe(2)
    expect(full.stdout).toContain("SPECBUNDLE_WORKERS")
    expect(run(CLI, CACHE_HOOK)).toEqual(full)
  })
})

describe("the hook's arguments are effect/cli's", () => {
  /** What effect/cli's parse of `impact ...words` hands the handler. */
  const parsed = async (words: ReadonlyArray<string>): Promise<ImpactArgs> => {
    let got: ImpactArgs | undefined
    await Effect.runPromise(
      Command.runWith(
        impactCommand((args) => Effect.sync(() => void (got = args))),
        { version: "0" }
      )(words).pipe(Effect.provide(NodeServices.layer))
    )
    if (got === undefined) throw new Error(`no parse of ${words.join(" ")}`)
    return got
  }

  it.each(ACCEPTED.map((args) => [args.join(" "), args] as const))("`%s`: the same values, the same keys in the same order", async (_, args) => {
    const mine = hookArgs(args)
    expect(mine).toBeDefined()
    const theirs = await parsed(args.slice(1))
    expect(mine).toStrictEqual(theirs)
    expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs))
  })

  it.each(PRE_COMMIT.map((args) => [args.join(" "), args] as const))("`%s`: the root effect/cli's parse gives", async (_, args) => {
    let got: HookArgs | undefined
    await Effect.runPromise(
      Command.runWith(
        hookCommand((a) => Effect.sync(() => void (got = a))),
        { version: "0" }
      )(args.slice(1)).pipe(Effect.provide(NodeServices.layer))
    )
    expect(hookArgs(args)).toBeUndefined()
    expect(preCommitRoot(args)).toBe(got?.root)
  })

  it.each(NEAR.map((args) => [args.join(" "), args] as const))("`%s` is not the hook's", (_, args) => {
    expect(hookArgs(args)).toBeUndefined()
    expect(preCommitRoot(args)).toBeUndefined()
  })
})

describe("the hook bundle's path", () => {
  it("reaches no effect/cli module (src/hook.ts, bundled as the build bundles it)", () => {
    const inputs = Object.keys(
      buildSync({
        entryPoints: [path.join(REPO, "src/hook.ts")],
        absWorkingDir: REPO,
        bundle: true,
        write: false,
        metafile: true,
        platform: "node",
        format: "cjs",
        external: ["oxc-parser", "@parcel/watcher"],
        logLevel: "silent"
      }).metafile.inputs
    )
    expect(inputs).toContain("src/entrances/cli/handlers/impact-run.ts")
    expect(inputs.some((f) => f.startsWith("node_modules/effect/dist/Effect.js"))).toBe(true)
    expect(inputs.filter((f) => f.includes("/effect/dist/cli/") || f.endsWith("entrances/cli/program.ts") || f.endsWith("entrances/cli/exit.ts"))).toEqual([])
  })

  it("SIGINT and SIGTERM during the hook's read, and while the loader reads the hook bundle, exit 130 and 143", async () => {
    const dir = STATES[1]?.[1]() as string
    const args = ["impact", "--staged", "--strict", "--quiet"]
    for (const at of [/\.sdp\.md$/, /specbundle-hook\.cjs$/]) {
      for (const [signal, code] of [
        ["SIGINT", 130],
        ["SIGTERM", 143]
      ] as const) {
        const paused = runPaused(args, {
          cwd: dir,
          env: env(),
          at,
          onPause: (_, n) => {
            if (n === 1) paused.child.kill(signal)
          }
        })
        const ended = await paused.ended
        expect(paused.pauses.length, `${at} ${signal}`).toBeGreaterThan(0)
        expect({ code: ended.code, signal: ended.signal }, `${at} ${signal}`).toEqual({ code, signal: null })
        expect(ended.stdout).toBe("")
      }
    }
  }, 60_000)
})
