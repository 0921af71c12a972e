#!/usr/bin/env node
// Builds a throwaway git repository holding the bike-dock example corpus, with two commits:
// the first holds the corpus as it stood before the "free swap" fare change, the second makes that
// change in one Spec carrier and one anchored code file. `specbundle ... --changeset HEAD~1` then
// has a real changeset to read.
//
//   node examples/make-history.mjs [DIR]    -> prints the repository folder on stdout
//
// DIR must be missing or empty; without it a fresh temp folder is made. No dependencies, and no
// reliance on the machine's git config: identity, signing and dates are set per command, and the
// user's global and system config files are not read at all (hooks, templates, signing).
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))

/** The corpus copied into the repository. */
export const CORPUS_DIR = path.join(here, "bike-dock")

/** The two files the second commit changes, and the two changed paths git reports. */
export const CHANGED_CARRIER = "specs/rides/ride-fare-rule.sdp.md"
export const CHANGED_CODE = "src/rides/fare.ts"

// What the first commit holds instead of the corpus text: each `final` snippet is taken out
// (replaced by `before`). A snippet that no longer occurs exactly once is an error, so an edit to
// the corpus that breaks the story fails loudly instead of producing an empty second commit.
const BEFORE_EDITS = [
  {
    file: CHANGED_CARRIER,
    final: "- A ride shorter than two minutes that ends at the dock it started from is free, so a rider can swap a bike they do not trust.\n",
    before: ""
  },
  { file: CHANGED_CODE, final: "export const FREE_SWAP_SECONDS = 120\n", before: "" },
  {
    file: CHANGED_CODE,
    final: "  if (ride.durationSeconds < FREE_SWAP_SECONDS && ride.startDock === ride.endDock) return 0\n",
    before: ""
  }
]

const IDENTITY = { name: "Example Author", email: "example@specbundle.invalid" }
// Fixed dates make the two commit ids the same on every run.
const DATES = ["2026-01-05T09:00:00Z", "2026-01-06T14:30:00Z"]

const gitEnv = (date) => {
  const env = { ...process.env }
  // Drop anything that would point git at another repository or another config.
  for (const key of Object.keys(env)) if (key.startsWith("GIT_")) delete env[key]
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date
  }
}

const git = (dir, date, args) => {
  const config = [
    "-c",
    `user.name=${IDENTITY.name}`,
    "-c",
    `user.email=${IDENTITY.email}`,
    "-c",
    "commit.gpgsign=false",
    "-c",
    "init.defaultBranch=main",
    "-c",
    "core.autocrlf=false"
  ]
  try {
    return execFileSync("git", [...config, ...args], {
      cwd: dir,
      env: gitEnv(date),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"]
    })
  } catch (error) {
    const detail = error.stderr ? String(error.stderr).trim() : error.message
    throw new Error(`git ${args.join(" ")} failed in ${dir}: ${detail}`)
  }
}

const applyBeforeEdits = (dir) => {
  for (const edit of BEFORE_EDITS) {
    const file = path.join(dir, edit.file)
    const text = fs.readFileSync(file, "utf8")
    const count = text.split(edit.final).length - 1
    if (count !== 1) {
      throw new Error(`${edit.file}: expected the second commit's text exactly once, found it ${count} times`)
    }
    fs.writeFileSync(file, text.replace(edit.final, edit.before))
  }
}

const prepareDir = (target) => {
  if (target === undefined) return fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-bike-dock-"))
  const dir = path.resolve(target)
  if (fs.existsSync(dir)) {
    if (!fs.statSync(dir).isDirectory()) throw new Error(`${dir} exists and is not a folder`)
    if (fs.readdirSync(dir).length > 0) throw new Error(`${dir} is not empty; give a new or empty folder`)
  } else {
    fs.mkdirSync(dir, { recursive: true })
  }
  return dir
}

/** Copies the corpus into `target` (or a new temp folder), builds the two commits, returns the folder. */
export const makeHistory = (target) => {
  const dir = prepareDir(target)
  fs.cpSync(CORPUS_DIR, dir, { recursive: true })
  applyBeforeEdits(dir)
  git(dir, DATES[0], ["init", "--quiet"])
  git(dir, DATES[0], ["add", "--all"])
  git(dir, DATES[0], ["commit", "--quiet", "--no-verify", "-m", "Bike-dock corpus: rides and docks, first cut"])
  for (const file of new Set(BEFORE_EDITS.map((edit) => edit.file))) {
    fs.copyFileSync(path.join(CORPUS_DIR, file), path.join(dir, file))
  }
  git(dir, DATES[1], ["add", "--all"])
  git(dir, DATES[1], [
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    "Fares: a short swap back at the same dock is free",
    "-m",
    "Adds the free-swap line to the fare rule and the matching branch to fareCents()."
  ])
  return dir
}

const invokedDirectly = () => {
  if (process.argv[1] === undefined) return false
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (invokedDirectly()) {
  const args = process.argv.slice(2)
  if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
    process.stderr.write("usage: node examples/make-history.mjs [DIR]\n")
    process.exit(2)
  }
  try {
    process.stdout.write(`${makeHistory(args[0])}\n`)
  } catch (error) {
    process.stderr.write(`make-history: ${error.message}\n`)
    process.exit(1)
  }
}
