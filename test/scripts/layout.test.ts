// The layout rules the README's "Contributing" section states, checked on the files themselves:
// tests sit in the folder of the code they test, helpers in test/support, the third-party corpus
// is reached through test/support/paths.ts alone (so CI's bare-clone pass knows which files to
// run), and src's storeys import only downwards: entrances (src/entrances/cli, src/entrances/mcp,
// the library's src/index.ts) > use cases > services > Node adapters > core, no entrance importing another.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { REPO } from "../support/cli.js"
import { specifiersOf } from "../support/imports.js"

const PROJECTS = ["core", "node", "services", "usecases", "cli", "entrances", "scripts"]

const filesUnder = (dir: string): string[] =>
  fs.readdirSync(path.join(REPO, dir), { recursive: true, encoding: "utf8" }).map((f) => path.posix.join(dir, f.split(path.sep).join("/")))

// The relative imports of `file` (a repository path) as repository paths; package imports name no layer.
const importsOf = (file: string, source: string): string[] =>
  specifiersOf(file, source)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => path.posix.join(path.posix.dirname(file), spec))

// The layering rule over file contents keyed by repository path, so it runs on src and on made-up files.
const layerViolations = (sources: ReadonlyMap<string, string>): string[] => {
  const offending: string[] = []
  const rule = (from: string, banned: ReadonlyArray<string>) => {
    for (const [file, source] of sources) {
      if (!file.startsWith(from)) continue
      for (const target of importsOf(file, source)) if (banned.some((b) => target.startsWith(b))) offending.push(`${file} -> ${target}`)
    }
  }
  // Each storey may import the storeys below it, never one above; entrances never each other.
  rule("src/core/", ["src/node/", "src/services/", "src/usecases/", "src/entrances/", "src/index", "src/bin", "src/front", "src/worker"])
  rule("src/node/", ["src/services/", "src/usecases/", "src/entrances/", "src/index", "src/bin", "src/front"])
  rule("src/services/", ["src/usecases/", "src/entrances/", "src/index", "src/bin", "src/front", "src/worker"])
  rule("src/usecases/", ["src/entrances/", "src/index", "src/bin", "src/front", "src/worker"])
  rule("src/entrances/cli/", ["src/entrances/mcp/", "src/index"])
  rule("src/entrances/mcp/", ["src/entrances/cli/", "src/index"])
  rule("src/index", ["src/entrances/"])
  // An entrance renders and parses its own input; it reaches what lies below through the use cases,
  // core (pure) and the runtime (src/node/runtime.ts: the pool, the cache, the settings, the file
  // system, git's environment) only, never a service or a Node adapter of its own accord.
  const ENTRANCE_MAY = ["src/usecases/", "src/core/", "src/node/runtime.js"]
  for (const entrance of ["src/entrances/cli/", "src/entrances/mcp/"]) {
    for (const [file, source] of sources) {
      if (!file.startsWith(entrance)) continue
      for (const target of importsOf(file, source)) {
        if (!target.startsWith("src/") || target.startsWith(entrance) || ENTRANCE_MAY.some((m) => target.startsWith(m))) continue
        if (!offending.includes(`${file} -> ${target}`)) offending.push(`${file} -> ${target}`)
      }
    }
  }
  return offending
}

// The extraction this test used before oxc: one line per import, `from "…"` on the line it starts.
const OLD_IMPORT_LINE = /^(?:import|export)[^"\n]*?(?:from )?"(\.[^"]+)"/gm

describe("repository layout", () => {
  it("every test file sits in a project folder, and test/ holds nothing else but support and fixtures", () => {
    const top = fs.readdirSync(path.join(REPO, "test")).sort()
    expect(top).toEqual([...PROJECTS, "fixtures", "support"].sort())
    const tests = filesUnder("test").filter((f) => f.endsWith(".test.ts"))
    expect(tests.length).toBeGreaterThan(60)
    for (const t of tests) expect(PROJECTS, t).toContain(t.split("/")[1])
  })

  it("only test/support/paths.ts builds a path to the folder beside the clone (../shared)", () => {
    const naming = filesUnder("test")
      .filter((f) => f.endsWith(".ts") && !f.startsWith("test/fixtures/"))
      .filter((f) => /["'`](?:\.\.\/)+shared\b/.test(fs.readFileSync(path.join(REPO, f), "utf8")))
    expect(naming).toEqual(["test/support/paths.ts"])
  })

  it("each storey imports only the storeys below it (core < node < services < usecases < entrances), no entrance another", () => {
    const src = filesUnder("src").filter((f) => f.endsWith(".ts"))
    const sources = new Map(src.map((f) => [f, fs.readFileSync(path.join(REPO, f), "utf8")]))
    // Guards the extraction itself: src imports across its folders, so an empty reading is a broken one.
    expect([...sources].flatMap(([f, s]) => importsOf(f, s)).filter((t) => t.startsWith("src/core/")).length).toBeGreaterThan(20)
    expect(layerViolations(sources)).toEqual([])
  })

  describe("the rule sees imports the old line regex missed", () => {
    const cases: ReadonlyArray<[string, string]> = [
      ["an import split over lines", 'import {\n  run,\n  type Options\n} from "../entrances/cli/main.js"\n'],
      ["a dynamic import()", 'const load = () => import("../entrances/cli/main.js")\nexport const run = async () => (await load()).main\n'],
      [
        "a require()",
        'import { createRequire } from "node:module"\nconst require = createRequire(import.meta.url)\nconst cli = require("../entrances/cli/main.js")\nexport const main = cli.main\n'
      ]
    ]
    for (const [name, source] of cases) {
      it(`reports core reaching the CLI through ${name}`, () => {
        expect(layerViolations(new Map([["src/core/bad.ts", source]]))).toEqual(["src/core/bad.ts -> src/entrances/cli/main.js"])
        expect([...source.matchAll(OLD_IMPORT_LINE)]).toEqual([])
      })
    }

    it("reports an entrance reaching a service or a Node adapter past the use cases and the runtime", () => {
      const sources = new Map([
        ["src/entrances/cli/stale-run.ts", 'import { GraphReader } from "../../services/GraphReader.js"\nimport { Stale } from "../../usecases/Stale.js"\n'],
        ["src/entrances/mcp/server.ts", 'import type { Pool } from "../../node/extractAll.js"\nimport { ParseCache } from "../../node/runtime.js"\n'],
        [
          "src/entrances/cli/hook.ts",
          'const git = () => import("../../node/git.js")\nimport { ids } from "../../core/ids.js"\nimport { flagsOf } from "./flags.js"\n'
        ]
      ])
      expect(layerViolations(sources)).toEqual([
        "src/entrances/cli/stale-run.ts -> src/services/GraphReader.js",
        "src/entrances/cli/hook.ts -> src/node/git.js",
        "src/entrances/mcp/server.ts -> src/node/extractAll.js"
      ])
    })

    it("counts type-only imports, export … from and import-equals, and passes a file whose imports keep to its layer", () => {
      const sources = new Map([
        ["src/services/a.ts", 'import type { Args } from "../entrances/cli/args.js"\n'],
        ["src/entrances/cli/b.ts", 'export type * from "../mcp/tools.js"\n'],
        ["src/entrances/mcp/c.ts", 'import main = require("../cli/main.js")\n'],
        ["src/index.ts", 'type M = typeof import("./entrances/mcp/server.js")\nexport const m: M | null = null\n'],
        ["src/node/d.ts", 'import { GraphReader } from "../services/GraphReader.js"\n'],
        ["src/core/ok.ts", 'import { Effect } from "effect"\nimport { read } from "./read/anchors.js"\nexport const x = () => import("./other.js")\n'],
        ["src/usecases/ok.ts", 'import { Git } from "../node/git.js"\nimport { Impact } from "../services/Impact.js"\nimport { ids } from "../core/ids.js"\n']
      ])
      expect(layerViolations(sources)).toEqual([
        "src/node/d.ts -> src/services/GraphReader.js",
        "src/services/a.ts -> src/entrances/cli/args.js",
        "src/entrances/cli/b.ts -> src/entrances/mcp/tools.js",
        "src/entrances/mcp/c.ts -> src/entrances/cli/main.js",
        "src/index.ts -> src/entrances/mcp/server.js"
      ])
    })
  })
})
