// End to end: `specbundle watch` as a child process (bundle-contract.md section 6). A burst of saves
// within the quiet window makes exactly one rebuild; outputs parse at every sampled moment; events in
// DIR, .git and node_modules stay quiet; a failing rebuild keeps watching; SIGINT/SIGTERM exit 0.
// No sleeps: the tests wait for watch's own lines, and show that something made no rebuild by a
// later save that does make one (a sentinel), whose rebuild line counts the paths it saw.
import type { ChildProcess } from "node:child_process"
import { spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { cli, gitCleanEnv } from "../support/cli.js"
import { runGitIn } from "../support/git.js"
import { runPaused } from "../support/pause.js"
import { whenStderr } from "../support/stderr.js"
import { bikeDockCopy, tempDir as tmpDir } from "../support/tmp.js"

const CLI = path.resolve("bin/specbundle.js")
const PACK = "pack:rides-v1"
const QUIET_MS = 300

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
})

const tempDir = (): string => tmpDir("specbundle-cli-watch-")

const corpus = (): string => bikeDockCopy("specbundle-cli-watch-")

interface Watcher {
  readonly child: ChildProcess
  lines(): string[]
  builds(): string[]
  waitFor(predicate: (lines: string[]) => boolean): Promise<void>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const startWatch = (root: string, extra: ReadonlyArray<string>, scope: ReadonlyArray<string> = ["--pack", PACK]): Watcher => {
  const child = spawn(process.execPath, [CLI, "watch", ...scope, "--parts", "--budget", "4000", "--quiet-ms", String(QUIET_MS), ...extra], {
    cwd: root,
    env: gitCleanEnv(),
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  let err = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk))
  child.stdout!.resume()
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })))
  const lines = () => err.split("\n").filter((l) => l !== "")
  const builds = () => lines().filter((l) => l.startsWith("watch: "))
  return {
    child,
    lines,
    builds,
    waitFor: (predicate) =>
      whenStderr(
        child,
        () => err,
        () => predicate(lines())
      ),
    exited
  }
}

/** The paths a rebuild line names: `(2 changed paths: a, b; refs/heads/main moved)`. */
const namedIn = (line: string): string[] => {
  const m = /\(\d+ changed paths?(?:: ([^;)]*))?(?:; [^)]*)?\)$/.exec(line)
  return m?.[1] === undefined ? [] : m[1].split(", ")
}

const rebuilds = (w: Watcher) => w.builds().filter((l) => l.startsWith("watch: rebuilt") || l.startsWith("watch: rebuild failed"))

/** Parses every output file every few milliseconds; a file removed between listing and reading is fine. */
const sampleOutputs = (dir: string) => {
  let samples = 0
  const bad: string[] = []
  const timer = setInterval(() => {
    let names: string[] = []
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith(".json"))
    } catch {
      return
    }
    for (const n of names) {
      let text: string
      try {
        text = fs.readFileSync(path.join(dir, n), "utf8")
      } catch {
        continue
      }
      samples++
      try {
        JSON.parse(text)
      } catch {
        bad.push(`${n}: ${text.slice(0, 80)}`)
      }
    }
  }, 3)
  return { stop: () => clearInterval(timer), samples: () => samples, bad }
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex")
const CARRIERS = ["specs/rides/rider-model.sdp.md", "specs/rides/ride-fare-rule.sdp.md", "specs/rides.pack.sdp.md"]
/** A carrier of the Pack none of the tests' other saves touch: its save is the sentinel. */
const SENTINEL = "specs/rides/unlock-bike.sdp.md"

type Manifest = { scope: { specs?: string[] }; builtFrom: { commit: string | null; files: Array<{ path: string; hash: string }> } }
const manifestOf = (out: string): Manifest => JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as Manifest
/** The hash the manifest in `out` records for `file`, or undefined. */
const builtHash = (out: string, file: string): string | undefined => manifestOf(out).builtFrom.files.find((f) => f.path === file)?.hash

describe("watch", () => {
  it("builds once, coalesces a burst of 50 saves into ONE rebuild, rebuilds again after quiet, and exits 0 on SIGINT", async () => {
    const root = corpus()
    const out = path.join(root, "out")
    const w = startWatch(root, ["--out", "out"])
    await w.waitFor((l) => l.some((x) => x.startsWith("watch: built")))
    expect(w.builds()[0]).toMatch(/^watch: built \d+ parts? into out \(0 changed paths\)$/)
    expect(fs.existsSync(path.join(out, "manifest.json"))).toBe(true)

    const sampler = sampleOutputs(out)
    try {
      const originals = CARRIERS.map((c) => fs.readFileSync(path.join(root, c), "utf8"))
      for (let i = 0; i < 50; i++) {
        const k = i % CARRIERS.length
        fs.writeFileSync(path.join(root, CARRIERS[k]), originals[k] + "\n".repeat(1 + (i % 4)))
      }
      await w.waitFor(() => rebuilds(w).length >= 1)
      expect(rebuilds(w)[0]).toMatch(/^watch: rebuilt \d+ parts? into out \(3 changed paths: [^;]+\)$/)
      expect(namedIn(rebuilds(w)[0])).toEqual([...CARRIERS].sort())
      // The rebuild read the final state of every saved file.
      for (const c of CARRIERS) expect(builtHash(out, c), c).toBe(sha256(fs.readFileSync(path.join(root, c))))

      // Writes in DIR, .git, node_modules and hidden files make no rebuild: with them, the sentinel
      // save. Its rebuild is the next one and counts its path alone; a write that counted would be
      // in that count (2 paths) or make a rebuild of its own before it (the sentinel's not second).
      // A second rebuild of the burst would show the same way. Saved once more after its rebuild,
      // the sentinel shows that rebuild was its own: a stray one in between counts no path.
      fs.writeFileSync(path.join(out, "notes.txt"), "ours")
      fs.mkdirSync(path.join(root, ".git"), { recursive: true })
      fs.writeFileSync(path.join(root, ".git", "index.sdp.md"), "x")
      fs.mkdirSync(path.join(root, "node_modules", "pkg"), { recursive: true })
      fs.writeFileSync(path.join(root, "node_modules", "pkg", "index.ts"), "export const x = 1\n")
      fs.writeFileSync(path.join(root, "specs", ".rider-model.sdp.md.swp"), "swap")
      fs.appendFileSync(path.join(root, SENTINEL), "\n")
      await w.waitFor(() => rebuilds(w).length >= 2)
      expect(rebuilds(w)[1]).toMatch(/^watch: rebuilt \d+ parts? into out \(1 changed path: [^,;]+\)$/)
      expect(namedIn(rebuilds(w)[1])).toEqual([SENTINEL])
      expect(builtHash(out, SENTINEL)).toBe(sha256(fs.readFileSync(path.join(root, SENTINEL))))
      fs.appendFileSync(path.join(root, SENTINEL), "\n")
      await w.waitFor(() => rebuilds(w).length >= 3)
      expect(namedIn(rebuilds(w)[2])).toEqual([SENTINEL])
      expect(builtHash(out, SENTINEL)).toBe(sha256(fs.readFileSync(path.join(root, SENTINEL))))
    } finally {
      sampler.stop()
    }
    expect(sampler.samples()).toBeGreaterThan(0)
    expect(sampler.bad).toEqual([])

    // A hang here fails the test by its timeout; no timing assertion.
    w.child.kill("SIGINT")
    const exit = await w.exited
    expect(exit.code).toBe(0)
    expect(rebuilds(w)).toHaveLength(3)
    expect(w.lines().filter((l) => !l.startsWith("watch: "))).toEqual([])
  })

  it("a failing rebuild prints its line and keeps watching; fixing it rebuilds; SIGTERM exits 0", async () => {
    const root = corpus()
    const outParent = tempDir()
    const w = startWatch(root, ["--out", path.join(outParent, "out")])
    await w.waitFor((l) => l.some((x) => x.startsWith("watch: built")))
    const before = fs.readFileSync(path.join(outParent, "out", "manifest.json"), "utf8")

    fs.writeFileSync(path.join(root, "specbundle.config.json"), "{ not json")
    await w.waitFor(() => rebuilds(w).length >= 1)
    expect(rebuilds(w)[0]).toMatch(/^watch: rebuild failed .*specbundle\.config\.json: not valid JSON.*still watching$/)
    expect(fs.readFileSync(path.join(outParent, "out", "manifest.json"), "utf8")).toBe(before)

    fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify({ exclude: ["src"] }))
    await w.waitFor(() => rebuilds(w).length >= 2)
    expect(rebuilds(w)[1]).toMatch(/^watch: rebuilt \d+ parts? /)
    const manifest = JSON.parse(fs.readFileSync(path.join(outParent, "out", "manifest.json"), "utf8")) as { builtFrom: { exclude: string[] } }
    expect(manifest.builtFrom.exclude).toEqual(["src"])

    w.child.kill("SIGTERM")
    expect((await w.exited).code).toBe(0)
  })

  it("a save during a running rebuild does not interrupt it: it is followed by exactly one more", async () => {
    const root = corpus()
    const out = path.join(tempDir(), "out")
    // a: CARRIERS[0], the file the run is held at (below); b: CARRIERS[1].
    const [a, b] = CARRIERS.map((c) => path.join(root, c))
    // The rebuild that reads the saved `a` is held at that read while `b` is saved (twice).
    let armed = false
    let savedDuring = 0
    const run = runPaused(["watch", "--pack", PACK, "--parts", "--budget", "4000", "--quiet-ms", "100", "--out", out], {
      cwd: root,
      env: process.env,
      at: /\/specs\/rides\/rider-model\.sdp\.md$/,
      onPause: () => {
        if (!armed || savedDuring > 0) return
        fs.appendFileSync(b, "\n")
        fs.appendFileSync(b, "\n")
        savedDuring++
      }
    })
    children.push(run.child)
    const lines = () =>
      run
        .stderr()
        .split("\n")
        .filter((l) => l.startsWith("watch: "))
    const waitFor = (predicate: (lines: string[]) => boolean) => whenStderr(run.child, run.stderr, () => predicate(lines()))
    await waitFor((l) => l.length >= 1)
    expect(lines()[0]).toMatch(/^watch: built /)
    armed = true
    fs.appendFileSync(a, "\n")
    await waitFor((l) => l.length >= 3)
    expect(savedDuring).toBe(1)
    // The sentinel: the next rebuild is its own, counting its path alone (a third rebuild for the saves to `b` would come first).
    fs.appendFileSync(path.join(root, SENTINEL), "\n")
    await waitFor((l) => l.length >= 4)
    expect(builtHash(out, SENTINEL)).toBe(sha256(fs.readFileSync(path.join(root, SENTINEL))))
    run.child.kill("SIGINT")
    const ended = await run.ended
    expect(ended.code).toBe(0)
    const rebuilt = lines().slice(1)
    expect(rebuilt).toHaveLength(3)
    for (const line of rebuilt) expect(line).toMatch(/^watch: rebuilt \d+ parts? .* \(1 changed path: [^,;]+\)$/)
    // Each rebuild read what was saved before it: the last one all three files as they are now.
    for (const file of [CARRIERS[0], CARRIERS[1], SENTINEL]) expect(builtHash(out, file), file).toBe(sha256(fs.readFileSync(path.join(root, file))))
  })

  it("without --out is exit 2 with an out diagnostic", () => {
    const root = corpus()
    const r = spawnSync(process.execPath, [CLI, "watch", "--pack", PACK], { cwd: root, encoding: "utf8" })
    expect(r.status).toBe(2)
    const value = JSON.parse(r.stdout) as { diagnostics: Array<{ scope: string; problem: string }> }
    expect(value.diagnostics.map((d) => d.scope)).toEqual(["out"])
    expect(r.stderr).toContain("--out DIR")
  })

  it("a --quiet-ms that is not a non-negative integer is exit 2", () => {
    const root = corpus()
    for (const bad of ["-1", "abc", "1.5"]) {
      const r = spawnSync(process.execPath, [CLI, "watch", "--pack", PACK, "--out", "o", "--quiet-ms", bad], { cwd: root, encoding: "utf8" })
      expect(r.status, bad).toBe(2)
      expect(JSON.parse(r.stdout).diagnostics[0].scope).toBe("quiet-ms")
    }
  })

  it("a first build with an unknown pack fails at once with exit 2", () => {
    const root = corpus()
    const r = spawnSync(process.execPath, [CLI, "watch", "--pack", "pack:nope", "--out", "o"], { cwd: root, encoding: "utf8", timeout: 20_000 })
    expect(r.status).toBe(2)
    expect(JSON.parse(r.stdout).diagnostics.length).toBeGreaterThan(0)
  })
})

// Issue 48: a file replaced by git or an editor stays watched; a changeset follows git. Run on the
// example's own git repository (`specbundle example`, two commits: the second changes the fare rule).
describe("watch through git operations and replaced files", () => {
  const FARE = "specs/rides/ride-fare-rule.sdp.md"

  const example = (): string => {
    const dir = tempDir()
    const r = cli(dir, ["example", "bike", "--quiet"])
    expect(r.status, r.stderr).toBe(0)
    return path.join(dir, "bike")
  }
  const git = (root: string, ...args: string[]) => runGitIn(root, args)
  const hashOf = (root: string, file: string) => sha256(fs.readFileSync(path.join(root, file)))

  /** An untracked file no git operation here touches; without a dot in its name, its saves count. */
  const MARK = "drain-mark"

  /**
   * Saves MARK and waits for the rebuild that names it: that rebuild started after the save, so
   * after every event before it (none is left for a later rebuild). The rebuild lines since, as given.
   */
  const drain = async (w: Watcher, root: string) => {
    const before = rebuilds(w).length
    fs.appendFileSync(path.join(root, MARK), "\n")
    await w.waitFor(() =>
      rebuilds(w)
        .slice(before)
        .some((l) => namedIn(l).includes(MARK))
    )
    return rebuilds(w).slice(before)
  }

  /**
   * `replace` (which must itself rebuild), then a plain save of the fare rule: both are heard, the
   * save in a rebuild that names it (a watch deaf to the replaced file names MARK alone).
   */
  const stillHeard = async (w: Watcher, root: string, out: string, label: string, replace: () => void) => {
    replace()
    expect((await drain(w, root)).flatMap(namedIn), `${label}: the replacement`).toContain(FARE)
    expect(builtHash(out, FARE), label).toBe(hashOf(root, FARE))
    fs.appendFileSync(path.join(root, FARE), "\n")
    expect((await drain(w, root)).flatMap(namedIn), `${label}: the save after it`).toEqual([MARK, FARE])
    expect(builtHash(out, FARE), label).toBe(hashOf(root, FARE))
  }

  it("every save of a file rebuilds after git checkout -- F, a branch switch, a rebase, a stash, sed -i and a rename-over save", {
    timeout: 120_000
  }, async () => {
    const root = example()
    const out = path.join(tempDir(), "out")
    const w = startWatch(root, ["--out", out])
    await w.waitFor((l) => l.some((x) => x.startsWith("watch: built")))
    const fare = path.join(root, FARE)

    await stillHeard(w, root, out, "git checkout -- F", () => {
      fs.appendFileSync(fare, "\n")
      git(root, "checkout", "-q", "--", ".")
    })
    await stillHeard(w, root, out, "a branch switch", () => {
      git(root, "checkout", "-q", "--", ".")
      git(root, "switch", "-q", "-c", "side", "HEAD~1")
    })
    await stillHeard(w, root, out, "a rebase", () => {
      git(root, "checkout", "-q", "--", ".")
      fs.writeFileSync(path.join(root, "notes.txt"), "side\n")
      git(root, "add", "notes.txt")
      git(root, "commit", "-q", "-m", "side note")
      git(root, "rebase", "-q", "main")
    })
    expect(fs.readFileSync(fare, "utf8")).toContain("swap")
    await stillHeard(w, root, out, "a stash", () => {
      fs.appendFileSync(fare, "stashed\n")
      git(root, "stash", "-q")
    })
    await stillHeard(w, root, out, "sed -i", () => {
      spawnSync("sed", ["-i", "s/$//", fare])
    })
    await stillHeard(w, root, out, "an editor's temporary file renamed over it", () => {
      fs.writeFileSync(`${fare}.tmp`, `${fs.readFileSync(fare, "utf8")}renamed\n`)
      fs.renameSync(`${fare}.tmp`, fare)
    })
    w.child.kill("SIGINT")
    expect((await w.exited).code).toBe(0)
  })

  it("watch --changeset HEAD rebuilds after a commit and a reset; stale says a manifest from before the commit is stale", async () => {
    const root = example()
    const out = path.join(tempDir(), "out")
    const before = path.join(tempDir(), "before")
    fs.appendFileSync(path.join(root, FARE), "\n")
    const w = startWatch(root, ["--out", out], ["--changeset", "HEAD"])
    await w.waitFor((l) => l.some((x) => x.startsWith("watch: built")))
    expect(manifestOf(out).scope.specs).toEqual(["spec:rides.ride-fare-rule"])
    expect(cli(root, ["bundle", "--changeset", "HEAD", "--out", before]).status).toBe(0)
    expect(cli(root, ["stale", before]).status).toBe(0)

    // A commit changes no file of the work tree: the rebuild comes from git's refs (a watch deaf to
    // git rebuilds for MARK alone).
    git(root, "commit", "-q", "-am", "fare rule reworded")
    const head = git(root, "rev-parse", "HEAD").trim()
    expect((await drain(w, root)).some((l) => l.endsWith("; refs/heads/main moved)"))).toBe(true)
    expect(manifestOf(out).builtFrom.commit).toBe(head)
    expect(manifestOf(out).scope.specs).toEqual([])

    const stale = cli(root, ["stale", before])
    expect(stale.status, stale.stderr).toBe(1)
    expect(stale.stdout).toMatch(/^changeset HEAD now resolves to [0-9a-f]{7,}; the bundle was built from [0-9a-f]{7,}/m)

    // A reset moves the branch back, and the working changes with it.
    git(root, "reset", "-q", "HEAD~1")
    expect((await drain(w, root)).some((l) => l.endsWith("; refs/heads/main moved)"))).toBe(true)
    expect(manifestOf(out).scope.specs).toEqual(["spec:rides.ride-fare-rule"])
    w.child.kill("SIGINT")
    expect((await w.exited).code).toBe(0)
  })

  it("watch --staged rebuilds when the index moves", async () => {
    const root = example()
    const out = path.join(tempDir(), "out")
    const w = startWatch(root, ["--out", out], ["--staged"])
    await w.waitFor((l) => l.some((x) => x.startsWith("watch: built")))
    expect(manifestOf(out).scope.specs).toEqual([])
    fs.appendFileSync(path.join(root, FARE), "\n")
    await drain(w, root)
    expect(manifestOf(out).scope.specs).toEqual([])
    git(root, "add", FARE)
    expect((await drain(w, root)).some((l) => l.endsWith("; index moved)"))).toBe(true)
    expect(manifestOf(out).scope.specs).toEqual(["spec:rides.ride-fare-rule"])
    // A file written again with the same bytes: the build's own `git status` would refresh the
    // index and move it, making one more rebuild after every save (shown by a second drain).
    fs.writeFileSync(path.join(root, SENTINEL), fs.readFileSync(path.join(root, SENTINEL)))
    await drain(w, root)
    expect((await drain(w, root)).flatMap(namedIn)).toEqual([MARK])
    expect(rebuilds(w).filter((l) => l.endsWith("; index moved)"))).toHaveLength(1)
    w.child.kill("SIGINT")
    expect((await w.exited).code).toBe(0)
  })
})
