// The GitHub Action (action.yml at the repository's top): its YAML read with the `yaml` package and
// checked against scripts/action.mjs, then the script run as the action's step runs it, on a real
// clone of a real repository (the bike-dock example, a pull request's branch against origin/main),
// with a fake `gh` first on PATH that records the API calls and keeps the comments it was given.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { parse } from "yaml"
import { beforeAll, describe, expect, it } from "vitest"
import { runGitIn, tempDir } from "../support/git.js"
import { parseCacheFiles } from "../support/cache-file.js"
import { skipping } from "../support/skip.js"

const REPO = path.join(import.meta.dirname, "..", "..")
const BIN = path.join(REPO, "bin", "specbundle.js")
const SCRIPT = path.join(REPO, "scripts", "action.mjs")

beforeAll(() => {
  if (!fs.existsSync(BIN)) {
    const build = spawnSync("npm", ["run", "build"], { cwd: REPO, encoding: "utf8" })
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`)
  }
})

const action = parse(fs.readFileSync(path.join(REPO, "action.yml"), "utf8"))

/** The calls the fake gh recorded, in order: one JSON object a line. */
const ghCalls = (ghDir: string): Array<{ method: string; endpoint: string; token?: string; body?: unknown }> =>
  fs
    .readFileSync(path.join(ghDir, "calls.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l))

describe("action.yml", () => {
  it("is a composite action on Node 22 with the issue's inputs and outputs", () => {
    expect(action.runs.using).toBe("composite")
    for (const name of ["root", "base", "budget", "profile", "pack", "perspective", "comment", "artifact"]) expect(Object.keys(action.inputs)).toContain(name)
    expect(action.outputs.impacted.value).toBe("${{ steps.run.outputs.impacted }}")
    expect(action.outputs.manifest.value).toBe("${{ steps.run.outputs.manifest }}")
    expect(action.outputs.members.value).toBe("${{ steps.run.outputs.members }}")
    const setup = action.runs.steps.find((s: { uses?: string }) => s.uses?.startsWith("actions/setup-node@"))
    expect(String(setup.with["node-version"])).toBe("22")
    const upload = action.runs.steps.find((s: { uses?: string }) => s.uses?.startsWith("actions/upload-artifact@"))
    expect(upload.if).toBe("inputs.artifact == 'true'")
    expect(upload.with.path).toBe("${{ steps.run.outputs.parts-dir }}")
  })

  it("runs scripts/action.mjs and hands it every input the script reads, and the outputs it writes are the action's", () => {
    const run = action.runs.steps.find((s: { id?: string }) => s.id === "run")
    expect(run.shell).toBe("bash")
    expect(run.run).toBe('node "$GITHUB_ACTION_PATH/scripts/action.mjs"')
    const script = fs.readFileSync(SCRIPT, "utf8")
    const read = [...script.matchAll(/input\("([a-z-]+)"/g)].map((m) => `INPUT_${m[1].toUpperCase().replace(/-/g, "_")}`)
    for (const name of new Set(read.filter((n) => n !== "INPUT_OUT"))) {
      expect(run.env[name], name).toBe(`\${{ inputs.${name.slice(6).toLowerCase()} }}`)
    }
    expect(run.env.GH_TOKEN).toBe("${{ inputs.github-token }}")
    const written = new Set([...script.matchAll(/setOutput\("([a-z-]+)"/g)].map((m) => m[1]))
    for (const [, output] of Object.entries(action.outputs) as Array<[string, { value: string }]>) {
      expect(written.has(/steps\.run\.outputs\.([a-z-]+)/.exec(output.value)![1])).toBe(true)
    }
  })
})

describe("action.yml: the dependency cache", () => {
  const steps = action.runs.steps as Array<{ name?: string; id?: string; uses?: string; run?: string; with?: Record<string, string> }>
  const keyStep = steps.find((s) => s.name === "Key specbundle's dependency cache")!
  const cacheAt = steps.findIndex((s) => s.uses?.startsWith("actions/cache@"))

  /** Runs the key step's own bash as the runner would, for an action folder; returns what it adds to GITHUB_ENV. */
  const keyFor = (actionPath: string): Record<string, string> => {
    const envFile = path.join(tempDir("specbundle-action-env-"), "env")
    const r = spawnSync("bash", ["-c", keyStep.run!], {
      encoding: "utf8",
      env: { ...cleanEnv(), GITHUB_ACTION_PATH: actionPath, GITHUB_ENV: envFile, RUNNER_OS: "Linux", RUNNER_ARCH: "X64" }
    })
    expect(r.status, r.stderr).toBe(0)
    return Object.fromEntries(
      fs
        .readFileSync(envFile, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])
    )
  }

  it("restores the action's node_modules, keyed on package-lock.json, before the step that runs specbundle", () => {
    expect(cacheAt).toBeGreaterThan(steps.indexOf(keyStep))
    expect(cacheAt).toBeLessThan(steps.findIndex((s) => s.id === "run"))
    // The cache's post step (which saves) sees env, not inputs or step outputs, in a composite action.
    expect(steps[cacheAt].with).toEqual({ path: "${{ env.SPECBUNDLE_MODULES }}", key: "${{ env.SPECBUNDLE_MODULES_KEY }}" })
    const lock = createHash("sha256")
      .update(fs.readFileSync(path.join(REPO, "package-lock.json")))
      .digest("hex")
    const major = process.versions.node.split(".")[0]
    expect(keyFor(REPO)).toEqual({
      SPECBUNDLE_MODULES: path.join(REPO, "node_modules"),
      SPECBUNDLE_MODULES_KEY: `specbundle-modules-Linux-X64-node${major}-${lock}`
    })
    // Another lock file, another key.
    const other = tempDir("specbundle-action-path-")
    fs.writeFileSync(
      path.join(other, "package-lock.json"),
      fs.readFileSync(path.join(REPO, "package-lock.json"), "utf8").replace('"lockfileVersion"', '"name2": "x", "lockfileVersion"')
    )
    expect(keyFor(other).SPECBUNDLE_MODULES_KEY).not.toBe(keyFor(REPO).SPECBUNDLE_MODULES_KEY)
  })
})

// A fake GitHub CLI: `gh api --method M ENDPOINT [--input FILE]`, comments kept in a JSON file.
const FAKE_GH = `#!/usr/bin/env node
const fs = require("node:fs")
const dir = process.env.FAKE_GH_DIR
const args = process.argv.slice(2)
const opt = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1] }
const method = opt("--method") ?? "GET"
const endpoint = args.filter((a, i) => i > 0 && !a.startsWith("--") && !args[i - 1].startsWith("--"))[0]
const inputFile = opt("--input")
const body = inputFile === undefined ? null : JSON.parse(fs.readFileSync(inputFile, "utf8")).body
fs.appendFileSync(dir + "/calls.jsonl", JSON.stringify({ args, method, endpoint, body, token: process.env.GH_TOKEN }) + "\\n")
const stateFile = dir + "/comments.json"
const comments = fs.existsSync(stateFile) ? JSON.parse(fs.readFileSync(stateFile, "utf8")) : []
const save = () => fs.writeFileSync(stateFile, JSON.stringify(comments))
let m
if (method === "GET" && (m = /^repos\\/[^/]+\\/[^/]+\\/issues\\/(\\d+)\\/comments\\?per_page=(\\d+)&page=(\\d+)$/.exec(endpoint))) {
  const per = Number(m[2]), page = Number(m[3])
  process.stdout.write(JSON.stringify(comments.slice((page - 1) * per, page * per)))
} else if (method === "POST" && /\\/issues\\/\\d+\\/comments$/.test(endpoint)) {
  const c = { id: 1000 + comments.length, body }
  comments.push(c); save(); process.stdout.write(JSON.stringify(c))
} else if (method === "PATCH" && (m = /\\/issues\\/comments\\/(\\d+)$/.exec(endpoint))) {
  const c = comments.find((x) => x.id === Number(m[1]))
  if (!c) { process.stderr.write("gh: Not Found (HTTP 404)\\n"); process.exit(1) }
  c.body = body; save(); process.stdout.write(JSON.stringify(c))
} else { process.stderr.write("gh: unexpected call " + args.join(" ") + "\\n"); process.exit(1) }
`

const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of Object.keys(env)) {
    if ((key.startsWith("GIT_") && key !== "GIT_CONFIG_NOSYSTEM") || key.startsWith("GITHUB_") || key.startsWith("INPUT_") || key.startsWith("RUNNER_"))
      delete env[key]
  }
  return env
}

/** The pull request's repository: main, and the branch fare-change one commit ahead. */
const upstreamRepo = (): string => {
  const upstream = tempDir("specbundle-action-up-")
  const r = spawnSync(process.execPath, [path.join(REPO, "examples", "make-history.mjs"), upstream], { encoding: "utf8", env: cleanEnv() })
  if (r.status !== 0) throw new Error(`make-history failed: ${r.stderr}`)
  runGitIn(upstream, ["branch", "-q", "fare-change", "HEAD"])
  runGitIn(upstream, ["reset", "-q", "--hard", "HEAD~1"])
  return upstream
}

/** A pull request as a job sees it: a clone whose HEAD is the branch, origin/main its base. */
const pullRequestClone = (): string => {
  const upstream = upstreamRepo()
  const clone = path.join(tempDir("specbundle-action-ws-"), "ws")
  runGitIn(path.dirname(clone), ["clone", "-q", upstream, clone])
  runGitIn(clone, ["checkout", "-q", "fare-change"])
  return clone
}

/** A job's environment with a fake gh first on PATH: the step's env and the runner's files. */
const jobEnv = (extra: NodeJS.ProcessEnv) => {
  const ghDir = tempDir("specbundle-fake-gh-")
  fs.writeFileSync(path.join(ghDir, "gh"), FAKE_GH, { mode: 0o755 })
  const runner = tempDir("specbundle-runner-")
  const files = { ghDir, calls: path.join(ghDir, "calls.jsonl"), output: path.join(runner, "output"), summary: path.join(runner, "summary.md") }
  const env = {
    ...cleanEnv(),
    PATH: `${ghDir}${path.delimiter}${process.env.PATH}`,
    FAKE_GH_DIR: ghDir,
    GITHUB_ACTION_PATH: REPO,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: "octo/bikes",
    GITHUB_BASE_REF: "main",
    RUNNER_TEMP: runner,
    PR_NUMBER: "42",
    GH_TOKEN: "fake-token",
    ...extra
  }
  return { env, files }
}

/** A step's environment for pull request 9 with the gh in `ghDir` first on PATH (no output or summary files). */
const stepEnv = (ghDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...cleanEnv(),
  PATH: `${ghDir}${path.delimiter}${process.env.PATH}`,
  GITHUB_ACTION_PATH: REPO,
  GITHUB_REPOSITORY: "octo/bikes",
  GITHUB_BASE_REF: "main",
  RUNNER_TEMP: tempDir("specbundle-runner-"),
  PR_NUMBER: "9",
  ...extra
})

const outputsOf = (file: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])
  )

describe("scripts/action.mjs on a real pull-request clone with a fake gh", () => {
  it("writes the summary, posts one sticky comment then edits it, writes the parts and the outputs", () => {
    const ws = pullRequestClone()
    const ghDir = tempDir("specbundle-fake-gh-")
    fs.writeFileSync(path.join(ghDir, "gh"), FAKE_GH, { mode: 0o755 })
    const runner = tempDir("specbundle-runner-")
    const outputFile = path.join(runner, "output")
    const summary = path.join(runner, "summary.md")
    const env = {
      ...cleanEnv(),
      PATH: `${ghDir}${path.delimiter}${process.env.PATH}`,
      FAKE_GH_DIR: ghDir,
      GITHUB_ACTION_PATH: REPO,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_REPOSITORY: "octo/bikes",
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_BASE_REF: "main",
      RUNNER_TEMP: runner,
      PR_NUMBER: "42",
      GH_TOKEN: "fake-token",
      INPUT_ROOT: ".",
      INPUT_BUDGET: "M",
      INPUT_COMMENT: "true"
    }
    const step = () => spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    const first = step()
    expect(first.status, first.stderr).toBe(0)
    expect(first.stderr).toContain("comment posted on #42")

    // The report the CLI gives for the same changeset and links is what the summary and comment hold.
    const head = runGitIn(ws, ["rev-parse", "HEAD"]).trim()
    const expected = spawnSync(
      process.execPath,
      [BIN, "impact", "--changeset", "origin/main...HEAD", "--format", "markdown", "--link-base", `https://github.com/octo/bikes/blob/${head}/`],
      { cwd: ws, encoding: "utf8", env: cleanEnv() }
    ).stdout
    expect(expected).toContain("2 impacted Specs")
    // The change drifts Specs clean at the base (issue 51): drift's Markdown follows the impact report.
    const drift = spawnSync(process.execPath, [BIN, "drift", "--changeset", "origin/main...HEAD", "--format", "markdown"], {
      cwd: ws,
      encoding: "utf8",
      env: cleanEnv()
    }).stdout
    expect(drift).toMatch(/^### specbundle drift\n\nThis change \(origin\/main\.\.\.HEAD\) leaves \d+ Specs? drifted/)
    expect(drift).toContain("specbundle drift --accept ")
    expect(fs.readFileSync(summary, "utf8")).toBe(`${expected}\n${drift}\n`)
    const marker = "<!-- specbundle-impact root=. -->"
    let comments = JSON.parse(fs.readFileSync(path.join(ghDir, "comments.json"), "utf8"))
    expect(comments).toEqual([{ id: 1000, body: `${marker}\n${expected}\n${drift}` }])

    const outputs = Object.fromEntries(
      fs
        .readFileSync(outputFile, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])
    )
    const report = JSON.parse(
      spawnSync(process.execPath, [BIN, "impact", "--changeset", "origin/main...HEAD"], { cwd: ws, encoding: "utf8", env: cleanEnv() }).stdout
    )
    expect(outputs.impacted).toBe(String(report.impactedSpecs.length))
    const manifest = JSON.parse(fs.readFileSync(outputs.manifest, "utf8"))
    expect(manifest.scope.specs).toEqual(report.impactedSpecs.map((s: { id: string }) => s.id))
    expect(manifest.budget).toBe(64_000)
    for (const part of manifest.parts) expect(fs.existsSync(path.join(outputs["parts-dir"], part.file))).toBe(true)

    // A second push: the same comment is edited, not a second one posted.
    fs.appendFileSync(path.join(ws, "specs/rides/ride-lifecycle.sdp.md"), "\nOne more narrative line.\n")
    runGitIn(ws, ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qam", "touch the lifecycle"])
    const second = step()
    expect(second.status, second.stderr).toBe(0)
    expect(second.stderr).toContain("comment updated on #42")
    comments = JSON.parse(fs.readFileSync(path.join(ghDir, "comments.json"), "utf8"))
    expect(comments).toHaveLength(1)
    expect(comments[0].body.startsWith(`${marker}\n**specbundle impact** of \`origin/main...HEAD\`: 3 impacted Specs`)).toBe(true)
    const calls = ghCalls(ghDir)
    expect(calls.map((c) => `${c.method} ${c.endpoint}`)).toEqual([
      "GET repos/octo/bikes/issues/42/comments?per_page=100&page=1",
      "POST repos/octo/bikes/issues/42/comments",
      "GET repos/octo/bikes/issues/42/comments?per_page=100&page=1",
      "PATCH repos/octo/bikes/issues/comments/1000"
    ])
    expect(calls.every((c) => c.token === "fake-token")).toBe(true)
  })

  it("posts nothing with comment: false, and refuses to run without a base outside a pull request", () => {
    const ws = pullRequestClone()
    const ghDir = tempDir("specbundle-fake-gh-")
    fs.writeFileSync(path.join(ghDir, "gh"), FAKE_GH, { mode: 0o755 })
    const runner = tempDir("specbundle-runner-")
    const base = { ...cleanEnv(), PATH: `${ghDir}${path.delimiter}${process.env.PATH}`, FAKE_GH_DIR: ghDir, GITHUB_ACTION_PATH: REPO, RUNNER_TEMP: runner }
    const quiet = spawnSync(process.execPath, [SCRIPT], {
      cwd: ws,
      env: { ...base, GITHUB_REPOSITORY: "octo/bikes", PR_NUMBER: "42", INPUT_BASE: "origin/main", INPUT_COMMENT: "false" },
      encoding: "utf8"
    })
    expect(quiet.status, quiet.stderr).toBe(0)
    expect(fs.existsSync(path.join(ghDir, "calls.jsonl"))).toBe(false)
    expect(quiet.stdout).toMatch(/^impacted=2$/m)
    const noBase = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env: base, encoding: "utf8" })
    expect(noBase.status).toBe(2)
    expect(noBase.stderr.trimEnd().split("\n")).toEqual([
      "specbundle action: no base: give the `base` input (outside a pull_request event there is no GITHUB_BASE_REF)"
    ])
  })

  it("finds its comment past the first page of 100 and edits it, leaving the others alone", () => {
    const ws = pullRequestClone()
    const ghDir = tempDir("specbundle-fake-gh-")
    fs.writeFileSync(path.join(ghDir, "gh"), FAKE_GH, { mode: 0o755 })
    const marker = "<!-- specbundle-impact root=. -->"
    const seeded = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, body: i === 120 ? `${marker}\nold report` : `comment ${i}` }))
    fs.writeFileSync(path.join(ghDir, "comments.json"), JSON.stringify(seeded))
    const env = stepEnv(ghDir, { FAKE_GH_DIR: ghDir })
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status, r.stderr).toBe(0)
    const calls = ghCalls(ghDir)
    expect(calls.map((c) => `${c.method} ${c.endpoint}`)).toEqual([
      "GET repos/octo/bikes/issues/9/comments?per_page=100&page=1",
      "GET repos/octo/bikes/issues/9/comments?per_page=100&page=2",
      "PATCH repos/octo/bikes/issues/comments/121"
    ])
    const after = JSON.parse(fs.readFileSync(path.join(ghDir, "comments.json"), "utf8"))
    expect(after).toHaveLength(150)
    expect(after.filter((c: { body: string }, i: number) => c.body !== seeded[i].body).map((c: { id: number }) => c.id)).toEqual([121])
    expect(after[120].body.startsWith(`${marker}\n**specbundle impact** of \`origin/main...HEAD\`: 2 impacted Specs`)).toBe(true)
  })

  it("warns and still succeeds when the comment cannot be posted (a fork's read-only token)", () => {
    const ws = pullRequestClone()
    const ghDir = tempDir("specbundle-fake-gh-")
    fs.writeFileSync(path.join(ghDir, "gh"), "#!/bin/sh\necho 'HTTP 403: Resource not accessible by integration' >&2\nexit 1\n", { mode: 0o755 })
    const env = stepEnv(ghDir)
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toContain("::warning title=specbundle::could not post the pull-request comment: HTTP 403: Resource not accessible by integration")
    expect(r.stdout).toMatch(/^manifest=.*manifest\.json$/m)
  })
})

describe("scripts/action.mjs: the pack and perspective inputs", () => {
  it("bundles the members the perspective selects from the pack, and says so in the manifest's scope", () => {
    const ws = pullRequestClone()
    const { env, files } = jobEnv({ INPUT_PACK: "pack:rides-v1", INPUT_PERSPECTIVE: "changed", INPUT_BUDGET: "M" })
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toContain("comment posted on #42")
    const chosen = spawnSync(process.execPath, [BIN, "perspective", "--pack", "pack:rides-v1", "changed", "--changeset", "origin/main...HEAD"], {
      cwd: ws,
      encoding: "utf8",
      env: cleanEnv()
    })
    expect(chosen.status, chosen.stderr).toBe(0)
    const members = chosen.stdout.trimEnd().split("\n")
    expect(members).toContain("spec:rides.ride-fare-rule")
    const manifest = JSON.parse(fs.readFileSync(outputsOf(files.output).manifest, "utf8"))
    expect(manifest.scope).toEqual({ pack: "pack:rides-v1", members, perspective: "changed", changeset: "origin/main...HEAD" })

    // `pack` alone takes the members the pull request impacts (the built-in `changed`).
    const alone = jobEnv({ INPUT_PACK: "pack:rides-v1", INPUT_COMMENT: "false" })
    const a = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env: alone.env, encoding: "utf8", timeout: 60_000 })
    expect(a.status, a.stderr).toBe(0)
    expect(JSON.parse(fs.readFileSync(outputsOf(alone.files.output).manifest, "utf8")).scope).toEqual(manifest.scope)
  })

  it("fails early with one line when perspective comes without pack: nothing posted, no outputs, the line in the job summary", () => {
    const ws = pullRequestClone()
    const { env, files } = jobEnv({ INPUT_PERSPECTIVE: "changed" })
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status).toBe(2)
    const line = "specbundle action: the `perspective` input needs the `pack` input: a perspective chooses among one Pack's members (give `pack: pack:<id>`)"
    expect(r.stderr.trimEnd().split("\n")).toEqual([line])
    for (const file of [files.calls, files.output]) expect(fs.existsSync(file), file).toBe(false)
    expect(fs.readFileSync(files.summary, "utf8")).toBe(`**specbundle**: the step failed (exit 2).\n\n    ${line}\n\n`)
  })

  it.each([
    [
      "budget",
      { INPUT_BUDGET: "XL" },
      'specbundle: budget: Unknown budget "XL": give a positive integer (UTF-16 code units) or a tier: S, M, L. Did you mean "L"?'
    ],
    ["pack", { INPUT_PACK: "pack:nope" }, 'specbundle: pack: Unknown Pack "pack:nope". Known Packs: pack:docks-v1, pack:rides-v1.'],
    [
      "perspective",
      { INPUT_PACK: "pack:rides-v1", INPUT_PERSPECTIVE: "nope" },
      'specbundle: perspective: Unknown perspective "nope"; known: blocked, changed, not-ready, unimplemented, unverified.'
    ]
  ])("a wrong %s input fails the step before any impact run, with the CLI's line in the log and in the job summary", (_, inputs, cliLine) => {
    const ws = pullRequestClone()
    const { env, files } = jobEnv(inputs)
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status).toBe(2)
    expect(r.stderr.trimEnd().split("\n")).toEqual([cliLine, "specbundle action: specbundle bundle exited 2"])
    // No impact run wrote its report; nothing posted, no outputs.
    expect(fs.existsSync(path.join(env.RUNNER_TEMP, "specbundle", "impact.json"))).toBe(false)
    for (const file of [files.calls, files.output]) expect(fs.existsSync(file), file).toBe(false)
    expect(fs.readFileSync(files.summary, "utf8")).toBe(
      `**specbundle**: the step failed (exit 2).\n\n    ${cliLine}\n    specbundle action: specbundle bundle exited 2\n\n`
    )
  })

  it("a Pack the change does not touch: one line saying so and members=0; a touched one: members counts what the bundle holds", () => {
    const ws = pullRequestClone()
    const untouched = jobEnv({ INPUT_PACK: "pack:docks-v1", INPUT_COMMENT: "false" })
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env: untouched.env, encoding: "utf8", timeout: 60_000 })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr.split("\n").filter((l) => l.startsWith("specbundle action:"))).toEqual([
      "specbundle action: the change touches no member of pack:docks-v1: the bundle holds the Pack's header only (output members=0)"
    ])
    const outputs = outputsOf(untouched.files.output)
    expect(outputs.members).toBe("0")
    expect(JSON.parse(fs.readFileSync(outputs.manifest, "utf8")).scope).toMatchObject({ pack: "pack:docks-v1", members: [] })

    const touched = jobEnv({ INPUT_PACK: "pack:rides-v1", INPUT_COMMENT: "false" })
    const t = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env: touched.env, encoding: "utf8", timeout: 60_000 })
    expect(t.status, t.stderr).toBe(0)
    expect(t.stderr).not.toContain("touches no member")
    const members = JSON.parse(fs.readFileSync(outputsOf(touched.files.output).manifest, "utf8")).scope.members
    expect(members.length).toBeGreaterThan(0)
    expect(outputsOf(touched.files.output).members).toBe(String(members.length))

    // Without `pack`, members counts the impacted Specs the bundle holds.
    const all = jobEnv({ INPUT_COMMENT: "false" })
    expect(spawnSync(process.execPath, [SCRIPT], { cwd: ws, env: all.env, encoding: "utf8", timeout: 60_000 }).status).toBe(0)
    expect(outputsOf(all.files.output).members).toBe(outputsOf(all.files.output).impacted)
  })
})

describe("scripts/action.mjs on a checkout git refuses (safe.directory)", () => {
  const refusal = (ws: string) =>
    `specbundle action: git refuses the checkout: detected dubious ownership in repository at '${ws}'; if you trust it, run: git config --global --add safe.directory ${ws}`

  it("passes git's reason and its safe.directory command through, not a fetch-depth hint; the job summary says it too", () => {
    const ws = pullRequestClone()
    // git 2.39's ownership check treats the repository as another user's (t/test-lib's switch).
    const { env, files } = jobEnv({ GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" })
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status).toBe(1)
    expect(r.stderr.trimEnd().split("\n")).toEqual([refusal(ws)])
    expect(r.stderr).not.toContain("fetch-depth")
    for (const file of [files.calls, files.output]) expect(fs.existsSync(file), file).toBe(false)
    expect(fs.readFileSync(files.summary, "utf8")).toContain(`    ${refusal(ws)}\n`)
  })

  it.skipIf(
    skipping(
      process.getuid?.() !== 0,
      "the action in a checkout really owned by another user",
      "only root can hand a folder to another user (chown); this run is not root"
    )
  )("the same for a checkout really owned by another user (chown, as root)", () => {
    const ws = pullRequestClone()
    fs.chownSync(ws, 12345, 12345)
    fs.chownSync(path.join(ws, ".git"), 12345, 12345)
    const { env } = jobEnv({})
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status).toBe(1)
    expect(r.stderr.trimEnd().split("\n")).toEqual([refusal(ws)])
  })
})

describe("scripts/action.mjs on a shallow checkout", () => {
  it("says to set fetch-depth: 0 when the base is missing, and when the merge base is, posting nothing", () => {
    const upstream = upstreamRepo()
    // What actions/checkout does without fetch-depth: 0: the head commit alone.
    const only = path.join(tempDir("specbundle-action-shallow-"), "ws")
    runGitIn(path.dirname(only), ["clone", "-q", "--depth", "1", "--branch", "fare-change", `file://${upstream}`, only])
    expect(runGitIn(only, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("true")
    const { env, files } = jobEnv({})
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: only, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status).toBe(1)
    const line =
      "specbundle action: the checkout is shallow and has no origin/main: set `fetch-depth: 0` on actions/checkout (or fetch the base: git fetch origin main)"
    expect(r.stderr.trimEnd().split("\n")).toEqual([line])
    for (const file of [files.calls, files.output]) expect(fs.existsSync(file), file).toBe(false)
    expect(fs.readFileSync(files.summary, "utf8")).toBe(`**specbundle**: the step failed (exit 1).\n\n    ${line}\n\n`)

    // Both branches fetched one commit deep: the base is there, the merge base is not.
    const both = path.join(tempDir("specbundle-action-shallow-"), "ws")
    runGitIn(path.dirname(both), ["clone", "-q", "--depth", "1", "--no-single-branch", `file://${upstream}`, both])
    runGitIn(both, ["checkout", "-q", "fare-change"])
    const second = jobEnv({})
    const m = spawnSync(process.execPath, [SCRIPT], { cwd: both, env: second.env, encoding: "utf8", timeout: 60_000 })
    expect(m.status).toBe(1)
    expect(m.stderr.trimEnd().split("\n")).toEqual([
      "specbundle action: the checkout is shallow: origin/main and HEAD have no merge base in it; set `fetch-depth: 0` on actions/checkout (or fetch the base: git fetch origin main)"
    ])
    expect(fs.existsSync(second.files.calls)).toBe(false)

    // Deepened, the same checkout runs.
    runGitIn(both, ["fetch", "-q", "--unshallow"])
    const deep = jobEnv({ INPUT_COMMENT: "false" })
    const d = spawnSync(process.execPath, [SCRIPT], { cwd: both, env: deep.env, encoding: "utf8", timeout: 60_000 })
    expect(d.status, d.stderr).toBe(0)
    expect(outputsOf(deep.files.output).impacted).toBe("2")
  })
})

describe("action.yml: the parse cache between runs", () => {
  /** The job's environment without the test run's own cache settings (test/support/code-cache-env.ts). */
  const noCacheSettings = (): NodeJS.ProcessEnv => {
    const env = cleanEnv()
    delete env.SPECBUNDLE_CODE_CACHE_DIR
    delete env.SPECBUNDLE_CODE_CACHE
    return env
  }
  const steps = action.runs.steps as Array<{ name?: string; id?: string; uses?: string; run?: string; with?: Record<string, string> }>
  const modulesKey = steps.find((s) => s.name === "Key specbundle's dependency cache")!
  const parseKey = steps.find((s) => s.name === "Key specbundle's parse cache")!
  const parseCache = steps.find((s) => s.name === "Cache specbundle's parse cache")!

  /** The two key steps' bash as the runner runs them (GITHUB_ENV carried from one to the next): what they add to the job's env. */
  const keyEnv = (runner: string, sha: string, runId: string): Record<string, string> => {
    const envFile = path.join(runner, "github-env")
    fs.writeFileSync(envFile, "")
    const base = { ...noCacheSettings(), GITHUB_ACTION_PATH: REPO, GITHUB_ENV: envFile, RUNNER_OS: "Linux", RUNNER_ARCH: "X64", RUNNER_TEMP: runner }
    const added = () =>
      Object.fromEntries(
        fs
          .readFileSync(envFile, "utf8")
          .trimEnd()
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])
      )
    const first = spawnSync("bash", ["-c", modulesKey.run!], { encoding: "utf8", env: base })
    expect(first.status, first.stderr).toBe(0)
    const second = spawnSync("bash", ["-c", parseKey.run!], {
      encoding: "utf8",
      env: { ...base, ...added(), GITHUB_SHA: sha, GITHUB_RUN_ID: runId, GITHUB_RUN_ATTEMPT: "1" }
    })
    expect(second.status, second.stderr).toBe(0)
    return added()
  }

  /** One CI-shaped run of the step in a fresh clone: what it wrote, and the git commands it started (GIT_TRACE). */
  const ciRun = (ws: string, extra: NodeJS.ProcessEnv, actionPath = REPO) => {
    const runner = tempDir("specbundle-runner-")
    const trace = path.join(runner, "git-trace")
    const out = path.join(runner, "out")
    const env = {
      ...noCacheSettings(),
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_BASE_REF: "main",
      RUNNER_TEMP: runner,
      INPUT_COMMENT: "false",
      INPUT_OUT: out,
      GIT_TRACE: trace,
      ...extra
    }
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: ws, env, encoding: "utf8", timeout: 60_000 })
    expect(r.status, r.stderr).toBe(0)
    const files = (dir: string): Record<string, string> =>
      Object.fromEntries(
        fs
          .readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => {
            const full = path.join(e.parentPath, e.name)
            return [path.relative(dir, full), fs.readFileSync(full, "latin1")]
          })
      )
    const traced = fs.existsSync(trace) ? fs.readFileSync(trace, "utf8") : ""
    const blobReads = [...traced.matchAll(/trace: (?:built-in|exec): git (cat-file[^\n]*)/g)].length
    return { out: files(out), blobReads }
  }

  it("keys the parse cache per commit under the runner's temp folder, restores the newest of the same lockfile, before the run", () => {
    const runner = tempDir("specbundle-runner-")
    const env = keyEnv(runner, "abc123", "77")
    expect(env.SPECBUNDLE_CODE_CACHE_DIR).toBe(path.join(runner, "specbundle-cache"))
    expect(env.SPECBUNDLE_PARSE_RESTORE).toBe(`${env.SPECBUNDLE_MODULES_KEY.replace("specbundle-modules-", "specbundle-parse-")}-`)
    expect(env.SPECBUNDLE_PARSE_KEY).toBe(`${env.SPECBUNDLE_PARSE_RESTORE}abc123-77-1`)
    expect(parseCache.uses).toBe("actions/cache@v4")
    expect(parseCache.with).toEqual({
      path: "${{ env.SPECBUNDLE_CODE_CACHE_DIR }}",
      key: "${{ env.SPECBUNDLE_PARSE_KEY }}",
      "restore-keys": "${{ env.SPECBUNDLE_PARSE_RESTORE }}"
    })
    expect(steps.indexOf(parseCache)).toBeLessThan(steps.findIndex((s) => s.id === "run"))
    // A folder the job chose is kept.
    const own = spawnSync("bash", ["-c", parseKey.run!], {
      encoding: "utf8",
      env: {
        ...noCacheSettings(),
        GITHUB_ENV: path.join(runner, "own-env"),
        SPECBUNDLE_MODULES_KEY: "specbundle-modules-x",
        SPECBUNDLE_CODE_CACHE_DIR: "/somewhere/else"
      }
    })
    expect(own.status, own.stderr).toBe(0)
    expect(fs.readFileSync(path.join(runner, "own-env"), "utf8")).toContain("SPECBUNDLE_CODE_CACHE_DIR=/somewhere/else\n")
  })

  it("a second run restores the first's cache and reads from it; entries of another commit or version change no byte", () => {
    const upstream = upstreamRepo()
    // Every job checks out afresh at the same path, as a runner's workspace (the manifest names the root).
    const ws = path.join(tempDir("specbundle-action-ws-"), "ws")
    const clone = (branch: string) => {
      fs.rmSync(ws, { recursive: true, force: true })
      runGitIn(path.dirname(ws), ["clone", "-q", upstream, ws])
      runGitIn(ws, ["checkout", "-q", branch])
      return ws
    }
    const cacheOf = (sha: string, runId: string) => keyEnv(tempDir("specbundle-runner-"), sha, runId).SPECBUNDLE_CODE_CACHE_DIR
    /** What actions/cache does between jobs: the folder's files as they were saved (tar keeps the modes), in another runner's folder. */
    const restore = (from: string, to: string) => fs.cpSync(from, to, { recursive: true, preserveTimestamps: true })

    // Another version of specbundle (another build's bytes) fills a cache first, on the pull request's head.
    const other = tempDir("specbundle-other-version-")
    fs.cpSync(path.join(REPO, "bin"), path.join(other, "bin"), { recursive: true })
    fs.appendFileSync(path.join(other, "bin", "specbundle-main.cjs"), "\n// another version\n")
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(other, "node_modules"))
    const head1 = runGitIn(upstream, ["rev-parse", "fare-change"]).trim()
    const cache0 = cacheOf(head1, "1")
    const byOther = ciRun(clone("fare-change"), { SPECBUNDLE_CODE_CACHE_DIR: cache0 }, other)
    expect(Object.keys(parseCacheFiles(cache0)).length).toBeGreaterThan(0)

    // The first run of this version: the other version's entries restored, read as none.
    const cache1 = cacheOf(head1, "2")
    restore(cache0, cache1)
    const first = ciRun(clone("fare-change"), { SPECBUNDLE_CODE_CACHE_DIR: cache1 })
    const uncached1 = ciRun(clone("fare-change"), { SPECBUNDLE_CODE_CACHE: "0" })
    expect(first.out).toEqual(uncached1.out)
    expect(byOther.out).toEqual(uncached1.out)

    // The job runs again on the same commit (a re-run, or a push of the base): the first run's cache restored.
    const cacheAgain = cacheOf(head1, "3")
    restore(cache1, cacheAgain)
    const saved = parseCacheFiles(cacheAgain)
    const again = ciRun(clone("fare-change"), { SPECBUNDLE_CODE_CACHE_DIR: cacheAgain })
    expect(again.out).toEqual(uncached1.out)
    // It read from the cache: no cache file written again, every shard taken whole (a fresh
    // checkout's stat data match no entry: without object ids in them, every file would be read,
    // parsed and its shard written again).
    expect(Object.keys(saved).length).toBeGreaterThan(0)
    expect(parseCacheFiles(cacheAgain)).toEqual(saved)
    // Drift ran with the cache (its result kept, its reads under sources of their own) and its
    // section is in the report: the re-run wrote none of it again either.
    expect(Object.keys(saved).filter((f) => f.endsWith("-drift-results.json")).length).toBeGreaterThan(0)
    expect(again.out["impact.md"]).toContain("### specbundle drift")

    // The pull request gets another commit; the next job restores that cache, made at the commit before.
    const work = clone("fare-change")
    fs.appendFileSync(path.join(work, "specs/rides/ride-lifecycle.sdp.md"), "\nOne more narrative line.\n")
    runGitIn(work, ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qam", "touch the lifecycle"])
    runGitIn(work, ["push", "-q", "origin", "fare-change"])
    const head2 = runGitIn(upstream, ["rev-parse", "fare-change"]).trim()
    const cache2 = cacheOf(head2, "4")
    restore(cacheAgain, cache2)
    const second = ciRun(clone("fare-change"), { SPECBUNDLE_CODE_CACHE_DIR: cache2 })
    const uncached2 = ciRun(clone("fare-change"), { SPECBUNDLE_CODE_CACHE: "0" })
    expect(second.out).toEqual(uncached2.out)
    expect(second.out["impact.md"]).not.toBe(first.out["impact.md"])
  }, 600_000)
})
