// The work tree's listing for a read (GraphReader): the root walked with discovery's skip rules,
// the folders of one level listed at once, the files sorted by code units.
import * as Effect from "effect/Effect"
import { type Dirent, promises } from "node:fs"
import * as nodePath from "node:path"
import { classifyPath, fileFinding, isExcluded, isSkippedDirectory } from "../core/read/discover.js"
import type { CarrierRead } from "../core/model.js"
import { byCodeUnits } from "../core/model.js"

export interface Listing {
  readonly files: string[]
  readonly problems: CarrierRead[]
  /** Every `.gitattributes` met (root-relative), excluded ones too: they still rule git's view. */
  readonly attributes: string[]
  /** The excludes that left some path out. */
  readonly excluded: ReadonlySet<string>
}

/**
 * Walks the root with discovery's skip rules; symlinks are never followed (nothing outside the
 * root is read). `found` hears the running count of files to read.
 */
export const walk = (root: string, exclude: ReadonlyArray<string>, found: (count: number) => void): Effect.Effect<Listing> =>
  Effect.promise(async () => {
    const files: string[] = []
    const problems: CarrierRead[] = []
    const attributes: string[] = []
    const excluded = new Set<string>()
    const visit = async (rel: string): Promise<void> => {
      let entries: Dirent[]
      try {
        // fs.promises loads on first use: a run that never walks (the staged hook) never loads it.
        entries = await promises.readdir(rel === "" ? root : nodePath.join(root, rel), { withFileTypes: true })
      } catch (e) {
        problems.push(fileFinding(rel, "read/unreadable-folder", `folder could not be listed (${(e as NodeJS.ErrnoException).code ?? "error"})`))
        return
      }
      // A nested repository (a submodule, a vendored checkout) is not this corpus: git sees only its
      // commit id, and reading it would double ids and read files no changeset can name.
      if (rel !== "" && entries.some((e) => e.name === ".git")) return
      const dirs: string[] = []
      for (const entry of entries) {
        const path = rel === "" ? entry.name : `${rel}/${entry.name}`
        if (entry.name === ".gitattributes") attributes.push(path)
        if (isExcluded(path, exclude, excluded)) continue
        if (entry.isDirectory()) {
          if (!isSkippedDirectory(entry.name)) dirs.push(path)
        } else if (entry.isSymbolicLink()) {
          if (classifyPath(path) !== null) {
            problems.push(fileFinding(path, "read/symlink", "symbolic link not followed: only files inside the root are read", "warning"))
          }
        } else if (entry.isFile() && classifyPath(path) !== null) {
          found(files.push(path))
        } else if (entry.isFile() && path.endsWith(".sdp.ts")) {
          // Nothing is dropped without a finding: say why this carrier is not read.
          problems.push(
            fileFinding(path, "read/unsupported-carrier", "TypeScript Spec carriers (.sdp.ts) are not read by specbundle; write the Spec as .sdp.md", "warning")
          )
        }
      }
      await Promise.all(dirs.map(visit))
    }
    await visit("")
    files.sort(byCodeUnits)
    return { files, problems, attributes, excluded }
  })
