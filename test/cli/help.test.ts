// The help pages (wrapped, placeholders, one sentence per option, the program name in every usage),
// every help example run as written in the example corpus with its history, --version and its short
// forms and --completions, run in process (test/support/run.ts); as processes of the built CLI: a
// terminal's width, `mcp` and `watch` as written, --wizard refusing a stdin that is not a terminal,
// and the loader's front bundle answering help and the version as the CLI's own bundle does.
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { CLI, cleanEnv } from "../support/hostile.js"
import { type Run, runCli } from "../support/run.js"
import { exampleHistory } from "../support/git.js"
import { tempDir } from "../support/tmp.js"
import { skipping } from "../support/skip.js"

const COMMANDS = ["bundle", "impact", "drift", "check", "list", "watch", "stale", "hook", "plugin", "example"]

const pages = new Map<string, Promise<Run>>()
/** A help page, run once per test file. */
const help = (...args: string[]): Promise<Run> => {
  const key = args.join(" ")
  if (!pages.has(key)) pages.set(key, runCli([...args, "--help"], tempDir("specbundle-help-")))
  return pages.get(key)!
}

/** The lines under a heading, up to the next blank line. */
const section = (page: string, heading: string): string[] => {
  const lines = page.split("\n")
  const start = lines.indexOf(heading)
  if (start < 0) return []
  const end = lines.indexOf("", start)
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

/** The examples of a command's help page, without the program name. */
const examplesOf = async (command: string): Promise<string[][]> => section((await help(command)).stdout, "EXAMPLES").map((l) => l.trim().split(/\s+/).slice(1))

describe("help pages", () => {
  it.each(["", ...COMMANDS])("`%s --help`: exit 0, no line past 80 columns, no canned type sentence or `text` placeholder", async (command) => {
    const r = command === "" ? await help() : await help(command)
    expect(r.status).toBe(0)
    expect(r.stderr).toBe("")
    for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(r.stdout).not.toContain("A user-defined piece of text")
    expect(r.stdout).not.toContain("A true or false value")
    expect(r.stdout).not.toMatch(/\[--[a-z-]+ text\]/)
    expect(r.stdout).not.toContain("\u001b[")
  })

  it.each(COMMANDS)("`%s --help`: the usage names the program, every option has a sentence, and there are examples", async (command) => {
    const page = (await help(command)).stdout
    const usage = section(page, "USAGE")
    expect(usage[0]).toMatch(new RegExp(`^  specbundle ${command}\\b`))
    const options = section(page, "OPTIONS").join("\n")
    // Every option named in the usage has a row whose description is a sentence (capital or flag first, a verb, an end).
    const flags = [...usage.join(" ").matchAll(/\[?(--[a-z-]+)/g)].map((m) => m[1])
    expect(flags.length).toBeGreaterThan(0)
    for (const flag of flags) expect(options, flag).toMatch(new RegExp(`^  (-[a-z], )?${flag}\\b.*\\S.{10,}`, "m"))
    expect((await examplesOf(command)).length).toBeGreaterThan(0)
  })

  it("bundle's placeholders: N|TIER, K, DIR, whole|addresses, and a repeatable --exclude that does not look required", async () => {
    const usage = section((await help("bundle")).stdout, "USAGE").join(" ")
    for (const item of [
      "[--budget N|TIER]",
      "[--part K]",
      "[--out DIR]",
      "[--declarations whole|addresses]",
      "[--exclude PATH]...",
      "[--format json|pretty|ndjson]",
      "[--parts]"
    ]) {
      expect(usage).toContain(item)
    }
  })

  it("the top page lists every command with a sentence, and the built-in options", async () => {
    const page = (await help()).stdout
    const commands = section(page, "COMMANDS").join("\n")
    for (const c of COMMANDS) expect(commands).toMatch(new RegExp(`^  ${c} +[A-Z]`, "m"))
    for (const o of ["--help", "--version", "--completions", "--wizard"]) expect(page).toContain(o)
  })

  it("`mcp --help`: the command with its one option (--http PORT), listed on the top page, its page wrapped, its example a command line", async () => {
    const r = await help("mcp")
    expect(r.status).toBe(0)
    for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(section(r.stdout, "USAGE")[0]).toBe("  specbundle mcp [--http PORT]")
    expect(section((await help()).stdout, "COMMANDS").join("\n")).toMatch(/^ {2}mcp +[A-Z]/m)
    expect(await examplesOf("mcp")).toEqual([["mcp"]])
  })

  it("`specbundle` with no arguments prints the same top page", async () => {
    const bare = await runCli([], tempDir("specbundle-help-"))
    expect(bare.status).toBe(0)
    expect(bare.stdout).toBe((await help()).stdout)
  })

  it("`specbundle help`-style mistakes: a misspelt command gets a did-you-mean on one line, exit 2", async () => {
    const r = await runCli(["bundel", "--help"], tempDir("specbundle-help-"))
    expect(r.status).toBe(2)
    expect(r.stderr.trim().split("\n")).toHaveLength(1)
    expect(r.stderr).toContain("Did you mean 'bundle'?")
  })

  // util-linux `script` gives the CLI a terminal of a set width: help wraps to it.
  const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0
  it.skipIf(skipping(!hasScript, "help on a 60-column terminal", "script(1), which gives the run a terminal, is not installed"))(
    "on a 60-column terminal, help wraps to 60 columns (examples stay whole, to copy)",
    () => {
      const cmd = `stty cols 60 2>/dev/null; NO_COLOR=1 '${process.execPath}' '${CLI}' bundle --help`
      const r = spawnSync("script", ["-qec", cmd, "/dev/null"], { encoding: "utf8", env: cleanEnv() })
      const lines = r.stdout.replace(/\r/g, "").split("\n")
      expect(lines.some((l) => l.includes("--budget N|TIER"))).toBe(true)
      for (const line of lines.filter((l) => !l.startsWith("  specbundle bundle --"))) expect(line.length, line).toBeLessThanOrEqual(60)
    }
  )
})

describe("every help example runs as written in the example corpus", () => {
  let repo = ""
  beforeAll(() => {
    repo = exampleHistory("specbundle-help-examples-").dir
  })

  // In this order: stale reads what bundle's --out example wrote; example's folder goes last (and
  // is removed after), so no other example reads the second corpus it writes.
  it.each(["bundle", "impact", "check", "list", "stale", "hook", "drift", "example"])("%s", async (command) => {
    const examples = await examplesOf(command)
    expect(examples.length).toBeGreaterThan(0)
    for (const args of examples) {
      expect(args[0]).toBe(command)
      const r = await runCli(args, repo)
      expect(r.status, `specbundle ${args.join(" ")}\n${r.stderr}`).toBe(0)
      // What each prints: bundle, impact and list a value on stdout; check its count line on stderr.
      if (command === "check") expect(r.stderr + r.stdout).toMatch(/\d+ specs, \d+ packs|^$/)
      else if (!args.includes("--out") && !args.includes("-o") && command !== "hook" && command !== "stale") expect(r.stdout.length).toBeGreaterThan(0)
      if (command === "example") fs.rmSync(path.join(repo, args[1]!), { recursive: true, force: true })
    }
  })

  it("mcp: as written, the server ends with its stdin (closed here at once), exit 0, nothing on stdout", async () => {
    for (const args of await examplesOf("mcp")) {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repo, encoding: "utf8", env: cleanEnv(), input: "", timeout: 30_000 })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout).toBe("")
    }
  })

  it("watch: builds once, then Ctrl-C ends it with exit 0", async () => {
    const [args] = await examplesOf("watch")
    expect(args[0]).toBe("watch")
    const child = spawn(process.execPath, [CLI, ...args], { cwd: repo, env: cleanEnv() })
    let stderr = ""
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString("utf8")
        if (/watch: built/.test(stderr)) child.kill("SIGINT")
      })
      child.on("close", (c) => resolve(c))
    })
    expect(stderr).toMatch(/watch: built \d+ part/)
    expect(code).toBe(0)
    expect(fs.existsSync(path.join(repo, ".specbundle", "out", "manifest.json"))).toBe(true)
  })
})

describe("--version", () => {
  it.each([["--version"], ["-v"], ["-V"]])("`%s` prints just the number and a newline", async (flag) => {
    const r = await runCli([flag], tempDir("specbundle-help-"))
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }
    expect(r.stdout).toBe(`${pkg.version}\n`)
    expect(r.stderr).toBe("")
  })
})

describe("--wizard", () => {
  it("with stdin not a terminal refuses with one line and exit 2, without waiting", () => {
    const r = spawnSync(process.execPath, [CLI, "--wizard"], {
      cwd: tempDir("specbundle-help-"),
      encoding: "utf8",
      env: cleanEnv(),
      input: "",
      timeout: 20_000
    })
    expect(r.signal).toBeNull()
    expect(r.status).toBe(2)
    expect(r.stderr.trim().split("\n")).toHaveLength(1)
    expect(r.stderr).toContain("--wizard")
    expect((JSON.parse(r.stdout) as { diagnostics: unknown[] }).diagnostics).toHaveLength(1)
  })

  // The terminal (node:readline) loads for --wizard alone (src/entrances/cli/program.ts): on one
  // (util-linux script(1)), the first question is asked, and Ctrl-C ends the run.
  const onTerminal = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0
  it.skipIf(skipping(!onTerminal, "--wizard on a terminal", "script(1), which gives the run a terminal, is not installed"))(
    "on a terminal asks which command, listing them; Ctrl-C ends the run",
    async () => {
      const child = spawn("script", ["-qfec", `NO_COLOR=1 '${process.execPath}' '${CLI}' --wizard`, "/dev/null"], {
        cwd: tempDir("specbundle-help-"),
        env: cleanEnv(),
        stdio: ["pipe", "pipe", "pipe"]
      })
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve))
      let out = ""
      let scrolled = false
      const asked = new Promise<void>((resolve) => {
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8")
          if (COMMANDS.every((c) => out.includes(c))) resolve()
          // The prompt shows ten commands at a time: arrow down through the list to see the rest.
          else if (!scrolled && out.includes("Command")) {
            scrolled = true
            child.stdin.write("\u001b[B".repeat(COMMANDS.length + 2))
          }
        })
        void closed.then(() => resolve())
      })
      await asked
      expect(out).toContain("Command")
      for (const command of COMMANDS) expect(out, command).toContain(command)
      child.stdin.write("\u0003")
      child.stdin.end()
      expect(await closed).not.toBeNull()
    }
  )

  it("--completions bash prints a completion script naming the commands", async () => {
    const r = await runCli(["--completions", "bash"], tempDir("specbundle-help-"))
    expect(r.status).toBe(0)
    expect(r.stdout).toContain("specbundle")
    for (const command of COMMANDS) expect(r.stdout, command).toContain(command)
    // effect/cli 4 writes a function per subcommand (Effect 3 had a `specbundle,example)` case).
    expect(r.stdout).toMatch(/^_specbundle_example\(\)/m)
  })
})

// The loader answers help and the version from a small bundle of its own (src/front.ts), without
// compiling the CLI's; the CLI's bundle run directly answers as it always did. Both must print the
// same bytes with the same exit code, for every way of asking, and leave everything else to the CLI.
describe("help and the version without the CLI's bundle", () => {
  const MAIN = path.join(path.dirname(CLI), "specbundle-main.cjs")
  const FRONT = path.join(path.dirname(CLI), "specbundle-front.cjs")
  const both = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = cleanEnv()) => {
    const cwd = tempDir("specbundle-front-")
    const run = (file: string) => spawnSync(process.execPath, [file, ...args], { cwd, env, encoding: "utf8" })
    return { loader: run(CLI), main: run(MAIN) }
  }
  const ASKED = [
    [],
    ["--help"],
    ["-h"],
    ["--version"],
    ["-v"],
    ["-V"],
    ...COMMANDS.map((c) => [c, "--help"]),
    ["perspective", "-h"],
    ["mcp", "--help"],
    ["hook", "run", "--help"],
    ["bundle", "--pack", "--help"],
    ["bundle", "--budget", "5", "--version"]
  ]

  it.each(ASKED.map((a) => [a.join(" ")]))("`%s`: the loader's answer is the CLI bundle's, byte for byte", (joined) => {
    const { loader, main } = both(joined === "" ? [] : joined.split(" "))
    expect(loader.status).toBe(0)
    expect(loader.stdout).not.toBe("")
    expect({ status: loader.status, stdout: loader.stdout, stderr: loader.stderr }).toEqual({ status: main.status, stdout: main.stdout, stderr: main.stderr })
  })

  it.each([["bogus --help"], ["bundle --bogus --help"], ["-- --help"], ["--helpme"], ["bundle --format xml --help"]])(
    "`%s` is left to the CLI: the same answer either way",
    (joined) => {
      const { loader, main } = both(joined.split(" "))
      expect({ status: loader.status, stdout: loader.stdout, stderr: loader.stderr }).toEqual({ status: main.status, stdout: main.stdout, stderr: main.stderr })
    }
  )

  it("a SPECBUNDLE_WORKERS the CLI refuses is refused for --help too (exit 2), as before", () => {
    const { loader, main } = both(["--help"], { ...cleanEnv(), SPECBUNDLE_WORKERS: "many" })
    expect(loader.status).toBe(2)
    expect(loader.stdout).toContain("SPECBUNDLE_WORKERS")
    expect({ status: loader.status, stdout: loader.stdout, stderr: loader.stderr }).toEqual({ status: main.status, stdout: main.stdout, stderr: main.stderr })
  })

  // On a terminal the pages wrap to its width and bold their headings: the same through both.
  const SCRIPT = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0
  it.skipIf(skipping(!SCRIPT, "both help pages on a 60-column terminal", "script(1), which gives the run a terminal, is not installed"))(
    "on a terminal 60 columns wide (script(1)): the same wrapped, bold pages through both",
    () => {
      const onTerminal = (file: string, args: string) =>
        spawnSync("script", ["-qec", `stty cols 60; "${process.execPath}" "${file}" ${args}`, "/dev/null"], { env: cleanEnv(), encoding: "utf8" })
      for (const args of ["--help", "bundle --help"]) {
        const loader = onTerminal(CLI, args)
        expect(loader.status).toBe(0)
        expect(loader.stdout).toContain("\u001b[1mUSAGE\u001b[0m")
        // (Examples are command lines that run as written: never wrapped.)
        const examples = loader.stdout.indexOf("EXAMPLES")
        const prose = examples < 0 ? loader.stdout : loader.stdout.slice(0, examples)
        for (const line of prose.replace(/\u001b\[[0-9;]*m/g, "").split(/\r?\n/)) expect(line.length, line).toBeLessThanOrEqual(60)
        expect(loader.stdout).toBe(onTerminal(MAIN, args).stdout)
      }
    }
  )

  it("a build without the front bundle still answers --help and --version, through the CLI", () => {
    const bin = tempDir("specbundle-no-front-")
    for (const name of fs.readdirSync(path.dirname(CLI)))
      if (name !== "specbundle-front.cjs") fs.copyFileSync(path.join(path.dirname(CLI), name), path.join(bin, name))
    for (const args of [["--help"], ["bundle", "--help"], ["--version"]]) {
      const partial = spawnSync(process.execPath, [path.join(bin, "specbundle.js"), ...args], { env: cleanEnv(), encoding: "utf8" })
      expect(partial.stderr).toBe("")
      expect(partial.status).toBe(0)
      expect(partial.stdout).toBe(both(args).loader.stdout)
    }
  })

  // The front writes with fs.writeSync where stdout cannot be a terminal (a file, a pipe, the null
  // device), and through process.stdout where it may be one: every way must end as the CLI's does.
  it("`--help` into a file: the CLI bundle's bytes; into /dev/null: exit 0 and nothing on stderr", () => {
    const dir = tempDir("specbundle-front-out-")
    const into = (file: string, target: string) => {
      const fd = fs.openSync(target, "w")
      try {
        return spawnSync(process.execPath, [file, "bundle", "--help"], { cwd: dir, env: cleanEnv(), stdio: ["ignore", fd, "pipe"], encoding: "utf8" })
      } finally {
        fs.closeSync(fd)
      }
    }
    const loader = into(CLI, path.join(dir, "loader.txt"))
    const main = into(MAIN, path.join(dir, "main.txt"))
    expect([loader.status, loader.stderr]).toEqual([0, ""])
    expect(fs.readFileSync(path.join(dir, "loader.txt"), "utf8")).toContain("USAGE")
    expect(fs.readFileSync(path.join(dir, "loader.txt"), "utf8")).toBe(fs.readFileSync(path.join(dir, "main.txt"), "utf8"))
    expect([main.status, main.stderr]).toEqual([0, ""])
    const nul = into(CLI, "/dev/null")
    expect([nul.status, nul.stderr]).toEqual([0, ""])
  })

  it("`--help` into a pipe whose reader has gone (EPIPE): exit 0 and nothing on stderr, as the CLI's bundle", async () => {
    // The reading end is closed before the child has started, so its first write meets EPIPE.
    const gone = (file: string) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [file, "--help"], { env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] })
        child.stdout.destroy()
        let stderr = ""
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString("utf8")
        })
        child.on("close", (status) => resolve({ status, stderr }))
      })
    expect(await gone(CLI)).toEqual({ status: 0, stderr: "" })
    expect(await gone(MAIN)).toEqual({ status: 0, stderr: "" })
  })

  // What makes the front quick: where stdout is not a terminal it loads neither node:tty (and
  // node:net under it) nor a process.stdout stream, and never node:crypto (the CLI's cache key).
  it("`--help` into a pipe or a file loads no node:tty, node:net, stream or node:crypto", () => {
    const dir = tempDir("specbundle-front-modules-")
    const preload = path.join(dir, "modules.cjs")
    const list = path.join(dir, "modules.txt")
    fs.writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")))\n`)
    const loaded = (stdout: "pipe" | number) => {
      const r = spawnSync(process.execPath, ["--require", preload, CLI, "--help"], {
        cwd: dir,
        env: cleanEnv(),
        stdio: ["ignore", stdout, "pipe"],
        encoding: "utf8"
      })
      expect([r.status, r.stderr]).toEqual([0, ""])
      return fs.readFileSync(list, "utf8").split("\n")
    }
    const fd = fs.openSync(path.join(dir, "page.txt"), "w")
    try {
      for (const modules of [loaded("pipe"), loaded(fd)]) {
        expect(modules).toContain("NativeModule fs")
        for (const name of ["tty", "net", "stream", "crypto"]) expect(modules).not.toContain(`NativeModule ${name}`)
      }
    } finally {
      fs.closeSync(fd)
    }
    expect(fs.readFileSync(path.join(dir, "page.txt"), "utf8")).toContain("USAGE")
  })

  it("the front bundle is small and carries none of Effect or @effect/cli; its command tree is a double-quoted string", () => {
    const text = fs.readFileSync(FRONT, "utf8")
    // (Half of it the pages as written into a pipe or a file, below.)
    expect(text.length).toBeLessThan(96 * 1024)
    expect(text).not.toMatch(/effect\/cli|FiberRuntime|@effect/)
    // JSON text in a "..." literal: V8 scans a template literal of the same text ~0.5 ms slower, on every --help.
    expect(text).toContain('\\"--budget\\"')
    expect(text).not.toMatch(/JSON\.parse\(`/)
  })

  it("the front bundle carries each page as written into a pipe, so such an answer compiles no renderer", () => {
    const text = fs.readFileSync(FRONT, "utf8")
    for (const args of [["--help"], ...COMMANDS.map((c) => [c, "--help"])]) {
      const { main } = both(args)
      expect(main.status).toBe(0)
      expect(text, args.join(" ")).toContain(JSON.stringify(main.stdout))
    }
  })
})
