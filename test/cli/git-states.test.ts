// `specbundle impact` on the git states a real repository has (bundle-contract.md section 5):
// intent-to-add, an open merge conflict, a sparse checkout, a message-search revision, specbundle's
// own output folder, and the report's removedPacks and lostBindings. The CLI run in process
// on real repositories made in temp folders.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { codeAnchor, makeRepo, specCarrier } from "../support/git.js"
import { run } from "../support/run.js"

const cli = (cwd: string, args: ReadonlyArray<string>) => run(cwd, args)

const report = async (cwd: string, changeset: ReadonlyArray<string>) => {
  const r = await cli(cwd, ["impact", ...changeset])
  expect(r.status, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as {
    changedFiles: Array<{ path: string; status: string }>
    impactedSpecs: Array<{ id: string }>
    impactedPacks: Array<{ id: string }>
    removedSpecs: Array<{ id: string; file: string }>
    removedPacks: Array<{ id: string; file: string }>
    lostBindings: Array<{ spec: string; anchor: string; claim: string; file: string }>
    coverageUnknown: string[]
  }
}

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id)
const BROKEN = "---\nid: spec:broken\nkind: rule\nbroken: [\n---\n# Broken\n"

describe("the index as git sees it (--staged)", () => {
  it("an intent-to-add carrier (git add -N) is not staged content: nothing is refused", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.commit("base")
    repo.write("specs/new.sdp.md", specCarrier("spec:new"))
    repo.git("add", "-N", "specs/new.sdp.md")
    const r = await cli(repo.dir, ["impact", "--staged", "--strict"])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toBe("")
    const value = JSON.parse(r.stdout)
    expect(value.changedFiles).toEqual([])
    expect(value.removedSpecs).toEqual([])
  })

  it("an open merge conflict on a carrier: exit 1, one line naming it, never a removal", async () => {
    const repo = makeRepo()
    repo.write("specs/m.sdp.md", specCarrier("spec:m", "Base"))
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "side")
    repo.write("specs/m.sdp.md", specCarrier("spec:m", "Side"))
    repo.commit("side")
    repo.git("checkout", "-q", "main")
    repo.write("specs/m.sdp.md", specCarrier("spec:m", "Main"))
    repo.commit("main")
    expect(() => repo.git("merge", "-q", "side")).toThrow()
    const r = await cli(repo.dir, ["impact", "--staged"])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    const lines = r.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("specs/m.sdp.md")
    expect(lines[0]).toContain("resolve the merge first")
    expect(r.stderr).not.toContain("removed")
  })
})

describe("a sparse checkout", () => {
  it("paths outside the cone are present at their HEAD version: A..HEAD and REV read as a full clone does", async () => {
    const repo = makeRepo()
    repo.write("specs/model/a.sdp.md", specCarrier("spec:a"))
    repo.write("specs/other/b.sdp.md", specCarrier("spec:b"))
    repo.write("src/x.ts", codeAnchor("impl:x", ["spec:a"]))
    repo.commit("base")
    repo.write("specs/model/a.sdp.md", specCarrier("spec:a", "A again"))
    repo.write("specs/other/b.sdp.md", specCarrier("spec:b", "B again"))
    repo.commit("second")
    const full = await report(repo.dir, ["--changeset", "HEAD~1..HEAD"])
    expect(ids(full.impactedSpecs)).toEqual(["spec:a", "spec:b"])

    repo.git("sparse-checkout", "set", "specs/model", "src")
    expect(fs.existsSync(path.join(repo.dir, "specs/other/b.sdp.md"))).toBe(false)
    const range = await report(repo.dir, ["--changeset", "HEAD~1..HEAD"])
    expect(ids(range.impactedSpecs)).toEqual(["spec:a", "spec:b"])
    expect(range.removedSpecs).toEqual([])
    const rev = await report(repo.dir, ["--changeset", "HEAD~1"])
    expect(ids(rev.impactedSpecs)).toEqual(["spec:a", "spec:b"])
    expect(rev.removedSpecs).toEqual([])
    // The bundle holds the Spec outside the cone, read from git objects.
    const bundle = await cli(repo.dir, ["bundle", "--changeset", "HEAD~1..HEAD"])
    expect(bundle.status, bundle.stderr).toBe(0)
    expect(JSON.parse(bundle.stdout).members.map((m: { id: string }) => m.id)).toEqual(["spec:a", "spec:b"])
  })
})

describe("revisions and folders", () => {
  it("--changeset ':/fix the parser' resolves as git resolves it", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.commit("fix the parser")
    repo.write("specs/b.sdp.md", specCarrier("spec:b"))
    repo.commit("later")
    const value = await report(repo.dir, ["--changeset", ":/fix the parser"])
    expect(ids(value.impactedSpecs)).toEqual(["spec:b"])
    const range = await report(repo.dir, ["--changeset", ":/fix the parser..HEAD"])
    expect(ids(range.impactedSpecs)).toEqual(["spec:b"])
  })

  // A revision without a colon is peeled in the same git call (GitDiff's resolve): an annotated tag
  // names its commit, a tree is no commit and is refused as before.
  it("--changeset with an annotated tag resolves to its commit; a tree (HEAD^{tree}) is refused by name", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.commit("base")
    repo.git("tag", "-a", "v1", "-m", "release one")
    repo.write("specs/b.sdp.md", specCarrier("spec:b"))
    repo.commit("later")
    const tagged = await report(repo.dir, ["--changeset", "v1"])
    expect(ids(tagged.impactedSpecs)).toEqual(["spec:b"])
    expect({ ...tagged, changeset: "HEAD~1" }).toEqual(await report(repo.dir, ["--changeset", "HEAD~1"]))
    const tree = await cli(repo.dir, ["impact", "--changeset", "HEAD^{tree}"])
    expect(tree.status).toBe(1)
    expect(tree.stderr).toMatch(/^specbundle: git rev-parse failed: .*expected commit type.*tree/)
    expect(tree.stderr.trim().split("\n")).toHaveLength(1)
  })

  it("--changeset REV leaves files in folders the reader skips (.specbundle/out, node_modules) out", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.commit("base")
    repo.write(".specbundle/out/part-001.json", "{}\n")
    repo.write("node_modules/x/index.ts", "export const y = 1\n")
    repo.write("notes.md", "a note\n")
    const value = await report(repo.dir, ["--changeset", "HEAD"])
    expect(value.changedFiles).toEqual([{ path: "notes.md", status: "untracked" }])
    expect(value.coverageUnknown).toEqual(["notes.md"])
  })
})

describe("removedPacks and lostBindings", () => {
  it("a deleted Pack manifest is in removedPacks (not impactedPacks); an anchor moved to another Spec names the old one", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.write("specs/b.sdp.md", specCarrier("spec:b"))
    repo.write("specs/p.pack.sdp.md", "---\nid: pack:p\nspecs:\n  - spec:a\n---\n# P\n\nA pack.\n")
    repo.write("src/x.ts", codeAnchor("impl:x", ["spec:b"]))
    repo.commit("base")
    repo.remove("specs/p.pack.sdp.md")
    repo.write("src/x.ts", codeAnchor("impl:x", ["spec:a"]))
    repo.commit("move")
    const value = await report(repo.dir, ["--changeset", "HEAD~1..HEAD"])
    expect(value.removedPacks).toEqual([{ id: "pack:p", file: "specs/p.pack.sdp.md" }])
    expect(value.impactedPacks).toEqual([])
    expect(value.lostBindings).toEqual([{ spec: "spec:b", anchor: "impl:x", claim: "anchored", file: "src/x.ts" }])
    expect(ids(value.impactedSpecs)).toEqual(["spec:a"])
    const text = await cli(repo.dir, ["impact", "--changeset", "HEAD~1..HEAD", "--format", "text"])
    expect(text.stdout).toContain("removed packs (1)\n  pack:p  (was in specs/p.pack.sdp.md)")
    expect(text.stdout).toContain("lost bindings (1)\n  spec:b  <- impl:x no longer binds it (src/x.ts)")
  })
})

describe("a broken carrier staged in the index is still refused", () => {
  it("--staged --strict exits 1 naming it", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a"))
    repo.commit("base")
    repo.write("specs/broken.sdp.md", BROKEN)
    repo.git("add", "specs/broken.sdp.md")
    const r = await cli(repo.dir, ["impact", "--staged", "--strict"])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/specs\/broken\.sdp\.md:\d+: /)
  })
})
