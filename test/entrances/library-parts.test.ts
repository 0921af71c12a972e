// The library's parts API: `bundler.parts(prepared)` is a Stream of typed parts whose bytes are the
// lines the built CLI's `bundle --parts` prints. And the README's library example, extracted from
// README.md as written: type-checked with tsc against the library's source, then run with node
// against the built library (dist/index.js) in a real git repository, its stdout equal to the CLI's.
import { execFile, execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { transformSync } from "esbuild"
import { describe, expect, it } from "vitest"
import { Bundler, type BundleRequest, layerNode } from "../../src/index.js"
import { gitCleanEnv, REPO } from "../support/cli.js"
import { makeRepo, tempDir } from "../support/git.js"
import { runCli } from "../support/hostile.js"

const EXAMPLE = path.join(REPO, "examples/bike-dock")
const TSC = path.join(REPO, "node_modules/typescript/bin/tsc")

const partsOf = (request: BundleRequest) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const bundler = yield* Bundler
      return yield* Stream.runCollect(bundler.parts(yield* bundler.prepare(request)))
    }).pipe(Effect.provide(layerNode))
  )

const linesOf = (stdout: string): string[] => stdout.split("\n").filter((l) => l !== "")

/** The example corpus in a real repository, the rides code touched in the last commit. */
const changedRepo = () => {
  const repo = makeRepo()
  fs.cpSync(EXAMPLE, repo.dir, { recursive: true })
  repo.commit("the example corpus")
  for (const file of ["fare.ts", "return.ts", "unlock.ts"]) fs.appendFileSync(path.join(repo.dir, "src/rides", file), "// touched\n")
  repo.commit("touch the rides code")
  return repo.dir
}

describe("bundler.parts: a Stream of parts", () => {
  it("streams a Pack's parts in order, each the bytes of a line the CLI's --parts prints", async () => {
    const parts = await partsOf({ root: EXAMPLE, pack: "pack:rides-v1", budget: "4000" })
    const cli = runCli(["bundle", "--root", EXAMPLE, "--pack", "pack:rides-v1", "--budget", "4000", "--parts"], REPO)
    expect(cli.status).toBe(0)
    const lines = linesOf(cli.stdout)
    expect(lines.length).toBeGreaterThan(1)
    expect(parts.map((p) => p.text)).toEqual(lines)
    expect(parts.map((p) => (p._tag === "Part" ? `${p.index}/${p.of} ${p.used}` : p._tag))).toEqual(lines.map((l, i) => `${i + 1}/${lines.length} ${l.length}`))
  }, 60_000)

  it("streams a changeset's parts in a real repository as the CLI does, and a budget no split fits as its one value", async () => {
    const root = changedRepo()
    const parts = await partsOf({ root, changeset: "HEAD~1", budget: "3000" })
    const cli = runCli(["bundle", "--root", root, "--changeset", "HEAD~1", "--budget", "3000", "--parts"], REPO)
    expect(cli.status).toBe(0)
    expect(linesOf(cli.stdout).length).toBeGreaterThan(1)
    expect(parts.map((p) => p.text)).toEqual(linesOf(cli.stdout))
    const over = await partsOf({ root, changeset: "HEAD~1", budget: "300" })
    const cliOver = runCli(["bundle", "--root", root, "--changeset", "HEAD~1", "--budget", "300", "--parts"], REPO)
    expect(over.map((p) => p._tag)).toEqual(["Exceeded"])
    expect(over.map((p) => p.text)).toEqual(linesOf(cliOver.stdout))
  }, 60_000)
})

/** The README's library example: the first ts block after its heading, as written. */
const readmeExample = (): string => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("### From a program: the library"))
  const block = /```ts\n([\s\S]*?)```/.exec(section)
  if (block === null) throw new Error("README.md: no ts block under 'From a program: the library'")
  return block[1]
}

describe("the README's library example", () => {
  it("type-checks, consumes the parts Stream and prints what the CLI's --parts prints", async () => {
    const app = tempDir("specbundle-readme-")
    const modules = path.join(app, "node_modules")
    fs.mkdirSync(path.join(modules, "@types"), { recursive: true })
    // "specbundle" is this repository (its exports: dist/index.js); effect and Node's types are its own.
    fs.symlinkSync(REPO, path.join(modules, "specbundle"), "dir")
    for (const name of ["effect", "@types/node"]) fs.symlinkSync(path.join(REPO, "node_modules", name), path.join(modules, name), "dir")
    const source = readmeExample()
    fs.writeFileSync(path.join(app, "main.ts"), source)
    // tsc checks the example against the source (paths), with the repository's compiler options.
    const tsconfig = {
      extends: path.join(REPO, "tsconfig.json"),
      compilerOptions: { noEmit: true, paths: { specbundle: [path.join(REPO, "src/index.ts")] } },
      files: ["main.ts"],
      // The declarations the source needs for oxc-parser's internals.
      include: [path.join(REPO, "src/types")]
    }
    fs.writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify(tsconfig))
    // Asynchronous: tsc takes a while, and a blocked worker loses vitest's heartbeat.
    const errors = await promisify(execFile)(process.execPath, [TSC, "-p", "."], { cwd: app, encoding: "utf8" }).then(
      ({ stdout, stderr }) => stdout + stderr,
      (e: { stdout?: string; stderr?: string }) => `tsc failed: ${e.stdout ?? ""}${e.stderr ?? ""}`
    )
    expect(errors).toBe("")

    const root = changedRepo()
    fs.writeFileSync(path.join(app, "main.mjs"), transformSync(source, { loader: "ts", format: "esm" }).code)
    const run = execFileSync(process.execPath, ["main.mjs", root, "HEAD~1"], { cwd: app, encoding: "utf8", env: gitCleanEnv() })
    const cli = runCli(["bundle", "--root", root, "--changeset", "HEAD~1", "--budget", "M", "--parts"], REPO)
    expect(cli.status).toBe(0)
    expect(linesOf(run).length).toBeGreaterThan(0)
    expect(run).toBe(cli.stdout)
  }, 180_000)
})
