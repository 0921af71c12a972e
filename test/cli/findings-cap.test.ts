// The capped findings on stderr of `bundle` and `impact` (run in process): a YAML alias bomb, a
// 400 KB carrier and a binary one are each named, behind a dozen warnings that sort before them,
// and the bomb gives one line with its count, not one per alias.
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { run } from "../support/run.js"
import { makeRepo } from "../support/git.js"
import { BIKE_DOCK } from "../support/paths.js"
import { copyInto, tempDir, writeFiles } from "../support/tmp.js"

const carrier = (id: string, extra: string): string => `---\nid: ${id}\nkind: glossary\naltitude: story\nreadiness: idea\nrelations: {}\n${extra}---\n# ${id}\n`

/** Nine levels of nine aliases each (80 aliases and anchors past the reader's first). */
const bomb = (): string => {
  const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"]
  const names = "abcdefgh"
  for (let i = 1; i < names.length; i++)
    levels.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(", ")}]\n`
    )
  levels.push(`i: [${Array(9).fill("*h").join(", ")}]\n`)
  return carrier("spec:bad.bomb", levels.join(""))
}

/** The three refused carriers, and a dozen warnings (.sdp.ts carriers) that sort before them. */
const BAD: Record<string, string | Uint8Array> = {
  "specs/zz/bomb.sdp.md": bomb(),
  "specs/zz/huge.sdp.md": carrier("spec:bad.huge", "") + "word ".repeat((400 * 1024) / 5),
  "specs/zz/binary.sdp.md": Uint8Array.from([...Buffer.from("---\nid: spec:bad.bin\n"), 0, 1, 2, 0xff, 10]),
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`specs/aa/w${String(i).padStart(2, "0")}.sdp.ts`, "export const x = 1\n"]))
}
const REFUSED = ["specs/zz/binary.sdp.md:", "specs/zz/bomb.sdp.md:", "specs/zz/huge.sdp.md:"]

const lines = (stderr: string) => stderr.split("\n").filter((l) => l !== "")

/** The refused carriers each named once, the bomb's aliases as one counted line, and a tally. */
const expectCapped = (stderr: string) => {
  const all = lines(stderr)
  for (const file of REFUSED)
    expect(
      all.filter((l) => l.startsWith(file)),
      file
    ).toHaveLength(1)
  const bombLine = all.find((l) => l.startsWith("specs/zz/bomb.sdp.md:"))!
  expect(bombLine).toMatch(/: extract\/yaml-alias: .*\(and \d+ more like it in this file\)$/)
  expect(all.find((l) => l.startsWith("specs/zz/huge.sdp.md:"))).toContain("read/too-large")
  expect(all.find((l) => l.startsWith("specs/zz/binary.sdp.md:"))).toContain("read/binary")
  // The cap still holds for the rest: 10 lines (3 refused, 7 warnings), then the tally.
  expect(all.filter((l) => l.startsWith("specs/aa/"))).toHaveLength(7)
  // The refused three come first.
  expect(all.slice(0, 3).map((l) => l.slice(0, l.indexOf(":") + 1))).toEqual(REFUSED)
  expect(all.at(-1)).toBe("... and 5 more findings in 5 more files: specbundle check lists them all (or add --verbose)")
}

describe("capped findings name every refused carrier", () => {
  it("bundle: the bomb, the 400 KB file and the binary one each named once, the bomb's aliases as one line", async () => {
    const root = tempDir("specbundle-cap-")
    copyInto(BIKE_DOCK, root)
    writeFiles(root, BAD)
    const r = await run(root, ["bundle", "--pack", "pack:rides-v1"])
    expect(r.status, r.stderr).toBe(0)
    expectCapped(r.stderr)
    // check still lists every finding: one line per alias there.
    const check = await run(root, ["check"])
    expect(lines(check.stderr).filter((l) => l.startsWith("specs/zz/bomb.sdp.md:")).length).toBeGreaterThan(10)
  })

  it("impact: the same three named under the cap, --quiet too", async () => {
    const repo = makeRepo()
    copyInto(BIKE_DOCK, repo.dir)
    repo.commit("corpus")
    writeFiles(repo.dir, BAD)
    repo.commit("bad carriers")
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD~1"])
    expect(r.status, r.stderr).toBe(0)
    expectCapped(r.stderr)
    const quiet = await run(path.join(repo.dir), ["impact", "--changeset", "HEAD~1", "--quiet"])
    expect(lines(quiet.stderr).map((l) => l.slice(0, l.indexOf(":") + 1))).toEqual(REFUSED)
  })
})

describe("the cap holds however many carriers are refused", () => {
  /** `n` refused carriers, each with two findings (a number where text goes, a heading no section owns). */
  const refusedFixtures = (n: number, prefix: string): Record<string, string> =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `specs/broken/${prefix}${String(i).padStart(3, "0")}.sdp.md`,
        `---\nid: spec:${prefix}.n${i}\nkind: rule\naltitude: story\nreadiness: idea\nrelations: {}\nbogus: 1\n---\n# x\n\n## Nope\n\nText\n`
      ])
    )

  it("bundle over 210 refused carriers: 10 finding lines and one tally line naming the 200 left out", async () => {
    const root = tempDir("specbundle-cap-many-")
    copyInto(BIKE_DOCK, root)
    writeFiles(root, refusedFixtures(210, "r"))
    const check = await run(root, ["check", "--format", "json"])
    const all = JSON.parse(check.stdout) as Array<{ file: string }>
    const r = await run(root, ["bundle", "--pack", "pack:rides-v1"])
    expect(r.status, r.stderr).toBe(0)
    const err = lines(r.stderr)
    expect(err).toHaveLength(11)
    expect(err.slice(0, 10).every((l, i) => l.startsWith(`specs/broken/r${String(i).padStart(3, "0")}.sdp.md:`))).toBe(true)
    const shownFindings = all.filter((f) => err.slice(0, 10).some((l) => l.startsWith(`${f.file}:`))).length
    expect(err[10]).toBe(
      `... and ${all.length - shownFindings} more findings in 200 more files (all refused): specbundle check lists them all (or add --verbose)`
    )
    // --verbose lifts the cap: one line per finding.
    expect(lines((await run(root, ["bundle", "--pack", "pack:rides-v1", "--verbose"])).stderr)).toHaveLength(all.length)
  })

  it("list packs over 40 findings in 20 carriers prints the packs on stdout and 11 lines on stderr", async () => {
    const root = tempDir("specbundle-cap-list-")
    copyInto(BIKE_DOCK, root)
    writeFiles(root, refusedFixtures(20, "l"))
    const all = JSON.parse((await run(root, ["check", "--format", "json"])).stdout) as unknown[]
    expect(all.length).toBe(40)
    const r = await run(root, ["list", "packs"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toContain("pack:rides-v1")
    const err = lines(r.stderr)
    expect(err).toHaveLength(11)
    // Each carrier's one line counts its other finding.
    expect(err[0]).toBe(
      'specs/broken/l000.sdp.md:7: extract/invalid-frontmatter: plain value 1 of "bogus" is not text in YAML; quote it ("1") if you mean text (and 1 more finding in this file)'
    )
    expect(err[10]).toBe("... and 20 more findings in 10 more files (all refused): specbundle check lists them all (or add --verbose)")
  })
})
