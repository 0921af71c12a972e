// The bench's corpora: generated ones cached under the OS temp folder, and git-hosted copies of
// them (two commits and a staged change), as users run specbundle inside a repository.
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { generateCorpus } from "./gen-corpus.mjs"

const SCRIPTS = path.dirname(fileURLToPath(import.meta.url))
const log = (line) => process.stderr.write(`bench: ${line}\n`)

/** The generator's own source is part of the cache key: a changed generator builds new corpora. */
const generatorKey = () =>
  ["gen-corpus.mjs", "bench-gen-chain.mjs", "bench-gen-specs.mjs", "bench-gen-ts.mjs", "bench-gen-words.mjs", "bench-corpus.mjs"]
    .map((f) => readFileSync(path.join(SCRIPTS, f), "utf8"))
    .join("\0")

const hashText = (text) => createHash("sha256").update(text).digest("hex").slice(0, 12)

/** A corpus cached under os.tmpdir()/specbundle-bench-<hash>, built once per parameters and generator. */
export const corpus = async (params) => {
  const key = hashText(JSON.stringify(params) + generatorKey())
  const dir = path.join(os.tmpdir(), `specbundle-bench-${params.shape}-${params.specs}-${key}`)
  const summaryFile = `${dir}.json`
  if (existsSync(dir) && existsSync(summaryFile)) return { dir, ...JSON.parse(readFileSync(summaryFile, "utf8")) }
  // Corpora of an older generator or other parameters of the same size are dropped, not hoarded.
  const prefix = `specbundle-bench-${params.shape}-${params.specs}-`
  for (const name of readdirSync(os.tmpdir())) {
    if (name.startsWith(prefix)) rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })
  }
  log(`generating ${params.specs} specs (${params.shape}) into ${dir}`)
  const tmp = `${dir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  const summary = generateCorpus(tmp, params)
  rmSync(dir, { recursive: true, force: true })
  renameSync(tmp, dir)
  writeFileSync(summaryFile, JSON.stringify(summary))
  return { dir, ...summary }
}

/** git with no user or system configuration, a fixed identity and dates: the same commits every time. */
const git = (cwd, args) =>
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_DIR: undefined,
      GIT_INDEX_FILE: undefined,
      GIT_WORK_TREE: undefined,
      GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
      GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z"
    }
  })

const filesOf = (dir, rel = "") =>
  readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.name === ".git" ? [] : e.isDirectory() ? filesOf(dir, `${rel}${e.name}/`) : [`${rel}${e.name}`]))

/** Changes a file without making it wrong: a Spec's title gains a word, a code file an export. */
const touch = (dir, file, n) => {
  const text = readFileSync(path.join(dir, file), "utf8")
  writeFileSync(path.join(dir, file), file.endsWith(".md") ? text.replace(/^# (.*)$/m, `# $1 (edit ${n})`) : `${text}\nexport const benchEdit${n} = ${n}\n`)
}

/** Whether a code file holds an anchor (either form): a change to it reaches Specs. */
const isAnchored = (text) => text.includes("@sdpAnchor") || text.includes("codeAnchor({") || text.includes("specTest({")

/**
 * Which files the two changes touch: `specs` (Spec carriers) and `code` (.ts files) in path
 * order, `read` a file's text. The default, the scale corpus's: the Spec and code file 30% and
 * 60% of the way down the lists.
 */
const pickAt = ({ specs, code }) => {
  const pick = (list, at) => list[Math.floor(list.length * at)]
  return { committed: [pick(specs, 0.3), pick(code, 0.3)], staged: [pick(specs, 0.6), pick(code, 0.6)] }
}

/**
 * For the chain corpus: a Spec in the middle of the chain 30% (committed) and 60% (staged) of the
 * way through the Packs, so that a long chain hangs on each side of it, and the first anchored
 * code file from the same places in the code list (a change that reaches Specs).
 */
export const pickMidChain = ({ specs, code, read }) => {
  const folders = [...new Set(specs.map((f) => f.slice(0, f.lastIndexOf("/"))))]
  const midOf = (at) => {
    const folder = folders[Math.floor(folders.length * at)]
    const chain = specs.filter((f) => f.startsWith(`${folder}/`))
    return chain[Math.floor(chain.length / 2)]
  }
  const anchoredFrom = (at) => {
    const from = Math.floor(code.length * at)
    const found = code.slice(from).find((f) => isAnchored(read(f)))
    if (found === undefined) throw new Error(`no anchored code file after ${code[from]}`)
    return found
  }
  return { committed: [midOf(0.3), anchoredFrom(0.3)], staged: [midOf(0.6), anchoredFrom(0.6)] }
}

/**
 * Issue 50's shape on the chain corpus: the staged Spec sits early in a chain (the fourth Spec of
 * the tenth Pack, `area9/s3`-like: 246 Specs dependOn it through the chain, and the chain's first
 * Spec is refined by a whole Pack) and the staged code file is an anchored one; the commit before
 * changes the Spec and an anchored file 30% of the way through, as pickMidChain.
 */
export const pickEarlyChain = (files) => {
  const mid = pickMidChain(files)
  const folders = [...new Set(files.specs.map((f) => f.slice(0, f.lastIndexOf("/"))))]
  const chain = files.specs.filter((f) => f.startsWith(`${folders[Math.min(9, folders.length - 1)]}/`))
  return { committed: mid.committed, staged: [chain[Math.min(3, chain.length - 1)], mid.staged[1]] }
}

/** Issue 50's repository extras: a `.gitignore` (committed) and a file git does not track. */
export const ISSUE50_EXTRAS = {
  committed: { ".gitignore": "node_modules/\n*.log\ndist/\n" },
  untracked: { "notes/untracked-draft.md": "# A draft nobody added\n" }
}

/**
 * A copy of `source` in a git repository next to it (cached like the corpus): the corpus as the
 * first commit, a second commit changing a Spec and a code file, then another Spec and code file
 * changed and staged (what a pre-commit hook sees); `pick` chooses them (pickAt, pickMidChain,
 * pickEarlyChain). `extras` (ISSUE50_EXTRAS) adds files to the first commit and files left
 * untracked. Returns the folder.
 */
export const gitHosted = (source, dir = `${source}-git`, pick = pickAt, extras = undefined) => {
  const done = path.join(dir, ".git", "specbundle-bench-ready")
  if (existsSync(done)) return dir
  log(`committing ${source} into a git repository`)
  const tmp = `${dir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  cpSync(source, tmp, { recursive: true })
  for (const [file, text] of Object.entries(extras?.committed ?? {})) writeFileSync(path.join(tmp, file), text)
  git(tmp, ["init", "-q", "-b", "main"])
  git(tmp, ["add", "-A"])
  git(tmp, ["commit", "-q", "-m", "corpus"])
  const all = filesOf(tmp)
  const specs = all.filter((f) => f.endsWith(".sdp.md") && !f.endsWith(".pack.sdp.md"))
  const code = all.filter((f) => f.endsWith(".ts"))
  const { committed, staged } = pick({ specs, code, read: (f) => readFileSync(path.join(tmp, f), "utf8") })
  for (const f of committed) touch(tmp, f, 1)
  git(tmp, ["commit", "-q", "-a", "-m", "change a Spec and its code"])
  for (const f of staged) touch(tmp, f, 2)
  git(tmp, ["add", "--", ...staged])
  for (const [file, text] of Object.entries(extras?.untracked ?? {})) {
    mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true })
    writeFileSync(path.join(tmp, file), text)
  }
  writeFileSync(path.join(tmp, ".git", "specbundle-bench-ready"), `${JSON.stringify({ committed, staged })}\n`)
  rmSync(dir, { recursive: true, force: true })
  renameSync(tmp, dir)
  return dir
}

/** The files a git-hosted corpus's commit and staged change touched ({ committed, staged }, or null for an older copy). */
export const changedOf = (dir) => {
  try {
    return JSON.parse(readFileSync(path.join(dir, ".git", "specbundle-bench-ready"), "utf8"))
  } catch {
    return null
  }
}
