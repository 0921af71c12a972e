// `specbundle check` run in process (test/support/run.ts) over real corpus copies: exit codes, the
// stderr finding lines and summary, the { diagnostics } value on stdout, and never a stack trace.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { run, type Run } from "../support/run.js"
import { bikeDockCopy, checkoutCopy, ruleSpec, tempDir, writeFiles } from "../support/tmp.js"
import { withoutCheckout } from "../support/paths.js"

const check = async (...args: string[]): Promise<Run> => {
  // Run from a neutral folder so nothing of the repository (config, git) leaks in.
  // The test's own environment, as inherited: GIT_* kept.
  return await run(tempDir("specbundle-cwd-"), ["check", ...args], { env: process.env })
}

const nonEmptyLines = (text: string): string[] => text.split("\n").filter((l) => l.trim() !== "")

describe.skipIf(withoutCheckout("check over checkout-v1"))("specbundle check over checkout-v1", () => {
  it("a healthy checkout copy exits 0 with the summary on stderr and nothing on stdout", async () => {
    const r = await check("--root", checkoutCopy("specbundle-cli-"))
    expect(r.status).toBe(0)
    expect(r.stdout).toBe("")
    expect(nonEmptyLines(r.stderr)).toEqual(["11 specs, 1 pack, 5 anchors, 0 findings"])
  })
})

describe("specbundle check", () => {
  it("a healthy bike-dock copy exits 0 with the summary on stderr and nothing on stdout", async () => {
    // 23 Specs in 2 Packs (its README); 10 anchors in its 4 source and 4 test files: 6 constant-form
    // (fault-intake 1, unlock 2, unlock-bike.test 2, fare.test 1) and 4 comment-form (one per file).
    const r = await check("--root", bikeDockCopy("specbundle-cli-"))
    expect(r.status).toBe(0)
    expect(r.stdout).toBe("")
    expect(nonEmptyLines(r.stderr)).toEqual(["23 specs, 2 packs, 10 anchors, 0 findings"])
  })

  it("a corpus with one refused carrier exits 1 and prints file:line: code: for it, without a stack trace", async () => {
    const root = bikeDockCopy("specbundle-cli-")
    // A kind outside the closed set (format 3.1) refuses the carrier as non-static-envelope at the
    // `kind:` line, line 3 (line 1 opens the frontmatter, line 2 is `id:`).
    const file = "specs/rides/rider-model.sdp.md"
    const text = fs.readFileSync(path.join(root, file), "utf8")
    fs.writeFileSync(path.join(root, file), text.replace("kind: model\n", "kind: glossary\n"))
    const r = await check("--root", root)
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    const lines = nonEmptyLines(r.stderr)
    const finding = lines.filter((l) => l.startsWith(`${file}:`))
    expect(finding).toHaveLength(1)
    expect(finding[0]).toMatch(/^specs\/rides\/rider-model\.sdp\.md:3: extract\/non-static-envelope: \S/)
    expect(lines.at(-1)).toBe("22 specs, 2 packs, 10 anchors, 1 finding")
    expect(r.stderr).not.toContain("    at ")
  })

  it("a refused binary carrier beside healthy ones also exits 1 naming the file and line", async () => {
    const root = tempDir("specbundle-cli-")
    writeFiles(root, { "specs/ok.sdp.md": ruleSpec("spec:t.ok"), "specs/bin.sdp.md": "---\nid: spec:t.bin\n\0\n" })
    const r = await check("--root", root)
    expect(r.status).toBe(1)
    expect(nonEmptyLines(r.stderr)).toEqual([
      "specs/bin.sdp.md:3: read/binary: file holds a NUL byte: binary content is not a carrier",
      "1 spec, 0 packs, 0 anchors, 1 finding"
    ])
    expect(r.stderr).not.toContain("    at ")
  })

  it("warnings alone (a symlinked carrier) keep exit 0", async () => {
    const root = tempDir("specbundle-cli-")
    writeFiles(root, { "specs/ok.sdp.md": ruleSpec("spec:t.ok") })
    fs.symlinkSync("ok.sdp.md", path.join(root, "specs/link.sdp.md"))
    const r = await check("--root", root)
    expect(r.status).toBe(0)
    expect(nonEmptyLines(r.stderr)[0]).toMatch(/^specs\/link\.sdp\.md:0: read\/symlink: /)
  })

  it("a bad --exclude ../x exits 2 with a { diagnostics } value on stdout", async () => {
    const r = await check("--root", bikeDockCopy("specbundle-cli-"), "--exclude", "../x")
    expect(r.status).toBe(2)
    const value = JSON.parse(r.stdout) as { diagnostics: Array<{ scope: string; problem: string }> }
    expect(Object.keys(value)).toEqual(["diagnostics"])
    expect(value.diagnostics).toHaveLength(1)
    expect(value.diagnostics[0].scope).toBe("exclude")
    expect(value.diagnostics[0].problem).toContain("../x")
    expect(r.stderr).not.toContain("    at ")
  })

  it("an unknown option exits 2 with a { diagnostics } value on stdout and one line on stderr", async () => {
    const r = await check("--root", bikeDockCopy("specbundle-cli-"), "--no-such-option")
    expect(r.status).toBe(2)
    const value = JSON.parse(r.stdout) as { diagnostics: Array<{ problem: string }> }
    expect(value.diagnostics.length).toBeGreaterThan(0)
    expect(value.diagnostics.some((d) => d.problem.includes("--no-such-option"))).toBe(true)
    expect(nonEmptyLines(r.stderr)).toHaveLength(1)
    expect(r.stderr).not.toContain("    at ")
  })

  it("a missing root exits 1 with one line on stderr naming it", async () => {
    const missing = path.join(tempDir("specbundle-cli-"), "no-such-folder")
    const r = await check("--root", missing)
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    const lines = nonEmptyLines(r.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("no-such-folder")
    expect(r.stderr).not.toContain("    at ")
  })

  it("a root with no Spec file anywhere: one warning line saying where it looked and what a Spec file is named, exit 0", async () => {
    const root = tempDir("specbundle-cli-")
    writeFiles(root, { "README.md": "# Not a corpus\n", "src/app.ts": "export const x = 1\n", "notes/plan.md": "plans\n" })
    const r = await check("--root", root)
    expect(r.status).toBe(0)
    expect(r.stdout).toBe("")
    expect(nonEmptyLines(r.stderr)).toEqual([
      `specbundle: warning: no Spec file under ${root}; Spec files are named *.sdp.md or *.sdp.gherkin (give the corpus folder with --root DIR)`,
      "0 specs, 0 packs, 0 anchors, 0 findings"
    ])
    // --quiet silences it (a warning); list says the same; one carrier, even refused, silences it.
    expect((await check("--root", root, "--quiet")).stderr).toBe("")
    const list = await run(root, ["list", "specs", "--exclude", "notes"])
    expect(list.status).toBe(0)
    expect(nonEmptyLines(list.stderr)).toEqual([
      `specbundle: warning: no Spec file under ${root} (outside the excludes); Spec files are named *.sdp.md or *.sdp.gherkin (give the corpus folder with --root DIR)`
    ])
    writeFiles(root, { "specs/broken.sdp.md": "---\nid: [unclosed\n---\n" })
    expect((await check("--root", root)).stderr).not.toContain("no Spec file")
  })
})
