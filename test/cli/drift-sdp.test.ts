// `specbundle drift` on the real history of the SDP reference repository
// (libar-dev/software-delivery-protocol), cloned at run time by scripts/sdp-reference.mjs
// ($SPECBUNDLE_SDP_REPO, this machine's mirror, or GitHub; bounded in time) and pinned to one
// commit; nothing of it is kept here. Its own Spec corpus is the repository less explorations,
// examples and test/fixtures/import/parity (161 Specs, 157 anchors at the pin). Shown on its real
// commits, checked out in temp clones, with new commits on top where a case needs one: the
// anchored reasons and watermarks against what git log says on its own; an anchored code file's
// edit; --accept and its record; edits outside every anchor; a stood-on Spec changed in substance
// (a real one and a new one) and the drifted Spec's own edit clearing it; --changeset on real
// ranges against absolute runs at both ends; the same bytes cached, uncached, 0 and 2 workers.
// Where no source can be cloned, one `skipped: …` line and the tests skip.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { REPO, cacheEnv, cliAsync, gitCleanEnv, runAsync } from "../support/cli.js"
import { type Repo, repoAt, runGitIn, tempDir } from "../support/git.js"
import { run } from "../support/run.js"
import { skipping } from "../support/skip.js"

interface Reason {
  readonly file: string
  readonly via: { readonly id: string; readonly edgeType: string; readonly claim: string }
  readonly commits: ReadonlyArray<string>
}
interface Row {
  readonly id: string
  readonly file: string
  readonly watermark: { readonly commit: string; readonly by: string }
  readonly reasons: ReadonlyArray<Reason>
}
interface Report {
  readonly commit: string
  readonly base: string | null
  readonly specs: number
  readonly drifted: ReadonlyArray<Row>
}

type Reference = { readonly dir: string; readonly pin: string; readonly exclude: ReadonlyArray<string> } | { readonly skip: string }

// One clone per file, from which every test clones its own (a local clone: hard links, no network).
const reference: Reference = await (async () => {
  const dir = path.join(tempDir("specbundle-sdp-"), "sdp")
  const r = await runAsync(process.execPath, [path.join(REPO, "scripts", "sdp-reference.mjs"), dir], { cwd: REPO, env: gitCleanEnv(), timeout: 400_000 })
  const last = r.stdout.trim().split("\n").pop() ?? ""
  try {
    return JSON.parse(last) as Reference
  } catch {
    return { skip: `scripts/sdp-reference.mjs exited ${r.status}: ${r.stderr.trim().split("\n").pop() ?? ""}` }
  }
})()
const skip = skipping("skip" in reference, "drift on the SDP reference history", "skip" in reference ? reference.skip : "")
const PIN = "skip" in reference ? "" : reference.pin
const EXCLUDE = "skip" in reference ? [] : reference.exclude.flatMap((e) => ["--exclude", e])

/** A clone of the reference at the pin, detached, of its own. */
const fresh = (): Repo => {
  if ("skip" in reference) throw new Error(reference.skip)
  const dir = path.join(tempDir("specbundle-sdp-work-"), "sdp")
  runGitIn(path.dirname(dir), ["clone", "-q", "--no-checkout", reference.dir, dir])
  runGitIn(dir, ["-c", "advice.detachedHead=false", "checkout", "-q", "--detach", PIN])
  return repoAt(dir)
}

const drift = async (repo: Repo, ...args: string[]) => {
  const r = await run(repo.dir, ["drift", ...EXCLUDE, ...args])
  return { ...r, report: r.status === 0 || r.status === 3 ? (JSON.parse(r.stdout) as Report) : null }
}

const ids = (report: Report | null) => (report?.drifted ?? []).map((d) => d.id)
const rowOf = (report: Report | null, id: string) => report?.drifted.find((d) => d.id === id)
const full = (repo: Repo, rev: string) => repo.git("rev-parse", "--verify", `${rev}^{commit}`).trim()
const sorted = (xs: ReadonlyArray<string>) => [...xs].sort()
/** git in the clone without holding the test worker's event loop (the first test asks it ~260 times). */
const gitAsync = async (repo: Repo, ...args: string[]) => {
  const r = await runAsync("git", args, { cwd: repo.dir, env: gitCleanEnv(), timeout: 60_000 })
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`)
  return r.stdout
}

const edit = (repo: Repo, file: string, change: (text: string) => string) => {
  const at = path.join(repo.dir, file)
  fs.writeFileSync(at, change(fs.readFileSync(at, "utf8")))
}
/** An edit of a Spec carrier that changes no substance: one more blank line at its end. */
const touch = (text: string) => `${text}\n`

describe.skipIf(skip)("specbundle drift on the SDP reference repository's real history", () => {
  it("at the pin: each watermark is the carrier's last commit and each anchored reason's commits are what git log lists after it", async () => {
    const repo = fresh()
    const r = await drift(repo)
    expect(r.status, r.stderr).toBe(0)
    expect(r.report!.commit).toBe(PIN)
    expect(r.report!.specs).toBe(161)
    expect(r.report!.drifted.length).toBe(126)
    let anchored = 0
    for (const row of r.report!.drifted) {
      expect(row.watermark, row.id).toEqual({ commit: (await gitAsync(repo, "log", "-1", "--format=%H", PIN, "--", row.file)).trim(), by: "carrier" })
      for (const reason of row.reasons.filter((x) => x.via.claim === "anchored")) {
        anchored++
        const listed = (await gitAsync(repo, "rev-list", "--full-history", "--no-merges", PIN, `^${row.watermark.commit}`, "--", reason.file))
          .split("\n")
          .filter(Boolean)
        expect(sorted(reason.commits), `${row.id} ${reason.file}`).toEqual(sorted(listed))
      }
    }
    expect(anchored).toBe(133)
    // A real code edit after a Spec's last change: the Gherkin extractor, one commit.
    expect(rowOf(r.report, "spec:carrier.gherkin-authoring")!.reasons).toContainEqual({
      file: "src/extract/gherkin.ts",
      via: { id: "impl:protocol.gherkin-authoring", edgeType: "satisfies", claim: "anchored" },
      commits: [full(repo, "14cc5594b7a9")]
    })
    // A real change in substance of a Spec another dependsOn, and nothing else: one reason, one commit.
    expect(rowOf(r.report, "spec:observation.runtime-overlay")!.reasons).toEqual([
      {
        file: "specs/model/core-model.sdp.md",
        via: { id: "spec:model.core-model", edgeType: "dependsOn", claim: "declared" },
        commits: [full(repo, "57368775bb2d")]
      }
    ])
  }, 120_000)

  it("an anchored code file edited after its Spec's last change lists the Spec with the file and the commit; --accept records it and the next run is clean", async () => {
    const repo = fresh()
    const before = ids((await drift(repo)).report)
    expect(before).not.toContain("spec:model.relations")
    edit(repo, "src/model/relations.ts", (t) => `${t}// a later edit\n`)
    const commit = repo.commit("relations: a later edit")
    const after = await drift(repo)
    expect(ids(after.report)).toEqual(sorted([...before, "spec:model.relations"]))
    const row = rowOf(after.report, "spec:model.relations")!
    expect(row.watermark.by).toBe("carrier")
    expect(row.reasons).toEqual([
      { file: "src/model/relations.ts", via: { id: "impl:protocol.spec-relations", edgeType: "satisfies", claim: "anchored" }, commits: [commit] }
    ])

    // The new drift and a real one (the Gherkin extractor's commit) accepted in one call.
    const accepted = await drift(repo, "--accept", "spec:model.relations", "spec:carrier.gherkin-authoring")
    expect(accepted.status, accepted.stderr).toBe(0)
    const rest = before.filter((id) => id !== "spec:carrier.gherkin-authoring")
    expect(ids(accepted.report)).toEqual(rest)
    const record = fs.readFileSync(path.join(repo.dir, "specbundle.reviews"), "utf8")
    expect(record.split("\n").filter((l) => l.startsWith("spec:"))).toEqual([`spec:carrier.gherkin-authoring\t${commit}`, `spec:model.relations\t${commit}`])
    expect(ids((await drift(repo)).report)).toEqual(rest)
    repo.commit("record the reviews")
    expect(ids((await drift(repo)).report)).toEqual(rest)
  }, 120_000)

  it("edits outside every anchor and every carrier list nothing new", async () => {
    const repo = fresh()
    const before = (await drift(repo)).report!
    edit(repo, "README.md", (t) => `${t}\nA line.\n`)
    edit(repo, "src/cli/sdp.ts", (t) => `${t}// no anchor here\n`)
    repo.write("docs/notes.md", "notes\n")
    repo.commit("edits outside every anchor")
    const after = (await drift(repo)).report!
    expect(after.drifted).toEqual(before.drifted)
  }, 120_000)

  it("a Spec others dependsOn changed in substance drifts them; editing a drifted Spec clears it", async () => {
    const repo = fresh()
    const before = ids((await drift(repo)).report)
    // The real dependsOn drift: its own edit (no change of substance) is its review.
    expect(before).toContain("spec:observation.runtime-overlay")
    edit(repo, "specs/observation/runtime-overlay.sdp.md", touch)
    repo.commit("runtime-overlay: read again")
    const cleared = ids((await drift(repo)).report)
    expect(cleared).toEqual(before.filter((id) => id !== "spec:observation.runtime-overlay"))

    // A Spec three others dependsOn (one of them clean) edited in layout only: that edit reviews
    // it (it was drifted at the pin) and drifts none of them.
    expect(cleared).not.toContain("spec:carrier.markdown-authoring")
    expect(cleared).toContain("spec:carrier.markdown-parser")
    edit(repo, "specs/carrier/markdown-parser.sdp.md", touch)
    const layout = repo.commit("markdown-parser: layout only")
    const reviewed = (await drift(repo)).report
    expect(ids(reviewed)).toEqual(cleared.filter((id) => id !== "spec:carrier.markdown-parser"))
    for (const row of reviewed!.drifted) for (const reason of row.reasons) expect(reason.commits, row.id).not.toContain(layout)

    // Then a change in substance (its title).
    edit(repo, "specs/carrier/markdown-parser.sdp.md", (t) => t.replace(/^# (.*)$/m, "# $1, revised"))
    const changed = repo.commit("markdown-parser: a new title")
    const r = (await drift(repo)).report
    const via = { file: "specs/carrier/markdown-parser.sdp.md", via: { id: "spec:carrier.markdown-parser", edgeType: "dependsOn", claim: "declared" } }
    for (const dependent of ["spec:carrier.markdown-authoring", "spec:carrier.markdown-pack-authoring", "spec:validation.duplicate-ids"]) {
      const reason = rowOf(r, dependent)?.reasons.find((x) => x.file === via.file && x.via.edgeType === "dependsOn")
      expect(reason, dependent).toMatchObject(via)
      expect(reason!.commits.at(-1), dependent).toBe(changed)
    }
    // Only the commit that changed it in substance, not the layout one.
    expect(rowOf(r, "spec:carrier.markdown-authoring")!.reasons).toEqual([{ ...via, commits: [changed] }])
    expect(ids(r)).not.toContain("spec:carrier.markdown-parser")

    edit(repo, "specs/carrier/markdown-authoring.sdp.md", touch)
    repo.commit("markdown-authoring: read again")
    expect(ids((await drift(repo)).report)).not.toContain("spec:carrier.markdown-authoring")
  }, 120_000)

  // Real ranges of the history: two merged pull requests' main-line steps, a branch against main
  // (A...B), a run of commits inside a branch, a range that touched Specs and drifted none, a
  // branch whose merge base is not A, and A..B with A off B's line.
  const RANGES = [
    "c0803ce8388f717adc376ca931553cdf56c176da..f973ffaff8672fa25f2b1f2f005ce4f294d52b20",
    "9f9d993d944cec3163e8d99a8f51f6353a95c0cd...b290ff81c0d77c0396f9c67113b3b43365b2b886",
    "057019f0077909e680175b43a8de724920a5f419..d22faa38c843c98267533ba3feed5ab10093f669",
    "3539f393c6d4c6fb8a403aeff95c978672225ea9..c3ab439c150d48433d3d88e8fbd7b0a5d17b400a",
    "55df059515c71e63a780e9e799a58ff35bd1754a...2a655df771e8a9fbef2ee06fca5f8828dca63bd4",
    "2a655df771e8a9fbef2ee06fca5f8828dca63bd4..55df059515c71e63a780e9e799a58ff35bd1754a"
  ]

  it("--changeset A..B and A...B on real ranges list exactly the Specs drifted at B and clean at A (absolute runs at both ends); --fail-on-drift exits 3 only then", async () => {
    const repo = fresh()
    const absolute = new Map<string, ReadonlyArray<string>>()
    const at = async (commit: string) => {
      if (!absolute.has(commit)) {
        repo.git("-c", "advice.detachedHead=false", "checkout", "-q", "--detach", commit)
        const r = await drift(repo)
        expect(r.status, r.stderr).toBe(0)
        absolute.set(commit, ids(r.report))
      }
      return absolute.get(commit)!
    }
    const sizes: number[] = []
    for (const range of RANGES) {
      const [a, b] = range.split(/\.\.\.?/)
      const base = range.includes("...") ? repo.git("merge-base", a, b).trim() : a
      const clean = new Set(await at(base))
      const expected = (await at(b)).filter((id) => !clean.has(id))
      const r = await drift(repo, "--changeset", range, "--fail-on-drift")
      expect(r.report!.base, range).toBe(base)
      expect(r.report!.commit, range).toBe(b)
      expect(ids(r.report), range).toEqual(expected)
      expect(r.status, range).toBe(expected.length > 0 ? 3 : 0)
      sizes.push(expected.length)
    }
    // What each range introduces (the sizes keep the test honest about having both kinds).
    expect(sizes).toEqual([9, 11, 4, 0, 0, 23])
    // The fifth range's merge base is not its A.
    expect(repo.git("merge-base", "55df059515c71e63a780e9e799a58ff35bd1754a", "2a655df771e8a9fbef2ee06fca5f8828dca63bd4").trim()).not.toBe(
      "55df059515c71e63a780e9e799a58ff35bd1754a"
    )
  }, 400_000)

  it("prints the same bytes on every run: twice with a cache, without one, with 0 and with 2 worker threads", async () => {
    const repo = fresh()
    const cache = tempDir("specbundle-sdp-cache-")
    const runs: Record<string, string> = {}
    for (const [name, env] of [
      ["cache, first", cacheEnv(cache)],
      ["cache, again", cacheEnv(cache)],
      ["no cache", cacheEnv(undefined)],
      ["0 workers", cacheEnv(undefined, { SPECBUNDLE_WORKERS: "0" })],
      ["2 workers", cacheEnv(undefined, { SPECBUNDLE_WORKERS: "2" })],
      ["2 workers, cache", cacheEnv(cache, { SPECBUNDLE_WORKERS: "2" })]
    ] as const) {
      const r = await cliAsync(repo.dir, ["drift", ...EXCLUDE], { env, timeout: 120_000 })
      expect(r.status, `${name}: ${r.stderr}`).toBe(0)
      runs[name] = r.stdout
    }
    const first = runs["cache, first"]
    expect(JSON.parse(first).drifted.length).toBe(126)
    for (const [name, out] of Object.entries(runs)) expect(out, name).toBe(first)
    // A range too, warm and cold.
    const range = ["drift", ...EXCLUDE, "--changeset", RANGES[0], "--format", "text"]
    const warm = await cliAsync(repo.dir, range, { env: cacheEnv(cache), timeout: 120_000 })
    const cold = await cliAsync(repo.dir, range, { env: cacheEnv(undefined), timeout: 120_000 })
    expect(warm.status).toBe(0)
    expect(cold.stdout).toBe(warm.stdout)
  }, 400_000)
})
