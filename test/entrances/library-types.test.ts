// The library's declarations stand on their own: dist/types built as prepack builds it
// (tsconfig.lib.json), read by a program whose tsconfig loads no @types by default (`"types": []`,
// TypeScript 7's default, reproduced with this repository's TypeScript 5) and checks every
// declaration file (`skipLibCheck: false`). The program has @types/node installed, as a Node
// program does, and names no `types: ["node"]`: the declarations that name Buffer or
// NodeJS.ProcessEnv reference it themselves (issue 48). SLOW (1-2 min on a loaded machine): two tsc
// runs, the second over effect's declarations too.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { REPO } from "../support/cli.js"
import { tempDir } from "../support/tmp.js"

const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc")

const PROGRAM = `import { Changes, Git, layerNode, type GitOutput } from "specbundle"
import * as Effect from "effect/Effect"

export const report = Effect.gen(function* () {
  const changes = yield* Changes
  return (yield* changes.report({ root: ".", changeset: "HEAD" })).report.impactedSpecs.length
}).pipe(Effect.provide(layerNode))
export const top = Effect.gen(function* () {
  const out: GitOutput = yield* (yield* Git).exec(".", ["rev-parse", "--show-toplevel"])
  return out.code
})
`

describe('dist/types in a program with "types": []', () => {
  it("type-checks with no error inside the declarations (Buffer, NodeJS)", () => {
    const project = tempDir("specbundle-types-")
    const pkg = path.join(project, "node_modules", "specbundle")
    const built = spawnSync(process.execPath, [TSC, "-p", path.join(REPO, "tsconfig.lib.json"), "--outDir", path.join(pkg, "dist", "types")], {
      cwd: REPO,
      encoding: "utf8"
    })
    expect(built.status, built.stdout + built.stderr).toBe(0)
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
      name: string
      version: string
      type: string
      exports: unknown
      types: string
    }
    const { name, version, type, exports, types } = manifest
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name, version, type, exports, types }))
    // What npm installs beside it (its dependency, its peer), and the program's own Node types.
    fs.mkdirSync(path.join(project, "node_modules", "@types"))
    for (const dep of ["effect", "oxc-parser"]) fs.symlinkSync(path.join(REPO, "node_modules", dep), path.join(project, "node_modules", dep), "dir")
    fs.symlinkSync(path.join(REPO, "node_modules", "@types", "node"), path.join(project, "node_modules", "@types", "node"), "dir")
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
    fs.writeFileSync(path.join(project, "main.ts"), PROGRAM)
    const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: [], skipLibCheck: false }
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }))
    const tsc = spawnSync(process.execPath, [TSC, "-p", "."], { cwd: project, encoding: "utf8" })
    expect(tsc.stdout, tsc.stdout).not.toMatch(/Cannot find (name|namespace)/)
    expect(tsc.status, tsc.stdout).toBe(0)
  }, 300_000)
})
