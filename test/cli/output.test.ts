// What the CLI prints. A closed stdout (`| head -1`) ends the run quietly (the built CLI in a real
// pipe); run in process: `--format pretty` is the same value indented, `--quiet` hides warnings but
// not errors, help for every command has an example, and nothing prints ANSI colour when not on a
// terminal or NO_COLOR (a real terminal, script(1), for the last).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { run as runInProcess } from "../support/run.js"
import { bikeDockCopy, tempDir as tmpDir } from "../support/tmp.js"
import { skipping } from "../support/skip.js"

const CLI = path.resolve("bin/specbundle.js")
const PACK = "pack:rides-v1"
const COMMANDS = ["bundle", "perspective", "impact", "drift", "check", "list", "watch", "stale", "hook"]

const tempDir = (): string => tmpDir("specbundle-cli-output-")

const corpus = (): string => bikeDockCopy("specbundle-cli-output-")

const run = (cwd: string, args: ReadonlyArray<string>, extraEnv: NodeJS.ProcessEnv = {}) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...extraEnv } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The same run in process (test/support/run.ts): where no pipe or terminal is the point. */
const inProc = async (cwd: string, args: ReadonlyArray<string>, extraEnv: NodeJS.ProcessEnv = {}) => {
  const r = await runInProcess(cwd, args, { env: { ...process.env, ...extraEnv } })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

describe("a closed stdout", () => {
  let big = ""
  beforeAll(() => {
    // ~300 KB of parts: far more than a pipe buffer, so the writer meets EPIPE after head exits.
    big = tempDir()
    const r = spawnSync(process.execPath, [path.resolve("scripts/gen-corpus.mjs"), big, "--specs", "200", "--packs", "1"], { encoding: "utf8" })
    expect(r.status, r.stderr).toBe(0)
  })

  it("`bundle --parts | head -1` ends with exit 0 and no error text on stderr", () => {
    const errFile = path.join(tempDir(), "err.txt")
    const codeFile = path.join(path.dirname(errFile), "code.txt")
    const cmd = `{ ${quote(process.execPath)} ${quote(CLI)} bundle --root ${quote(big)} --pack pack:pack-000 --parts --budget 4000 2>${quote(errFile)}; echo $? > ${quote(codeFile)}; } | head -1`
    const r = spawnSync("sh", ["-c", cmd], { encoding: "utf8" })
    expect(r.status).toBe(0)
    const first = r.stdout.split("\n")[0]
    expect(JSON.parse(first)).toMatchObject({ part: { index: 1 } })
    expect(fs.readFileSync(errFile, "utf8")).toBe("")
    expect(fs.readFileSync(codeFile, "utf8").trim()).toBe("0")
  })

  it("the same run without head prints many more lines than one (head really cut it short)", () => {
    const r = run(big, ["bundle", "--pack", "pack:pack-000", "--parts", "--budget", "4000"])
    expect(r.code).toBe(0)
    expect(r.stdout.length).toBeGreaterThan(128 * 1024)
  })

  // The CLI exits as soon as its program ends and nothing is left unwritten (bin.ts,
  // exitWhenFlushed): a reader that starts late still gets every byte and the exit code.
  it("a reader that starts reading late gets every part, and the exit code is 0", () => {
    const dir = tempDir()
    const codeFile = path.join(dir, "code.txt")
    const outFile = path.join(dir, "out.jsonl")
    const cmd = `{ ${quote(process.execPath)} ${quote(CLI)} bundle --root ${quote(big)} --pack pack:pack-000 --parts --budget 4000; echo $? > ${quote(codeFile)}; } | { sleep 1; cat > ${quote(outFile)}; }`
    const r = spawnSync("sh", ["-c", cmd], { encoding: "utf8" })
    expect(r.status).toBe(0)
    const direct = run(big, ["bundle", "--pack", "pack:pack-000", "--parts", "--budget", "4000"])
    expect(fs.readFileSync(outFile, "utf8")).toBe(direct.stdout)
    expect(fs.readFileSync(codeFile, "utf8").trim()).toBe("0")
  })
})

describe("formats", () => {
  it("--format pretty is indented and parses to the same value as json", async () => {
    const root = corpus()
    const json = await inProc(root, ["bundle", "--pack", PACK])
    const pretty = await inProc(root, ["bundle", "--pack", PACK, "--format", "pretty"])
    expect(json.code).toBe(0)
    expect(pretty.code).toBe(0)
    expect(json.stdout.trimEnd()).not.toContain("\n")
    expect(pretty.stdout).toMatch(/^\{\n {2}"scope": /)
    expect(JSON.parse(pretty.stdout)).toEqual(JSON.parse(json.stdout))
  })

  it("--parts --format pretty indents every part; the values equal the compact parts", async () => {
    const root = corpus()
    const compact = (await inProc(root, ["bundle", "--pack", PACK, "--parts", "--budget", "4000"])).stdout.trimEnd().split("\n")
    const pretty = (await inProc(root, ["bundle", "--pack", PACK, "--parts", "--budget", "4000", "--format", "pretty"])).stdout
    expect(compact.length).toBeGreaterThan(1)
    const values = pretty.split(/\n(?=\{)/).map((t) => JSON.parse(t) as unknown)
    expect(values).toEqual(compact.map((l) => JSON.parse(l) as unknown))
  })
})

describe("--quiet", () => {
  it("hides warnings on stderr and leaves stdout unchanged", async () => {
    const root = corpus()
    // A symbolic link to a carrier is a warning finding (never followed).
    fs.symlinkSync(path.join(root, "specs", "rides", "rider-model.sdp.md"), path.join(root, "specs", "link.sdp.md"))
    const loud = await inProc(root, ["bundle", "--pack", PACK])
    const quiet = await inProc(root, ["bundle", "--pack", PACK, "--quiet"])
    expect(loud.code).toBe(0)
    expect(loud.stderr).toMatch(/specs\/link\.sdp\.md:\d+: read\/symlink: warning: /)
    expect(quiet.code).toBe(0)
    expect(quiet.stderr).toBe("")
    expect(quiet.stdout).toBe(loud.stdout)
  })

  it("still shows errors (a refused carrier)", async () => {
    const root = corpus()
    fs.writeFileSync(path.join(root, "specs", "broken.sdp.md"), "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n")
    const quiet = await inProc(root, ["check", "--quiet"])
    expect(quiet.code).toBe(1)
    expect(quiet.stderr).toMatch(/^specs\/broken\.sdp\.md:\d+: extract\//)
    // check's summary line is not printed with --quiet.
    expect(quiet.stderr).not.toMatch(/\d+ specs, \d+ packs/)
  })
})

describe("help", () => {
  it.each(COMMANDS)("`%s --help` is exit 0 and shows examples", async (command) => {
    const r = await inProc(tempDir(), [command, "--help"])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^EXAMPLES$/m)
  })

  it("the top-level help lists every command", async () => {
    const r = await inProc(tempDir(), ["--help"])
    expect(r.code).toBe(0)
    for (const c of COMMANDS) expect(r.stdout).toContain(c)
  })

  it("prints no ANSI escapes when stdout is not a terminal, nor with NO_COLOR", async () => {
    for (const extra of [{}, { NO_COLOR: "1" }]) {
      const help = await inProc(tempDir(), ["bundle", "--help"], extra)
      expect(help.stdout).not.toContain("\u001b[")
      const wrong = await inProc(tempDir(), ["no-such-command"], extra)
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).not.toContain("\u001b[")
      expect(wrong.stderr.length).toBeGreaterThan(0)
    }
  })

  // util-linux `script` gives the CLI a terminal: there help is styled unless NO_COLOR is set.
  const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0
  it.skipIf(skipping(!hasScript, "NO_COLOR on a terminal", "script(1), which gives the run a terminal, is not installed"))(
    "on a terminal, NO_COLOR turns the help's ANSI styles off",
    () => {
      const cmd = `${quote(process.execPath)} ${quote(CLI)} stale --help`
      const onTty = (env: NodeJS.ProcessEnv) => spawnSync("script", ["-qec", cmd, "/dev/null"], { encoding: "utf8", env: { ...process.env, ...env } })
      const { NO_COLOR: _drop, ...withoutNoColor } = process.env
      const styled = spawnSync("script", ["-qec", cmd, "/dev/null"], { encoding: "utf8", env: withoutNoColor })
      expect(styled.stdout).toContain("USAGE")
      expect(styled.stdout).toContain("\u001b[")
      const plain = onTty({ NO_COLOR: "1" })
      expect(plain.stdout).toContain("USAGE")
      expect(plain.stdout).not.toContain("\u001b[")
    }
  )
})
