// The layout rules the README's "Contributing" section states, checked on the files themselves:
// tests sit in the folder of the code they test, helpers in test/support, the third-party corpus
// is reached through test/support/paths.ts alone (so CI's bare-clone pass knows which files to
// run), and no entrance imports another (src/cli, src/mcp and src/index.ts stand side by side).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { REPO } from "../support/cli.js"
import { specifiersOf } from "../support/imports.js"

const PROJECTS = ["core", "services", "cli", "entrances", "scripts"]

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
  rule("src/core/", ["src/services/", "src/cli/", "src/mcp/", "src/index"])
  rule("src/services/", ["src/cli/", "src/mcp/", "src/index"])
  rule("src/cli/", ["src/mcp/", "src/index"])
  rule("src/mcp/", ["src/cli/", "src/index"])
  rule("src/index", ["src/cli/", "src/mcp/"])
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

  it("core imports no service or entrance; services import no entrance; no entrance imports another", () => {
    const src = filesUnder("src").filter((f) => f.endsWith(".ts"))
    const sources = new Map(src.map((f) => [f, fs.readFileSync(path.join(REPO, f), "utf8")]))
    // Guards the extraction itself: src imports across its folders, so an empty reading is a broken one.
    expect([...sources].flatMap(([f, s]) => importsOf(f, s)).filter((t) => t.startsWith("src/core/")).length).toBeGreaterThan(20)
    expect(layerViolations(sources)).toEqual([])
  })

  describe("the rule sees imports the old line regex missed", () => {
    const cases: ReadonlyArray<[string, string]> = [
      ["an import split over lines", 'import {\n  run,\n  type Options\n} from "../cli/main.js"\n'],
      ["a dynamic import()", 'const load = () => import("../cli/main.js")\nexport const run = async () => (await load()).main\n'],
      [
        "a require()",
        'import { createRequire } from "node:module"\nconst require = createRequire(import.meta.url)\nconst cli = require("../cli/main.js")\nexport const main = cli.main\n'
      ]
    ]
    for (const [name, source] of cases) {
      it(`reports core reaching the CLI through ${name}`, () => {
        expect(layerViolations(new Map([["src/core/bad.ts", source]]))).toEqual(["src/core/bad.ts -> src/cli/main.js"])
        expect([...source.matchAll(OLD_IMPORT_LINE)]).toEqual([])
      })
    }

    it("counts type-only imports, export … from and import-equals, and passes a file whose imports keep to its layer", () => {
      const sources = new Map([
        ["src/services/a.ts", 'import type { Args } from "../cli/args.js"\n'],
        ["src/cli/b.ts", 'export type * from "../mcp/tools.js"\n'],
        ["src/mcp/c.ts", 'import main = require("../cli/main.js")\n'],
        ["src/index.ts", 'type M = typeof import("./mcp/server.js")\nexport const m: M | null = null\n'],
        ["src/core/ok.ts", 'import { Effect } from "effect"\nimport { read } from "./read/anchors.js"\nexport const x = () => import("./other.js")\n']
      ])
      expect(layerViolations(sources)).toEqual([
        "src/services/a.ts -> src/cli/args.js",
        "src/cli/b.ts -> src/mcp/tools.js",
        "src/mcp/c.ts -> src/cli/main.js",
        "src/index.ts -> src/mcp/server.js"
      ])
    })
  })
})
