// The packed form as a user gets it: `npm pack` (prepack builds and strips the manifest), the tarball
// installed into an empty project, `npx specbundle bundle …` run there on a copy of the bike-dock
// example, its stdout byte-identical to the repository's own built CLI.
//
// SLOW (10-60 s): a real npm pack and npm install. It packs from a copy of the working tree (the
// repository's node_modules linked in for the build), so the repository's package.json and bin/
// never change while other test files run the CLI. The install uses npm's cache first
// (--prefer-offline: `npm ci` filled it) and reaches the registry only for what the cache lacks.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { BIKE_DOCK } from "../support/paths.js"
import { tempDir } from "../support/tmp.js"

const REPO = path.join(import.meta.dirname, "..", "..")
const BIN = path.join(REPO, "bin", "specbundle.js")
/** Never copied: the repository's install, its history, the build's outputs and scratch files. */
const SKIP = new Set(["node_modules", ".git", ".scratch", "tmp"])

/**
 * The environment without what an outer `npm test` puts there for its own package: npm reads
 * npm_config_local_prefix before the folder it runs in, and would pack the repository itself.
 */
const npmFreeEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)/i.test(k) && k !== "INIT_CWD")
  )

const sh = (command: string, args: ReadonlyArray<string>, cwd: string) => {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 240_000, env: npmFreeEnv() })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

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

describe("the packed package", () => {
  it("installs into an empty project with oxc-parser its one dependency, and `npx specbundle bundle` prints the built CLI's bytes (slow: npm pack + npm install)", () => {
    // 1. Pack from a copy of the working tree.
    const work = tempDir("specbundle-pack-src-")
    fs.cpSync(REPO, work, {
      recursive: true,
      filter: (from) => {
        const rel = path.relative(REPO, from)
        return rel === "" || !SKIP.has(rel.split(path.sep)[0]!)
      }
    })
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(work, "node_modules"))
    const before = fs.readFileSync(path.join(work, "package.json"), "utf8")
    const out = tempDir("specbundle-pack-out-")
    const pack = sh("npm", ["pack", "--json", "--pack-destination", out], work)
    expect(pack.status, pack.stderr).toBe(0)
    const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
    const files = packed!.files.map((f) => f.path).sort()
    // The library's declarations (dist/types/, built by prepack) are many; the rest is this list.
    const types = files.filter((f) => f.startsWith("dist/types/"))
    expect(types).toContain("dist/types/index.d.ts")
    for (const f of types) expect(f).toMatch(/\.d\.ts$/)
    expect(files.filter((f) => !f.startsWith("dist/types/"))).toEqual([
      "LICENSE",
      "README.md",
      "bin/package.json",
      "bin/specbundle-main.cjs",
      "bin/specbundle-mcp.cjs",
      "bin/specbundle-worker.cjs",
      "bin/specbundle.js",
      "dist/index.js",
      "package.json",
      "schema/specbundle.config.schema.json"
    ])
    // postpack put the manifest back byte for byte.
    expect(fs.readFileSync(path.join(work, "package.json"), "utf8")).toBe(before)
    const tarball = path.join(out, packed!.filename)
    const listed = sh("tar", ["-xzOf", tarball, "package/package.json"], out)
    const manifest = JSON.parse(listed.stdout) as Record<string, unknown>
    // No scripts (so nothing to build or approve at install) and one runtime dependency.
    expect(manifest.scripts).toBeUndefined()
    expect(manifest.devDependencies).toBeUndefined()
    expect(Object.keys(manifest.dependencies as object)).toEqual(["oxc-parser"])

    // 2. Install the tarball into an empty project.
    const project = tempDir("specbundle-pack-user-")
    fs.writeFileSync(path.join(project, "package.json"), `${JSON.stringify({ name: "user-project", version: "1.0.0", private: true })}\n`)
    const started = performance.now()
    const install = sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], project)
    const seconds = (performance.now() - started) / 1000
    expect(install.status, install.stderr).toBe(0)
    expect(install.stderr).not.toContain("install-scripts")
    const modules = path.join(project, "node_modules")
    const { bytes, packages } = measure(modules)
    console.log(`package install: ${packages} packages, ${(bytes / 1024 / 1024).toFixed(1)} MiB in node_modules, ${seconds.toFixed(1)} s`)
    expect(fs.existsSync(path.join(modules, "oxc-parser", "package.json"))).toBe(true)
    expect(fs.existsSync(path.join(modules, "effect"))).toBe(false)

    // 3. Run it there on a corpus; compare with the repository's build.
    fs.cpSync(BIKE_DOCK, path.join(project, "corpus"), { recursive: true })
    const args = ["bundle", "--root", "corpus", "--pack", "pack:rides-v1"]
    const installed = sh("npx", ["--no", "--", "specbundle", ...args], project)
    expect(installed.status, installed.stderr).toBe(0)
    expect(installed.stderr).toBe("")
    const built = spawnSync(process.execPath, [BIN, ...args], { cwd: project, encoding: "utf8" })
    expect(built.status).toBe(0)
    expect(installed.stdout).toBe(built.stdout)
    // The anchored code was read, so oxc-parser resolved from the user's node_modules.
    expect(installed.stdout).toContain('"file":"src/rides/unlock.ts"')
  }, 300_000)
})
