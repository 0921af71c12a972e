// Where a user is stuck, the line says the next step (issue 37), run in process in a real git
// history of the example corpus: a path where a Spec id goes, an empty id in a list, a revision git
// does not know, a revision given without --changeset, an empty --exclude. Exit codes as the
// contract has them: 2 for wrong parameters (with the { diagnostics } value), 1 for git's refusal.
import { beforeAll, describe, expect, it } from "vitest"
import { exampleHistory, makeRepo, specCarrier } from "../support/git.js"
import { run, type Run } from "../support/run.js"

let repo = ""
beforeAll(() => {
  repo = exampleHistory("specbundle-next-").dir
})

const lines = (text: string) => text.split("\n").filter((l) => l !== "")

/** Exit 2, the { diagnostics } value on stdout, and the one stderr line that joins its rows. */
const diagnostics = (r: Run): Array<{ scope: string; problem: string }> => {
  expect(r.status, r.stderr).toBe(2)
  const rows = (JSON.parse(r.stdout) as { diagnostics: Array<{ scope: string; problem: string }> }).diagnostics
  expect(lines(r.stderr)).toEqual([`specbundle: ${rows.map((d) => `${d.scope}: ${d.problem}`).join("; ")}`])
  return rows
}

describe("a path where a Spec id goes", () => {
  it("says what ids look like and which command names them", async () => {
    expect(diagnostics(await run(repo, ["bundle", "--specs", "../x.sdp.md"]))).toEqual([
      {
        scope: "specs",
        problem: 'Unknown Spec "../x.sdp.md". A Spec id is not a file path: ids look like spec:<name>; specbundle list specs names them.'
      }
    ])
  })

  it("a carrier's own path gets the id of the Spec it holds", async () => {
    expect(diagnostics(await run(repo, ["bundle", "--specs", "./specs/rides/ride-fare-rule.sdp.md"]))).toEqual([
      {
        scope: "specs",
        problem:
          'Unknown Spec "./specs/rides/ride-fare-rule.sdp.md". Did you mean "spec:rides.ride-fare-rule" (the Spec in specs/rides/ride-fare-rule.sdp.md)? A Spec id is not a file path: ids look like spec:<name>; specbundle list specs names them.'
      }
    ])
  })

  it("an id without spec: gets the near id and the shape, once for the list", async () => {
    expect(diagnostics(await run(repo, ["bundle", "--specs", "rides.ride-fare-rule,nope"]))).toEqual([
      {
        scope: "specs",
        problem:
          'Unknown Spec "rides.ride-fare-rule". Did you mean "spec:rides.ride-fare-rule"? Spec ids look like spec:<name>; specbundle list specs names them.'
      },
      { scope: "specs", problem: 'Unknown Spec "nope".' }
    ])
  })
})

describe("an empty id in a list", () => {
  it("--specs 'a,,b' says an empty id, not Unknown Spec \"\"", async () => {
    const rows = diagnostics(await run(repo, ["bundle", "--specs", "spec:rides.ride-fare-rule,,spec:rides.rider-model"]))
    expect(rows).toEqual([
      {
        scope: "specs",
        problem: "An empty id in the list (two commas together, or a comma at an end); Spec ids look like spec:<name>, and specbundle list specs names them."
      }
    ])
    expect(JSON.stringify(rows)).not.toContain('Unknown Spec \\"\\"')
  })

  it("--members with a comma at the end says the same", async () => {
    expect(diagnostics(await run(repo, ["bundle", "--pack", "pack:rides-v1", "--members", "spec:rides.ride-fare-rule,"]))).toEqual([
      {
        scope: "members",
        problem: "An empty id in the list (two commas together, or a comma at an end); Spec ids look like spec:<name>, and specbundle list specs names them."
      }
    ])
  })
})

describe("a revision", () => {
  it("git does not know: exit 1, one line saying how to look it up or fetch it", async () => {
    for (const command of ["impact", "bundle"]) {
      const r = await run(repo, [command, "--changeset", "nope~3"])
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(lines(r.stderr)).toEqual([
        'specbundle: unknown revision "nope~3": git does not know it in this repository; look it up with git log --oneline (or git branch -a), or fetch it with git fetch'
      ])
    }
  })

  it("before a first commit: no commit before it, and --staged for a first commit (fetching cannot help)", async () => {
    const one = makeRepo()
    one.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    one.commit("first")
    const staged = "for what a first commit records, run with --staged before committing it"
    for (const command of ["impact", "bundle"]) {
      const r = await run(one.dir, [command, "--changeset", "HEAD~1"])
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(lines(r.stderr)).toEqual([`specbundle: unknown revision "HEAD~1": HEAD is the first commit, there is no commit before it; ${staged}`])
      const range = await run(one.dir, [command, "--changeset", "HEAD~1..HEAD"])
      expect(lines(range.stderr)).toEqual([`specbundle: unknown revision "HEAD~1": HEAD is the first commit, there is no commit before it; ${staged}`])
    }
    // Past the first commit of a longer history: where the history ends, not "fetch it".
    expect(lines((await run(repo, ["impact", "--changeset", "HEAD~5"])).stderr)).toEqual([
      'specbundle: unknown revision "HEAD~5": the history of HEAD ends before it (git log --oneline HEAD lists its commits)'
    ])
    // An empty repository: HEAD's branch is unborn.
    const empty = makeRepo()
    empty.write("specs/a.sdp.md", specCarrier("spec:a.one"))
    for (const rev of ["HEAD", "HEAD~1", "@~2"]) {
      const r = await run(empty.dir, ["impact", "--changeset", rev])
      expect(r.status).toBe(1)
      expect(lines(r.stderr)).toEqual([`specbundle: unknown revision "${rev}": there is no commit yet (the branch main is unborn); ${staged}`])
    }
    // --staged works there.
    empty.git("add", "-A")
    expect((await run(empty.dir, ["impact", "--staged"])).status).toBe(0)
  })

  it("given as a bare word: did you mean --changeset", async () => {
    expect(diagnostics(await run(repo, ["impact", "HEAD~1"]))).toEqual([
      {
        scope: "arguments",
        problem:
          "unexpected argument 'HEAD~1' for specbundle impact (a revision goes after --changeset: did you mean --changeset HEAD~1?). See specbundle impact --help."
      }
    ])
    // impact reads nothing but a change: a branch name gets the hint too; bundle only for what reads as a revision.
    expect(diagnostics(await run(repo, ["impact", "main"]))[0].problem).toContain("did you mean --changeset main?")
    expect(diagnostics(await run(repo, ["bundle", "HEAD~1..HEAD"]))[0].problem).toContain("did you mean --changeset HEAD~1..HEAD?")
    expect(diagnostics(await run(repo, ["bundle", "rides"]))).toEqual([
      { scope: "arguments", problem: "unexpected argument 'rides' for specbundle bundle. See specbundle bundle --help." }
    ])
  })
})

describe("an empty --exclude", () => {
  it("is refused on one line, exit 2, either spelling; nothing is read", async () => {
    for (const args of [
      ["check", "--exclude", ""],
      ["check", "--exclude="],
      ["bundle", "--pack", "pack:rides-v1", "--exclude", "specs/decisions", "--exclude", ""]
    ]) {
      expect(diagnostics(await run(repo, args))).toEqual([
        { scope: "arguments", problem: '--exclude "" is empty: give it a value (--exclude PATH), or leave the option out.' }
      ])
    }
  })
})
