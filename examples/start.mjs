#!/usr/bin/env node
// What `npm start` runs: builds the bike-dock example history in a temp folder, then shows what
// the last commit impacts and the bundle composed for it.
//
//   node <repo>/bin/specbundle.js impact --changeset HEAD~1 --root <dir> --format text
//   node <repo>/bin/specbundle.js bundle --changeset HEAD~1 --root <dir> --format pretty
//
// Both run with inherited stdio. The script exits with the first non-zero exit code, or with the
// bundle command's code. The temp folder is kept so you can rerun the commands by hand.
// SPECBUNDLE_BIN overrides the CLI path (the example's own test points it at a stand-in).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { makeHistory } from "./make-history.mjs"

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const bin = process.env.SPECBUNDLE_BIN ?? path.join(repo, "bin", "specbundle.js")

if (!fs.existsSync(bin)) {
  process.stderr.write(`start: ${bin} is missing; run "npm run build" first\n`)
  process.exit(1)
}

let dir
try {
  dir = makeHistory()
} catch (error) {
  process.stderr.write(`start: could not build the example history: ${error.message}\n`)
  process.exit(1)
}
process.stderr.write(`start: example repository with two commits in ${dir}\n`)

const run = (args) => {
  process.stderr.write(`\n$ specbundle ${args.join(" ")}\n`)
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, stdio: "inherit" })
  if (result.error !== undefined) {
    process.stderr.write(`start: could not run ${bin}: ${result.error.message}\n`)
    return 1
  }
  // A CLI killed by a signal has no exit code; report it as a failure.
  return result.status ?? 1
}

const impact = run(["impact", "--changeset", "HEAD~1", "--root", dir, "--format", "text"])
if (impact !== 0) process.exit(impact)
process.exit(run(["bundle", "--changeset", "HEAD~1", "--root", dir, "--format", "pretty"]))
