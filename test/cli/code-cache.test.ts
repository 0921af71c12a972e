// The V8 code cache of the built CLI (src/loader.cjs, built to bin/specbundle.js): real subprocesses,
// each test with its own SPECBUNDLE_CODE_CACHE_DIR. The cache only changes speed: stdout, stderr and
// the exit code are the same cold, warm, with a broken or untrusted cache file, an unwritable cache
// folder, or the cache off; and a file is written only when none was accepted.
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { SEAL_BYTES, sealed } from "../support/cache-file.js"
import { CLI, cleanEnv } from "../support/hostile.js"
import { bikeDockCopy, tempDir } from "../support/tmp.js"
import { skipping } from "../support/skip.js"

const PAYLOAD = path.resolve("bin/specbundle-main.cjs")
const POSIX = process.platform !== "win32"
/** True where the trust rules for modes, owners and symbolic links do not apply, after saying so once. */
const notPosix = (what: string) => skipping(!POSIX, what, "Windows has no POSIX modes or owners for the cache's trust rules")

beforeAll(() => {
  if (!fs.existsSync(CLI) || !fs.existsSync(PAYLOAD)) {
    const build = spawnSync("npm", ["run", "build"], { encoding: "utf8" })
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`)
  }
})

interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

const run = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, cwd = tempDir("specbundle-cc-cwd-")): Run => {
  const full: NodeJS.ProcessEnv = { ...cleanEnv(), ...env }
  for (const key of Object.keys(full)) if (full[key] === undefined) delete full[key]
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: full, timeout: 60_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Runs with the cache in `dir` (cache on). */
const runIn = (dir: string, args: ReadonlyArray<string>, cwd?: string): Run =>
  run(args, { SPECBUNDLE_CODE_CACHE_DIR: dir, SPECBUNDLE_CODE_CACHE: undefined }, cwd)

/** What the CLI prints with no cache at all: the reference every cached run must equal. */
const uncached = (args: ReadonlyArray<string>, cwd?: string): Run => run(args, { SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_CODE_CACHE_DIR: undefined }, cwd)

const cacheFiles = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith(".v8cache"))
        .sort()
    : []

/** The one cache file in `dir`, with what shows whether it was rewritten. */
const theCache = (dir: string) => {
  const names = cacheFiles(dir)
  expect(names).toHaveLength(1)
  const file = path.join(dir, names[0])
  const stat = fs.lstatSync(file)
  return { file, name: names[0], bytes: fs.readFileSync(file), mtimeMs: stat.mtimeMs, ino: stat.ino, mode: stat.mode & 0o777, symlink: stat.isSymbolicLink() }
}

/**
 * A run that compiles the CLI's bundle and reads nothing: a completion script. (`--help` no longer
 * compiles it: the loader answers help and the version from a small bundle of its own, src/front.ts.)
 */
const COMPILES = ["--completions", "bash"]

describe("a cold then a warm run", () => {
  it("the first run writes exactly one cache file; the second reads it, leaves it untouched and prints the same", () => {
    const dir = path.join(tempDir("specbundle-cc-"), "cache")
    const reference = uncached(COMPILES)
    expect(reference.status).toBe(0)
    expect(reference.stdout).toContain("complete -F _specbundle specbundle")

    const first = runIn(dir, COMPILES)
    expect(first).toEqual(reference)
    const written = theCache(dir)
    expect(written.name).toMatch(new RegExp(`^specbundle-main-[0-9a-f]{64}-${process.version.replace(/\./g, "\\.")}-${process.arch}\\.v8cache$`))
    if (POSIX) {
      expect(written.mode).toBe(0o600)
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    }

    const second = runIn(dir, COMPILES)
    expect(second).toEqual(reference)
    const after = theCache(dir)
    expect(after.name).toBe(written.name)
    expect(after.mtimeMs).toBe(written.mtimeMs)
    expect(after.ino).toBe(written.ino)
    expect(after.bytes.equals(written.bytes)).toBe(true)
    // No temp file is left behind either.
    expect(fs.readdirSync(dir)).toEqual([written.name])
  })

  it("a bundle run over bike-dock with its anchors (oxc-parser loads under the loader) prints the same cold, warm and uncached", () => {
    const root = bikeDockCopy("specbundle-cc-bike-")
    const args = ["bundle", "--root", root, "--pack", "pack:rides-v1", "--parts", "--budget", "8000"]
    const reference = uncached(args)
    expect(reference.status).toBe(0)
    expect(reference.stdout.split("\n").length).toBeGreaterThan(2)
    // The anchored fixture code is in the value: the native parser really ran.
    expect(reference.stdout).toContain("src/rides/unlock.ts")

    const dir = tempDir("specbundle-cc-")
    expect(runIn(dir, args)).toEqual(reference)
    const written = theCache(dir)
    expect(runIn(dir, args)).toEqual(reference)
    const after = theCache(dir)
    expect([after.mtimeMs, after.ino]).toEqual([written.mtimeMs, written.ino])
    expect(after.bytes.equals(written.bytes)).toBe(true)
  })

  it("forced worker threads (their own bundle) print the same bytes as none, with a cold and a warm cache", () => {
    const root = tempDir("specbundle-cc-workers-")
    execFileSync(process.execPath, [path.resolve("scripts/gen-corpus.mjs"), root, "--specs", "60", "--packs", "1", "--ts-files", "120", "--anchor-every", "4"])
    const args = ["bundle", "--root", root, "--pack", "pack:pack-000", "--parts", "--budget", "20000"]
    const reference = run(args, { SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_WORKERS: "0" })
    expect(reference.status).toBe(0)
    const dir = tempDir("specbundle-cc-")
    const cold = run(args, { SPECBUNDLE_CODE_CACHE_DIR: dir, SPECBUNDLE_WORKERS: "2" })
    const written = theCache(dir)
    const warm = run(args, { SPECBUNDLE_CODE_CACHE_DIR: dir, SPECBUNDLE_WORKERS: "2" })
    expect(cold).toEqual(reference)
    expect(warm).toEqual(reference)
    expect(theCache(dir).mtimeMs).toBe(written.mtimeMs)
  })
})

describe("a cache file that cannot be used is ignored, then replaced", () => {
  const corruptions: ReadonlyArray<[string, (valid: Buffer) => Buffer]> = [
    ["random bytes", (valid) => Buffer.from(Array.from({ length: valid.length }, (_, i) => (i * 7919 + 13) % 256))],
    [
      "one flipped byte (V8 does not check, the loader's checksum does)",
      (valid) => {
        const copy = Buffer.from(valid)
        copy[Math.floor(copy.length / 2)] ^= 0xff
        return copy
      }
    ],
    [
      "random bytes under a right checksum (the loader passes them on, V8 rejects them)",
      (valid) => {
        return sealed(Buffer.from(Array.from({ length: valid.length - SEAL_BYTES }, (_, i) => (i * 31 + 7) % 256)))
      }
    ],
    ["cut in half", (valid) => valid.subarray(0, Math.floor(valid.length / 2))],
    ["empty", () => Buffer.alloc(0)]
  ]
  for (const [label, corrupt] of corruptions) {
    it(`${label}: same output and exit code, nothing extra on stderr, the file rewritten`, () => {
      const dir = tempDir("specbundle-cc-")
      const reference = uncached(COMPILES)
      runIn(dir, COMPILES)
      const valid = theCache(dir)
      const broken = corrupt(valid.bytes)
      fs.writeFileSync(valid.file, broken)

      expect(runIn(dir, COMPILES)).toEqual(reference)
      const rewritten = theCache(dir)
      expect(rewritten.name).toBe(valid.name)
      expect(rewritten.bytes.equals(broken)).toBe(false)
      // The rewritten file is good: the next run accepts it and leaves it alone.
      expect(runIn(dir, COMPILES)).toEqual(reference)
      expect(theCache(dir).ino).toBe(rewritten.ino)
    })
  }

  it.skipIf(notPosix("a group- or other-writable cache file"))(
    "group- or other-writable: not read (a planted cache is code), replaced by a private 0600 file",
    () => {
      const dir = tempDir("specbundle-cc-")
      const reference = uncached(COMPILES)
      runIn(dir, COMPILES)
      for (const mode of [0o666, 0o620, 0o602]) {
        const valid = theCache(dir)
        fs.chmodSync(valid.file, mode)
        expect(runIn(dir, COMPILES)).toEqual(reference)
        // Accepted, it would have been left as it was; ignored, it was written again.
        const after = theCache(dir)
        expect(after.mode).toBe(0o600)
        expect(after.ino).not.toBe(valid.ino)
      }
    }
  )

  it.skipIf(notPosix("a cache file that is a symbolic link"))("a symbolic link is not followed: replaced by a regular file, its target untouched", () => {
    const dir = tempDir("specbundle-cc-")
    const reference = uncached(COMPILES)
    runIn(dir, COMPILES)
    const valid = theCache(dir)
    const elsewhere = path.join(tempDir("specbundle-cc-target-"), "target.v8")
    fs.renameSync(valid.file, elsewhere)
    fs.symlinkSync(elsewhere, valid.file)

    expect(runIn(dir, COMPILES)).toEqual(reference)
    const after = theCache(dir)
    expect(after.symlink).toBe(false)
    expect(fs.readFileSync(elsewhere).equals(valid.bytes)).toBe(true)
  })
})

describe("a cache location that cannot be written", () => {
  it("a regular file where the folder should be: same output and exit code, nothing on stderr", () => {
    const parent = tempDir("specbundle-cc-")
    const blocker = path.join(parent, "not-a-folder")
    fs.writeFileSync(blocker, "x")
    for (const dir of [blocker, path.join(blocker, "below")]) {
      const reference = uncached(COMPILES)
      expect(runIn(dir, COMPILES)).toEqual(reference)
      expect(fs.readFileSync(blocker, "utf8")).toBe("x")
    }
    expect(fs.readdirSync(parent)).toEqual(["not-a-folder"])
  })

  it("a failing run (exit 2, diagnostics on stdout) is the same with an unwritable cache folder", () => {
    const blocker = path.join(tempDir("specbundle-cc-"), "file")
    fs.writeFileSync(blocker, "")
    const args = ["bundle", "--budget", "not-a-number", "--pack", "pack:x"]
    const reference = uncached(args)
    expect(reference.status).toBe(2)
    expect(runIn(blocker, args)).toEqual(reference)
  })
})

describe("the loader run through a symbolic link (npm link)", () => {
  it.skipIf(notPosix("the loader reached through a symbolic link"))("finds the bundle beside its real file, also with --preserve-symlinks-main", () => {
    const link = path.join(tempDir("specbundle-cc-link-"), "specbundle")
    fs.symlinkSync(CLI, link)
    const reference = uncached(COMPILES)
    for (const flags of [[], ["--preserve-symlinks-main"]]) {
      const dir = tempDir("specbundle-cc-")
      const r = spawnSync(process.execPath, [...flags, link, ...COMPILES], { encoding: "utf8", env: { ...cleanEnv(), SPECBUNDLE_CODE_CACHE_DIR: dir } })
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual(reference)
      expect(cacheFiles(dir)).toHaveLength(1)
    }
  })
})

describe("switches", () => {
  it("SPECBUNDLE_CODE_CACHE=0 writes no file, even with a folder named", () => {
    const dir = path.join(tempDir("specbundle-cc-"), "cache")
    const reference = uncached(COMPILES)
    expect(run(COMPILES, { SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_CODE_CACHE_DIR: dir })).toEqual(reference)
    expect(fs.existsSync(dir)).toBe(false)
    // An unusable file stays as it is: the cache is neither read nor written.
    fs.mkdirSync(dir)
    const name = "specbundle-main-" + "0".repeat(64) + `-${process.version}-${process.arch}.v8cache`
    fs.writeFileSync(path.join(dir, name), "junk")
    expect(run(COMPILES, { SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_CODE_CACHE_DIR: dir })).toEqual(reference)
    expect(fs.readdirSync(dir)).toEqual([name])
  })

  it.skipIf(skipping(process.platform !== "linux", "the default cache folder", "$XDG_CACHE_HOME and ~/.cache are the Linux defaults"))(
    "the default folder is $XDG_CACHE_HOME/specbundle, else ~/.cache/specbundle (0700)",
    () => {
      const reference = uncached(COMPILES)
      const xdg = tempDir("specbundle-cc-xdg-")
      const home = tempDir("specbundle-cc-home-")
      expect(run(COMPILES, { SPECBUNDLE_CODE_CACHE_DIR: undefined, SPECBUNDLE_CODE_CACHE: undefined, XDG_CACHE_HOME: xdg, HOME: home })).toEqual(reference)
      expect(cacheFiles(path.join(xdg, "specbundle"))).toHaveLength(1)
      expect(fs.statSync(path.join(xdg, "specbundle")).mode & 0o777).toBe(0o700)
      expect(fs.readdirSync(home)).toEqual([])

      // A relative XDG_CACHE_HOME is not a location (XDG base directory rules): ~/.cache is used.
      expect(run(COMPILES, { SPECBUNDLE_CODE_CACHE_DIR: undefined, SPECBUNDLE_CODE_CACHE: undefined, XDG_CACHE_HOME: "relative", HOME: home })).toEqual(
        reference
      )
      expect(cacheFiles(path.join(home, ".cache", "specbundle"))).toHaveLength(1)
      expect(fs.statSync(path.join(home, ".cache", "specbundle")).mode & 0o777).toBe(0o700)
    }
  )

  it("Node options that change V8's flags get their own cache file: alternating runs rewrite neither", () => {
    const dir = tempDir("specbundle-cc-")
    const reference = uncached(COMPILES)
    const withFlag = () => {
      const r = spawnSync(process.execPath, ["--max-old-space-size=512", CLI, ...COMPILES], {
        encoding: "utf8",
        env: { ...cleanEnv(), SPECBUNDLE_CODE_CACHE_DIR: dir }
      })
      return { status: r.status, stdout: r.stdout, stderr: r.stderr }
    }
    expect(runIn(dir, COMPILES)).toEqual(reference)
    expect(withFlag()).toEqual(reference)
    const files = () => cacheFiles(dir).map((name) => [name, fs.statSync(path.join(dir, name)).ino])
    const both = files()
    expect(both).toHaveLength(2)
    expect(runIn(dir, COMPILES)).toEqual(reference)
    expect(withFlag()).toEqual(reference)
    expect(files()).toEqual(both)
  })

  it("each command gets its own cache file (a cache holds what its run compiled): alternating runs rewrite neither", () => {
    const dir = tempDir("specbundle-cc-")
    const LIST = ["list", "--root", bikeDockCopy()]
    const reference = [uncached(COMPILES), uncached(LIST)]
    expect([runIn(dir, COMPILES), runIn(dir, LIST)]).toEqual(reference)
    const files = () => cacheFiles(dir).map((name) => [name, fs.statSync(path.join(dir, name)).ino, fs.statSync(path.join(dir, name)).size])
    const both = files()
    expect(both).toHaveLength(2)
    // The completion run's own cache holds less than the listing's (which compiled the reader too).
    const sizes = both.map(([, , size]) => size as number).sort((x, y) => x - y)
    expect(sizes[0]).toBeLessThan(sizes[1])
    expect([runIn(dir, COMPILES), runIn(dir, LIST), runIn(dir, COMPILES)]).toEqual([...reference, reference[0]])
    expect(files()).toEqual(both)
  })

  it("keeps the newest sixteen cache files: caches of other builds are pruned", () => {
    const dir = tempDir("specbundle-cc-")
    const old = Array.from({ length: 17 }, (_, i) => `specbundle-main-${i.toString(16).padStart(2, "0").repeat(32)}-v0.0.${i}-${process.arch}.v8cache`)
    old.forEach((name, i) => {
      fs.writeFileSync(path.join(dir, name), "old")
      const when = new Date(Date.UTC(2020, 0, 1 + i))
      fs.utimesSync(path.join(dir, name), when, when)
    })
    fs.writeFileSync(path.join(dir, "unrelated.txt"), "kept")
    // Temp files: one left by a killed run long ago (removed), one another run may be writing (kept).
    const staleTemp = `.${old[0]}.1.tmp`
    const freshTemp = `.${old[1]}.2.tmp`
    fs.writeFileSync(path.join(dir, staleTemp), "")
    fs.utimesSync(path.join(dir, staleTemp), new Date(Date.UTC(2020, 0, 1)), new Date(Date.UTC(2020, 0, 1)))
    fs.writeFileSync(path.join(dir, freshTemp), "")
    expect(runIn(dir, COMPILES)).toEqual(uncached(COMPILES))
    const ours = cacheFiles(dir).filter((n) => !old.includes(n))
    expect(ours).toHaveLength(1)
    // The fifteen newest old ones stay beside ours; other files are never touched.
    expect(fs.readdirSync(dir).sort()).toEqual([...old.slice(2), ours[0], "unrelated.txt", freshTemp].sort())
  })
})
