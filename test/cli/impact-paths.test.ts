// `impact --paths-from FILE|-` (and the MCP impact tool's `paths`): the Specs a change to exactly
// those paths impacts, the graph read from the work tree, equal to `impact --changeset A..B` for
// real ranges of a real history whose changes are exactly those paths (the example history, two
// more commits on top: a modified code file and carrier, an added Spec and an added test). stdin
// works as a file does; a file that is not there, a path that leaves the repository, a second
// changeset are exit 2 with one line; a path the work tree lacks is deleted and impacts nothing.
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as fs from "node:fs"
import * as path from "node:path"
import { spawnSync } from "node:child_process"
import { beforeAll, describe, expect, it } from "vitest"
import { decodeArguments } from "../../src/entrances/mcp/arguments.js"
import { ImpactParameters, inputSchemaOf } from "../../src/entrances/mcp/tools.js"
import { impactOutput } from "../../src/core/render/outputs.js"
import { Changes } from "../../src/usecases/Changes.js"
import { ImpactRequest, requestOf } from "../../src/usecases/requests.js"
import { BIN, gitCleanEnv } from "../support/cli.js"
import { exampleHistory, type Repo, specCarrier, tempDir } from "../support/git.js"
import { run } from "../support/run.js"
import { TestRuntime } from "../support/runtime.js"

let repo: Repo
beforeAll(() => {
  repo = exampleHistory("specbundle-paths-")
  // A third commit: an added Spec that refines the fare rule, an added test anchored to the ride lifecycle.
  repo.write(
    "specs/rides/ride-discount.sdp.md",
    specCarrier("spec:rides.ride-discount", "A discount", "relations:\n  refines:\n    - spec:rides.ride-fare-rule")
  )
  repo.write(
    "tests/rides/lifecycle-extra.test.ts",
    "/**\n * @sdpAnchor test:rides.lifecycle-extra\n * @sdpVerifies spec:rides.ride-lifecycle\n */\nexport const x = 1\n"
  )
  repo.commit("three")
  // A fourth: the fare code again, and a docs file no Spec covers.
  fs.appendFileSync(path.join(repo.dir, "src/rides/fare.ts"), "\nexport const later = 2\n")
  repo.write("NOTES.md", "notes\n")
  repo.commit("four")
})

type Report = { changedFiles: Array<{ path: string }>; impactedSpecs: unknown[]; impactedPacks: unknown[]; coverageUnknown: string[] }
const report = (r: { status: number | null; stdout: string; stderr: string }): Report => {
  expect(r.status, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as Report
}

describe("impact --paths-from", () => {
  it("equals impact --changeset A..B for every range to HEAD, whose changed paths it is given", async () => {
    for (const from of ["HEAD~1", "HEAD~2", "HEAD~3"]) {
      const names = repo.git("diff", "--name-only", "--no-renames", from, "HEAD")
      const file = path.join(tempDir("specbundle-paths-list-"), "paths.txt")
      fs.writeFileSync(file, names)
      const range = report(await run(repo.dir, ["impact", "--changeset", `${from}..HEAD`]))
      const given = report(await run(repo.dir, ["impact", "--paths-from", file]))
      expect(given.impactedSpecs.length, from).toBeGreaterThan(0)
      expect(given.impactedSpecs, from).toEqual(range.impactedSpecs)
      expect(given.impactedPacks, from).toEqual(range.impactedPacks)
      expect(given.coverageUnknown, from).toEqual(range.coverageUnknown)
      expect(given.changedFiles.map((f) => f.path)).toEqual(range.changedFiles.map((f) => f.path))
    }
  })

  it("reads stdin for -, in process and as a subprocess, as it reads a file (CRLF, blank lines and ./ are fine)", async () => {
    const names = repo.git("diff", "--name-only", "HEAD~2", "HEAD")
    const file = path.join(tempDir("specbundle-paths-list-"), "paths.txt")
    fs.writeFileSync(file, names)
    const fromFile = await run(repo.dir, ["impact", "--paths-from", file, "--format", "text"])
    expect(fromFile.status, fromFile.stderr).toBe(0)
    const messy = `\n${names
      .split("\n")
      .map((l) => (l === "" ? l : `./${l}\r`))
      .join("\n")}\n\n`
    expect((await run(repo.dir, ["impact", "--paths-from", "-", "--format", "text"], { stdin: messy })).stdout).toBe(fromFile.stdout)
    const piped = spawnSync(process.execPath, [BIN, "impact", "--paths-from", "-", "--format", "text"], {
      cwd: repo.dir,
      input: names,
      encoding: "utf8",
      env: gitCleanEnv()
    })
    expect(piped.status, piped.stderr).toBe(0)
    expect(piped.stdout).toBe(fromFile.stdout)
  })

  it("a file that is not there, a path leaving the repository, or a changeset beside it: exit 2, one line naming the flag", async () => {
    const missing = await run(repo.dir, ["impact", "--paths-from", "no-such-list.txt"])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toBe("specbundle: paths-from: --paths-from no-such-list.txt: no such file.\n")
    expect(JSON.parse(missing.stdout)).toEqual({ diagnostics: [{ scope: "paths-from", problem: "--paths-from no-such-list.txt: no such file." }] })
    for (const [stdin, problem] of [
      ["../elsewhere/a.ts\n", '"../elsewhere/a.ts" leaves the repository (..); paths are relative to its top'],
      ["/etc/passwd\n", '"/etc/passwd" is absolute; paths are relative to the repository\'s top']
    ]) {
      const r = await run(repo.dir, ["impact", "--paths-from", "-"], { stdin })
      expect(r.status).toBe(2)
      expect(r.stderr).toBe(`specbundle: paths-from: ${problem}\n`)
    }
    const both = await run(repo.dir, ["impact", "--paths-from", "-", "--changeset", "HEAD"], { stdin: "src/rides/fare.ts\n" })
    expect(both.status).toBe(2)
    expect(both.stderr).toBe("specbundle: changeset: Give exactly one of --changeset REV|A..B|A...B, --staged or --paths-from FILE|-.\n")
  })

  it("a path the work tree lacks is deleted: listed, impacting nothing by itself (coverage unknown)", async () => {
    const r = report(await run(repo.dir, ["impact", "--paths-from", "-"], { stdin: "src/rides/gone.ts\nsrc/rides/fare.ts\n" }))
    expect(r.changedFiles).toEqual([
      { path: "src/rides/fare.ts", status: "modified" },
      { path: "src/rides/gone.ts", status: "deleted" }
    ])
    expect(r.coverageUnknown).toEqual(["src/rides/gone.ts"])
  })
})

describe("the MCP impact tool's paths", () => {
  const Live = Changes.Default.pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, TestRuntime)))

  it("is an array of strings from the same field, and gives the CLI's bytes", async () => {
    const schema = inputSchemaOf(ImpactParameters.schema) as { properties: Record<string, unknown> }
    expect(schema.properties.paths).toEqual({
      type: "array",
      items: { type: "string" },
      description: ImpactRequest.fields.paths.ast.annotations?.description
    })
    const paths = repo
      .git("diff", "--name-only", "HEAD~2", "HEAD")
      .split("\n")
      .filter((l) => l !== "")
    const decoded = decodeArguments(ImpactParameters.schema, { root: repo.dir, paths, format: "text" })
    if (Result.isFailure(decoded)) throw new Error(JSON.stringify(decoded.failure))
    const p = ImpactParameters.arguments(decoded.success)
    const text = await Effect.runPromise(
      Effect.gen(function* () {
        const { report, graph } = yield* (yield* Changes).report(requestOf(ImpactRequest, p))
        return impactOutput(report, graph, p.format)
      }).pipe(Effect.provide(Live))
    )
    const cli = await run(repo.dir, ["impact", "--paths-from", "-", "--format", "text"], { stdin: paths.join("\n") })
    expect(text).toBe(cli.stdout)
    // A wrong element is the decoder's one line for the parameter.
    expect(Result.isFailure(decodeArguments(ImpactParameters.schema, { paths: "src/a.ts" }))).toBe(true)
  })
})
