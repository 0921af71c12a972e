// The folder watcher `watch` runs on (src/node/watchFolders.ts), over a real folder: a file
// replaced by a rename is still heard, a replaced folder is armed again, skipped folders stay
// quiet. No sleeps: each step waits for the event it expects; what must stay quiet is shown by a
// later save that is heard (events come in order).
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { FolderWatch } from "../../src/node/watchFolders.js"
import { watchFolders } from "../../src/node/watchFolders.js"
import { tempDir } from "../support/tmp.js"

const open: FolderWatch[] = []
afterEach(() => {
  for (const w of open.splice(0)) w.close()
})

/** Watches `root` with discovery's skip rule; `next(path)` resolves with every event up to the first for `path`. */
const watching = (root: string) => {
  const events: string[] = []
  const waiters: Array<() => void> = []
  const errors: Error[] = []
  const w = watchFolders(root, {
    skip: (rel) => path.posix.basename(rel).startsWith(".") || path.posix.basename(rel) === "node_modules",
    onEvent: (rel) => {
      events.push(rel)
      for (const wake of waiters.splice(0)) wake()
    },
    onError: (e) => errors.push(e)
  })
  open.push(w)
  let seen = 0
  const next = (want: string): Promise<string[]> =>
    new Promise((resolve) => {
      const check = () => {
        const at = events.indexOf(want, seen)
        if (at < 0) return void waiters.push(check)
        const got = events.slice(seen, at + 1)
        seen = at + 1
        resolve(got)
      }
      check()
    })
  return { next, errors }
}

describe("watchFolders", () => {
  it("hears every save of a file that a rename replaced, and of a file in a folder that was replaced", async () => {
    const root = tempDir("specbundle-watch-folders-")
    fs.mkdirSync(path.join(root, "specs", "sub"), { recursive: true })
    const file = path.join(root, "specs", "a.sdp.md")
    fs.writeFileSync(file, "one\n")
    const w = watching(root)

    fs.appendFileSync(file, "two\n")
    await w.next("specs/a.sdp.md")
    fs.writeFileSync(`${file}.tmp`, "three\n")
    fs.renameSync(`${file}.tmp`, file)
    await w.next("specs/a.sdp.md")
    fs.appendFileSync(file, "four\n")
    await w.next("specs/a.sdp.md")

    // The folder removed and made again (a branch switch): reported, then watched anew.
    fs.rmSync(path.join(root, "specs", "sub"), { recursive: true })
    await w.next("specs/sub")
    fs.mkdirSync(path.join(root, "specs", "sub"))
    await w.next("specs/sub")
    fs.writeFileSync(path.join(root, "specs", "sub", "b.sdp.md"), "b\n")
    await w.next("specs/sub/b.sdp.md")
    fs.appendFileSync(path.join(root, "specs", "sub", "b.sdp.md"), "b\n")
    await w.next("specs/sub/b.sdp.md")
    // A folder moved in, with a folder inside it.
    const outside = tempDir("specbundle-watch-folders-out-")
    fs.mkdirSync(path.join(outside, "moved", "deeper"), { recursive: true })
    fs.renameSync(path.join(outside, "moved"), path.join(root, "moved"))
    await w.next("moved")
    fs.writeFileSync(path.join(root, "moved", "deeper", "c.sdp.md"), "c\n")
    await w.next("moved/deeper/c.sdp.md")
    // A folder moved in names the files it holds, whatever its own name.
    fs.mkdirSync(path.join(outside, "v1.2"))
    fs.writeFileSync(path.join(outside, "v1.2", "d.sdp.md"), "d\n")
    fs.renameSync(path.join(outside, "v1.2"), path.join(root, "specs", "v1.2"))
    expect((await w.next("specs/v1.2/d.sdp.md")).slice(-2)).toEqual(["specs/v1.2", "specs/v1.2/d.sdp.md"])
    expect(w.errors).toEqual([])
  })

  it("never watches skipped folders: their saves stay quiet", async () => {
    const root = tempDir("specbundle-watch-folders-")
    fs.mkdirSync(path.join(root, "node_modules", "pkg"), { recursive: true })
    fs.mkdirSync(path.join(root, ".git", "refs"), { recursive: true })
    const w = watching(root)
    fs.writeFileSync(path.join(root, "node_modules", "pkg", "index.ts"), "x\n")
    fs.writeFileSync(path.join(root, ".git", "refs", "main"), "x\n")
    fs.writeFileSync(path.join(root, "sentinel.sdp.md"), "s\n")
    expect(await w.next("sentinel.sdp.md")).toEqual(["sentinel.sdp.md"])
  })

  it("the root removed is an error, once, and every watch closes", async () => {
    const parent = tempDir("specbundle-watch-folders-")
    const root = path.join(parent, "root")
    fs.mkdirSync(path.join(root, "specs"), { recursive: true })
    const errors: Error[] = []
    const failed = new Promise<void>((resolve) => {
      open.push(
        watchFolders(root, {
          skip: () => false,
          onEvent: () => {},
          onError: (e) => {
            errors.push(e)
            resolve()
          }
        })
      )
    })
    fs.rmSync(root, { recursive: true })
    await failed
    expect(errors.map((e) => e.message)).toEqual([`${root} was removed or replaced`])
  })
})
