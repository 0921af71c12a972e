// `specbundle impact` and `bundle` with a changeset, run in process
// (test/support/run.ts) on real git repositories made in temp folders (examples/make-history.mjs, and hand-built ones).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { codeAnchor, exampleHistory, makeRepo, specCarrier, tempDir } from "../support/git.js"
import { gitCleanEnv } from "../support/cli.js"
import { run, type Run } from "../support/run.js"
import { IMPACT_REPORT_KEYS } from "../support/contract.js"

const json = (r: Run): any => {
  expect(r.stdout.endsWith("\n")).toBe(true)
  const line = r.stdout.slice(0, -1)
  expect(line.includes("\n")).toBe(false)
  return JSON.parse(line)
}

const ids = (rows: ReadonlyArray<{ id: string }>): string[] => rows.map((r) => r.id)

const oneStderrLine = (r: Run): string => {
  const lines = r.stderr.trimEnd().split("\n")
  expect(lines).toHaveLength(1)
  expect(r.stderr).not.toMatch(/^\s+at /m)
  return lines[0]!
}

/** Every level of the report has the contract's keys in the contract's order (section 5). */
const expectReportShape = (report: any) => {
  expect(Object.keys(report)).toEqual(IMPACT_REPORT_KEYS)
  expect(typeof report.changeset).toBe("string")
  expect(typeof report.root).toBe("string")
  for (const f of report.changedFiles) {
    expect(Object.keys(f)).toEqual(f.oldPath === undefined ? ["path", "status"] : ["path", "status", "oldPath"])
    expect(["added", "modified", "deleted", "renamed", "untracked"]).toContain(f.status)
  }
  for (const row of [...report.impactedSpecs, ...report.impactedPacks]) {
    expect(Object.keys(row)).toEqual(["id", "reasons"])
    for (const reason of row.reasons) {
      expect(Object.keys(reason)).toEqual(["file", "via"])
      if (reason.via !== null) expect(Object.keys(reason.via)).toEqual(["id", "edgeType", "claim"])
    }
  }
  for (const row of [...report.removedSpecs, ...report.removedPacks]) expect(Object.keys(row)).toEqual(["id", "file"])
  for (const row of report.lostBindings) expect(Object.keys(row)).toEqual(["spec", "anchor", "claim", "file"])
  for (const row of report.atRisk) {
    expect(Object.keys(row)).toEqual(["id", "nodeType", "reasons"])
    for (const reason of row.reasons) {
      expect(Object.keys(reason)).toEqual(["from", "edgeType", "to", "claim", ...(reason.member === undefined ? [] : ["member"])])
      if (reason.member !== undefined) expect(Object.keys(reason.member)).toEqual(["change", "oldPosition", "newPosition"])
    }
  }
  for (const p of [...report.coverageUnknown, ...report.outsideRoot]) expect(typeof p).toBe("string")
  for (const row of report.unlinked) expect(Object.keys(row)).toEqual(["file", "id"])
}

/** examples/make-history.mjs: bike-dock in two commits (a fare rule and its code change). */
const bikeDockHistory = (): string => exampleHistory("specbundle-cli-history-").dir

describe("impact on the bike-dock history", () => {
  const dir = bikeDockHistory()
  const impacted = ["spec:decisions.per-minute-fares", "spec:rides.ride-fare-rule"]

  it("--changeset HEAD~1 prints the report with the contract's keys, in order, at every level", async () => {
    const r = await run(dir, ["impact", "--changeset", "HEAD~1"])
    expect(r.status).toBe(0)
    expect(r.stderr).toBe("")
    const report = json(r)
    expectReportShape(report)
    expect(report.changeset).toBe("HEAD~1")
    expect(report.root).toBe(".")
    expect(report.changedFiles).toEqual([
      { path: "specs/rides/ride-fare-rule.sdp.md", status: "modified" },
      { path: "src/rides/fare.ts", status: "modified" }
    ])
    expect(ids(report.impactedSpecs)).toEqual(impacted)
    const fare = report.impactedSpecs[1]
    expect(fare.reasons).toEqual([
      { file: "specs/rides/ride-fare-rule.sdp.md", via: null },
      { file: "src/rides/fare.ts", via: { id: "impl:rides.fare-calculator", edgeType: "satisfies", claim: "anchored" } }
    ])
    expect(report.atRisk.length).toBeGreaterThan(0)
    expect(ids(report.atRisk)).toContain("pack:rides-v1")
  })

  it("--format text is a readable report with one section per class that has rows (the counts line names the empty ones)", async () => {
    const r = await run(dir, ["impact", "--changeset", "HEAD~1", "--format", "text"])
    expect(r.status).toBe(0)
    expect(() => JSON.parse(r.stdout)).toThrow()
    expect(r.stdout).toBe(
      [
        "changeset HEAD~1 (root .)",
        "2 impacted, 0 packs, 0 removed, 3 at risk, 0 uncovered (2 changed files, 0 unlinked code units, 0 outside the root)",
        "",
        "changed files (2)",
        "  modified  specs/rides/ride-fare-rule.sdp.md",
        "  modified  src/rides/fare.ts",
        "",
        "impacted specs (2)",
        "  spec:decisions.per-minute-fares  <- src/rides/fare.ts (impl:rides.fare-calculator references)",
        "  spec:rides.ride-fare-rule  <- specs/rides/ride-fare-rule.sdp.md, src/rides/fare.ts (impl:rides.fare-calculator satisfies)",
        "",
        "at risk (one hop) (3)",
        "  pack:rides-v1 [Pack]  spec:decisions.per-minute-fares belongsTo pack:rides-v1; spec:rides.ride-fare-rule belongsTo pack:rides-v1",
        "  spec:rides.ride-lifecycle [Primitive]  spec:decisions.per-minute-fares refines spec:rides.ride-lifecycle; spec:rides.ride-fare-rule refines spec:rides.ride-lifecycle; spec:rides.ride-lifecycle decidedBy spec:decisions.per-minute-fares",
        "  test:rides.ride-fare-rule [Anchor]  test:rides.ride-fare-rule verifies spec:rides.ride-fare-rule",
        ""
      ].join("\n")
    )
    expect(r.stdout).not.toContain("(0)\n")
  })

  it("bundle --changeset HEAD~1 scopes the impacted ids in id order and states the changeset", async () => {
    const r = await run(dir, ["bundle", "--changeset", "HEAD~1"])
    expect(r.status).toBe(0)
    const value = json(r)
    expect(value.scope).toEqual({ specs: impacted, changeset: "HEAD~1" })
    expect(ids(value.members)).toEqual(impacted)
    expect(value.pack).toBeNull()
    expect(value.used).toBe(r.stdout.length - 1)
  })

  it("bundle refuses a changeset beside another scope, and --changeset with --staged", async () => {
    for (const extra of [["--pack", "pack:rides-v1"], ["--specs", "spec:rides.ride-fare-rule"], ["--staged"]]) {
      const r = await run(dir, ["bundle", "--changeset", "HEAD~1", ...extra])
      expect(r.status).toBe(2)
      expect(Object.keys(json(r))).toEqual(["diagnostics"])
      oneStderrLine(r)
    }
  })

  it("impact needs exactly one of --changeset and --staged", async () => {
    for (const args of [[], ["--changeset", "HEAD~1", "--staged"]]) {
      const r = await run(dir, ["impact", ...args])
      expect(r.status).toBe(2)
      expect(json(r).diagnostics[0].scope).toBe("changeset")
      oneStderrLine(r)
    }
  })
})

describe("impact on hand-built repositories", () => {
  it("a monorepo package root rebases paths and reports every class, keys in order", async () => {
    const repo = makeRepo()
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:pkg.a", "A"))
    repo.write("pkg/specs/b.sdp.md", specCarrier("spec:pkg.b", "B"))
    repo.write("pkg/specs/gone.sdp.md", specCarrier("spec:pkg.gone", "Gone"))
    repo.write("pkg/specs/p.pack.sdp.md", "---\nid: pack:pkg\nspecs:\n  - spec:pkg.a\n---\n# P\n\nA pack.\n")
    repo.write("pkg/src/lonely.ts", codeAnchor("impl:pkg.lonely", []))
    repo.write("pkg/README.md", "Package.\n")
    repo.write("other/thing.txt", "one\n")
    repo.commit("one")
    repo.git("mv", "pkg/specs/b.sdp.md", "pkg/specs/bee.sdp.md")
    repo.remove("pkg/specs/gone.sdp.md")
    repo.write("pkg/specs/p.pack.sdp.md", "---\nid: pack:pkg\nspecs:\n  - spec:pkg.a\n  - spec:pkg.b\n---\n# P\n\nA pack.\n")
    repo.write("pkg/src/lonely.ts", codeAnchor("impl:pkg.lonely", []) + "export const y = 2\n")
    repo.write("pkg/README.md", "Package, changed.\n")
    repo.write("other/thing.txt", "two\n")
    repo.commit("two")

    const fromTop = await run(repo.dir, ["impact", "--root", "pkg", "--changeset", "HEAD~1"])
    expect(fromTop.status).toBe(0)
    const report = json(fromTop)
    expectReportShape(report)
    expect(report.root).toBe("pkg")
    expect(report.changedFiles).toEqual([
      { path: "README.md", status: "modified" },
      { path: "specs/bee.sdp.md", status: "renamed", oldPath: "specs/b.sdp.md" },
      { path: "specs/gone.sdp.md", status: "deleted" },
      { path: "specs/p.pack.sdp.md", status: "modified" },
      { path: "src/lonely.ts", status: "modified" }
    ])
    expect(ids(report.impactedSpecs)).toEqual(["spec:pkg.b"])
    expect(ids(report.impactedPacks)).toEqual(["pack:pkg"])
    expect(report.impactedPacks[0].reasons).toEqual([{ file: "specs/p.pack.sdp.md", via: null }])
    expect(report.removedSpecs).toEqual([{ id: "spec:pkg.gone", file: "specs/gone.sdp.md" }])
    expect(report.coverageUnknown).toEqual(["README.md"])
    expect(report.unlinked).toEqual([{ file: "src/lonely.ts", id: "impl:pkg.lonely" }])
    expect(report.outsideRoot).toEqual(["other/thing.txt"])
    // The manifest added spec:pkg.b, impacted itself (its carrier was renamed); spec:pkg.a kept its place.
    expect(report.atRisk).toEqual([])

    // The same report from inside the package with the default root.
    const fromInside = await run(path.join(repo.dir, "pkg"), ["impact", "--changeset", "HEAD~1"])
    expect(fromInside.status).toBe(0)
    expect(fromInside.stdout).toBe(fromTop.stdout)
  })

  it("a Pack manifest change lists at risk only the members it added, removed or moved, each with its reason", async () => {
    const repo = makeRepo()
    const letters = ["a", "b", "c", "d", "e", "f"]
    for (const x of letters) repo.write(`specs/${x}.sdp.md`, specCarrier(`spec:m.${x}`, x.toUpperCase()))
    const manifest = (members: string, framing: string) => `---\nid: pack:m\nspecs:\n${members}---\n# M\n\n${framing}\n`
    const list = (xs: string) => [...xs].map((x) => `  - spec:m.${x}\n`).join("")
    repo.write("specs/m.pack.sdp.md", manifest(list("abcde"), "A pack."))
    repo.commit("one")
    // f added at the top, e removed, b moved behind d; the framing edited too.
    repo.write("specs/m.pack.sdp.md", manifest(list("facdb"), "A pack, reframed."))
    repo.commit("two")

    const report = json(await run(repo.dir, ["impact", "--changeset", "HEAD~1"]))
    expectReportShape(report)
    expect(ids(report.impactedPacks)).toEqual(["pack:m"])
    expect(report.impactedSpecs).toEqual([])
    const belongs = (x: string, member: object) => ({ from: `spec:m.${x}`, edgeType: "belongsTo", to: "pack:m", claim: "declared", member })
    expect(report.atRisk).toEqual([
      { id: "spec:m.b", nodeType: "Primitive", reasons: [belongs("b", { change: "moved", oldPosition: 2, newPosition: 5 })] },
      { id: "spec:m.e", nodeType: "Primitive", reasons: [belongs("e", { change: "removed", oldPosition: 5, newPosition: null })] },
      { id: "spec:m.f", nodeType: "Primitive", reasons: [belongs("f", { change: "added", oldPosition: null, newPosition: 1 })] }
    ])

    const text = (await run(repo.dir, ["impact", "--changeset", "HEAD~1", "--format", "text"])).stdout
    expect(text).toContain("  spec:m.b [Primitive]  spec:m.b belongsTo pack:m (member moved from position 2 to 5)\n")
    expect(text).toContain("  spec:m.e [Primitive]  spec:m.e belongsTo pack:m (member removed from position 5)\n")
    expect(text).toContain("  spec:m.f [Primitive]  spec:m.f belongsTo pack:m (member added at position 1)\n")
    const md = (await run(repo.dir, ["impact", "--changeset", "HEAD~1", "--format", "markdown"])).stdout
    expect(md).toContain("- `spec:m.b` (Primitive): `spec:m.b` belongsTo `pack:m` (member moved from position 2 to 5)\n")
    for (const kept of ["spec:m.a", "spec:m.c", "spec:m.d"]) expect(md).not.toContain(`\`${kept}\``)

    // Only the framing changes: the Pack is impacted and no member is at risk.
    repo.write("specs/m.pack.sdp.md", manifest(list("facdb"), "A pack, reframed again."))
    repo.commit("three")
    const framing = json(await run(repo.dir, ["impact", "--changeset", "HEAD~1"]))
    expect(ids(framing.impactedPacks)).toEqual(["pack:m"])
    expect(framing.atRisk).toEqual([])
  })

  it("A..B reads B's tree (not checked out) and A...B starts at the merge base", async () => {
    const repo = makeRepo()
    // Bodies different enough that git does not pair m and t as a rename.
    const body = (word: string) => Array.from({ length: 12 }, (_, i) => `Paragraph ${i} about ${word}.`).join("\n\n") + "\n"
    repo.write("specs/base.sdp.md", specCarrier("spec:base"))
    repo.commit("base")
    repo.git("branch", "topic")
    repo.write("specs/m.sdp.md", specCarrier("spec:m", "Main work") + body("mainline"))
    repo.commit("main moves on")
    repo.git("checkout", "-q", "topic")
    repo.write("specs/t.sdp.md", specCarrier("spec:t", "Topic work") + body("topical"))
    repo.commit("topic")
    repo.git("checkout", "-q", "main")

    const two = json(await run(repo.dir, ["impact", "--changeset", "main..topic"]))
    expectReportShape(two)
    expect(two.changeset).toBe("main..topic")
    expect(two.changedFiles).toEqual([
      { path: "specs/m.sdp.md", status: "deleted" },
      { path: "specs/t.sdp.md", status: "added" }
    ])
    expect(ids(two.impactedSpecs)).toEqual(["spec:t"])
    expect(two.removedSpecs).toEqual([{ id: "spec:m", file: "specs/m.sdp.md" }])

    const three = json(await run(repo.dir, ["impact", "--changeset", "main...topic"]))
    expect(three.changeset).toBe("main...topic")
    expect(three.changedFiles).toEqual([{ path: "specs/t.sdp.md", status: "added" }])
    expect(ids(three.impactedSpecs)).toEqual(["spec:t"])
    expect(three.removedSpecs).toEqual([])

    // The bundle composes spec:t from topic's tree although the working tree (main) lacks it.
    expect(fs.existsSync(path.join(repo.dir, "specs", "t.sdp.md"))).toBe(false)
    const r = await run(repo.dir, ["bundle", "--changeset", "main...topic"])
    expect(r.status).toBe(0)
    const value = json(r)
    expect(value.scope).toEqual({ specs: ["spec:t"], changeset: "main...topic" })
    expect(value.members.map((m: { file: string }) => m.file)).toEqual(["specs/t.sdp.md"])
  })

  it("--staged reports the index against HEAD, not unstaged edits", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.write("specs/b.sdp.md", specCarrier("spec:b"))
    repo.commit("one")
    repo.write("specs/a.sdp.md", specCarrier("spec:a", "A, staged"))
    repo.git("add", "specs/a.sdp.md")
    repo.write("specs/b.sdp.md", specCarrier("spec:b", "B, not staged"))

    const r = await run(repo.dir, ["impact", "--staged"])
    expect(r.status).toBe(0)
    const report = json(r)
    expectReportShape(report)
    expect(report.changeset).toBe("--staged")
    expect(report.changedFiles).toEqual([{ path: "specs/a.sdp.md", status: "modified" }])
    expect(ids(report.impactedSpecs)).toEqual(["spec:a"])

    const b = await run(repo.dir, ["bundle", "--staged"])
    expect(b.status).toBe(0)
    const value = json(b)
    expect(value.scope).toEqual({ specs: ["spec:a"], changeset: "--staged" })
    expect(value.members[0].title).toBe("A, staged")
  })

  it("--staged reads a carrier from the index: staged broken, fixed in the working tree, it is refused", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.commit("one")
    repo.write("specs/a.sdp.md", "---\nid: spec:a\nkind: [broken\n---\n# A\n")
    repo.git("add", "specs/a.sdp.md")
    repo.write("specs/a.sdp.md", specCarrier("spec:a", "A, fixed"))

    const r = await run(repo.dir, ["impact", "--staged"])
    expect(r.status).toBe(0)
    expectReportShape(json(r))
    expect(r.stderr).toMatch(/^specs\/a\.sdp\.md:\d+: [\w/-]+: /m)

    const strict = await run(repo.dir, ["impact", "--staged", "--strict"])
    expect(strict.status).toBe(1)
    expect(strict.stdout).toBe(r.stdout)
    expect(strict.stderr).toMatch(/specs\/a\.sdp\.md:\d+: /)

    const bundleStrict = await run(repo.dir, ["bundle", "--staged", "--strict"])
    expect(bundleStrict.status).toBe(1)
    expect(bundleStrict.stderr).toMatch(/specs\/a\.sdp\.md:\d+: /)
    expect(Object.keys(json(bundleStrict))).toContain("members")

    // The working tree holds the fixed carrier: against HEAD it reads cleanly.
    const tree = await run(repo.dir, ["impact", "--changeset", "HEAD", "--strict"])
    expect(tree.status).toBe(0)
    expect(tree.stderr).toBe("")
  })

  it("an impacted id the graph lacks is named on stderr and left out of the bundle's scope", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.write("src/x.ts", codeAnchor("impl:x", ["spec:a", "spec:ghost"]))
    repo.commit("one")
    repo.write("src/x.ts", codeAnchor("impl:x", ["spec:a", "spec:ghost"]) + "export const y = 2\n")
    repo.commit("two")

    expect(ids(json(await run(repo.dir, ["impact", "--changeset", "HEAD~1"])).impactedSpecs)).toEqual(["spec:a", "spec:ghost"])
    const r = await run(repo.dir, ["bundle", "--changeset", "HEAD~1"])
    expect(r.status).toBe(0)
    expect(r.stderr).toMatch(/spec:ghost/)
    expect(r.stderr).not.toMatch(/spec:a\b/)
    const value = json(r)
    expect(value.scope).toEqual({ specs: ["spec:a"], changeset: "HEAD~1" })
    expect(ids(value.members)).toEqual(["spec:a"])
  })

  it("REV counts untracked files git does not ignore; excluded paths are coverage-unknown", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.write(".gitignore", "ignored.sdp.md\n")
    repo.commit("one")
    repo.write("specs/u.sdp.md", specCarrier("spec:u"))
    repo.write("drafts/d.sdp.md", specCarrier("spec:d"))
    repo.write("ignored.sdp.md", specCarrier("spec:ignored"))

    const report = json(await run(repo.dir, ["impact", "--changeset", "HEAD", "--exclude", "drafts"]))
    expectReportShape(report)
    expect(report.changedFiles).toEqual([
      { path: "drafts/d.sdp.md", status: "untracked" },
      { path: "specs/u.sdp.md", status: "untracked" }
    ])
    expect(ids(report.impactedSpecs)).toEqual(["spec:u"])
    expect(report.coverageUnknown).toEqual(["drafts/d.sdp.md"])
  })

  it("a renamed carrier whose Spec id changed is removed under its old id", async () => {
    const repo = makeRepo()
    const body = "\nA body long enough that git pairs the two paths as a rename.\n"
    repo.write("specs/m.sdp.md", specCarrier("spec:m", "Same title") + body)
    repo.commit("one")
    repo.git("mv", "specs/m.sdp.md", "specs/t.sdp.md")
    repo.write("specs/t.sdp.md", specCarrier("spec:t", "Same title") + body)
    repo.commit("two")

    const report = json(await run(repo.dir, ["impact", "--changeset", "HEAD~1"]))
    expect(report.changedFiles).toEqual([{ path: "specs/t.sdp.md", status: "renamed", oldPath: "specs/m.sdp.md" }])
    expect(ids(report.impactedSpecs)).toEqual(["spec:t"])
    expect(report.removedSpecs).toEqual([{ id: "spec:m", file: "specs/m.sdp.md" }])
    const text = (await run(repo.dir, ["impact", "--changeset", "HEAD~1", "--format", "text"])).stdout
    expect(text).toContain("specs/m.sdp.md -> specs/t.sdp.md")
  })

  it("a changeset that impacts no Spec gives a bundle with members: [], exit 0", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.write("README.md", "one\n")
    repo.commit("one")
    repo.write("README.md", "two\n")
    repo.commit("two")

    const r = await run(repo.dir, ["bundle", "--changeset", "HEAD~1"])
    expect(r.status).toBe(0)
    const value = json(r)
    expect(value.scope).toEqual({ specs: [], changeset: "HEAD~1" })
    expect(value.members).toEqual([])
    expect(value.used).toBe(r.stdout.length - 1)
  })
})

describe("impact failures", () => {
  const repo = makeRepo()
  repo.write("specs/a.sdp.md", specCarrier("spec:a"))
  repo.commit("one")
  repo.write("specs/a.sdp.md", specCarrier("spec:a", "Two"))
  repo.commit("two")

  it("outside a git repository: exit 1 and one line on stderr", async () => {
    const plain = tempDir("specbundle-cli-nogit-")
    fs.writeFileSync(path.join(plain, "a.sdp.md"), specCarrier("spec:a"))
    for (const args of [
      ["impact", "--changeset", "HEAD~1"],
      ["bundle", "--changeset", "HEAD~1"],
      ["impact", "--staged"]
    ]) {
      const r = await run(plain, args)
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(oneStderrLine(r)).toMatch(/git/)
    }
  })

  it("an unknown revision: exit 1, the line names it", async () => {
    for (const [args, name] of [
      [["impact", "--changeset", "no-such-rev"], "no-such-rev"],
      [["impact", "--changeset", "HEAD~1..no-such-tip"], "no-such-tip"],
      [["bundle", "--changeset", "no-such-rev"], "no-such-rev"]
    ] as const) {
      const r = await run(repo.dir, args)
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(oneStderrLine(r)).toContain(name)
    }
  })

  it("a shallow clone without the named parent: exit 1, the line names the revision", async () => {
    const shallow = path.join(tempDir("specbundle-cli-shallow-"), "clone")
    const clone = spawnSync("git", ["clone", "-q", "--depth", "1", `file://${repo.dir}`, shallow], { encoding: "utf8", env: gitCleanEnv() })
    expect(clone.status).toBe(0)
    for (const command of ["impact", "bundle"]) {
      const r = await run(shallow, [command, "--changeset", "HEAD~1"])
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      const line = oneStderrLine(r)
      expect(line).toContain("HEAD~1")
      expect(line).toMatch(/shallow/)
    }
  })

  it("--changeset=--output=<file> is refused before git sees it: exit 2, the file is not created", async () => {
    const target = path.join(tempDir("specbundle-cli-out-"), "leak.txt")
    for (const command of ["impact", "bundle"]) {
      const r = await run(repo.dir, [command, `--changeset=--output=${target}`])
      expect(r.status).toBe(2)
      const value = json(r)
      expect(value.diagnostics[0].scope).toBe("changeset")
      oneStderrLine(r)
      expect(fs.existsSync(target)).toBe(false)
    }
  })

  it("a valid changeset in the same repository still works (the failures above are not the repository's)", async () => {
    const r = await run(repo.dir, ["impact", "--changeset", "HEAD~1"])
    expect(r.status).toBe(0)
    expect(ids(json(r).impactedSpecs)).toEqual(["spec:a"])
  })
})
