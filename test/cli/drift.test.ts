// `specbundle drift` (issue 51) in the example history (`specbundle example DIR`) and in real git
// repositories made for the case: drift after an anchored code file's edit, the accept and its
// record, edits outside every anchor, a stood-on Spec changed in substance (and only in layout),
// the drifted Spec's own edit, --changeset A...B with --fail-on-drift, byte-identical output
// (in process and as the built CLI with 0 and 2 worker threads), the record file through a merge of
// two branches, a shallow clone's line. Runs in process (test/support/run.ts) but where a process
// is the point (worker threads).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cacheEnv, cliAsync, gitCleanEnv } from "../support/cli.js"
import { codeAnchor, makeRepo, repoAt, runGitIn, specCarrier, tempDir } from "../support/git.js"
import { run } from "../support/run.js"

interface Row {
  readonly id: string
  readonly file: string
  readonly watermark: { readonly commit: string; readonly by: string }
  readonly reasons: ReadonlyArray<{ readonly file: string; readonly via: { readonly id: string; readonly edgeType: string }; readonly commits: string[] }>
}
interface Report {
  readonly changeset: string
  readonly commit: string
  readonly base: string | null
  readonly specs: number
  readonly drifted: Row[]
}

/** The example repository (two commits), fresh. */
const example = async () => {
  const parent = tempDir("specbundle-drift-")
  const r = await run(parent, ["example", "ex"])
  expect(r.status, r.stderr).toBe(0)
  return repoAt(path.join(parent, "ex"))
}

const drift = async (cwd: string, ...args: string[]) => {
  const r = await run(cwd, ["drift", ...args])
  return { ...r, report: r.status === 0 || r.status === 3 ? (JSON.parse(r.stdout) as Report) : null }
}

const ids = (report: Report | null) => (report?.drifted ?? []).map((d) => d.id)

/** The example's one Spec drifted from the start: fare.ts (which references it) changed after it in the second commit. */
const FROM_THE_START = "spec:decisions.per-minute-fares"

const edit = (dir: string, file: string, change: (text: string) => string) => {
  const at = path.join(dir, file)
  fs.writeFileSync(at, change(fs.readFileSync(at, "utf8")))
}

describe("specbundle drift in the example history", () => {
  it("an anchored code file edited after a Spec's last change lists the Spec with the file and the commit; accept records it and the next run is clean", async () => {
    const repo = await example()
    const before = await drift(repo.dir)
    expect(before.status).toBe(0)
    expect(ids(before.report)).toEqual([FROM_THE_START])

    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// a later edit\n`)
    const commit = repo.commit("return: a later edit")
    const after = await drift(repo.dir)
    expect(after.status).toBe(0)
    expect(ids(after.report)).toEqual([FROM_THE_START, "spec:rides.return-bike"])
    const row = after.report!.drifted.find((d) => d.id === "spec:rides.return-bike")!
    expect(row.reasons).toEqual([
      { file: "src/rides/return.ts", via: { id: "impl:rides.return-bike", edgeType: "satisfies", claim: "anchored" }, commits: [commit] }
    ])
    expect(row.watermark.by).toBe("carrier")

    const accepted = await drift(repo.dir, "--accept", "spec:rides.return-bike", FROM_THE_START)
    expect(accepted.status).toBe(0)
    expect(ids(accepted.report)).toEqual([])
    expect(accepted.stderr).toContain(`recorded ${FROM_THE_START}, spec:rides.return-bike as reviewed at ${commit.slice(0, 12)} in specbundle.reviews`)
    const record = fs.readFileSync(path.join(repo.dir, "specbundle.reviews"), "utf8")
    expect(record.split("\n").filter((l) => l.startsWith("spec:"))).toEqual([`${FROM_THE_START}\t${commit}`, `spec:rides.return-bike\t${commit}`])
    const next = await drift(repo.dir)
    expect(ids(next.report)).toEqual([])
    // The review is the record's, and lasts past the record's own commit.
    repo.commit("record the review")
    expect(ids((await drift(repo.dir)).report)).toEqual([])
  })

  it("an edit outside every anchor lists nothing new", async () => {
    const repo = await example()
    repo.write("README.md", "changed\n")
    repo.write("src/rides/helpers.ts", "export const nothingAnchored = 1\n")
    repo.commit("edits outside every anchor")
    expect(ids((await drift(repo.dir)).report)).toEqual([FROM_THE_START])
  })

  it("a Spec others dependsOn changed in substance drifts them; a change of layout alone does not; editing a drifted Spec clears it", async () => {
    const repo = await example()
    // Layout only: white space inside the title and a blank line at the end of the carrier.
    edit(repo.dir, "specs/docks/dock-capacity.sdp.md", (t) => `${t.replace("# A station never holds", "# A station  never holds")}\n`)
    repo.commit("dock-capacity: layout only")
    expect(ids((await drift(repo.dir)).report)).toEqual([FROM_THE_START])

    edit(repo.dir, "specs/docks/dock-capacity.sdp.md", (t) => t.replace("# A station  never holds", "# A station never ever holds"))
    const changed = repo.commit("dock-capacity: a changed title")
    const r = await drift(repo.dir)
    expect(ids(r.report)).toEqual([FROM_THE_START, "spec:docks.rebalancing", "spec:rides.return-bike"])
    const rebalancing = r.report!.drifted.find((d) => d.id === "spec:docks.rebalancing")!
    // Only the commit that changed it in substance, not the layout one.
    expect(rebalancing.reasons).toEqual([
      { file: "specs/docks/dock-capacity.sdp.md", via: { id: "spec:docks.dock-capacity", edgeType: "dependsOn", claim: "declared" }, commits: [changed] }
    ])

    edit(repo.dir, "specs/docks/rebalancing.sdp.md", (t) => `${t}\n`)
    repo.commit("rebalancing: read again")
    expect(ids((await drift(repo.dir)).report)).toEqual([FROM_THE_START, "spec:rides.return-bike"])
  })

  it("--changeset A...B lists exactly the Specs clean at A and drifted at B; --fail-on-drift exits 3 only then", async () => {
    const repo = await example()
    const a = repo.git("rev-parse", "HEAD").trim()
    repo.git("checkout", "-q", "-b", "feature")
    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// feature work\n`)
    const c1 = repo.commit("feature: return")
    repo.write("docs/notes.md", "notes\n")
    repo.commit("feature: notes")

    const range = await drift(repo.dir, "--changeset", "main...feature", "--fail-on-drift")
    expect(range.status).toBe(3)
    expect(range.report!.base).toBe(a)
    // per-minute-fares drifted at A already: not this change's.
    expect(ids(range.report)).toEqual(["spec:rides.return-bike"])
    expect(range.report!.drifted[0].reasons[0].commits).toEqual([c1])
    expect(range.stderr).toContain("--fail-on-drift")

    // The range's last commit alone introduces nothing: exit 0 even with the flag.
    const quiet = await drift(repo.dir, "--changeset", "feature~1..feature", "--fail-on-drift")
    expect(quiet.status).toBe(0)
    expect(ids(quiet.report)).toEqual([])
    // The absolute report never fails by default.
    expect((await drift(repo.dir)).status).toBe(0)
  })

  it("prints the same bytes on every run, in every format, in process and as the built CLI with 0 and 2 worker threads", async () => {
    const repo = await example()
    edit(repo.dir, "specs/docks/dock-capacity.sdp.md", (t) => t.replace("# A station never holds", "# A station never ever holds"))
    repo.commit("dock-capacity changed")
    for (const format of ["json", "text", "markdown", "github", "gitlab"]) {
      const one = await run(repo.dir, ["drift", "--format", format])
      const two = await run(repo.dir, ["drift", "--format", format])
      expect(one.status).toBe(0)
      expect(two.stdout).toBe(one.stdout)
    }
    const inProcess = (await run(repo.dir, ["drift", "--format", "text"])).stdout
    const zero = await cliAsync(repo.dir, ["drift", "--format", "text"], { env: { ...gitCleanEnv(), SPECBUNDLE_WORKERS: "0" } })
    const two = await cliAsync(repo.dir, ["drift", "--format", "text"], { env: { ...gitCleanEnv(), SPECBUNDLE_WORKERS: "2" } })
    expect(zero.status).toBe(0)
    expect(zero.stdout).toBe(inProcess)
    expect(two.stdout).toBe(inProcess)
  })
})

describe("the drift cache (the parse cache's folder)", () => {
  it("a warm run reads only the commits since the tip it kept, through a merge, and prints what a run without any cache prints", async () => {
    const repo = await example()
    const cache = tempDir("specbundle-drift-cache-")
    const trace = path.join(tempDir("specbundle-drift-trace-"), "trace")
    const warm = (extra: NodeJS.ProcessEnv = {}) => cliAsync(repo.dir, ["drift", "--format", "text"], { env: cacheEnv(cache, extra) })
    const cold = () => cliAsync(repo.dir, ["drift", "--format", "text"], { env: cacheEnv(undefined) })
    expect((await warm()).status).toBe(0)
    const kept = repo.git("rev-parse", "HEAD").trim()
    // A branch and a merge since: a stood-on Spec changed on one side, code on the other.
    repo.git("checkout", "-q", "-b", "side")
    edit(repo.dir, "specs/docks/dock-capacity.sdp.md", (t) => t.replace("# A station never holds", "# A station never ever holds"))
    repo.commit("side: dock-capacity")
    repo.git("checkout", "-q", "main")
    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// main\n`)
    repo.commit("main: return")
    repo.git("merge", "-q", "--no-edit", "side")
    const traced = await warm({ GIT_TRACE: trace })
    const uncached = await cold()
    expect(traced.status).toBe(0)
    expect(traced.stdout).toBe(uncached.stdout)
    expect(ids(JSON.parse((await cliAsync(repo.dir, ["drift"], { env: cacheEnv(cache) })).stdout))).toEqual([
      FROM_THE_START,
      "spec:docks.rebalancing",
      "spec:rides.return-bike"
    ])
    const logs = fs
      .readFileSync(trace, "utf8")
      .split("\n")
      .filter((l) => / git log /.test(l))
    expect(logs).toHaveLength(1)
    expect(logs[0]).toContain(`^${kept}`)
  })
})

describe("the reviews file", () => {
  it("survives a merge of two branches that each accepted different Specs, without a conflict", async () => {
    const repo = await example()
    // A baseline recorded and committed, then two Specs drift.
    expect((await drift(repo.dir, "--accept", "--all")).status).toBe(0)
    repo.commit("baseline")
    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// edited\n`)
    edit(repo.dir, "specs/docks/dock-capacity.sdp.md", (t) => t.replace("# A station never holds", "# A station never ever holds"))
    repo.commit("a code edit and a stood-on Spec changed")
    const drifted = ids((await drift(repo.dir)).report)
    expect(drifted).toEqual(["spec:docks.rebalancing", "spec:rides.return-bike"])
    repo.git("checkout", "-q", "-b", "left")
    expect((await drift(repo.dir, "--accept", drifted[0])).status).toBe(0)
    repo.commit("left: accept")
    repo.git("checkout", "-q", "main")
    expect((await drift(repo.dir, "--accept", drifted[1])).status).toBe(0)
    repo.commit("main: accept")
    repo.git("merge", "-q", "--no-edit", "left")
    expect(repo.git("status", "--porcelain")).toBe("")
    const record = fs.readFileSync(path.join(repo.dir, "specbundle.reviews"), "utf8")
    const records = new Map(
      record
        .split("\n")
        .filter((l) => l.startsWith("spec:"))
        .map((l) => l.split("\t") as [string, string])
    )
    expect(records.size).toBe(23)
    expect(records.get(drifted[0])).toBe(repo.git("rev-parse", "left~1").trim())
    expect(records.get(drifted[1])).toBe(repo.git("rev-parse", "main^1~1").trim())
    expect(ids((await drift(repo.dir)).report)).toEqual([])
  })

  it("neighbouring records changed on two branches merge too (a blank line keeps them apart)", async () => {
    const repo = await example()
    expect((await drift(repo.dir, "--accept", "--all")).status).toBe(0)
    const baseline = fs.readFileSync(path.join(repo.dir, "specbundle.reviews"), "utf8")
    // Every Spec is recorded: the file changes in place from now on.
    expect(baseline.split("\n").filter((l) => l.startsWith("spec:")).length).toBe(23)
    repo.commit("baseline")
    edit(repo.dir, "test/rides/return-bike.test.ts", (t) => `${t}\n// again\n`)
    edit(repo.dir, "src/rides/fare.ts", (t) => `${t}\n// again\n`)
    repo.commit("three drift again")
    expect(ids((await drift(repo.dir)).report)).toEqual([FROM_THE_START, "spec:rides.return-bike.normal-return", "spec:rides.ride-fare-rule"])
    // spec:rides.return-bike.normal-return and spec:rides.ride-fare-rule are neighbours in the file.
    repo.git("checkout", "-q", "-b", "left")
    await drift(repo.dir, "--accept", "spec:rides.return-bike.normal-return")
    repo.commit("left")
    repo.git("checkout", "-q", "main")
    await drift(repo.dir, "--accept", "spec:rides.ride-fare-rule", FROM_THE_START)
    repo.commit("right")
    repo.git("merge", "-q", "--no-edit", "left")
    expect(repo.git("status", "--porcelain")).toBe("")
    expect(ids((await drift(repo.dir)).report)).toEqual([])
  })
})

describe("drift's parameters and edges", () => {
  it("--format github names the carrier as seen from the working folder, and gitlab from the repository's top", async () => {
    const repo = makeRepo()
    repo.write("pkg/specs/a.sdp.md", specCarrier("spec:a", "A"))
    repo.write("pkg/src/a.ts", codeAnchor("impl:a", ["spec:a"]))
    repo.commit("first")
    repo.write("pkg/src/a.ts", `${codeAnchor("impl:a", ["spec:a"])}// later\n`)
    repo.commit("later")
    const fromTop = await run(repo.dir, ["drift", "--root", "pkg", "--format", "github"])
    expect(fromTop.stdout).toMatch(/^::warning file=pkg\/specs\/a\.sdp\.md,title=specbundle drift%3A spec%3Aa::spec:a drifted since /)
    const inside = await run(path.join(repo.dir, "pkg"), ["drift", "--format", "github"])
    expect(inside.stdout).toMatch(/^::warning file=specs\/a\.sdp\.md,/)
    const gitlab = JSON.parse((await run(path.join(repo.dir, "pkg"), ["drift", "--format", "gitlab"])).stdout)
    expect(gitlab.map((i: { location: { path: string } }) => i.location.path)).toEqual(["pkg/specs/a.sdp.md"])
  })

  it("follows a bound file through a rename: the rename is a change, and the commits before it count under the new name", async () => {
    const repo = makeRepo()
    repo.write("specs/a.sdp.md", specCarrier("spec:a", "A"))
    repo.write("src/a.ts", codeAnchor("impl:a", ["spec:a"]))
    repo.commit("spec and code together")
    repo.write("src/a.ts", `${codeAnchor("impl:a", ["spec:a"])}export const edited = 1\n`)
    const edited = repo.commit("code edited")
    repo.git("mv", "src/a.ts", "src/b.ts")
    const moved = repo.commit("code moved")
    const r = await drift(repo.dir)
    expect(r.report!.drifted).toEqual([
      {
        id: "spec:a",
        file: "specs/a.sdp.md",
        watermark: { commit: expect.any(String), by: "carrier" },
        reasons: [{ file: "src/b.ts", via: { id: "impl:a", edgeType: "satisfies", claim: "anchored" }, commits: [edited, moved] }]
      }
    ])
  })

  it("refuses a changeset that is not a range, an accept without ids, ids without --accept, and an unknown id: exit 2 with diagnostics", async () => {
    const repo = await example()
    for (const args of [
      ["--changeset", "HEAD~1"],
      ["--accept"],
      ["spec:rides.return-bike"],
      ["--accept", "spec:no.such"],
      ["--accept", "--changeset", "HEAD~1...HEAD", "x"]
    ]) {
      const r = await run(repo.dir, ["drift", ...args])
      expect(r.status, args.join(" ")).toBe(2)
      expect(JSON.parse(r.stdout).diagnostics.length).toBeGreaterThan(0)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
    expect(fs.existsSync(path.join(repo.dir, "specbundle.reviews"))).toBe(false)
  })

  it("a shallow clone says in one line how far its history reaches", async () => {
    const repo = await example()
    const clone = path.join(tempDir("specbundle-drift-shallow-"), "c")
    runGitIn(path.dirname(clone), ["clone", "-q", "--depth", "1", `file://${repo.dir}`, clone])
    const r = await drift(clone)
    expect(r.status).toBe(0)
    expect(r.stderr.split("\n").filter((l) => l.includes("shallow clone"))).toEqual([
      expect.stringMatching(/^specbundle: drift: HEAD: shallow clone: the history stops after 1 commit; .*23 Specs.*git fetch --unshallow/)
    ])
  })
})
