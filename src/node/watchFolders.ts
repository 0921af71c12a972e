// Watching a tree for `watch` (bundle-contract.md section 6: a save is a save however it is
// written). One non-recursive fs.watch per folder, never one per file: a folder's watch reports
// what happens to every name in it (written in place, created, removed, renamed over), so a file
// replaced by a rename (git checkout, a branch switch, rebase, stash, `sed -i`, an editor's
// temporary file) is still heard on its next save. Node's recursive fs.watch on Linux watches each
// file by itself and keeps watching the replaced file's old inode: every later save went unheard.
// A folder made, moved in, removed or replaced re-arms its watches; skipped folders (.git,
// node_modules, excludes) are never watched (docs/decisions.md, "watch watches folders").
import { type Dirent, type FSWatcher, lstatSync, readdirSync, statSync, watch } from "node:fs"
import * as nodePath from "node:path"

export interface FolderWatch {
  /** Closes every watch; no event is reported after it. */
  close(): void
}

export interface FolderWatchOptions {
  /** Whether the folder at this path (relative to the watched folder, with `/`) is left unwatched. */
  readonly skip: (rel: string) => boolean
  /** Something happened to this path (relative to the watched folder, with `/`). */
  readonly onEvent: (rel: string) => void
  /** Watching cannot go on (the folder removed or replaced, no watch left); every watch is closed. */
  readonly onError: (error: Error) => void
}

const isGone = (e: unknown): boolean => {
  const code = (e as NodeJS.ErrnoException).code
  return code === "ENOENT" || code === "ENOTDIR"
}

/** Watches `folder` and every folder under it that `skip` leaves in; reports events by relative path. */
export const watchFolders = (folder: string, options: FolderWatchOptions): FolderWatch => {
  const watched = new Map<string, { readonly watcher: FSWatcher; readonly ino: number }>()
  let closed = false
  const abs = (rel: string) => (rel === "" ? folder : nodePath.join(folder, rel))
  const join = (rel: string, name: string) => (rel === "" ? name : `${rel}/${name}`)

  const close = () => {
    closed = true
    for (const w of watched.values()) w.watcher.close()
    watched.clear()
  }
  const fail = (error: Error) => {
    if (closed) return
    close()
    options.onError(error)
  }
  /** Closes the watches of `rel` and every folder under it. */
  const disarm = (rel: string) => {
    for (const [key, w] of watched) {
      if (key === rel || key.startsWith(`${rel}/`)) {
        w.watcher.close()
        watched.delete(key)
      }
    }
  }
  /**
   * Watches `rel`, then lists it and watches its folders (a folder made meanwhile is in the listing
   * or reported). `report`: a folder made or moved in after the start names the files it holds, so
   * a file written before its folder was watched is heard, whatever the folder's name.
   */
  const arm = (rel: string, report = false): void => {
    if (closed || watched.has(rel)) return
    let watcher: FSWatcher
    try {
      watcher = watch(abs(rel), { persistent: true }, (type, name) => onChange(rel, type, name))
    } catch (e) {
      if (rel === "" || !isGone(e)) fail(e as Error)
      return
    }
    watcher.on("error", (e) => (rel === "" ? fail(e) : disarm(rel)))
    let ino: number
    let entries: Dirent[]
    try {
      ino = statSync(abs(rel)).ino
      entries = readdirSync(abs(rel), { withFileTypes: true })
    } catch (e) {
      watcher.close()
      if (rel === "" || !isGone(e)) fail(e as Error)
      return
    }
    watched.set(rel, { watcher, ino })
    for (const entry of entries) {
      const child = join(rel, entry.name)
      if (entry.isDirectory()) {
        if (!options.skip(child)) arm(child, report)
      } else if (report) options.onEvent(child)
    }
  }
  /** After a rename event: `rel`'s watches follow what is there now (a folder, another folder, nothing). */
  const recheck = (rel: string) => {
    if (rel === "") {
      let ino: number | null = null
      try {
        ino = statSync(folder).ino
      } catch {}
      if (ino !== watched.get("")?.ino) fail(new Error(`${folder} was removed or replaced`))
      return
    }
    let info: ReturnType<typeof lstatSync> | null = null
    try {
      info = lstatSync(abs(rel))
    } catch {}
    const current = watched.get(rel)
    if (info?.isDirectory() === true && !options.skip(rel)) {
      if (current?.ino === info.ino) return
      if (current !== undefined) disarm(rel)
      arm(rel, true)
    } else if (current !== undefined) disarm(rel)
  }
  /** Whether the folder at `rel` is still the one watched there. */
  const isSame = (rel: string): boolean => {
    try {
      return statSync(abs(rel)).ino === watched.get(rel)?.ino
    } catch {
      return false
    }
  }
  const onChange = (rel: string, type: string, name: string | null) => {
    if (closed || name === null) return
    // A watched folder's own removal or move comes under its own name (its parent reports it).
    if (name === nodePath.basename(abs(rel)) && !isSame(rel)) return recheck(rel)
    const path = join(rel, name)
    options.onEvent(path)
    if (type === "rename") recheck(path)
  }

  arm("")
  return { close }
}
