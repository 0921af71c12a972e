// The layout rules the README's "Contributing" section states, checked on the files themselves:
// tests sit in the folder of the code they test, helpers in test/support, the third-party corpus
// is reached through test/support/paths.ts alone (so CI's bare-clone pass knows which files to
// run), and no entrance imports another (src/cli, src/mcp and src/index.ts stand side by side).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { REPO } from "../support/cli.js"

const PROJECTS = ["core", "services", "cli", "entrances", "scripts"]

const filesUnder = (dir: string): string[] =>
  fs.readdirSync(path.join(REPO, dir), { recursive: true, encoding: "utf8" }).map((f) => path.posix.join(dir, f.split(path.sep).join("/")))

const importsOf = (file: string): string[] =>
  [...fs.readFileSync(path.join(REPO, file), "utf8").matchAll(/^(?:import|export)[^"\n]*?(?:from )?"(\.[^"]+)"/gm)].map((m) =>
    path.posix.join(path.posix.dirname(file), m[1])
  )

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
    const offending: string[] = []
    const rule = (from: string, banned: ReadonlyArray<string>) => {
      for (const file of src.filter((f) => f.startsWith(from))) {
        for (const target of importsOf(file)) if (banned.some((b) => target.startsWith(b))) offending.push(`${file} -> ${target}`)
      }
    }
    rule("src/core/", ["src/services/", "src/cli/", "src/mcp/", "src/index"])
    rule("src/services/", ["src/cli/", "src/mcp/", "src/index"])
    rule("src/cli/", ["src/mcp/", "src/index"])
    rule("src/mcp/", ["src/cli/", "src/index"])
    rule("src/index", ["src/cli/", "src/mcp/"])
    expect(offending).toEqual([])
  })
})
