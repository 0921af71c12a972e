// Whether a `--staged` answer can have changed since an earlier one, from the file system alone
// (issue 50): the staged changes are the index against HEAD, so the answer is a function of the
// index file, HEAD and the refs and objects it names, git's own settings that could change what
// those mean, and specbundle's configuration file. Their stat data (device, inode, size, mtime and
// ctime in nanoseconds; "absent" for a file that is not there) and HEAD's text make the stamp; an
// equal stamp, an equal answer. git writes each of them by renaming a new file into place, so any
// change moves the inode or the times.
//
// No stamp (undefined: ask git as ever) where it could not tell: a git environment variable that
// moves the repository, the index or the objects; no `.git` found; anything unreadable; or any
// stamped file changed within the racy window (3 s, as the parse cache's stat data: a change within
// a timestamp's granule can keep the times of the one before).
import * as fs from "node:fs"
import * as nodePath from "node:path"

/** git's variables that move the repository, the index or the objects: with any, no stamp. */
const MOVERS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_REPLACE_REF_BASE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_GRAFT_FILE",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT"
]

const RACY_NS = 3_000_000_000n

class NoStamp extends Error {}

/** The `.git` of the repository `root` is in (a folder, or a linked work tree's file naming one), and its common folder. */
const gitDirs = (root: string): { readonly gitDir: string; readonly commonDir: string } => {
  for (let dir = root; ; dir = nodePath.dirname(dir)) {
    const dotGit = nodePath.join(dir, ".git")
    const stat = fs.lstatSync(dotGit, { throwIfNoEntry: false })
    if (stat?.isDirectory()) return { gitDir: dotGit, commonDir: dotGit }
    if (stat?.isFile()) {
      const line = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, "utf8"))
      if (line === null) throw new NoStamp()
      const gitDir = nodePath.resolve(dir, line[1].trim())
      // A linked work tree names the repository's common folder; a submodule's has none.
      const common = fs.existsSync(nodePath.join(gitDir, "commondir")) ? fs.readFileSync(nodePath.join(gitDir, "commondir"), "utf8").trim() : ""
      return { gitDir, commonDir: common === "" ? gitDir : nodePath.resolve(gitDir, common) }
    }
    if (stat !== undefined) throw new NoStamp()
    if (nodePath.dirname(dir) === dir) throw new NoStamp()
  }
}

/** The files a stamp is made of, the index (absolute) apart, with the repository's folders; or undefined where it cannot tell. */
const stampedFiles = (
  root: string,
  env: NodeJS.ProcessEnv
): { readonly real: string; readonly gitDir: string; readonly head: string; readonly index: string; readonly files: string[] } | undefined => {
  if (MOVERS.some((name) => env[name] !== undefined)) return undefined
  try {
    const real = fs.realpathSync(root)
    const { gitDir, commonDir } = gitDirs(real)
    const head = fs.readFileSync(nodePath.join(gitDir, "HEAD"), "utf8")
    const ref = /^ref: (\S+)\s*$/.exec(head)?.[1]
    const files = [
      nodePath.join(gitDir, "HEAD"),
      ...(ref === undefined ? [] : [nodePath.join(ref.startsWith("refs/") ? commonDir : gitDir, ref)]),
      nodePath.join(commonDir, "packed-refs"),
      nodePath.join(commonDir, "reftable", "tables.list"),
      nodePath.join(commonDir, "refs", "replace"),
      nodePath.join(commonDir, "info", "grafts"),
      nodePath.join(commonDir, "shallow"),
      nodePath.join(commonDir, "config"),
      nodePath.join(gitDir, "config.worktree"),
      // The user's and the system's settings (diff.renameLimit, core.* could change an answer).
      ...(env.GIT_CONFIG_GLOBAL !== undefined
        ? [nodePath.resolve(env.GIT_CONFIG_GLOBAL)]
        : [
            ...(env.HOME === undefined ? [] : [nodePath.join(env.HOME, ".gitconfig")]),
            nodePath.join(env.XDG_CONFIG_HOME ?? nodePath.join(env.HOME ?? "/", ".config"), "git", "config")
          ]),
      nodePath.resolve(env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig")
    ]
    return { real, gitDir, head, index: nodePath.join(gitDir, "index"), files }
  } catch {
    return undefined
  }
}

/** The stamp of these files: their stat data, or undefined when one is unreadable or changed within the racy window. */
const stampOf = (files: ReadonlyArray<string>): string[] | undefined => {
  const now = BigInt(Date.now()) * 1_000_000n
  try {
    return files.map((file) => {
      const s = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false })
      if (s === undefined) return "-"
      if (now - s.mtimeNs < RACY_NS || now - s.ctimeNs < RACY_NS) throw new NoStamp()
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
    })
  } catch {
    return undefined
  }
}

/**
 * The stamp of the staged state of the repository holding `root`, with the configuration file
 * `config` (the one a run would read, or where it would be), or undefined where it cannot tell.
 */
export const stagedStamp = (root: string, config: string, env: NodeJS.ProcessEnv): string | undefined => {
  const found = stampedFiles(root, env)
  if (found === undefined) return undefined
  const { real, gitDir, head, index, files } = found
  const stamps = stampOf([index, ...files, nodePath.resolve(config)])
  return stamps === undefined ? undefined : JSON.stringify([real, gitDir, head, stamps])
}

/**
 * What a `--staged` answer rests on besides the index's content (HEAD, the refs, git's settings),
 * stamped as `stagedStamp` stamps it, with the index file's path: a caller that reads the index
 * itself compares its bytes instead of its stat data (src/node/stagedIndex.ts). Undefined where
 * it cannot tell, or when one of those files changed within the racy window.
 */
export const headStamp = (root: string, env: NodeJS.ProcessEnv): { readonly stamp: string; readonly index: string } | undefined => {
  const found = stampedFiles(root, env)
  if (found === undefined) return undefined
  const stamps = stampOf(found.files)
  return stamps === undefined ? undefined : { stamp: JSON.stringify([found.real, found.gitDir, found.head, stamps]), index: found.index }
}
