// The loader (src/loader.cjs, built as bin/specbundle.js) refuses a Node older than 22.19 with one
// line before it loads anything, saying how a project gets a newer one; a hook run (`hook run
// NAME`, what every hook line specbundle writes or prints runs) gets the same line naming what the
// hook left undone, and exit 0, so it never blocks a commit, a push or an agent session
// (bundle-contract.md section 6). The built loader runs under a preload that makes Node report
// another version (process.version and process.versions.node), the way the check reads it.
// test/entrances/hook-managers.test.ts runs the hooks for real on the machine's Node 20.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const REPO = path.join(import.meta.dirname, "..", "..")
const BIN = path.join(REPO, "bin", "specbundle.js")
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-node-version-"))
const PRELOAD = path.join(dir, "fake-version.cjs")
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

beforeAll(() => {
  if (!fs.existsSync(BIN)) {
    const build = spawnSync("npm", ["run", "build"], { cwd: REPO, encoding: "utf8" })
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`)
  }
  fs.writeFileSync(
    PRELOAD,
    [
      "const v = process.env.FAKE_NODE_VERSION",
      'Object.defineProperty(process, "version", { value: "v" + v })',
      'Object.defineProperty(process, "versions", { value: { ...process.versions, node: v } })',
      ""
    ].join("\n")
  )
})

const runAs = (version: string, args: ReadonlyArray<string> = ["--version"]) =>
  spawnSync(process.execPath, ["--require", PRELOAD, BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, FAKE_NODE_VERSION: version }
  })

const GET = "Get it for this project with npm install -D node@22 (npm scripts, npx and the hook lines then run it), or from your version manager"

describe("the Node version check", () => {
  it.each(["22.18.0", "20.19.0", "20.20.2", "22.1.0", "18.20.4", "16.0.0"])(
    "Node %s: one line saying how to get Node 22, exit 1, nothing on stdout",
    (version) => {
      const r = runAs(version)
      expect(r.status).toBe(1)
      expect(r.stdout).toBe("")
      expect(r.stderr).toBe(`specbundle needs Node 22.19 or later; this is v${version}. ${GET}\n`)
    }
  )

  it.each([
    ["pre-commit", ["hook", "run", "pre-commit", "--root", "/somewhere"], "checked nothing"],
    ["pre-push", ["hook", "run", "pre-push", "--manager", "lefthook", "origin"], "composed no bundle"],
    ["session-start", ["hook", "run", "session-start"], "added no context"],
    ["user-prompt-submit", ["hook", "run", "user-prompt-submit"], "added no context"]
  ])("a %s hook run on Node 20.20.2: the line names what the hook left undone, exit 0, nothing on stdout", (hook, args, skipped) => {
    const r = runAs("20.20.2", args)
    expect(r.status).toBe(0)
    expect(r.stdout).toBe("")
    expect(r.stderr).toBe(`specbundle needs Node 22.19 or later; this is v20.20.2, so the ${hook} hook ${skipped}. ${GET}\n`)
  })

  it.each(
    [
      ["bundle", "--pack", "pack:a"],
      ["--help"],
      ["hook", "install", "pre-commit"],
      ["hook", "print", "pre-commit", "--manager", "husky"],
      ["hook", "run", "post-merge"],
      ["check", "hook", "run", "pre-commit"],
      ["impact", "--staged", "--strict", "--quiet"]
    ].map((args) => [args.join(" "), args] as const)
  )("specbundle %s on Node 20.20.2 (not a hook run) keeps exit 1", (_, args) => {
    const r = runAs("20.20.2", args)
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`specbundle needs Node 22.19 or later; this is v20.20.2. ${GET}\n`)
  })

  it.each(["22.19.0", "22.23.3", "23.0.0", "24.0.0", "26.1.0"])("Node %s runs", (version) => {
    const r = runAs(version)
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
