// The GitLab CI template (ci/gitlab/specbundle.gitlab-ci.yml) and its note script
// (ci/gitlab/mr-note.mjs): the YAML read with the `yaml` package; the note script run as a process
// against a fake GitLab API on 127.0.0.1 (test/support/gitlab.ts); and the template's own script
// run by bash, as GitLab's runner runs it (`set -eo pipefail`), in real clones of a real merge
// request (the bike-dock history), full and shallow, with the built CLI as `specbundle`.
import { Ajv } from "ajv"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { parse } from "yaml"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, REPO, type Run, runAsync } from "../support/cli.js"
import { runGitIn, tempDir } from "../support/git.js"
import { type FakeGitlab, fakeGitlab } from "../support/gitlab.js"

const TEMPLATE = path.join(REPO, "ci", "gitlab", "specbundle.gitlab-ci.yml")
const NOTE_SCRIPT = path.join(REPO, "ci", "gitlab", "mr-note.mjs")
const MARKER = "<!-- specbundle-impact root=. -->"
const GOOD = "glpat-good-token"
const READ_ONLY = "glpat-read-only"

const template = parse(fs.readFileSync(TEMPLATE, "utf8"))
const job = template.specbundle

const servers: FakeGitlab[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})
const gitlab = async (options: Parameters<typeof fakeGitlab>[0] = {}) => {
  const s = await fakeGitlab({ tokens: { [GOOD]: "write", [READ_ONLY]: "read" }, ...options })
  servers.push(s)
  return s
}

/** The outer environment without anything of an outer git, GitLab job or GitHub runner. */
const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const key of Object.keys(env)) {
    if ((key.startsWith("GIT_") && key !== "GIT_CONFIG_NOSYSTEM") || key.startsWith("CI_") || key.startsWith("SPECBUNDLE_") || key === "GITLAB_CI")
      delete env[key]
  }
  return env
}

/** A merge-request pipeline's variables for merge request !7 of project 42. */
const mrEnv = (api: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...cleanEnv(),
  GITLAB_CI: "true",
  CI_API_V4_URL: api,
  CI_PROJECT_ID: "42",
  CI_MERGE_REQUEST_IID: "7",
  CI_MERGE_REQUEST_PROJECT_ID: "42",
  CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "42",
  SPECBUNDLE_GITLAB_TOKEN: GOOD,
  ...extra
})

const note = (report: string, env: NodeJS.ProcessEnv): Promise<Run> =>
  runAsync(process.execPath, [NOTE_SCRIPT, report], { cwd: path.dirname(report), env, timeout: 60_000 })

const oneLine = (r: Run): string => {
  const lines = r.stderr.trimEnd().split("\n")
  expect(lines, r.stderr).toHaveLength(1)
  expect(r.stderr).not.toMatch(/^\s+at /m)
  return lines[0]!
}

const reportFile = (text: string): string => {
  const file = path.join(tempDir("specbundle-gl-note-"), "impact.md")
  fs.writeFileSync(file, text)
  return file
}

describe("ci/gitlab/mr-note.mjs against a fake GitLab", () => {
  it("posts the note on the first push and edits that same note on the next (no second note)", async () => {
    const api = await gitlab()
    const first = await note(reportFile("**specbundle impact** one\n"), mrEnv(api.api))
    expect(first.status).toBe(0)
    expect(oneLine(first)).toBe("specbundle gitlab: note posted on !7")
    expect(api.notes).toEqual([{ id: 1000, body: `${MARKER}\n**specbundle impact** one\n`, system: false }])

    const second = await note(reportFile("**specbundle impact** two\n"), mrEnv(api.api))
    expect(second.status).toBe(0)
    expect(oneLine(second)).toBe("specbundle gitlab: note updated on !7")
    expect(api.notes).toEqual([{ id: 1000, body: `${MARKER}\n**specbundle impact** two\n`, system: false }])
    expect(api.calls.map((c) => `${c.method} ${c.path}${c.method === "GET" ? c.query : ""}`)).toEqual([
      "GET /api/v4/projects/42/merge_requests/7/notes?sort=asc&order_by=created_at&per_page=100&page=1",
      "POST /api/v4/projects/42/merge_requests/7/notes",
      "GET /api/v4/projects/42/merge_requests/7/notes?sort=asc&order_by=created_at&per_page=100&page=1",
      "PUT /api/v4/projects/42/merge_requests/7/notes/1000"
    ])
    expect(api.calls.every((c) => c.token === GOOD)).toBe(true)
  })

  it("finds its note past the first page of 100, skips system notes, and edits only it", async () => {
    const seeded = Array.from({ length: 150 }, (_, i) => ({
      id: i + 1,
      body: i === 120 ? `${MARKER}\nold report` : i === 5 ? `${MARKER}\nnot ours: a system note` : `comment ${i}`,
      system: i === 5
    }))
    const api = await gitlab({ notes: seeded })
    const r = await note(reportFile("new report\n"), mrEnv(api.api))
    expect(oneLine(r)).toBe("specbundle gitlab: note updated on !7")
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /api/v4/projects/42/merge_requests/7/notes",
      "GET /api/v4/projects/42/merge_requests/7/notes",
      "PUT /api/v4/projects/42/merge_requests/7/notes/121"
    ])
    expect(api.notes.filter((n, i) => n.body !== seeded[i]!.body).map((n) => n.id)).toEqual([121])
    expect(api.notes[120]!.body).toBe(`${MARKER}\nnew report\n`)
  })

  it("a refused token (401) is one line naming SPECBUNDLE_GITLAB_TOKEN, exit 0 as the action's warning, and the token is not shown", async () => {
    const api = await gitlab()
    const r = await note(reportFile("x\n"), mrEnv(api.api, { SPECBUNDLE_GITLAB_TOKEN: "glpat-expired" }))
    expect(r.status).toBe(0)
    expect(oneLine(r)).toBe(
      "specbundle gitlab: could not post the merge-request note: GitLab answered 401 (401 Unauthorized) to GET /projects/42/merge_requests/7/notes: " +
        "SPECBUNDLE_GITLAB_TOKEN is not a valid token (expired, revoked or mistyped): set it to an access token with the api scope whose user is a Reporter or more on the project: " +
        "a project access token (GitLab.com: Premium or Ultimate), else a bot account's personal access token"
    )
    expect(r.stderr + r.stdout).not.toContain("glpat-expired")
    expect(api.notes).toEqual([])
  })

  it("a token that may read but not write (403) is one line with what the token needs, exit 0, nothing posted", async () => {
    const api = await gitlab()
    const r = await note(reportFile("x\n"), mrEnv(api.api, { SPECBUNDLE_GITLAB_TOKEN: READ_ONLY }))
    expect(r.status).toBe(0)
    expect(oneLine(r)).toBe(
      "specbundle gitlab: could not post the merge-request note: GitLab answered 403 (insufficient_scope) to POST /projects/42/merge_requests/7/notes: " +
        "the token in SPECBUNDLE_GITLAB_TOKEN may not write notes here: give it the api scope and at least the Reporter role on the project"
    )
    expect(api.notes).toEqual([])
  })

  it("without a token: one line for a fork's merge request, one for a protected variable an unprotected branch does not get, one naming the variable to set; no request; exit 0", async () => {
    const api = await gitlab()
    const fork = await note(reportFile("x\n"), mrEnv(api.api, { SPECBUNDLE_GITLAB_TOKEN: "", CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "99", CI_PROJECT_ID: "99" }))
    expect(fork.status).toBe(0)
    expect(oneLine(fork)).toBe(
      "specbundle gitlab: no note posted: this merge request comes from a fork, whose pipeline does not get SPECBUNDLE_GITLAB_TOKEN; the report is in the job's artifacts"
    )
    const kind =
      "a masked CI/CD variable holding an access token with the api scope whose user is a Reporter or more on the project: " +
      "a project access token (GitLab.com: Premium or Ultimate), else a bot account's personal access token"
    // An unprotected branch's pipeline: the variable may be set and protected, so "set it" alone would mislead.
    const unprotected = await note(reportFile("x\n"), mrEnv(api.api, { SPECBUNDLE_GITLAB_TOKEN: undefined, CI_COMMIT_REF_PROTECTED: "false" }))
    expect(unprotected.status).toBe(0)
    expect(oneLine(unprotected)).toBe(
      `specbundle gitlab: no note posted: SPECBUNDLE_GITLAB_TOKEN is not in this pipeline: if it is set, it is protected and this branch is not (clear its "Protect variable" flag); else set it, ${kind}`
    )
    const unset = await note(reportFile("x\n"), mrEnv(api.api, { SPECBUNDLE_GITLAB_TOKEN: undefined, CI_COMMIT_REF_PROTECTED: "true" }))
    expect(unset.status).toBe(0)
    expect(oneLine(unset)).toBe(`specbundle gitlab: no note posted: set SPECBUNDLE_GITLAB_TOKEN, ${kind} (the job token cannot write notes)`)
    const branch = await note(reportFile("x\n"), mrEnv(api.api, { CI_MERGE_REQUEST_IID: undefined }))
    expect(branch.status).toBe(0)
    expect(oneLine(branch)).toBe("specbundle gitlab: no merge request here (CI_MERGE_REQUEST_IID is not set), no note posted")
    expect(api.calls).toEqual([])
  })

  it("bounds every request: an API that never answers, or nothing listening, is one line and exit 0", async () => {
    const api = await gitlab({ hang: true })
    const r = await note(reportFile("x\n"), mrEnv(api.api, { SPECBUNDLE_GITLAB_TIMEOUT_MS: "200" }))
    expect(r.status).toBe(0)
    expect(oneLine(r)).toBe(
      "specbundle gitlab: could not post the merge-request note: GitLab did not answer GET /projects/42/merge_requests/7/notes within 200 ms"
    )
    expect(api.notes).toEqual([])

    const gone = await gitlab()
    const url = gone.api
    await gone.close()
    const refused = await note(reportFile("x\n"), mrEnv(url))
    expect(refused.status).toBe(0)
    expect(oneLine(refused)).toMatch(
      new RegExp(`^specbundle gitlab: could not post the merge-request note: could not reach GitLab at ${url.replace(/\./g, "\\.")}: .*ECONNREFUSED`)
    )
  })

  it("a wrong invocation is one line and exit 2", async () => {
    const env = mrEnv("http://127.0.0.1:9/api/v4")
    const none = await runAsync(process.execPath, [NOTE_SCRIPT], { cwd: REPO, env, timeout: 60_000 })
    expect(none.status).toBe(2)
    expect(oneLine(none)).toBe("specbundle gitlab: usage: node mr-note.mjs REPORT.md (the Markdown of specbundle impact --format markdown)")
    const missing = await note(path.join(tempDir("specbundle-gl-note-"), "nope.md"), env)
    expect(missing.status).toBe(2)
    expect(oneLine(missing)).toMatch(/^specbundle gitlab: cannot read the report .*nope\.md: ENOENT$/)
    const timeout = await note(reportFile("x\n"), { ...env, SPECBUNDLE_GITLAB_TIMEOUT_MS: "soon" })
    expect(timeout.status).toBe(2)
    expect(oneLine(timeout)).toBe('specbundle gitlab: SPECBUNDLE_GITLAB_TIMEOUT_MS must be a whole number of milliseconds, got "soon"')
  })
})

describe("ci/gitlab/specbundle.gitlab-ci.yml", () => {
  it("runs in merge-request pipelines and on the default branch, with the whole history, and uploads the Code Quality report and the parts", () => {
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }, { if: "$CI_COMMIT_BRANCH && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH" }])
    expect(job.variables.GIT_DEPTH).toBe("0")
    expect(job.artifacts.reports).toEqual({ codequality: "gl-code-quality-report.json" })
    expect(job.artifacts.paths).toEqual(["specbundle-out/", "gl-code-quality-report.json"])
    expect(job.artifacts.when).toBe("always")
    expect(job.before_script.slice(1)).toEqual([
      'npm install --global --no-audit --no-fund "$SPECBUNDLE_PACKAGE"',
      'export SPECBUNDLE_HOME="$(npm root --global)/specbundle"'
    ])
    // The scripts it runs are the ones the package ships.
    expect(job.script.join("\n")).toContain('node "$SPECBUNDLE_HOME/ci/gitlab/mr-note.mjs" specbundle-out/impact.md')
    expect(job.script.join("\n")).toContain('node "$SPECBUNDLE_HOME/ci/gitlab/code-quality.mjs" gl-code-quality-report.json')
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"))
    expect(pkg.files).toContain("ci")
    // No placeholder of a place specbundle does not live.
    expect(fs.readFileSync(TEMPLATE, "utf8")).not.toContain("your-org")
  })

  it("runs on an image whose Node the package supports (and that has git)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"))
    const floor = /^>=\s*(\d+)\.(\d+)$/.exec(pkg.engines.node)
    expect(floor, pkg.engines.node).not.toBeNull()
    // node:<major> follows the major's newest release; the floor is a release of that major or an older one.
    const image = /^node:(\d+)$/.exec(job.image)
    expect(image, `${job.image}: a full node:<major> image (the slim and alpine ones have no git)`).not.toBeNull()
    expect(Number(image![1])).toBeGreaterThanOrEqual(Number(floor![1]))
  })

  it("without SPECBUNDLE_PACKAGE, the before_script stops in one line naming the variable to set", async () => {
    expect(job.variables.SPECBUNDLE_PACKAGE).toBe("")
    const variables = job.variables as Record<string, string>
    const r = await runAsync("bash", ["-eo", "pipefail", "-c", (job.before_script as string[]).join("\n")], {
      cwd: tempDir("specbundle-gl-before-"),
      env: { ...cleanEnv(), ...variables },
      timeout: 60_000
    })
    expect(r.status).toBe(1)
    expect(oneLine(r)).toBe(
      "specbundle gitlab: set SPECBUNDLE_PACKAGE to what npm installs specbundle from (a tarball such as ./vendor/specbundle-0.1.0.tgz, or specbundle@<version> once published)"
    )
  })
})

/** The pull request's repository: main, and the branch fare-change one commit ahead (examples/make-history.mjs). */
const upstreamRepo = (): string => {
  const upstream = tempDir("specbundle-gl-up-")
  const r = spawnSync(process.execPath, [path.join(REPO, "examples", "make-history.mjs"), upstream], { encoding: "utf8", env: cleanEnv() })
  if (r.status !== 0) throw new Error(`make-history failed: ${r.stderr}`)
  runGitIn(upstream, ["branch", "-q", "fare-change", "HEAD"])
  runGitIn(upstream, ["reset", "-q", "--hard", "HEAD~1"])
  return upstream
}

/** The job's clone of the upstream (as the runner makes it), on BRANCH when given, and the base: main's tip. */
const workspace = (branch?: string): { ws: string; base: string } => {
  const upstream = upstreamRepo()
  const base = runGitIn(upstream, ["rev-parse", "main"]).trim()
  const ws = path.join(tempDir("specbundle-gl-ws-"), "ws")
  runGitIn(path.dirname(ws), ["clone", "-q", upstream, ws])
  if (branch !== undefined) runGitIn(ws, ["checkout", "-q", branch])
  return { ws, base }
}

/** A folder with `specbundle` running `body` (by default the built CLI: what the template's before_script installs). */
const shimDir = (body = `exec "${process.execPath}" "${BIN}" "$@"`): string => {
  const dir = tempDir("specbundle-gl-bin-")
  fs.writeFileSync(path.join(dir, "specbundle"), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return dir
}

/**
 * The job's script as GitLab's runner runs it: the template's variables, then the job's, in bash
 * with -eo pipefail; `specbundle` from `bin` (the built CLI unless a stand-in's folder is given).
 */
const runJob = (cwd: string, env: NodeJS.ProcessEnv, bin = shimDir()): Promise<Run> => {
  const variables = Object.fromEntries(Object.entries(job.variables as Record<string, string>))
  return runAsync("bash", ["-eo", "pipefail", "-c", (job.script as string[]).join("\n")], {
    cwd,
    env: { ...variables, ...env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, SPECBUNDLE_HOME: REPO },
    timeout: 120_000
  })
}

const ajv = new Ajv({ allErrors: true, strict: false })
const documented = ajv.compile(JSON.parse(fs.readFileSync(path.join(REPO, "test", "fixtures", "gitlab", "code-quality-documented.schema.json"), "utf8")))

const cli = (cwd: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", env })

describe("the template's script in a merge-request pipeline", () => {
  it("writes the Code Quality report, the Markdown report and the parts, posts the note, and edits it on the next push", async () => {
    const { ws, base } = workspace("fare-change")
    const api = await gitlab()
    const envFor = (sha: string) =>
      mrEnv(api.api, { CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_COMMIT_SHA: sha, CI_PROJECT_URL: "https://gitlab.example.com/team/bikes" })
    const head = runGitIn(ws, ["rev-parse", "HEAD"]).trim()
    const first = await runJob(ws, envFor(head))
    expect(first.status, first.stderr).toBe(0)
    expect(first.stderr).toContain("specbundle gitlab: note posted on !7")

    const changeset = `${base}...HEAD`
    const direct = cli(ws, ["impact", "--changeset", changeset, "--format", "gitlab"], envFor(head))
    const issues = JSON.parse(fs.readFileSync(path.join(ws, "gl-code-quality-report.json"), "utf8"))
    expect(fs.readFileSync(path.join(ws, "gl-code-quality-report.json"), "utf8")).toBe(direct.stdout)
    expect(documented(issues), ajv.errorsText(documented.errors)).toBe(true)
    expect(issues.filter((i: { check_name: string }) => i.check_name === "impact/at-risk").length).toBeGreaterThan(0)

    const md = fs.readFileSync(path.join(ws, "specbundle-out", "impact.md"), "utf8")
    expect(md.startsWith(`**specbundle impact** of \`${changeset}\`: 2 impacted Specs`)).toBe(true)
    // The change drifts Specs clean at the base (issue 51): drift's section follows the impact report, as in the GitHub action's.
    const drift = cli(ws, ["drift", "--changeset", changeset, "--format", "markdown"], envFor(head)).stdout
    expect(drift).toMatch(/^### specbundle drift\n\nThis change \(\S+\) leaves \d+ Specs? drifted/)
    expect(md).toBe(`${cli(ws, ["impact", "--changeset", changeset, "--format", "markdown"], envFor(head)).stdout}\n${drift}`)
    expect(fs.existsSync(path.join(ws, "specbundle-out", "drift.md"))).toBe(false)
    expect(md).toContain(`](https://gitlab.example.com/team/bikes/-/blob/${head}/specs/rides/ride-fare-rule.sdp.md#L`)
    expect(api.notes).toEqual([{ id: 1000, body: `${MARKER}\n${md}`, system: false }])
    const manifest = JSON.parse(fs.readFileSync(path.join(ws, "specbundle-out", "parts", "manifest.json"), "utf8"))
    expect(manifest.scope.specs).toEqual(["spec:decisions.per-minute-fares", "spec:rides.ride-fare-rule"])

    // The next push: the same note, edited.
    fs.appendFileSync(path.join(ws, "specs/rides/ride-lifecycle.sdp.md"), "\nOne more narrative line.\n")
    runGitIn(ws, ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qam", "touch the lifecycle"])
    const second = await runJob(ws, envFor(runGitIn(ws, ["rev-parse", "HEAD"]).trim()))
    expect(second.status, second.stderr).toBe(0)
    expect(second.stderr).toContain("specbundle gitlab: note updated on !7")
    expect(api.notes).toHaveLength(1)
    expect(api.notes[0]!.body.startsWith(`${MARKER}\n**specbundle impact** of \`${changeset}\`: 3 impacted Specs`)).toBe(true)
  })

  it("on the default branch writes the findings alone and posts nothing", async () => {
    const { ws } = workspace()
    fs.writeFileSync(path.join(ws, "specs", "odd.sdp.md"), "---\nid: [unclosed\n---\n# x\n")
    const api = await gitlab()
    const r = await runJob(ws, mrEnv(api.api, { CI_MERGE_REQUEST_IID: undefined, CI_COMMIT_SHA: runGitIn(ws, ["rev-parse", "HEAD"]).trim() }))
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe("specbundle gitlab: no merge request here: findings only, in gl-code-quality-report.json")
    const text = fs.readFileSync(path.join(ws, "gl-code-quality-report.json"), "utf8")
    expect(text).toBe(cli(ws, ["check", "--format", "gitlab"], cleanEnv()).stdout)
    const issues = JSON.parse(text)
    expect(documented(issues), ajv.errorsText(documented.errors)).toBe(true)
    expect(issues.map((i: { location: { path: string } }) => i.location.path)).toContain("specs/odd.sdp.md")
    expect(api.calls).toEqual([])
  })

  it("on the default branch fails, with its line, when specbundle fails and writes no report (a refused Node: exit 1, nothing on stdout)", async () => {
    const { ws } = workspace()
    const api = await gitlab()
    const refusing = shimDir('echo "specbundle: Node.js 20.19.0 is not supported: specbundle needs 22.19 or later" >&2\nexit 1')
    const env = mrEnv(api.api, { CI_MERGE_REQUEST_IID: undefined, CI_COMMIT_SHA: runGitIn(ws, ["rev-parse", "HEAD"]).trim() })
    const r = await runJob(ws, env, refusing)
    expect(r.status).toBe(1)
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "specbundle: Node.js 20.19.0 is not supported: specbundle needs 22.19 or later",
      "specbundle gitlab: specbundle check exited 1 without a Code Quality report: gl-code-quality-report.json is empty (0 bytes); its own lines above say why"
    ])
    expect(r.stderr).not.toContain("findings only")
    // Any other end fails it too, whatever the file holds; a signal's exit as much as wrong parameters.
    for (const [body, line] of [
      [
        'echo "[]"\nexit 2',
        "specbundle gitlab: specbundle check failed (exit 2), so gl-code-quality-report.json is not its report: its own line above says why"
      ],
      [
        'echo "{}"',
        "specbundle gitlab: specbundle check exited 0 without a Code Quality report: gl-code-quality-report.json is not a JSON array of issues; its own lines above say why"
      ],
      [
        'echo "[{\\"description\\": \\"x\\"}]"\nexit 1',
        "specbundle gitlab: specbundle check exited 1 without a Code Quality report: gl-code-quality-report.json issue 1 lacks check_name; its own lines above say why"
      ]
    ] as const) {
      const other = await runJob(ws, env, shimDir(body))
      expect(other.status, body).toBe(1)
      expect(oneLine(other)).toBe(line)
    }
    expect(api.calls).toEqual([])
  })

  it("in a merge request fails, with its line, when specbundle impact fails, and posts nothing", async () => {
    const { ws, base } = workspace("fare-change")
    const api = await gitlab()
    const refusing = shimDir('echo "specbundle: Node.js 20.19.0 is not supported: specbundle needs 22.19 or later" >&2\nexit 1')
    const r = await runJob(ws, mrEnv(api.api, { CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_COMMIT_SHA: runGitIn(ws, ["rev-parse", "HEAD"]).trim() }), refusing)
    expect(r.status).toBe(1)
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      "specbundle: Node.js 20.19.0 is not supported: specbundle needs 22.19 or later",
      "specbundle gitlab: specbundle impact failed (exit 1), so gl-code-quality-report.json is not its report: its own line above says why"
    ])
    expect(api.calls).toEqual([])
    expect(fs.existsSync(path.join(ws, "specbundle-out", "impact.md"))).toBe(false)
  })

  it("deepens a shallow clone to reach the base; says in one line when it cannot, posting nothing", async () => {
    const upstream = upstreamRepo()
    const base = runGitIn(upstream, ["rev-parse", "main"]).trim()
    const shallow = () => {
      const ws = path.join(tempDir("specbundle-gl-shallow-"), "ws")
      runGitIn(path.dirname(ws), ["clone", "-q", "--depth", "1", "--branch", "fare-change", `file://${upstream}`, ws])
      expect(runGitIn(ws, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("true")
      return ws
    }
    const api = await gitlab()
    const env = mrEnv(api.api, { CI_MERGE_REQUEST_DIFF_BASE_SHA: base })

    const deepened = shallow()
    const ok = await runJob(deepened, { ...env, CI_COMMIT_SHA: runGitIn(deepened, ["rev-parse", "HEAD"]).trim() })
    expect(ok.status, ok.stderr).toBe(0)
    expect(runGitIn(deepened, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("false")
    expect(ok.stderr).toContain("specbundle gitlab: note posted on !7")

    // origin gone (a runner that cannot fetch): one line, exit 1, no note. With the template's
    // GIT_DEPTH of 0, "set GIT_DEPTH to 0" cannot help: the line says what can.
    const before = api.calls.length
    const stuckRun = async (extra: NodeJS.ProcessEnv) => {
      const stuck = shallow()
      runGitIn(stuck, ["remote", "set-url", "origin", path.join(tempDir("specbundle-gl-gone-"), "missing.git")])
      const r = await runJob(stuck, { ...env, ...extra, CI_COMMIT_SHA: runGitIn(stuck, ["rev-parse", "HEAD"]).trim() })
      expect(r.status).toBe(1)
      expect(fs.existsSync(path.join(stuck, "specbundle-out", "impact.md"))).toBe(false)
      return oneLine(r)
    }
    expect(await stuckRun({})).toBe(
      `specbundle gitlab: the clone lacks the base ${base} or its history: it is shallow though GIT_DEPTH is 0 (a workspace kept from a shallower job) and git fetch --unshallow failed: ` +
        "set GIT_STRATEGY to clone for this job, and check that the runner can fetch from origin"
    )
    // The including file or the project set a depth: that is what to change.
    expect(await stuckRun({ GIT_DEPTH: "20" })).toBe(
      `specbundle gitlab: the clone lacks the base ${base} or its history (shallow, and git fetch --unshallow failed): set GIT_DEPTH to 0 for this job`
    )
    expect(api.calls.length).toBe(before)
  })

  it("says what to do when a full clone lacks the base (a rewritten target branch), posting nothing", async () => {
    const { ws } = workspace("fare-change")
    const api = await gitlab()
    const gone = "0123456789abcdef0123456789abcdef01234567"
    const r = await runJob(ws, mrEnv(api.api, { CI_MERGE_REQUEST_DIFF_BASE_SHA: gone, CI_COMMIT_SHA: runGitIn(ws, ["rev-parse", "HEAD"]).trim() }))
    expect(r.status).toBe(1)
    expect(oneLine(r)).toBe(
      `specbundle gitlab: the clone lacks the base ${gone} though it is not shallow (the target branch rewritten since the merge request's base?): ` +
        "rebase the merge request onto its target branch, or set SPECBUNDLE_BASE to a revision the clone has"
    )
    expect(api.calls).toEqual([])
  })

  it("in a fork's pipeline (no token) says so in one line and passes, with the reports written", async () => {
    const { ws, base } = workspace("fare-change")
    const api = await gitlab()
    const r = await runJob(
      ws,
      mrEnv(api.api, {
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: runGitIn(ws, ["rev-parse", "HEAD"]).trim(),
        CI_PROJECT_ID: "99",
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "99",
        SPECBUNDLE_GITLAB_TOKEN: undefined
      })
    )
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(
      "specbundle gitlab: no note posted: this merge request comes from a fork, whose pipeline does not get SPECBUNDLE_GITLAB_TOKEN; the report is in the job's artifacts"
    )
    expect(fs.existsSync(path.join(ws, "gl-code-quality-report.json"))).toBe(true)
    expect(fs.existsSync(path.join(ws, "specbundle-out", "impact.md"))).toBe(true)
    expect(api.calls).toEqual([])
  })
})

describe("the template's parse cache between jobs", () => {
  it("is GitLab's cache of a folder in the checkout, per branch from the default branch's, saved whatever the job's end", () => {
    expect(job.cache).toEqual({
      key: "specbundle-parse-$CI_COMMIT_REF_SLUG",
      fallback_keys: ["specbundle-parse-$CI_DEFAULT_BRANCH"],
      paths: [".specbundle-cache/"],
      when: "always"
    })
  })

  it("a second job restores the first's cache and reads from it: no file rewritten, no untracked file, the same bytes as a job without it", async () => {
    const upstream = upstreamRepo()
    const base = runGitIn(upstream, ["rev-parse", "main"]).trim()
    // Every job clones afresh at the same path, as a runner's build folder; GitLab restores the cache into it.
    const ws = path.join(tempDir("specbundle-gl-ws-"), "ws")
    const job = async (cache: string | undefined, extra: NodeJS.ProcessEnv = {}) => {
      fs.rmSync(ws, { recursive: true, force: true })
      runGitIn(path.dirname(ws), ["clone", "-q", upstream, ws])
      runGitIn(ws, ["checkout", "-q", "fare-change"])
      if (cache !== undefined) fs.cpSync(cache, path.join(ws, ".specbundle-cache"), { recursive: true, preserveTimestamps: true })
      const head = runGitIn(ws, ["rev-parse", "HEAD"]).trim()
      const env = mrEnv("http://127.0.0.1:9/api/v4", {
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: head,
        CI_PROJECT_DIR: ws,
        SPECBUNDLE_NOTE: "false",
        ...extra
      })
      const r = await runJob(ws, env)
      expect(r.status, r.stderr).toBe(0)
      const read = (dir: string): Record<string, string> =>
        Object.fromEntries(
          fs
            .readdirSync(dir, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile())
            .map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name), "latin1")])
        )
      const out = { ...read(path.join(ws, "specbundle-out")), report: fs.readFileSync(path.join(ws, "gl-code-quality-report.json"), "latin1") }
      const untracked = runGitIn(ws, ["status", "--porcelain", "--untracked-files=all"])
      const saved = path.join(tempDir("specbundle-gl-saved-"), "cache")
      if (fs.existsSync(path.join(ws, ".specbundle-cache"))) fs.cpSync(path.join(ws, ".specbundle-cache"), saved, { recursive: true, preserveTimestamps: true })
      return { out, untracked, saved }
    }
    const parseFiles = (dir: string) =>
      Object.fromEntries(
        fs
          .readdirSync(dir)
          .filter((f) => f.startsWith("specbundle-parse-"))
          .map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs])
      )

    const first = await job(undefined)
    expect(Object.keys(parseFiles(first.saved)).length).toBeGreaterThan(0)
    expect(first.untracked.split("\n").filter((l) => l.includes(".specbundle-cache"))).toEqual([])
    const second = await job(first.saved)
    const uncached = await job(undefined, { SPECBUNDLE_CODE_CACHE: "0" })
    expect(second.out).toEqual(uncached.out)
    expect(first.out).toEqual(uncached.out)
    // The restored files were read and taken as they were: the same commit rewrites none of them
    // (their times as the copies kept them, to the microsecond the copy rounds to).
    const [was, now] = [parseFiles(first.saved), parseFiles(second.saved)]
    expect(Object.keys(now)).toEqual(Object.keys(was))
    for (const [name, mtime] of Object.entries(now)) expect(Math.abs(mtime - was[name]!), name).toBeLessThan(1)
  }, 600_000)
})
