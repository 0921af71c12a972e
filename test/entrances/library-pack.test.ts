// The typed library as a user gets it: the packed tarball unpacked into a temporary project's
// node_modules, beside the peers (effect, @effect/platform, @effect/platform-node) linked from
// this repository's node_modules; a TypeScript program importing "specbundle" is type-checked
// with tsc, compiled, run, and its bundle compared with the CLI's.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { runAsync } from "../support/cli.js"
import { tempDir } from "../support/git.js"
import { runCli } from "../support/hostile.js"

const repo = path.resolve(".")
const EXAMPLE = path.resolve("examples/bike-dock")
const TSC = path.join(repo, "node_modules/typescript/bin/tsc")
/** A command run to its end without holding the worker's event loop (tsc takes a while; vitest's RPC times out at 60 s). */
const sh = (command: string, args: ReadonlyArray<string>, cwd: string) => runAsync(command, args, { cwd, timeout: 240_000 })

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
  it("type-checks and runs a program that composes a bundle, equal to the CLI's", async () => {
    const work = tempDir("specbundle-lib-")
    const types = await sh(process.execPath, [TSC, "-p", "tsconfig.lib.json"], repo)
    expect(types.status, types.stdout).toBe(0)
    const pack = await sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], repo)
    expect(pack.status, pack.stderr).toBe(0)
    const packed = JSON.parse(pack.stdout)
    const files: string[] = packed[0].files.map((f: { path: string }) => f.path)
    expect(files).toContain("dist/index.js")
    expect(files).toContain("dist/types/index.d.ts")
    expect(files.some((f) => f.startsWith("src/"))).toBe(false)

    const project = path.join(work, "app")
    const modules = path.join(project, "node_modules")
    fs.mkdirSync(path.join(modules, "@effect"), { recursive: true })
    fs.mkdirSync(path.join(modules, "@types"), { recursive: true })
    expect((await sh("tar", ["-xzf", path.join(work, packed[0].filename), "-C", work], work)).status).toBe(0)
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
    const checked = await sh(process.execPath, [TSC, "-p", "."], project)
    expect(checked.status).not.toBe(0)
    const errors = checked.stdout
    const lines = errors.split("\n").filter((l) => /error TS/.test(l))
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.every((l) => l.startsWith("wrong.ts"))).toBe(true)
    expect(errors).toMatch(/root/)

    const ran = await sh(process.execPath, ["out/main.js", EXAMPLE], project)
    expect(ran.status, ran.stderr).toBe(0)
    const out = ran.stdout
    const [first, ...rest] = out.split("\n")
    expect(JSON.parse(first)).toEqual({ packs: 2 })
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1"], repo)
    expect(rest.join("\n")).toBe(cli.stdout)
  }, 300_000)
})
