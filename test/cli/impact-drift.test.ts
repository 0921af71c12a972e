// `impact --drift` (issue 51): the impact report's formats gain the drift section, "this change
// leaves N Specs drifted" with the accept command, in the example history (a real git repository):
// for a range, the drift `drift --changeset` reports; for REV, REV..HEAD's; for --staged, what the
// staged change's commit would drift over HEAD. Without --drift the report keeps its bytes. In
// process (test/support/run.ts).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { exampleHistory } from "../support/git.js"
import { run } from "../support/run.js"

const ok = async (cwd: string, args: string[]) => {
  const r = await run(cwd, args)
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

const edit = (dir: string, file: string, change: (text: string) => string) => {
  const at = path.join(dir, file)
  fs.writeFileSync(at, change(fs.readFileSync(at, "utf8")))
}

describe("impact --drift", () => {
  it("for a range: every format gains the drift section `drift --changeset` gives; without --drift the bytes are the report's own", async () => {
    const repo = exampleHistory("specbundle-impact-drift-")
    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// a later edit\n`)
    repo.commit("return: a later edit")
    const range = "HEAD~1..HEAD"
    const impact = (...more: string[]) => ok(repo.dir, ["impact", "--changeset", range, ...more])
    const drift = (...more: string[]) => ok(repo.dir, ["drift", "--changeset", range, ...more])

    const plain = JSON.parse(await impact())
    expect(Object.keys(plain)).not.toContain("drift")
    const withDrift = JSON.parse(await impact("--drift"))
    const section = JSON.parse(await drift())
    expect(withDrift).toEqual({ ...plain, drift: section })
    expect(Object.keys(withDrift).at(-1)).toBe("drift")
    expect(section.drifted.map((d: { id: string }) => d.id)).toEqual(["spec:rides.return-bike"])

    for (const format of ["text", "markdown"]) {
      expect(await impact("--drift", "--format", format)).toBe(`${await impact("--format", format)}\n${await drift("--format", format)}`)
    }
    expect(await impact("--drift", "--format", "text")).toContain("after reading them: specbundle drift --accept spec:rides.return-bike")
    const gitlab = JSON.parse(await impact("--drift", "--format", "gitlab"))
    expect(gitlab).toEqual([...JSON.parse(await impact("--format", "gitlab")), ...JSON.parse(await drift("--format", "gitlab"))])
  })

  it("for REV against the work tree: the drift of REV..HEAD", async () => {
    const repo = exampleHistory("specbundle-impact-drift-")
    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// a later edit\n`)
    repo.commit("return: a later edit")
    const report = JSON.parse(await ok(repo.dir, ["impact", "--changeset", "HEAD~1", "--drift"]))
    expect(report.drift).toEqual(JSON.parse(await ok(repo.dir, ["drift", "--changeset", "HEAD~1..HEAD"])))
    expect(report.drift.changeset).toBe("HEAD~1..HEAD")
  })

  it("for --staged: the Specs the staged change's commit would drift over HEAD; a staged edit of the Spec itself reviews it", async () => {
    const repo = exampleHistory("specbundle-impact-drift-")
    const staged = async () => JSON.parse(await ok(repo.dir, ["impact", "--staged", "--drift"])).drift
    const head = repo.git("rev-parse", "HEAD").trim()
    // Nothing staged: nothing drifted (the Spec drifted before, at HEAD, is not this change's).
    expect((await staged()).drifted).toEqual([])

    edit(repo.dir, "src/rides/return.ts", (t) => `${t}\n// staged work\n`)
    repo.git("add", "src/rides/return.ts")
    const section = await staged()
    expect(section).toMatchObject({ changeset: "--staged", commit: "staged", base: head })
    expect(section.drifted).toEqual([
      {
        id: "spec:rides.return-bike",
        file: "specs/rides/return-bike.sdp.md",
        watermark: expect.objectContaining({ by: "carrier" }),
        reasons: [{ file: "src/rides/return.ts", via: { id: "impl:rides.return-bike", edgeType: "satisfies", claim: "anchored" }, commits: ["staged"] }]
      }
    ])
    const text = await ok(repo.dir, ["impact", "--staged", "--drift", "--format", "text"])
    expect(text).toContain(`drift --staged (root .): 1 Spec clean at ${head.slice(0, 12)} and drifted at staged`)
    // An unstaged edit is not the staged change's.
    edit(repo.dir, "src/rides/fare.ts", (t) => `${t}\n// unstaged\n`)
    expect((await staged()).drifted.map((d: { id: string }) => d.id)).toEqual(["spec:rides.return-bike"])
    // The Spec's own carrier staged beside it: read again, not drifted.
    edit(repo.dir, "specs/rides/return-bike.sdp.md", (t) => `${t}\n`)
    repo.git("add", "specs/rides/return-bike.sdp.md")
    expect((await staged()).drifted).toEqual([])
  })

  it("--drift with --paths-from is a wrong parameter naming --drift", async () => {
    const repo = exampleHistory("specbundle-impact-drift-")
    fs.writeFileSync(path.join(repo.dir, "..", "paths.txt"), "src/rides/return.ts\n")
    const r = await run(repo.dir, ["impact", "--paths-from", "../paths.txt", "--drift"])
    expect(r.status).toBe(2)
    expect(JSON.parse(r.stdout).diagnostics).toEqual([{ scope: "drift", problem: "--drift goes with --changeset or --staged, not --paths-from." }])
  })
})
