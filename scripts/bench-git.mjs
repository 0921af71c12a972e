// The bench's git-hosted rows: the corpus committed into a repository (two commits and a staged
// Spec and code change, scripts/bench-corpus.mjs), as users run specbundle: the pre-commit hook,
// the PR job's bundle and `check`, each with warm caches and without any, against reading every
// file of the corpus once, in the scale corpus and in the chain corpus (issue 38); and the hook on
// the example corpus and on a 200-Spec corpus.
import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"

const NO_CACHE = { SPECBUNDLE_CODE_CACHE: "0" }
/** The small corpora's hooks cost mostly start-up: measured against Node's own (issue 25). */
const NODE_START = { cmd: ["-e", "0"], label: "node -e 0" }

/**
 * A copy of a git-hosted corpus written out again under core.autocrlf=true (Git for Windows'
 * default): CRLF on disk, LF in the index, the staged change kept. Cached next to it.
 */
const crlfCopy = (dir) => {
  const copy = `${dir}-crlf`
  const ready = path.join(copy, ".git", "specbundle-bench-crlf-ready")
  if (existsSync(ready)) return copy
  rmSync(copy, { recursive: true, force: true })
  cpSync(dir, copy, { recursive: true })
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }
  for (const args of [
    ["config", "core.autocrlf", "true"],
    ["checkout-index", "-a", "-f"],
    ["update-index", "-q", "--refresh"]
  ])
    execFileSync("git", args, { cwd: copy, env, stdio: "ignore" })
  writeFileSync(ready, "")
  return copy
}

/**
 * The hook and the PR bundle (and `check` where asked) in one git-hosted corpus, each warm and
 * without any cache, against reading every file of the corpus once.
 */
const corpusRows = ({ cliRow, readAll, dir, where, log, check, coldTarget, runs }) => {
  const rows = []
  const hook = ["impact", "--root", dir, "--staged", "--strict", "--quiet"]
  const pr = ["bundle", "--root", dir, "--changeset", "HEAD~1", "--parts", "--budget", "50000"]
  const scenarios = [
    // Issue 50's targets, on every corpus (issue 38's were 1.5x and 2x).
    ["pre-commit hook: impact --staged --strict --quiet", hook, "<= 1.0x (goal 0.75x)", 1, 0.75],
    ["bundle --changeset HEAD~1 --parts --budget 50000", pr, "<= 1.5x (goal 1x)", 1.5, 1],
    ...(check ? [["check", ["check", "--root", dir, "--quiet"], "info", null, undefined]] : [])
  ]
  for (const [name, args, target, limit, goal] of scenarios) {
    log(`${name}, ${where}`)
    rows.push(cliRow(`${name}, ${where}`, args, readAll(dir), target, limit, goal))
    log(`${name}, ${where}, no cache`)
    const cold = limit === null ? ["info", null] : coldTarget
    // Twice the runs where a target is set: on two cores the host's load moves a single run of
    // these by 10-20% (docs/bench.md), and five of them left the median as unsteady.
    rows.push(
      cliRow(
        "the same without any cache (SPECBUNDLE_CODE_CACHE=0)",
        args,
        readAll(dir),
        cold[0],
        cold[1],
        undefined,
        limit === null ? undefined : runs * 2,
        NO_CACHE
      )
    )
  }
  return rows
}

export const gitRows = async ({ cliRow, readAll, big, chain, small, sizeLabel, repo, gitHosted, pickMidChain, issue50, tmp, log, runs, mcpRows }) => {
  const rows = corpusRows({ cliRow, readAll, dir: gitHosted(big.dir), where: `git-hosted ${sizeLabel(big)}`, log, check: true, coldTarget: ["<= 5x", 5], runs })
  // Issue 38's second corpus: long dependsOn chains, refines across Packs; the staged Spec sits
  // mid-chain and the staged code file is an anchored one. Rows without a cache: 5x on both
  // corpora (issue 38: two cores, issue 25's measurements).
  const chainDir = gitHosted(chain.dir, undefined, pickMidChain)
  const chainWhere = `git-hosted ${chain.packs} chains of ${chain.specs / chain.packs}, ${sizeLabel(chain)}`
  rows.push(...corpusRows({ cliRow, readAll, dir: chainDir, where: chainWhere, log, check: false, coldTarget: ["<= 5x", 5], runs }))
  // Issue 51: the drift pass (the graph read, one git log, the substance checks) against the git
  // log it reads at least, in the same repository.
  const bigDir = gitHosted(big.dir)
  log(`drift, git-hosted ${sizeLabel(big)}`)
  rows.push(
    cliRow(
      `drift --quiet, git-hosted ${sizeLabel(big)}`,
      ["drift", "--root", bigDir, "--quiet"],
      { cmd: [path.join(import.meta.dirname, "bench-git-log.mjs"), bigDir], label: "git log --name-only HEAD (node)" },
      "info",
      null
    )
  )

  // Issue 50's repository: the chain corpus with a .gitignore and an untracked file, the staged
  // Spec early in a chain (scripts/bench-corpus.mjs, pickEarlyChain); the hook, the PR bundle and
  // the MCP server's calls.
  const issueWhere = `issue 50's repository (${sizeLabel(chain)}, staged ${issue50.changed.staged.join(" + ")})`
  rows.push(...corpusRows({ cliRow, readAll, dir: issue50.dir, where: issueWhere, log, check: false, coldTarget: ["<= 5x", 5], runs }))
  log(`MCP server, ${issueWhere}`)
  rows.push(...(await mcpRows({ hosted: issue50.dir, where: "issue 50's repository", sessions: Math.max(2, Math.ceil(runs / 2)), calls: 5 })))
  // Small corpora: what most repositories hold. The example's repository is built afresh.
  const example = mkdtempSync(path.join(tmp, "specbundle-bench-example-"))
  try {
    const exampleDir = gitHosted(path.join(repo, "examples", "bike-dock"), path.join(example, "repo"))
    log("pre-commit hook, example corpus")
    // Issue 38's target; twice the runs, as the --help row: a run this short is mostly the host's noise.
    rows.push(
      cliRow(
        "pre-commit hook, examples/bike-dock in git",
        ["impact", "--root", exampleDir, "--staged", "--strict", "--quiet"],
        NODE_START,
        "<= 2.5x (goal 1.5x)",
        2.5,
        undefined,
        runs * 2
      )
    )
  } finally {
    rmSync(example, { recursive: true, force: true })
  }
  const smallDir = gitHosted(small.dir)
  log("pre-commit hook, 200 Specs")
  rows.push(
    cliRow(`pre-commit hook, git-hosted ${sizeLabel(small)}`, ["impact", "--root", smallDir, "--staged", "--strict", "--quiet"], NODE_START, "info", null)
  )
  // core.autocrlf: no work tree file is the index's object, so every file comes from git's blobs
  // on a first run; a warm run trusts what those blobs gave by their object ids (issue 28).
  const crlfDir = crlfCopy(smallDir)
  log("pre-commit hook, 200 Specs, core.autocrlf=true")
  rows.push(
    cliRow(
      `pre-commit hook, git-hosted ${sizeLabel(small)}, core.autocrlf=true`,
      ["impact", "--root", crlfDir, "--staged", "--strict", "--quiet"],
      NODE_START,
      "info",
      null
    )
  )
  return rows
}
