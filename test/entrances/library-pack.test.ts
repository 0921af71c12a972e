// The typed library as a user gets it: the packed tarball unpacked into a temporary project's
// node_modules, beside the peers (effect, @effect/platform, @effect/platform-node) linked from
// this repository's node_modules; a TypeScript program importing "specbundle" is type-checked
// with tsc, compiled, run, and its bundle compared with the CLI's.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempDir } from "../support/git.js"
import { runCli } from "../support/hostile.js"

const repo = path.resolve(".")
const EXAMPLE = path.resolve("examples/bike-dock")
const TSC = path.join(repo, "node_modules/typescript/bin/tsc")

const PROGRAM = `import { Bundler, Corpus, layerNode, type BundleRequest } from "specbundle"
import * as Effect from "effect/Effect"

const request: BundleRequest = { root: process.argv[2], pack: "pack:rides-v1" }
const program = Effect.gen(function* () {
  const bundler = yield* Bundler
  const { text } = yield* bundler.bundle(request)
  const listing = yield* (yield* Corpus).list({ root: request.root })
  return { text, packs: listing.packs.length }
})
const { text, packs } = await Effect.runPromise(program.pipe(Effect.provide(layerNode)))
process.stdout.write(JSON.stringify({ packs }) + "\\n" + text + "\\n")
`

/** A TypeScript mistake the declarations must catch: a bundle request without its root. */
const WRONG = `import type { BundleRequest } from "specbundle"
export const r: BundleRequest = { pack: "pack:rides-v1" }
`

describe("the packed library", () => {
  it("type-checks and runs a program that composes a bundle, equal to the CLI's", () => {
    const work = tempDir("specbundle-lib-")
    execFileSync(process.execPath, [TSC, "-p", "tsconfig.lib.json"], { cwd: repo, stdio: "pipe" })
    const packed = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: repo, encoding: "utf8" }))
    const files: string[] = packed[0].files.map((f: { path: string }) => f.path)
    expect(files).toContain("dist/index.js")
    expect(files).toContain("dist/types/index.d.ts")
    expect(files.some((f) => f.startsWith("src/"))).toBe(false)

    const project = path.join(work, "app")
    const modules = path.join(project, "node_modules")
    fs.mkdirSync(path.join(modules, "@effect"), { recursive: true })
    fs.mkdirSync(path.join(modules, "@types"), { recursive: true })
    execFileSync("tar", ["-xzf", path.join(work, packed[0].filename), "-C", work])
    fs.renameSync(path.join(work, "package"), path.join(modules, "specbundle"))
    for (const name of ["effect", "@effect/platform", "@effect/platform-node", "oxc-parser", "@types/node"]) {
      fs.symlinkSync(path.join(repo, "node_modules", name), path.join(modules, name), "dir")
    }
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }))
    const tsconfig = {
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: ["node"], outDir: "out" },
      files: ["main.ts", "wrong.ts"]
    }
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(tsconfig))
    fs.writeFileSync(path.join(project, "main.ts"), PROGRAM)
    // One tsc run: main.ts must check clean, and the declarations must be real types, not \`any\`:
    // wrong.ts (a request without a root) must not compile. tsc still emits main.js.
    fs.writeFileSync(path.join(project, "wrong.ts"), WRONG)
    let errors = ""
    try {
      execFileSync(process.execPath, [TSC, "-p", "."], { cwd: project, encoding: "utf8", stdio: "pipe" })
    } catch (e) {
      errors = String((e as { stdout?: string }).stdout)
    }
    const lines = errors.split("\n").filter((l) => /error TS/.test(l))
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.every((l) => l.startsWith("wrong.ts"))).toBe(true)
    expect(errors).toMatch(/root/)

    const out = execFileSync(process.execPath, ["out/main.js", EXAMPLE], { cwd: project, encoding: "utf8" })
    const [first, ...rest] = out.split("\n")
    expect(JSON.parse(first)).toEqual({ packs: 2 })
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], repo)
    expect(rest.join("\n")).toBe(cli.stdout)
  }, 300_000)
})
