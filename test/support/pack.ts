// The packed form as a user gets it, for the tests that install it (package-install, the real hook
// managers): `npm pack` from a copy of the working tree (the repository's node_modules linked in
// for the build), so the repository's package.json and bin/ never change while other test files
// run the CLI. prepack builds and strips the manifest; postpack puts it back.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"
import { type Run, runAsync } from "./cli.js"
import { tempDir } from "./tmp.js"

export const REPO = path.join(import.meta.dirname, "..", "..")
/** Never copied: the repository's install, its history, the build's outputs and scratch files. */
const SKIP = new Set(["node_modules", ".git", ".scratch", "tmp"])

/**
 * The environment without what an outer `npm test` puts there for its own package: npm reads
 * npm_config_local_prefix before the folder it runs in, and would pack the repository itself.
 */
export const npmFreeEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$|config_call$)/i.test(k) && k !== "INIT_CWD")
  )

/**
 * Runs a command to its end without blocking the event loop (npm pack, install and publish take
 * minutes on a loaded machine; a blocked test worker misses vitest's own messages).
 */
export const sh = (command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv = npmFreeEnv()): Promise<Run> =>
  runAsync(command, args, { cwd, env, timeout: 540_000 })

export interface Packed {
  /** The copy of the working tree that was packed (built, with the manifest put back). */
  readonly work: string
  /** The tarball's path. */
  readonly tarball: string
  /** The files in the tarball, sorted. */
  readonly files: ReadonlyArray<string>
}

/** Packs a copy of the working tree once (a beforeAll body): the tarball and its file list. */
export const packWorkingTree = async (): Promise<Packed> => {
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
  const pack = await sh("npm", ["pack", "--json", "--pack-destination", out], work)
  expect(pack.status, pack.stderr).toBe(0)
  const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  // postpack put the manifest back byte for byte.
  expect(fs.readFileSync(path.join(work, "package.json"), "utf8")).toBe(before)
  return { work, tarball: path.join(out, packed!.filename), files: packed!.files.map((f) => f.path).sort() }
}

/** A project folder as `npm init -y` makes it, with the tarball installed by a plain `npm install ./<tarball>`. */
export const installInProject = async (tarball: string): Promise<string> => {
  const project = tempDir("specbundle-pack-project-")
  const init = await sh("npm", ["init", "-y"], project)
  expect(init.status, init.stderr).toBe(0)
  fs.copyFileSync(tarball, path.join(project, path.basename(tarball)))
  const install = await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `./${path.basename(tarball)}`], project)
  expect(install.status, install.stderr).toBe(0)
  return project
}
