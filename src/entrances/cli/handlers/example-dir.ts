// What `specbundle example DIR` does, in plain Node: the folder rule, the repository made by the
// package's own examples/make-history.mjs (what `npm start` and the help tests use, so the example
// a user gets is the one every --help example is tested on), and the lines after it.
import * as fs from "node:fs"
import * as nodePath from "node:path"

/** Why DIR cannot take the example (make-history.mjs's own rule: missing or an empty folder), or null. */
export const exampleDirProblem = (dir: string): string | null => {
  let stat: fs.Stats
  try {
    stat = fs.statSync(dir)
  } catch {
    return null
  }
  if (!stat.isDirectory()) return `${dir} is a file; give a new or empty folder.`
  if (fs.readdirSync(dir).length > 0) return `${dir} is not empty; give a new or empty folder.`
  return null
}

/** The script beside the bundle's folder: `<package>/examples/make-history.mjs` (bin/ is `here`). */
export const historyScript = (here: string): string => nodePath.join(here, "..", "examples", "make-history.mjs")

interface MakeHistory {
  readonly makeHistory: (target: string) => string
}

/**
 * Copies the example corpus into `dir` and makes its two commits; returns the folder. Throws an
 * Error whose message is one line (a missing script, git's own refusal).
 */
export const writeExample = (dir: string, script: string): string => {
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: this install of specbundle does not hold its example`)
  // An ES module without top-level await: require() loads it (Node >= 22.19, the engines floor).
  const made = (require(script) as MakeHistory).makeHistory(dir)
  return made
}

/** The lines on stderr after the folder is written: what it holds and a command to try there. */
export const exampleNextSteps = (dir: string): string[] => [
  `specbundle: wrote the bike-dock example to ${dir}: a git repository with two commits (the second changes a fare rule and its code)`,
  `specbundle: try it there: cd ${dir} && specbundle impact --changeset HEAD~1 --format text (every --help example runs there)`
]
