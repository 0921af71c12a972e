// The packed form as a user gets it: `npm pack` (prepack builds and strips the manifest), the tarball
// installed ALONE into an empty project (`npm init -y && npm install ./specbundle-0.1.0.tgz`), where
// `npx specbundle` runs (and `specbundle example` writes the example to try), the library imports
// with no package added by hand (npm installs the peers) and the README's library program type-checks and runs (a program over Bundler and Corpus too, one
// that catches an unknown revision by its tag, and a wrong request fails to type-check); `--omit=peer` for the CLI alone; the
// prepublishOnly check; `npm publish --dry-run` (never a real publish).
//
// SLOW (1-8 min on a loaded machine): real npm pack, npm install and npm publish --dry-run. It packs from a copy of the working tree (the
// repository's node_modules linked in for the build), so the repository's package.json and bin/
// never change while other test files run the CLI. The install uses npm's cache first
// (--prefer-offline: `npm ci` filled it) and reaches the registry only for what the cache lacks.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { repoAt } from "../support/git.js"
import { packWorkingTree, REPO, sh } from "../support/pack.js"
import { BIKE_DOCK } from "../support/paths.js"
import { tempDir } from "../support/tmp.js"

const BIN = path.join(REPO, "bin", "specbundle.js")
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc")

/** A program over the library's services (Bundler, Corpus) and its layer, as a user writes one. */
const LIBRARY_PROGRAM = `import { Bundler, Corpus, layerNode, type BundleRequest } from "specbundle"
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

/**
 * The typed failures through the declarations: the impact and bundle use cases against a revision
 * git does not know, caught by tag. The annotation says the tag left the error channel (so the
 * .d.ts carries the union, not one catch-all failure class).
 */
const TYPED_FAILURE_PROGRAM = `import { Bundler, Changes, layerNode, type UnknownRevisionError, type UseCaseError } from "specbundle"
import * as Effect from "effect/Effect"

const root = process.argv[2]
const impact: Effect.Effect<string, Exclude<UseCaseError, UnknownRevisionError>, Changes> = Effect.gen(function* () {
  const report = yield* (yield* Changes).report({ root, changeset: "no-such-revision" })
  return \`impact of \${report.label}\`
}).pipe(Effect.catchTag("UnknownRevisionError", (e) => Effect.succeed(\`impact: caught \${e._tag} \${e.revision}\`)))
const bundle = Effect.gen(function* () {
  const prepared = yield* (yield* Bundler).prepare({ root, changeset: "HEAD..no-such-revision" })
  return \`bundle of \${prepared.graph.specs.size} Specs\`
}).pipe(Effect.catchTag("UnknownRevisionError", (e) => Effect.succeed(\`bundle: caught \${e._tag} \${e.revision}\`)))
const lines = await Effect.runPromise(Effect.all([impact, bundle]).pipe(Effect.provide(layerNode)))
process.stdout.write(lines.join("\\n") + "\\n")
`

/** A TypeScript mistake the declarations must catch: a bundle request without its root. */
const WRONG_REQUEST = `import type { BundleRequest } from "specbundle"
export const r: BundleRequest = { pack: "pack:rides-v1" }
`

/** Bytes on disk under dir (file sizes; links not followed) and the packages in it. */
const measure = (dir: string): { bytes: number; packages: number } => {
  let bytes = 0
  let packages = 0
  const walk = (at: string, parentIsModules: boolean, parentIsScope: boolean) => {
    for (const e of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, e.name)
      if (e.isDirectory()) {
        const isPackage = (parentIsModules && !e.name.startsWith("@") && !e.name.startsWith(".")) || parentIsScope
        if (isPackage && fs.existsSync(path.join(full, "package.json"))) packages++
        walk(full, e.name === "node_modules", parentIsModules && e.name.startsWith("@"))
      } else if (e.isFile()) bytes += fs.statSync(full).size
    }
  }
  walk(dir, true, false)
  return { bytes, packages }
}

/** The README's library program: the TypeScript block of "From a program: the library". */
const readmeProgram = (): string => {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("### From a program: the library"))
  const block = /```ts\n([\s\S]*?)```/.exec(section)
  expect(block, "README has a ts block under From a program: the library").not.toBeNull()
  return block![1]!
}

/** A project folder as `npm init -y` makes it, with the tarball installed by `npm install` (plus flags). */
const installAlone = async (tarball: string, flags: ReadonlyArray<string> = []) => {
  const project = tempDir("specbundle-pack-user-")
  const init = await sh("npm", ["init", "-y"], project)
  expect(init.status, init.stderr).toBe(0)
  const copy = path.join(project, path.basename(tarball))
  fs.copyFileSync(tarball, copy)
  const started = performance.now()
  const install = await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...flags, `./${path.basename(tarball)}`], project)
  const seconds = (performance.now() - started) / 1000
  expect(install.status, install.stderr).toBe(0)
  const modules = path.join(project, "node_modules")
  const { bytes, packages } = measure(modules)
  console.log(
    `package install ${flags.join(" ") || "(plain)"}: ${packages} packages, ${(bytes / 1024 / 1024).toFixed(1)} MiB in node_modules, ${seconds.toFixed(1)} s`
  )
  return { project, modules, install, packages }
}

let work = ""
let tarball = ""
let packedFiles: ReadonlyArray<string> = []

beforeAll(async () => {
  ;({ work, tarball, files: packedFiles } = await packWorkingTree())
}, 600_000)

describe("the packed package", () => {
  it("holds the CLI, the library, the schema, the GitLab CI template and note script, README and LICENSE, and a manifest without scripts whose peers npm installs", async () => {
    // The library's declarations (dist/types/, built by prepack) are many; the rest is this list.
    const types = packedFiles.filter((f) => f.startsWith("dist/types/"))
    expect(types).toContain("dist/types/index.d.ts")
    for (const f of types) expect(f).toMatch(/\.d\.ts$/)
    // The example corpus `specbundle example` writes: every file of examples/bike-dock, as in the repository.
    const example = packedFiles.filter((f) => f.startsWith("examples/bike-dock/"))
    const corpusFiles = (fs.readdirSync(BIKE_DOCK, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((d) => d.isFile())
      .map((d) => `examples/bike-dock/${path.relative(BIKE_DOCK, path.join(d.parentPath, d.name)).split(path.sep).join("/")}`)
      .sort()
    expect(example).toEqual(corpusFiles)
    expect(packedFiles.filter((f) => !f.startsWith("dist/types/") && !f.startsWith("examples/bike-dock/"))).toEqual([
      "LICENSE",
      "README.md",
      "bin/package.json",
      "bin/specbundle-front.cjs",
      "bin/specbundle-hook.cjs",
      "bin/specbundle-main.cjs",
      "bin/specbundle-mcp.cjs",
      "bin/specbundle-tokens-cl100k_base.cjs",
      "bin/specbundle-tokens-o200k_base.cjs",
      "bin/specbundle-worker.cjs",
      "bin/specbundle.js",
      "ci/gitlab/code-quality.mjs",
      "ci/gitlab/mr-note.mjs",
      "ci/gitlab/specbundle.gitlab-ci.yml",
      "dist/index.js",
      "examples/README.md",
      "examples/make-history.mjs",
      "package.json",
      "schema/specbundle.config.schema.json"
    ])
    const manifest = JSON.parse((await sh("tar", ["-xzOf", tarball, "package/package.json"], REPO)).stdout) as Record<string, unknown>
    // No scripts (so nothing to build or approve at install) and one runtime dependency.
    expect(manifest.scripts).toBeUndefined()
    expect(manifest.devDependencies).toBeUndefined()
    expect(manifest.private).toBeUndefined()
    expect(Object.keys(manifest.dependencies as object)).toEqual(["oxc-parser"])
    // effect: the one peer, which npm installs (not optional); what the library takes from
    // @effect/platform-node is inlined (that package peers on redis, which npm would install too).
    expect(Object.keys(manifest.peerDependencies as object)).toEqual(["effect"])
    expect(manifest.peerDependenciesMeta).toBeUndefined()
    for (const key of ["repository", "homepage", "bugs", "keywords", "engines", "files"]) expect(manifest[key], key).toBeDefined()
  })

  it("installed alone: npx specbundle runs, a plain ES-module import of the library works, the README's program, one over Bundler and Corpus and one catching UnknownRevisionError by its tag type-check and run, a wrong request does not type-check", async () => {
    const { project, modules, install } = await installAlone(tarball)
    for (const name of ["oxc-parser", "effect"]) expect(fs.existsSync(path.join(modules, name, "package.json")), name).toBe(true)
    for (const name of ["@effect/platform", "@effect/platform-node", "redis"]) expect(fs.existsSync(path.join(modules, name)), name).toBe(false)
    expect(JSON.parse(fs.readFileSync(path.join(modules, "effect", "package.json"), "utf8")).version).toMatch(/^4\./)
    // No install script to approve: none of ours, none of effect's.
    expect(install.stderr).not.toContain("install-scripts")

    const version = await sh("npx", ["--no", "--", "specbundle", "--version"], project)
    expect(version.status, version.stderr).toBe(0)
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).version)

    // A plain ES-module import, from the project folder, of what the README names.
    const imported = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", 'import * as m from "specbundle"; console.log([typeof m.layerNode, typeof m.Bundler, typeof m.composeBundle].join(" "))'],
      { cwd: project, encoding: "utf8" }
    )
    expect(imported.stderr).toBe("")
    expect(imported.stdout).toBe("object function function\n")

    // A corpus repository for the program: origin/main one commit behind HEAD.
    const repo = repoAt(path.join(project, "specs-repo"))
    fs.cpSync(BIKE_DOCK, repo.dir, { recursive: true })
    repo.git("init", "-q", "-b", "main")
    const base = repo.commit("base")
    repo.git("update-ref", "refs/remotes/origin/main", base)
    const spec = "specs/rides/ride-fare-rule.sdp.md"
    fs.appendFileSync(path.join(repo.dir, spec), "- A ride longer than a day costs at most 2,000 cents.\n")
    repo.commit("change")

    // The README's program as written: type-checked with tsc (no error of its own), compiled, run. tsc and Node's types are
    // the program's own dev tools (the library's declarations name Buffer): taken from this
    // repository through typeRoots, so the project's node_modules stay as npm installed them.
    fs.writeFileSync(path.join(project, "main.ts"), readmeProgram())
    const pkg = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"))
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ ...pkg, type: "module" }, null, 2))
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        typeRoots: [path.join(REPO, "node_modules", "@types")],
        types: ["node"],
        outDir: "out"
      },
      files: ["main.ts", "lib.ts", "typed.ts", "wrong.ts"]
    }
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(tsconfig))
    // The declarations are real types, not \`any\`: in the same tsc run, a program over Bundler and
    // Corpus checks clean too, and a request without its root does not (tsc still emits the rest).
    // (The last two were test/entrances/library-pack.test.ts, which packed and ran tsc once more.)
    fs.writeFileSync(path.join(project, "lib.ts"), LIBRARY_PROGRAM)
    fs.writeFileSync(path.join(project, "typed.ts"), TYPED_FAILURE_PROGRAM)
    fs.writeFileSync(path.join(project, "wrong.ts"), WRONG_REQUEST)
    const tsc = await sh(process.execPath, [TSC, "-p", "."], project)
    expect(tsc.status).not.toBe(0)
    const errors = tsc.stdout.split("\n").filter((l) => /error TS/.test(l))
    expect(errors.length, tsc.stdout).toBeGreaterThan(0)
    expect(
      errors.every((l) => l.startsWith("wrong.ts")),
      tsc.stdout
    ).toBe(true)
    expect(tsc.stdout).toMatch(/root/)
    // lib.js bundles a Pack and lists the corpus, as the CLI does.
    const lib = await sh(process.execPath, ["out/lib.js", BIKE_DOCK], project)
    expect(lib.status, lib.stderr).toBe(0)
    const [listing, ...bundled] = lib.stdout.split("\n")
    expect(JSON.parse(listing!)).toEqual({ packs: 2 })
    const cliPack = await sh(process.execPath, [BIN, "bundle", "--root", BIKE_DOCK, "--pack", "pack:rides-v1"], project)
    expect(cliPack.status, cliPack.stderr).toBe(0)
    expect(bundled.join("\n")).toBe(cliPack.stdout)
    // typed.js (checked clean above, strict): a revision git does not know is caught by its tag.
    const typed = await sh(process.execPath, ["out/typed.js", "specs-repo"], project)
    expect(typed.status, typed.stderr).toBe(0)
    expect(typed.stdout).toBe("impact: caught UnknownRevisionError no-such-revision\nbundle: caught UnknownRevisionError no-such-revision\n")
    // Run as the README says: `node main.js specs-repo origin/main...HEAD` prints what `bundle --parts` prints.
    const ran = spawnSync(process.execPath, ["out/main.js", "specs-repo", "origin/main...HEAD"], { cwd: project, encoding: "utf8", timeout: 60_000 })
    expect(ran.status, ran.stderr).toBe(0)
    const cli = spawnSync(process.execPath, [BIN, "bundle", "--root", "specs-repo", "--changeset", "origin/main...HEAD", "--budget", "M", "--parts"], {
      cwd: project,
      encoding: "utf8"
    })
    expect(cli.status, cli.stderr).toBe(0)
    expect(ran.stdout).toBe(cli.stdout)
    expect(JSON.parse(ran.stdout.split("\n")[0]).scope.specs).toContain("spec:rides.ride-fare-rule")

    // `npx specbundle bundle` there gives the repository's build's bytes; anchored code was read, so
    // oxc-parser resolved from the user's node_modules.
    fs.cpSync(BIKE_DOCK, path.join(project, "corpus"), { recursive: true })
    const args = ["bundle", "--root", "corpus", "--pack", "pack:rides-v1"]
    const installed = await sh("npx", ["--no", "--", "specbundle", ...args], project)
    expect(installed.status, installed.stderr).toBe(0)
    expect(installed.stderr).toBe("")
    const built = spawnSync(process.execPath, [BIN, ...args], { cwd: project, encoding: "utf8" })
    expect(built.status).toBe(0)
    expect(installed.stdout).toBe(built.stdout)
    expect(installed.stdout).toContain('"file":"src/rides/unlock.ts"')

    // Something to try the --help examples on, from the installed package alone: `specbundle example DIR`.
    const example = await sh("npx", ["--no", "--", "specbundle", "example", "try-it"], project)
    expect(example.status, example.stderr).toBe(0)
    const tryIt = path.join(fs.realpathSync(project), "try-it")
    expect(example.stdout).toBe(`${tryIt}\n`)
    const tried = await sh("npx", ["--no", "--", "specbundle", "impact", "--changeset", "HEAD~1", "--format", "text"], tryIt)
    expect(tried.status, tried.stderr).toBe(0)
    expect(tried.stdout).toContain("modified  specs/rides/ride-fare-rule.sdp.md")
  }, 300_000)

  it("for the CLI alone, --omit=peer keeps the install at oxc-parser and specbundle, with no install script; --tokens works there", async () => {
    const { project, modules, install, packages } = await installAlone(tarball, ["--omit=peer"])
    expect(install.stderr).not.toContain("install-scripts")
    expect(fs.existsSync(path.join(modules, "effect"))).toBe(false)
    expect(packages).toBeLessThanOrEqual(4)
    const version = await sh("npx", ["--no", "--", "specbundle", "--version"], project)
    expect(version.status, version.stderr).toBe(0)
    // `--tokens` needs no package of its own: the tokenizer ships built in bin/.
    fs.cpSync(BIKE_DOCK, path.join(project, "corpus"), { recursive: true })
    const counted = await sh("npx", ["--no", "--", "specbundle", "bundle", "--root", "corpus", "--pack", "pack:rides-v1", "--tokens", "cl100k_base"], project)
    expect(counted.status, counted.stderr).toBe(0)
    expect(counted.stderr).toMatch(/^cl100k_base tokens: \d+$/m)
  }, 300_000)

  it("prepublishOnly refuses, in one line, a package whose tarball lacks the schema", async () => {
    // The built copy with `files` missing schema (and no prepack, so the dry run is quick).
    const broken = tempDir("specbundle-pack-broken-")
    for (const f of ["bin", "ci", "dist", "scripts", "examples", "LICENSE", "README.md"])
      fs.cpSync(path.join(work, f), path.join(broken, f), { recursive: true })
    const manifest = JSON.parse(fs.readFileSync(path.join(work, "package.json"), "utf8"))
    manifest.files = manifest.files.filter((f: string) => f !== "schema")
    manifest.scripts = { prepublishOnly: manifest.scripts.prepublishOnly }
    fs.mkdirSync(path.join(broken, "schema"))
    fs.copyFileSync(path.join(work, "schema", "specbundle.config.schema.json"), path.join(broken, "schema", "specbundle.config.schema.json"))
    fs.writeFileSync(path.join(broken, "package.json"), JSON.stringify(manifest, null, 2))
    const refused = await sh(process.execPath, ["scripts/check-pack.mjs"], broken)
    expect(refused.status).toBe(1)
    expect(refused.stderr.trimEnd().split("\n")).toEqual([
      'check-pack: the tarball lacks schema/specbundle.config.schema.json: refusing to publish (check "files" in package.json and run npm run build)'
    ])
    // The same folder with schema listed passes.
    fs.writeFileSync(path.join(broken, "package.json"), JSON.stringify({ ...manifest, files: [...manifest.files, "schema"] }, null, 2))
    const accepted = await sh(process.execPath, ["scripts/check-pack.mjs"], broken)
    expect(accepted.status, accepted.stderr).toBe(0)
  }, 120_000)

  it("npm publish --dry-run succeeds (prepublishOnly included; nothing is published)", async () => {
    const publish = await sh("npm", ["publish", "--dry-run"], work)
    expect(publish.status, publish.stderr).toBe(0)
    expect(publish.stdout).toContain("prepublishOnly")
    expect(publish.stderr).toContain("(dry-run)")
  }, 600_000)
})
