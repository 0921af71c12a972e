#!/usr/bin/env node
// The GitHub Action's work (action.yml runs it; it also runs locally): the impact report as
// Markdown into the job summary and one sticky pull-request comment, corpus findings as
// annotations, the bundle's parts and manifest into a folder for the artifact step, and the step's
// outputs. Inputs come as INPUT_* variables (action.yml maps them); GitHub's own variables
// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_REPOSITORY, GITHUB_BASE_REF, ...) are used when set.
// The comment goes through the GitHub CLI (`gh api`) with GH_TOKEN.
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const env = process.env
const input = (name, fallback = "") => (env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`] ?? "").trim() || fallback
const yes = (value) => /^(true|yes|1|on)$/i.test(value)

/** The folder of the action: the specbundle checkout this script sits in. */
const ACTION_PATH = env.GITHUB_ACTION_PATH || path.join(path.dirname(fileURLToPath(import.meta.url)), "..")
const BIN = path.join(ACTION_PATH, "bin", "specbundle.js")
/** Finds the sticky comment; the root is part of it so two corpora in one repository keep two comments. */
export const markerFor = (root) => `<!-- specbundle-impact root=${encodeURIComponent(root)} -->`

/**
 * Ends the step: one line on stderr, and the same in the job summary (with the CLI's own lines
 * before it, `cliLines`), so a failed step says why where the report would have been.
 */
const fail = (line, code = 1, cliLines = []) => {
  process.stderr.write(`specbundle action: ${line}\n`)
  if (env.GITHUB_STEP_SUMMARY) {
    // An indented code block: the lines stay as written, no Markdown or HTML in them is read.
    const block = [...cliLines, `specbundle action: ${line}`].map((l) => `    ${l}`).join("\n")
    fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `**specbundle**: the step failed (exit ${code}).\n\n${block}\n\n`)
  }
  process.exit(code)
}

/**
 * bin/ is a build output: a checkout of a branch (not a release with bin/ committed) builds it.
 * node_modules usually comes back from the action's cache step (keyed on package-lock.json), so
 * only the build runs; without it, `npm ci` installs and builds (its `prepare`).
 */
const ensureBuilt = () => {
  const modules = fs.existsSync(path.join(ACTION_PATH, "node_modules", "oxc-parser"))
  if (fs.existsSync(BIN) && modules) return
  const [what, args] = modules ? ["building", ["run", "build"]] : ["installing and building", ["ci", "--no-audit", "--no-fund"]]
  process.stderr.write(`specbundle action: ${what} specbundle in ${ACTION_PATH}\n`)
  const r = spawnSync("npm", args, { cwd: ACTION_PATH, stdio: ["ignore", "inherit", "inherit"] })
  if (r.status !== 0 || !fs.existsSync(BIN)) fail(`npm ${args.join(" ")} in the action's folder failed`)
}

const git = (cwd, args) => spawnSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })

/**
 * git's own reason when it will not work in the checkout at all: a checkout owned by another user
 * (safe.directory, common in container jobs) or no repository. Checked first: the checks below
 * would take the refusal for a missing base and blame fetch-depth.
 */
const checkoutProblem = (cwd) => {
  const r = git(cwd, ["rev-parse", "--git-dir"])
  if (r.status === 0) return null
  const lines = r.stderr
    .split("\n")
    .map((l) => l.replace(/^(fatal|error): /, "").trim())
    .filter((l) => l !== "")
  const reason = lines[0] ?? `git exited ${r.status}`
  // git prints the command that trusts the folder on a line of its own.
  const fix = lines.find((l) => l.startsWith("git config --global --add safe.directory "))
  return fix !== undefined ? `git refuses the checkout: ${reason}; if you trust it, run: ${fix}` : `git cannot read the checkout ${cwd}: ${reason}`
}

/**
 * BASE...HEAD needs the base and the merge base in the clone. actions/checkout fetches one commit
 * unless told `fetch-depth: 0`; without this check the CLI's git error gives no hint of that.
 */
const baseProblem = (cwd, baseRef) => {
  const shallow = git(cwd, ["rev-parse", "--is-shallow-repository"]).stdout.trim() === "true"
  const branch = baseRef.startsWith("origin/") ? baseRef.slice(7) : baseRef
  const fix = `set \`fetch-depth: 0\` on actions/checkout (or fetch the base: git fetch origin ${branch})`
  if (git(cwd, ["rev-parse", "--verify", "--quiet", `${baseRef}^{commit}`]).status !== 0) {
    return shallow ? `the checkout is shallow and has no ${baseRef}: ${fix}` : `the base ${baseRef} is not in this checkout: ${fix}`
  }
  if (git(cwd, ["merge-base", baseRef, "HEAD"]).status !== 0) {
    return shallow
      ? `the checkout is shallow: ${baseRef} and HEAD have no merge base in it; ${fix}`
      : `${baseRef} and HEAD have no merge base (unrelated histories): give the \`base\` input`
  }
  return null
}

/**
 * Runs the CLI. One run's stderr (the findings as annotations) goes to the job log; the others'
 * is shown only when they fail, so each finding is annotated once.
 */
const specbundle = (args, { log = false, env } = {}) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", log ? "inherit" : "pipe"],
    maxBuffer: 1 << 30,
    env: env === undefined ? process.env : { ...process.env, ...env }
  })
  const status = r.status ?? 1
  if (!log && status !== 0 && r.stderr) process.stderr.write(r.stderr)
  return { status, stdout: r.stdout ?? "", stderrLines: (r.stderr ?? "").split("\n").filter((l) => l.trim() !== "") }
}

const setOutput = (name, value) => {
  if (env.GITHUB_OUTPUT) fs.appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`)
  else process.stdout.write(`${name}=${value}\n`)
}

const gh = (args, inputFile) => {
  const full = ["api", ...args, ...(inputFile === undefined ? [] : ["--input", inputFile])]
  return execFileSync("gh", full, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 })
}

/** Posts the comment, or edits the one that carries the marker (pages of 100 until a short page). */
export const postSticky = (repository, pr, marker, body, workDir) => {
  let existing = null
  for (let page = 1; existing === null; page++) {
    const comments = JSON.parse(gh(["--method", "GET", `repos/${repository}/issues/${pr}/comments?per_page=100&page=${page}`]))
    existing = comments.find((c) => typeof c.body === "string" && c.body.startsWith(marker)) ?? null
    if (comments.length < 100) break
  }
  const file = path.join(workDir, "comment.json")
  fs.writeFileSync(file, JSON.stringify({ body }))
  if (existing !== null) gh(["--method", "PATCH", `repos/${repository}/issues/comments/${existing.id}`], file)
  else gh(["--method", "POST", `repos/${repository}/issues/${pr}/comments`], file)
  return existing === null ? "posted" : "updated"
}

/**
 * The line for a bundle that holds no Spec of the Pack (the header only), from its manifest's
 * scope, or null when it holds some. A later step can skip on the `members` output (0).
 */
export const noMembersLine = (scope) => {
  if (scope.pack === undefined || (scope.members ?? []).length > 0) return null
  const what =
    scope.perspective === "changed"
      ? "the change touches no member of"
      : scope.perspective !== undefined
        ? `the perspective ${scope.perspective} selects no member of`
        : "there is no member in"
  return `${what} ${scope.pack}: the bundle holds the Pack's header only (output members=0)`
}

/** The bundle's options from the inputs; a perspective filters one Pack's members, so it needs `pack`. */
const bundleOptions = () => {
  const pack = input("pack")
  const perspective = input("perspective")
  if (perspective !== "" && pack === "") {
    fail("the `perspective` input needs the `pack` input: a perspective chooses among one Pack's members (give `pack: pack:<id>`)", 2)
  }
  // `pack` alone: the Pack's members the pull request impacts (the built-in `changed`), unless a
  // profile chooses the perspective.
  const chosen = perspective !== "" ? perspective : pack !== "" && input("profile") === "" ? "changed" : ""
  return [
    ...(input("budget") ? ["--budget", input("budget")] : []),
    ...(input("profile") ? ["--profile", input("profile")] : []),
    ...(pack ? ["--pack", pack] : []),
    ...(chosen ? ["--perspective", chosen] : [])
  ]
}

const main = () => {
  // Every input is checked before anything runs or is posted: a wrong one fails the step alone.
  const root = input("root", ".")
  const baseRef = input("base", env.GITHUB_BASE_REF ? `origin/${env.GITHUB_BASE_REF}` : "")
  if (baseRef === "") fail("no base: give the `base` input (outside a pull_request event there is no GITHUB_BASE_REF)", 2)
  const options = bundleOptions()
  if (!fs.existsSync(root)) fail(`the \`root\` input ${root} is not a folder of the checkout`, 2)
  const refused = checkoutProblem(root)
  if (refused !== null) fail(refused)
  const missing = baseProblem(root, baseRef)
  if (missing !== null) fail(missing)
  const changeset = `${baseRef}...HEAD`
  const outDir = path.resolve(input("out", path.join(env.RUNNER_TEMP || os.tmpdir(), "specbundle")))
  fs.mkdirSync(outDir, { recursive: true })
  ensureBuilt()

  const common = ["--root", root, "--changeset", changeset]
  // The bundle first: it checks the `budget`, `pack`, `perspective` and `profile` inputs (the
  // configuration's tiers, profiles and perspectives included) before any impact run, and a step
  // that fails has posted nothing.
  const partsDir = path.join(outDir, "parts")
  const bundle = specbundle(["bundle", ...common, ...options, "--parts", "--out", partsDir])
  if (bundle.status !== 0) fail(`specbundle bundle exited ${bundle.status}`, bundle.status, bundle.stderrLines)
  const scope = JSON.parse(fs.readFileSync(path.join(partsDir, "manifest.json"), "utf8")).scope
  const none = noMembersLine(scope)
  if (none !== null) process.stderr.write(`specbundle action: ${none}\n`)

  const json = specbundle(["impact", ...common])
  if (json.status !== 0) fail(`specbundle impact exited ${json.status}`, json.status, json.stderrLines)
  const report = JSON.parse(json.stdout)
  fs.writeFileSync(path.join(outDir, "impact.json"), json.stdout)

  // Links point at the pull request's head commit on GitHub when the repository is known.
  const head = env.PR_HEAD_SHA || execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim()
  const linkBase = env.GITHUB_REPOSITORY ? `${env.GITHUB_SERVER_URL || "https://github.com"}/${env.GITHUB_REPOSITORY}/blob/${head}/` : ""
  const md = specbundle(["impact", ...common, "--format", "markdown", "--findings", "github", ...(linkBase ? ["--link-base", linkBase] : [])], { log: true })
  if (md.status !== 0) fail(`specbundle impact --format markdown exited ${md.status}`, md.status)
  const reportFile = path.join(outDir, "impact.md")
  let text = md.stdout

  // Issue 51: "this change leaves N Specs drifted", with the accept command, when it drifts any.
  // Informational: a drift run that fails leaves the report as it was.
  // Drift reads the range's ends under parse caches of its own and keeps its result by the range's
  // commits: a re-run on a restored cache rewrites no cache file, and the Markdown run below
  // makes no second pass.
  const drifted = specbundle(["drift", "--root", root, "--changeset", changeset, "--quiet"])
  const driftCount = drifted.status === 0 ? JSON.parse(drifted.stdout).drifted.length : 0
  if (drifted.status !== 0) process.stderr.write(`specbundle action: specbundle drift exited ${drifted.status}; the report has no drift section\n`)
  if (driftCount > 0) {
    const driftMd = specbundle(["drift", "--root", root, "--changeset", changeset, "--quiet", "--format", "markdown"])
    if (driftMd.status === 0) text = `${text}\n${driftMd.stdout}`
  }
  fs.writeFileSync(reportFile, text)

  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${text}\n`)
  if (yes(input("comment", "true"))) {
    const pr = env.PR_NUMBER
    if (!pr || !env.GITHUB_REPOSITORY) process.stderr.write("specbundle action: no pull request here, no comment posted\n")
    else {
      const marker = markerFor(root)
      try {
        const how = postSticky(env.GITHUB_REPOSITORY, pr, marker, `${marker}\n${text}`, outDir)
        process.stderr.write(`specbundle action: comment ${how} on #${pr}\n`)
      } catch (e) {
        // A pull request from a fork gets a read-only token: the report is still in the summary.
        const detail = String(e.stderr || e.message)
          .trim()
          .split("\n")[0]
        process.stdout.write(`::warning title=specbundle::could not post the pull-request comment: ${detail.replace(/%/g, "%25")}\n`)
      }
    }
  }
  setOutput("impacted", String(report.impactedSpecs.length))
  // The Specs the bundle holds: the Pack's members it chose with `pack`, else the impacted Specs.
  setOutput("members", String((scope.pack === undefined ? scope.specs : scope.members)?.length ?? 0))
  setOutput("report", reportFile)
  setOutput("parts-dir", partsDir)
  setOutput("manifest", path.join(partsDir, "manifest.json"))
}

const invokedDirectly = process.argv[1] !== undefined && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))
if (invokedDirectly) main()
