// The bike-dock example (examples/): its history script, its start script, its workflow, and the
// corpus itself, checked without the CLI: envelope shape, Pack membership, relations, mentions,
// anchors and a hand-written floor check that keeps every stated rung honest.
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseSync } from "oxc-parser"
import { afterAll, describe, expect, it } from "vitest"
import * as YAML from "yaml"

const repo = path.resolve(import.meta.dirname, "..", "..")
const examples = path.join(repo, "examples")
const corpus = path.join(examples, "bike-dock")
const makeHistory = path.join(examples, "make-history.mjs")

// Every folder a test makes (or a script makes for it) is removed at the end.
const made: Array<string> = []
const keep = (dir: string) => (made.push(dir), dir)
const tmp = (prefix: string) => keep(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

// An environment with no git configuration at all: an empty HOME and no GIT_* variables.
const emptyHome = tmp("sb-home-")
const bareEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: emptyHome, XDG_CONFIG_HOME: emptyHome }
  for (const key of Object.keys(env)) if (key.startsWith("GIT_")) delete env[key]
  return env
}

const git = (dir: string, ...args: Array<string>) => execFileSync("git", args, { cwd: dir, encoding: "utf8", env: bareEnv() }).trim()

const walk = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? walk(full) : [full]
  })

const rel = (file: string) => path.relative(corpus, file).split(path.sep).join("/")

// ---------------------------------------------------------------------------------------------
// A small reader for the checks below (not the project's reader: it only needs enough to check).

interface Carrier {
  readonly file: string
  readonly front: Record<string, unknown>
  readonly body: ReadonlyArray<string>
  readonly sections: ReadonlyMap<string, ReadonlyArray<string>>
}

const readCarrier = (file: string): Carrier => {
  const lines = fs.readFileSync(file, "utf8").split("\n")
  const close = lines.indexOf("---", 1)
  const front = YAML.parse(lines.slice(1, close).join("\n"), { schema: "failsafe" }) as Record<string, unknown>
  const body = lines.slice(close + 1)
  const sections = new Map<string, Array<string>>()
  let current: Array<string> | undefined
  for (const line of body) {
    if (line.startsWith("## ")) sections.set(line.slice(3), (current = []))
    else current?.push(line)
  }
  return { file: rel(file), front: { ...front, _first: lines[0], _close: close }, body, sections }
}

const carriers = walk(path.join(corpus, "specs"))
  .filter((f) => f.endsWith(".sdp.md"))
  .sort()
  .map(readCarrier)
const packs = carriers.filter((c) => String(c.front.id).startsWith("pack:"))
const specs = carriers.filter((c) => String(c.front.id).startsWith("spec:"))
const specById = new Map(specs.map((s) => [String(s.front.id), s]))

const relationsOf = (spec: Carrier): Array<{ type: string; to: string }> =>
  Object.entries(spec.front.relations as Record<string, string | Array<string>>).flatMap(([type, to]) =>
    (Array.isArray(to) ? to : [to]).map((target) => ({ type, to: target }))
  )
const section = (spec: Carrier, name: string) => spec.sections.get(name) ?? []
const bullets = (spec: Carrier, name: string) => section(spec, name).filter((l) => l.startsWith("- "))
const has = (spec: Carrier, name: string, prefix: string) => bullets(spec, name).some((l) => l.startsWith(prefix))
const idOf = (spec: Carrier) => String(spec.front.id)
const linked = (a: Carrier, b: Carrier, type?: string) => relationsOf(a).some((r) => r.to === idOf(b) && (type === undefined || r.type === type))
const blockingQuestions = (spec: Carrier) => bullets(spec, "Intent").filter((l) => l.startsWith("- [blocking"))
const RUNGS = ["idea", "scoped", "defined", "ready"]
const rung = (spec: Carrier | undefined) => (spec === undefined ? -1 : RUNGS.indexOf(String(spec.front.readiness)))

// The code and test files of the corpus, with the anchors each declares (both forms of format section 7).
const codeFiles = walk(corpus)
  .filter((f) => f.endsWith(".ts"))
  .sort()
const anchorsIn = (text: string) => {
  const constant = [...text.matchAll(/(?:codeAnchorId|testAnchorId|oracleAnchorId)\("([^"]+)"\)/g)].map((m) => m[1])
  const comment = [...text.matchAll(/@sdpAnchor (\S+)/g)].map((m) => m[1])
  const targets = [
    ...[...text.matchAll(/(\w+): ref\("([^"]+)"\)/g)].map((m) => ({ type: m[1] === "verifies" ? "verifies" : "other", to: m[2] })),
    ...[...text.matchAll(/@sdp(Satisfies|Verifies|Models|References) (.+)/g)].flatMap((m) =>
      m[2].split(",").map((to) => ({ type: m[1] === "Verifies" ? "verifies" : "other", to: to.trim() }))
    )
  ]
  return { constant, comment, targets }
}
const anchors = codeFiles.map((file) => ({ file: rel(file), text: fs.readFileSync(file, "utf8") })).map((f) => ({ ...f, ...anchorsIn(f.text) }))

// ---------------------------------------------------------------------------------------------

describe("examples/make-history.mjs", () => {
  const target = path.join(tmp("sb-history-"), "repo")
  const run = spawnSync(process.execPath, [makeHistory, target], { encoding: "utf8", env: bareEnv() })

  it("builds a repository with two commits in the given folder and prints that folder", () => {
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toBe(`${target}\n`)
    expect(git(target, "rev-list", "--count", "HEAD")).toBe("2")
    expect(git(target, "log", "--format=%an <%ae>", "-1")).toBe("Example Author <example@specbundle.invalid>")
    expect(git(target, "status", "--porcelain")).toBe("")
  })

  it("makes HEAD~1 differ from HEAD in exactly the fare rule carrier and the anchored fare code", () => {
    const changed = git(target, "diff", "--name-only", "HEAD~1").split("\n")
    expect(changed).toEqual(["specs/rides/ride-fare-rule.sdp.md", "src/rides/fare.ts"])
    expect(fs.readFileSync(path.join(target, "src/rides/fare.ts"), "utf8")).toContain("@sdpAnchor impl:rides.fare-calculator")
    expect(git(target, "show", "HEAD~1:specs/rides/ride-fare-rule.sdp.md")).not.toContain("free")
  })

  it("leaves the working tree equal to the corpus, byte for byte", () => {
    const files = walk(corpus).map(rel).sort()
    const copied = walk(target)
      .map((f) => path.relative(target, f).split(path.sep).join("/"))
      .filter((f) => !f.startsWith(".git/"))
      .sort()
    expect(copied).toEqual(files)
    for (const file of files) {
      expect(fs.readFileSync(path.join(target, file)).equals(fs.readFileSync(path.join(corpus, file))), file).toBe(true)
    }
  })

  it("makes a fresh temp folder without DIR, with the same commit ids on every run", () => {
    const again = spawnSync(process.execPath, [makeHistory], { encoding: "utf8", env: bareEnv() })
    expect(again.status, again.stderr).toBe(0)
    const dir = keep(again.stdout.trim())
    expect(path.isAbsolute(dir) && fs.existsSync(path.join(dir, ".git"))).toBe(true)
    expect(dir).not.toBe(target)
    expect(git(dir, "rev-parse", "HEAD")).toBe(git(target, "rev-parse", "HEAD"))
  })

  it("refuses a folder that is not empty and leaves it alone", () => {
    const dir = tmp("sb-full-")
    fs.writeFileSync(path.join(dir, "keep.txt"), "mine")
    const refused = spawnSync(process.execPath, [makeHistory, dir], { encoding: "utf8", env: bareEnv() })
    expect(refused.status).toBe(1)
    expect(refused.stdout).toBe("")
    expect(refused.stderr).toContain("not empty")
    expect(fs.readdirSync(dir)).toEqual(["keep.txt"])
  })
})

describe("examples/start.mjs", () => {
  // A stand-in for bin/specbundle.js: records each call, checks the folder it was given, and
  // exits with the code the test asks for.
  const startWith = (exits: { impact: number; bundle: number }) => {
    const dir = tmp("sb-start-")
    const log = path.join(dir, "calls.jsonl")
    const fake = path.join(dir, "fake-cli.mjs")
    fs.writeFileSync(
      fake,
      [
        'import { appendFileSync } from "node:fs"',
        'import { execFileSync } from "node:child_process"',
        "const args = process.argv.slice(2)",
        'const root = args[args.indexOf("--root") + 1]',
        'const commits = execFileSync("git", ["rev-list", "--count", "HEAD"], { cwd: root, encoding: "utf8" }).trim()',
        `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, commits, cwd: process.cwd() }) + "\\n")`,
        `process.stdout.write(args[0] + " output\\n")`,
        `process.exit(args[0] === "impact" ? ${exits.impact} : ${exits.bundle})`
      ].join("\n")
    )
    const result = spawnSync(process.execPath, [path.join(examples, "start.mjs")], {
      encoding: "utf8",
      env: { ...bareEnv(), SPECBUNDLE_BIN: fake }
    })
    const calls = fs.existsSync(log)
      ? fs
          .readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { args: Array<string>; commits: string; cwd: string })
      : []
    if (calls.length > 0) keep(calls[0].args[4])
    return { result, calls }
  }

  it("runs impact then bundle on a two-commit history with the contract's arguments and CLI output on stdout", () => {
    const { result, calls } = startWith({ impact: 0, bundle: 0 })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toBe("impact output\nbundle output\n")
    expect(calls).toHaveLength(2)
    const root = calls[0].args[4]
    expect(calls[0].args).toEqual(["impact", "--changeset", "HEAD~1", "--root", root, "--format", "text"])
    expect(calls[1].args).toEqual(["bundle", "--changeset", "HEAD~1", "--root", root, "--format", "pretty"])
    expect(calls.map((c) => c.commits)).toEqual(["2", "2"])
  })

  it("exits with the bundle command's exit code", () => {
    const { result, calls } = startWith({ impact: 0, bundle: 2 })
    expect(result.status).toBe(2)
    expect(calls).toHaveLength(2)
  })

  it("stops after a failing impact command and exits with its code", () => {
    const { result, calls } = startWith({ impact: 1, bundle: 0 })
    expect(result.status).toBe(1)
    expect(calls.map((c) => c.args[0])).toEqual(["impact"])
  })
})

describe("examples/github/specbundle-pr.yml", () => {
  const workflow = YAML.parse(fs.readFileSync(path.join(examples, "github/specbundle-pr.yml"), "utf8"))
  const steps = workflow.jobs.specs.steps as Array<Record<string, any>>
  const action = YAML.parse(fs.readFileSync(path.join(examples, "..", "action.yml"), "utf8"))

  it("runs on pull requests, fetches full history and uses the repository's action with inputs it declares", () => {
    expect(Object.keys(workflow.on)).toEqual(["pull_request"])
    expect(workflow.permissions["pull-requests"]).toBe("write")
    expect(steps[0].uses).toMatch(/^actions\/checkout@/)
    expect(steps[0].with["fetch-depth"]).toBe(0)
    const step = steps.find((s) => /\/specbundle@/.test(String(s.uses)))
    expect(step).toBeDefined()
    for (const key of Object.keys(step!.with)) expect(Object.keys(action.inputs), key).toContain(key)
    const later = steps.slice(steps.indexOf(step!) + 1).map((s) => String(s.run))
    expect(later.some((r) => r.includes(`steps.${step!.id}.outputs.impacted`) && r.includes(`steps.${step!.id}.outputs.manifest`))).toBe(true)
  })

  it("uploads check --format sarif to code scanning", () => {
    const sarif = workflow.jobs.sarif.steps as Array<Record<string, any>>
    expect(sarif.some((s) => /specbundle\.js check --format sarif > specbundle\.sarif/.test(String(s.run)))).toBe(true)
    expect(sarif.some((s) => String(s.uses).startsWith("github/codeql-action/upload-sarif@") && s.with.sarif_file === "specbundle.sarif")).toBe(true)
  })
})

describe("examples/bike-dock corpus", () => {
  it("has 15 to 30 Spec carriers and 2 Pack manifests, every one with the envelope of format sections 2 and 3", () => {
    expect(specs.length).toBeGreaterThanOrEqual(15)
    expect(specs.length).toBeLessThanOrEqual(30)
    expect(packs.map((p) => p.front.id)).toEqual(["pack:docks-v1", "pack:rides-v1"])
    for (const c of carriers) {
      expect(c.front._first, c.file).toBe("---")
      expect(c.body[0], c.file).toMatch(/^# \S/)
      const keys = Object.keys(c.front)
        .filter((k) => !k.startsWith("_"))
        .sort()
      if (c.front.id === undefined || String(c.front.id).startsWith("pack:")) {
        expect(
          keys.filter((k) => !["id", "specs", "modelRefs"].includes(k)),
          c.file
        ).toEqual([])
        expect(
          c.body.some((l) => l.startsWith("##")),
          c.file
        ).toBe(false)
      } else {
        expect(keys, c.file).toEqual(["altitude", "id", "kind", "readiness", "relations"])
      }
    }
    expect(new Set(specs.map((s) => s.front.id)).size).toBe(specs.length)
  })

  it("names only existing Spec ids as Pack members, puts every Spec in a Pack, and points modelRefs at model Specs", () => {
    const members = packs.flatMap((p) => p.front.specs as Array<string>)
    for (const id of members) expect(specById.has(id), id).toBe(true)
    for (const p of packs) expect(new Set(p.front.specs as Array<string>).size).toBe((p.front.specs as Array<string>).length)
    expect([...specById.keys()].filter((id) => !members.includes(id))).toEqual([])
    for (const ref of packs.flatMap((p) => (p.front.modelRefs ?? []) as Array<string>)) {
      expect(specById.get(ref)?.front.kind, ref).toBe("model")
    }
  })

  it("uses every kind and all six relation types, and every relation target is a Spec of a lawful kind", () => {
    expect(new Set(specs.map((s) => s.front.kind))).toEqual(new Set(["behavior", "workflow", "example", "rule", "constraint", "model", "decision", "contract"]))
    const relations = specs.flatMap((s) => relationsOf(s).map((r) => ({ ...r, from: s })))
    expect(new Set(relations.map((r) => r.type))).toEqual(new Set(["refines", "dependsOn", "constrainedBy", "decidedBy", "verifies", "supersedes"]))
    for (const r of relations) {
      const target = specById.get(r.to)
      expect(target, `${r.from.file}: ${r.type} ${r.to}`).toBeDefined()
      if (r.type === "constrainedBy") expect(["rule", "constraint"]).toContain(target?.front.kind)
      if (r.type === "decidedBy") expect(target?.front.kind).toBe("decision")
      if (r.type === "supersedes") expect([r.from.front.kind, target?.front.kind]).toEqual(["decision", "decision"])
    }
  })

  it("shows keyed questions of both kinds, a keyed Behavior rule, pinned declarations, examples bound to a space", () => {
    const intent = specs.flatMap((s) => bullets(s, "Intent"))
    expect(intent.some((l) => /^- \[blocking #[a-z][A-Za-z0-9]*\] /.test(l))).toBe(true)
    expect(intent.some((l) => /^- \[non-blocking #[a-z][A-Za-z0-9]*\] /.test(l))).toBe(true)
    expect(specs.flatMap((s) => bullets(s, "Behavior")).some((l) => /^- rule\.[a-z][A-Za-z0-9]*: /.test(l))).toBe(true)
    expect(specs.flatMap((s) => bullets(s, "Design")).some((l) => /^- [a-z][A-Za-z0-9]*: `/.test(l))).toBe(true)
    expect(specs.some((s) => s.sections.has("Decision") && relationsOf(s).some((r) => r.type === "supersedes"))).toBe(true)
    const examples = specs.filter((s) => s.front.kind === "example")
    for (const ex of examples) {
      const parent = specById.get(relationsOf(ex).find((r) => r.type === "refines")?.to ?? "")
      expect(parent?.sections.has("Example space"), ex.file).toBe(true)
    }
  })

  it("states no rung above the one its floor reaches (format section 8, checked clause by clause)", () => {
    const derived = new Map(specs.map((s) => [String(s.front.id), floorReached(s)]))
    const dishonest = specs
      .filter((s) => derived.get(String(s.front.id))! < rung(s))
      .map((s) => `${s.front.id} states ${s.front.readiness} but reaches ${RUNGS[derived.get(String(s.front.id))!]}`)
    expect(dishonest).toEqual([])
    // The corpus teaches every rung, not only the top one.
    expect(new Set(specs.map((s) => s.front.readiness))).toEqual(new Set(RUNGS))
  })

  it("mentions a Spec in prose only where a relation joins the two, and only existing entry addresses", () => {
    const problems: Array<string> = []
    for (const s of specs) {
      for (const token of mentions(s)) {
        const [id, address] = token.split("#")
        const target = specById.get(id)
        if (target === undefined || !(linked(s, target) || linked(target, s))) problems.push(`${s.file}: ${token}`)
        if (address !== undefined && target !== undefined) {
          const [name, key] = address.split(".")
          const owner = { design: "Design", ui: "UI", rule: "Behavior" }[name] ?? ""
          const keyed = name === "rule" ? `- rule.${key}: ` : `- ${key}: `
          if (!bullets(target, owner).some((l) => l.startsWith(keyed))) problems.push(`${s.file}: ${token} has no entry`)
        }
      }
    }
    expect(problems).toEqual([])
    expect(specs.some((s) => mentions(s).some((m) => m.includes("#")))).toBe(true)
  })

  it("anchors code and tests in both forms, to existing Specs, in files that parse as TypeScript", () => {
    for (const f of anchors)
      expect(
        parseSync(f.file, f.text).errors.map((e) => e.message),
        f.file
      ).toEqual([])
    expect(anchors.some((f) => f.constant.length > 0 && f.text.includes('"@libar-dev/software-delivery-protocol"'))).toBe(true)
    expect(anchors.some((f) => f.comment.length > 0)).toBe(true)
    const ids = anchors.flatMap((f) => [...f.constant, ...f.comment])
    expect(new Set(ids).size).toBe(ids.length)
    const targets = anchors.flatMap((f) => f.targets)
    for (const t of targets) expect(specById.has(t.to), t.to).toBe(true)
    expect(ids.some((id) => id.startsWith("test:")) && ids.some((id) => id.startsWith("impl:"))).toBe(true)
  })

  it("gives every ready Spec other than a decision a verifier, through a test anchor or an enabled example", () => {
    const tested = new Set(anchors.flatMap((f) => f.targets.filter((t) => t.type === "verifies").map((t) => t.to)))
    const enabled = specs.filter((s) => s.front.kind === "example" && tested.has(idOf(s)))
    const verified = (spec: Carrier) => tested.has(idOf(spec)) || enabled.some((ex) => linked(ex, spec, "verifies"))
    const gaps = specs.filter((s) => s.front.readiness === "ready" && s.front.kind !== "decision" && !verified(s))
    expect(gaps.map((s) => s.front.id)).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// The floor of format section 8, simplified to what this corpus's Markdown can express.

const fenceLines = (lines: ReadonlyArray<string>, info: string) => {
  const start = lines.indexOf("```" + info)
  return start < 0 ? undefined : lines.slice(start + 1, lines.indexOf("```", start + 1))
}
const skeleton = (step: string) => step.replace(/^(Given|When|Then|And) /, "").replace(/\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g, "{$1}")
const boundSlots = (step: string) =>
  [...step.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)\}/g)].every((m) => /^\s*:\s*(-?(\d+\.?\d*|\.\d+)|"[^"]*"|true|false)\s*$/.test(m[2]))

const rules = (s: Carrier) => [
  ...bullets(s, "Behavior").filter((l) => /^- rule(\.[a-z][A-Za-z0-9]*)?: /.test(l)),
  ...bullets(s, "Rule"),
  ...bullets(s, "Contract"),
  ...bullets(s, "Workflow").filter((l) => l.startsWith("- rule: "))
]
const flows = (s: Carrier) => [
  ...bullets(s, "Behavior").filter((l) => l.startsWith("- flow: ")),
  ...bullets(s, "Workflow").filter((l) => !l.startsWith("- rule: "))
]
const exampleComplete = (s: Carrier) => {
  const steps = fenceLines(section(s, "Intent"), "gwt")
  if (steps === undefined || !steps.every(boundSlots)) return false
  const parent = specById.get(relationsOf(s).find((r) => r.type === "refines")?.to ?? "")
  const vocabulary = parent && fenceLines(section(parent, "Example space"), "gwt-vocabulary")
  return vocabulary === undefined || steps.every((step) => vocabulary.map(skeleton).includes(skeleton(step)))
}
const evidence = (s: Carrier, level: "present" | "complete"): boolean => {
  switch (s.front.kind) {
    case "example":
      return level === "present" ? fenceLines(section(s, "Intent"), "gwt") !== undefined : exampleComplete(s)
    case "rule":
      return rules(s).length > 0
    case "constraint":
      return has(s, "Constraints", level === "present" ? "- " : "- target: ")
    case "model":
      return has(s, "Model", "- **")
    case "decision":
      return has(s, "Decision", level === "present" ? "- " : "- decision: ")
    default: {
      const promoted = specs.some(
        (c) =>
          ["rule", "example"].includes(String(c.front.kind)) &&
          relationsOf(c).some((r) => r.type === "refines" && r.to === s.front.id) &&
          evidence(c, "present")
      )
      if (level === "complete") return rules(s).length > 0 || promoted
      const bound = relationsOf(s).some((r) => r.type === "constrainedBy" && specById.get(r.to)?.front.kind === "constraint")
      return rules(s).length > 0 || flows(s).length > 0 || bullets(s, "Constraints").length > 0 || bound || promoted
    }
  }
}
const floorReached = (s: Carrier): number => {
  const outcome = bullets(s, "Intent").some((l) => l.startsWith("- outcome: "))
  const relations = relationsOf(s)
  const clauses = [
    s.body[0].length > 2 && (outcome || relations.some((r) => r.type === "refines")),
    outcome && relations.length > 0 && evidence(s, "present"),
    evidence(s, "complete") && blockingQuestions(s).length === 0,
    relations.every((r) => specById.has(r.to)) &&
      relations
        .filter((r) => ["refines", "dependsOn", "constrainedBy", "decidedBy"].includes(r.type))
        .every((r) => rung(specById.get(r.to)) >= RUNGS.indexOf("defined"))
  ]
  const failed = clauses.indexOf(false)
  return failed < 0 ? 3 : failed - 1
}

// Mentions of format section 5: `spec:` tokens in the body's prose and entries, fences left out.
const mentions = (s: Carrier): Array<string> => {
  let inFence = false
  return s.body
    .slice(1)
    .flatMap((line) => {
      if (line.startsWith("```")) inFence = !inFence
      if (inFence || line.startsWith("```")) return []
      return [...line.matchAll(/(?<![A-Za-z0-9-])spec:[^\s`"'()[\]{}<>|]+/g)].map((m) => m[0].replace(/[.,;:!?*_~]+$/, ""))
    })
    .filter((token) => token !== s.front.id)
}
