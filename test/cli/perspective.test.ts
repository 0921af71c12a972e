// Perspectives through the CLI run in process over the fixture corpus written for them
// (test/fixtures/perspectives): `perspective` prints what `bundle --perspective` composes, the
// bundle equals `bundle --members <that list>` apart from the scope's statement, the configuration
// names perspectives (and a profile picks one), `changed` reads a real git repository's changeset,
// and `watch` (the built CLI as a process, ended by SIGINT) re-evaluates the filter on each rebuild.
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { repoAt, runGitIn } from "../support/git.js"
import { BIN, REPO } from "../support/cli.js"
import { run as inProcess, type Run } from "../support/run.js"
import { copyInto, tempDir } from "../support/tmp.js"
import { whenStderr } from "../support/stderr.js"

const CORPUS = path.join(REPO, "test", "fixtures", "perspectives")
const PACK = "pack:lens-v1"

/** The CLI as a child process; asynchronous, so the test worker stays responsive while it runs. */
const run = (cwd: string, args: ReadonlyArray<string>): Promise<Run> => inProcess(cwd, args, { env: process.env })

const corpus = (config?: unknown): string => {
  const root = tempDir("specbundle-cli-perspective-")
  copyInto(CORPUS, root)
  if (config !== undefined) fs.writeFileSync(path.join(root, "specbundle.config.json"), JSON.stringify(config))
  return root
}

const lines = (stdout: string): string[] => stdout.split("\n").filter((l) => l !== "")

/** Exit 2 with `{ diagnostics }` on stdout and one line on stderr; returns the first problem. */
const diagnostic = (r: Run, scope: string): string => {
  expect(r.status).toBe(2)
  const value = JSON.parse(r.stdout) as { diagnostics: Array<{ scope: string; problem: string }> }
  expect(value.diagnostics[0]!.scope).toBe(scope)
  expect(lines(r.stderr)).toHaveLength(1)
  expect(r.stderr).not.toMatch(/^\s+at /m)
  return value.diagnostics[0]!.problem
}

/** The bundle line with the scope's perspective (and changeset) statement and the measured fields taken out. */
const withoutStatement = (line: string, perspective: string, changeset?: string): string => {
  const statement = `,"perspective":${JSON.stringify(perspective)}${changeset === undefined ? "" : `,"changeset":${JSON.stringify(changeset)}`}}`
  expect(line).toContain(statement)
  return measuredOut(line).replace(statement, "}")
}

/** The line with used and the token estimate zeroed, after checking used is its length. */
const measuredOut = (line: string): string => {
  const value = JSON.parse(line) as { used: number }
  expect(value.used).toBe(line.length)
  return line.replace(/"used":\d+,"tokenEstimate":\{"value":\d+,/, '"used":0,"tokenEstimate":{"value":0,')
}

const CONFIG = {
  perspectives: {
    "domain-first": { description: "Domain code, least ready first.", layer: "domain", order: "floor" },
    "story-gaps": { altitude: "story", anyOf: [{ hasVerifier: false }, { questions: "blocking" }] },
    nothing: { layer: "adapter" }
  },
  profiles: { review: { budget: "M", perspective: "not-ready" } }
}

describe("perspective and bundle --perspective", () => {
  const root = corpus(CONFIG)

  it("perspective prints the ordered ids, one a line, or as JSON", async () => {
    const r = await run(root, ["perspective", "--pack", PACK, "blocked"])
    expect(r.status).toBe(0)
    expect(r.stderr).toBe("")
    expect(r.stdout).toBe("spec:lens.beta\nspec:lens.gamma\nspec:lens.delta\n")
    const json = await run(root, ["perspective", "--pack", PACK, "domain-first", "--format", "json"])
    expect(json.status).toBe(0)
    expect(json.stdout).toBe('{"pack":"pack:lens-v1","members":["spec:lens.gamma","spec:lens.delta"],"perspective":"domain-first"}\n')
  })

  it.each(["blocked", "not-ready", "unverified", "unimplemented", "domain-first", "story-gaps"])(
    "bundle --perspective %s equals bundle --members <its list>, byte for byte apart from the scope's statement",
    async (name) => {
      const ids = lines((await run(root, ["perspective", "--pack", PACK, name])).stdout)
      expect(ids.length).toBeGreaterThan(0)
      const chosen = await run(root, ["bundle", "--pack", PACK, "--perspective", name])
      expect(chosen.status).toBe(0)
      const typed = await run(root, ["bundle", "--pack", PACK, "--members", ids.join(",")])
      expect(typed.status).toBe(0)
      const value = JSON.parse(chosen.stdout)
      expect(value.scope).toEqual({ pack: PACK, members: ids, perspective: name })
      expect(value.members.map((m: { id: string }) => m.id)).toEqual(ids)
      expect(withoutStatement(chosen.stdout.trimEnd(), name)).toBe(measuredOut(typed.stdout.trimEnd()))
    }
  )

  it("the same holds part by part under a small budget", async () => {
    const ids = lines((await run(root, ["perspective", "--pack", PACK, "unimplemented"])).stdout)
    const chosen = lines((await run(root, ["bundle", "--pack", PACK, "--perspective", "unimplemented", "--parts", "--budget", "2500"])).stdout)
    const typed = lines((await run(root, ["bundle", "--pack", PACK, "--members", ids.join(","), "--parts", "--budget", "2500"])).stdout)
    expect(chosen.length).toBeGreaterThan(1)
    expect(chosen.map((l) => withoutStatement(l, "unimplemented"))).toEqual(typed.map(measuredOut))
  })

  it("an empty selection is a valid bundle with members: [] and the Pack's framing and boundary", async () => {
    expect((await run(root, ["perspective", "--pack", PACK, "nothing"])).stdout).toBe("")
    const r = await run(root, ["bundle", "--pack", PACK, "--perspective", "nothing"])
    expect(r.status).toBe(0)
    const value = JSON.parse(r.stdout)
    expect(value.scope).toEqual({ pack: PACK, members: [], perspective: "nothing" })
    expect(value.members).toEqual([])
    expect(value.pack.id).toBe(PACK)
    expect(value.boundary.restsOn.map((row: { id: string }) => row.id)).toEqual(["spec:lens.base"])
  })

  it("a profile may name the perspective; --perspective overrides it", async () => {
    const r = await run(root, ["bundle", "--pack", PACK, "--profile", "review"])
    expect(r.status).toBe(0)
    const value = JSON.parse(r.stdout)
    expect(value.scope).toEqual({ pack: PACK, members: ["spec:lens.beta"], perspective: "not-ready" })
    expect(value.budget).toBe(64000)
    const over = JSON.parse((await run(root, ["bundle", "--pack", PACK, "--profile", "review", "--perspective", "blocked"])).stdout)
    expect(over.scope.perspective).toBe("blocked")
  })

  it("--out's manifest states the same scope as the value", async () => {
    const r = await run(root, ["bundle", "--pack", PACK, "--perspective", "not-ready", "--out", "out"])
    expect(r.status).toBe(0)
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "out", "manifest.json"), "utf8"))
    const part = JSON.parse(fs.readFileSync(path.join(root, "out", "part-001.json"), "utf8"))
    expect(manifest.scope).toEqual(part.scope)
    expect(manifest.scope).toEqual({ pack: PACK, members: ["spec:lens.beta"], perspective: "not-ready" })
  })

  it("wrong parameters are exit 2 diagnostics", async () => {
    const unknown = diagnostic(await run(root, ["bundle", "--pack", PACK, "--perspective", "nope"]), "perspective")
    expect(unknown).toBe('Unknown perspective "nope"; known: blocked, changed, not-ready, unimplemented, unverified, domain-first, nothing, story-gaps.')
    expect(diagnostic(await run(root, ["perspective", "--pack", PACK, "nope"]), "perspective")).toBe(unknown)
    expect(diagnostic(await run(root, ["perspective", "--pack", PACK]), "perspective")).toMatch(/^Give a perspective name; known: blocked, /)
    expect(diagnostic(await run(root, ["bundle", "--specs", "spec:lens.alpha", "--perspective", "blocked"]), "perspective")).toMatch(/--specs/)
    expect(diagnostic(await run(root, ["bundle", "--pack", PACK, "--members", "spec:lens.alpha", "--perspective", "blocked"]), "perspective")).toMatch(
      /--members/
    )
    expect(diagnostic(await run(root, ["bundle", "--perspective", "blocked"]), "perspective")).toMatch(/--pack/)
    expect(diagnostic(await run(root, ["perspective", "blocked"]), "perspective")).toMatch(/--pack/)
    expect(diagnostic(await run(root, ["bundle", "--pack", PACK, "--perspective", "changed"]), "perspective")).toMatch(/--changeset REV or --staged/)
    expect(diagnostic(await run(root, ["perspective", "--pack", "pack:nope", "blocked"]), "pack")).toBe('Unknown Pack "pack:nope". Known Packs: pack:lens-v1.')
  })
})

describe("perspectives in the configuration file", () => {
  const refused = async (config: unknown, needle: string) => {
    const r = await run(corpus(config), ["perspective", "--pack", PACK, "blocked"])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(lines(r.stderr)).toHaveLength(1)
    expect(r.stderr).toContain("specbundle.config.json: ")
    expect(r.stderr).toContain(needle)
  }

  it("a wrong value, an unknown key, a built-in's name and a profile's unknown perspective each name the key's path", async () => {
    const kinds = "expected one of behavior, workflow, example, rule, constraint, model, decision, contract, or a non-empty list of them"
    await Promise.all([
      refused({ perspectives: { x: { kind: "recipe" } } }, `perspectives.x.kind: ${kinds}`),
      refused({ perspectives: { x: { kind: [] } } }, `perspectives.x.kind: ${kinds}`),
      refused({ perspectives: { x: { ids: 5 } } }, "perspectives.x.ids: expected a string, or a non-empty list of them"),
      refused({ perspectives: { x: { relatesTo: { type: "dependsOn" } } } }, "perspectives.x.relatesTo.id: "),
      refused({ perspectives: { x: { anyOf: [{ holds: "yes" }] } } }, "perspectives.x.anyOf.0.holds: "),
      refused({ perspectives: { x: { layer: "ui" } } }, "perspectives.x.layer: "),
      refused({ perspectives: { x: { bogus: true } } }, "perspectives.x.bogus: unknown key"),
      refused({ perspectives: { blocked: { holds: true } } }, 'perspectives.blocked: "blocked" is a built-in perspective'),
      refused({ perspectives: { "a b": {} } }, "perspectives.a b: a perspective name is"),
      refused({ profiles: { p: { perspective: "nope" } } }, 'profiles.p.perspective: unknown perspective "nope" (known: blocked, ')
    ])
  })
})

describe("the changed perspective in a real git repository", () => {
  const repo = repoAt(corpus())
  runGitIn(repo.dir, ["init", "-q", "-b", "main"])
  repo.commit("the lens corpus")
  // delta's carrier and alpha's code change in the working tree; beta.ok's carrier is staged.
  fs.appendFileSync(path.join(repo.dir, "specs", "delta.sdp.md"), "- flow: The fitter polishes the lens.\n")
  fs.appendFileSync(path.join(repo.dir, "src", "alpha.ts"), "export const again = 2\n")

  it("selects the members the changeset impacts, in manifest order, and the scope states the changeset", async () => {
    expect((await run(repo.dir, ["perspective", "--pack", PACK, "changed", "--changeset", "HEAD"])).stdout).toBe("spec:lens.alpha\nspec:lens.delta\n")
    const r = await run(repo.dir, ["bundle", "--pack", PACK, "--perspective", "changed", "--changeset", "HEAD"])
    expect(r.status).toBe(0)
    const value = JSON.parse(r.stdout)
    expect(value.scope).toEqual({ pack: PACK, members: ["spec:lens.alpha", "spec:lens.delta"], perspective: "changed", changeset: "HEAD" })
    expect(value.pack.id).toBe(PACK)
    const typed = await run(repo.dir, ["bundle", "--pack", PACK, "--members", "spec:lens.alpha,spec:lens.delta"])
    expect(withoutStatement(r.stdout.trimEnd(), "changed", "HEAD")).toBe(measuredOut(typed.stdout.trimEnd()))
  })

  it("--staged reads the index: only what was staged", async () => {
    const carrier = path.join(repo.dir, "specs", "beta.ok.sdp.md")
    fs.writeFileSync(carrier, fs.readFileSync(carrier, "utf8").replace("staying within", "keeping within"))
    repo.git("add", "specs/beta.ok.sdp.md")
    const r = await run(repo.dir, ["perspective", "--pack", PACK, "changed", "--staged", "--format", "json"])
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('{"pack":"pack:lens-v1","members":["spec:lens.beta.ok"],"perspective":"changed","changeset":"--staged"}\n')
  })

  it("a changeset impacting no member gives members: []", async () => {
    const r = await run(repo.dir, ["bundle", "--pack", PACK, "--perspective", "changed", "--changeset", "HEAD..HEAD"])
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout).scope).toEqual({ pack: PACK, members: [], perspective: "changed", changeset: "HEAD..HEAD" })
  })

  it("a changeset beside --pack without a perspective is still one scope too many", async () => {
    expect(diagnostic(await run(repo.dir, ["bundle", "--pack", PACK, "--changeset", "HEAD"]), "scope")).toMatch(/one scope/)
  })
})

describe("watch re-evaluates the perspective on each rebuild", () => {
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
  })

  it("a member leaves not-ready when its blocking question is settled", async () => {
    const root = corpus()
    const child = spawn(process.execPath, [BIN, "watch", "--pack", PACK, "--perspective", "not-ready", "--quiet-ms", "100", "--out", "out"], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"]
    })
    children.push(child)
    let err = ""
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk))
    const waitFor = (needle: RegExp) =>
      whenStderr(
        child,
        () => err,
        () => needle.test(err)
      )
    const scope = () => JSON.parse(fs.readFileSync(path.join(root, "out", "part-001.json"), "utf8")).scope
    await waitFor(/watch: built 1 part/)
    expect(scope()).toEqual({ pack: PACK, members: ["spec:lens.beta"], perspective: "not-ready" })
    const beta = path.join(root, "specs", "beta.sdp.md")
    fs.writeFileSync(beta, fs.readFileSync(beta, "utf8").replace("[blocking #limit]", "[non-blocking #limit]"))
    await waitFor(/watch: rebuilt 1 part/)
    expect(scope()).toEqual({ pack: PACK, members: [], perspective: "not-ready" })
    child.kill("SIGINT")
  })
})
