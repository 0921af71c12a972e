// The loader (src/loader.cjs, built as bin/specbundle.js) refuses a Node older than 22.19 with one
// line before it loads anything. The built loader runs under a preload that makes Node report
// another version (process.version and process.versions.node), the way the check reads it.
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

const runAs = (version: string) =>
  spawnSync(process.execPath, ["--require", PRELOAD, BIN, "--version"], {
    encoding: "utf8",
    env: { ...process.env, FAKE_NODE_VERSION: version }
  })

describe("the Node version check", () => {
  it.each(["22.18.0", "20.19.0", "20.20.2", "22.1.0", "18.20.4", "16.0.0"])("Node %s: one line, exit 1, nothing on stdout", (version) => {
    const r = runAs(version)
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toBe(`specbundle needs Node 22.19 or later; this is v${version}\n`)
  })

  it.each(["22.19.0", "22.23.3", "23.0.0", "24.0.0", "26.1.0"])("Node %s runs", (version) => {
    const r = runAs(version)
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
