// The bench's git-hosted rows: the corpus committed into a repository (two commits and a staged
// Spec and code change, scripts/bench-corpus.mjs), as users run specbundle: the pre-commit hook,
// the PR job's bundle and `check`, each with warm caches and without any, against reading every
// file of the corpus once; and the hook on the example corpus and on a 200-Spec corpus.
import { mkdtempSync, rmSync } from "node:fs"
import * as path from "node:path"

const NO_CACHE = { SPECBUNDLE_CODE_CACHE: "0" }

export const gitRows = ({ cliRow, readAll, big, small, sizeLabel, repo, gitHosted, tmp, log }) => {
  const rows = []
  const dir = gitHosted(big.dir)
  const where = `git-hosted ${sizeLabel(big)}`
  const hook = ["impact", "--root", dir, "--staged", "--strict", "--quiet"]
  const pr = ["bundle", "--root", dir, "--changeset", "HEAD~1", "--parts", "--budget", "50000"]
  const check = ["check", "--root", dir, "--quiet"]
  const scenarios = [
    ["pre-commit hook: impact --staged --strict --quiet", hook, "<= 3x (goal 1.5x)", 3, 1.5],
    ["bundle --changeset HEAD~1 --parts --budget 50000", pr, "<= 3x (goal 1.5x)", 3, 1.5],
    ["check", check, "info", null, undefined]
  ]
  for (const [name, args, target, limit, goal] of scenarios) {
    log(`${name}, ${where}`)
    rows.push(cliRow(`${name}, ${where}`, args, readAll(dir), target, limit, goal))
    log(`${name}, ${where}, no cache`)
    const cold = limit === null ? ["info", null] : ["<= 5x", 5]
    rows.push(cliRow("the same without any cache (SPECBUNDLE_CODE_CACHE=0)", args, readAll(dir), cold[0], cold[1], undefined, undefined, NO_CACHE))
  }
  // Small corpora: what most repositories hold. The example's repository is built afresh.
  const example = mkdtempSync(path.join(tmp, "specbundle-bench-example-"))
  try {
    const exampleDir = gitHosted(path.join(repo, "examples", "bike-dock"), path.join(example, "repo"))
    log("pre-commit hook, example corpus")
    rows.push(
      cliRow(
        "pre-commit hook, examples/bike-dock in git",
        ["impact", "--root", exampleDir, "--staged", "--strict", "--quiet"],
        readAll(exampleDir),
        "info",
        null
      )
    )
  } finally {
    rmSync(example, { recursive: true, force: true })
  }
  const smallDir = gitHosted(small.dir)
  log("pre-commit hook, 200 Specs")
  rows.push(
    cliRow(
      `pre-commit hook, git-hosted ${sizeLabel(small)}`,
      ["impact", "--root", smallDir, "--staged", "--strict", "--quiet"],
      readAll(smallDir),
      "info",
      null
    )
  )
  return rows
}
