// `bundle -o FILE` and `bundle --out DIR` replace their files atomically: the built CLI is held just
// before it puts each new file in place (test/support/pause.ts pauses a rename onto the path), and
// there each file still holds what it held before, whole, while the whole new bytes wait beside it
// under another name. A run that wrote a file in place would never rename onto it (no pause), or
// would show its new or partial bytes there.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cli, gitCleanEnv } from "../support/cli.js"
import { runPaused } from "../support/pause.js"
import { bikeDockCopy, tempDir } from "../support/tmp.js"

const PACK = "pack:rides-v1"

/** A pattern for exactly the paths under `dir` (none of its characters special). */
const under = (dir: string) => new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/[^/]+$`)

/** What a folder holds, name -> text. */
const contents = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((n) => [n, fs.readFileSync(path.join(dir, n), "utf8")])
  )

interface Held {
  /** The path the run was about to rename a file onto. */
  readonly onto: string
  /** What that path held then (null: nothing yet). */
  readonly before: string | null
  /** The other files of its folder then, by name (the new bytes among them, under a temporary name). */
  readonly beside: Record<string, string>
}

/** Runs `bundle ...args` in `root`, held before each rename onto a file of `dir`: what each hold saw. */
const heldRun = async (root: string, args: ReadonlyArray<string>, dir: string) => {
  const held: Held[] = []
  const run = runPaused(["bundle", "--pack", PACK, ...args], {
    cwd: root,
    env: gitCleanEnv(),
    at: under(dir),
    onPause: (onto) => {
      const { [path.basename(onto)]: before, ...beside } = contents(dir)
      held.push({ onto, before: before ?? null, beside })
    }
  })
  const ended = await run.ended
  expect(ended.code, ended.stderr).toBe(0)
  return held
}

describe("atomic replacement, seen from a run held before it puts a file in place", () => {
  it("-o FILE: the previous bundle stays whole until the whole new one, written beside it, is renamed onto it", async () => {
    const root = bikeDockCopy("specbundle-atomic-")
    const dir = tempDir("specbundle-atomic-o-")
    const file = path.join(dir, "bundle.json")
    const previous = "an older bundle, longer than the new one\n".repeat(2000)
    fs.writeFileSync(file, previous)
    for (const flags of [[], ["--parts", "--budget", "4000"]]) {
      const printed = cli(root, ["bundle", "--pack", PACK, ...flags])
      expect(printed.status, printed.stderr).toBe(0)
      const before = fs.readFileSync(file, "utf8")
      const held = await heldRun(root, [...flags, "-o", file], dir)
      expect(held).toHaveLength(1)
      expect(held[0]!.onto).toBe(file)
      expect(held[0]!.before).toBe(before)
      expect(Object.values(held[0]!.beside)).toEqual([printed.stdout])
      expect(contents(dir)).toEqual({ "bundle.json": printed.stdout })
    }
    // The first run really replaced a file longer than its value.
    expect(previous.length).toBeGreaterThan(cli(root, ["bundle", "--pack", PACK]).stdout.length)
  })

  it("--out DIR: each part file and the manifest, held before its rename, still holds the previous run's bytes", async () => {
    const root = bikeDockCopy("specbundle-atomic-")
    const out = path.join(tempDir("specbundle-atomic-out-"), "out")
    const args = ["--parts", "--budget", "4000", "--out", out]
    const first = cli(root, ["bundle", "--pack", PACK, ...args])
    expect(first.status, first.stderr).toBe(0)
    const previous = contents(out)
    expect(Object.keys(previous).length).toBeGreaterThan(2)
    // Every part changes: the edited Spec is a member, and the manifest's tickets and builtFrom follow.
    fs.appendFileSync(path.join(root, "specs", "rides", "ride-fare-rule.sdp.md"), "\nOne more line.\n")
    const held = await heldRun(root, args, out)
    const now = contents(out)
    expect(held.map((h) => path.basename(h.onto)).sort()).toEqual(Object.keys(now))
    const placed = new Set<string>()
    for (const h of held) {
      const name = path.basename(h.onto)
      expect(h.before, name).toBe(previous[name] ?? null)
      // The new bytes are whole beside it, under a name neither the previous run nor this one placed.
      const temporary = Object.entries(h.beside).filter(([n]) => !(n in previous) && !placed.has(n))
      expect(
        temporary.map(([, text]) => text),
        name
      ).toEqual([now[name]])
      placed.add(name)
    }
    expect(now).not.toEqual(previous)
  })
})
