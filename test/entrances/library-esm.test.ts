// The README's word on module formats (issue 37): the library is an ES module only. A program in a
// folder whose node_modules holds this package (a symlink to the repository, built): `require`
// fails with ERR_PACKAGE_PATH_NOT_EXPORTED, and `await import()` from CommonJS works.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { REPO } from "../support/cli.js"
import { tempDir } from "../support/tmp.js"

let project = ""
beforeAll(() => {
  project = tempDir("specbundle-esm-")
  fs.mkdirSync(path.join(project, "node_modules"))
  fs.symlinkSync(REPO, path.join(project, "node_modules", "specbundle"), "dir")
})

const node = (file: string, text: string) => {
  fs.writeFileSync(path.join(project, file), text)
  return spawnSync(process.execPath, [file], { cwd: project, encoding: "utf8" })
}

describe("the library is an ES module only, as the README says", () => {
  it("require() fails with ERR_PACKAGE_PATH_NOT_EXPORTED", () => {
    const r = node("require.cjs", 'try { require("specbundle") } catch (e) { console.log(e.code) }\n')
    expect(r.stderr).toBe("")
    expect(r.stdout).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED\n")
  })

  it("await import() from CommonJS, and import from a module, give the use cases", () => {
    const cjs = node("dynamic.cjs", 'import("specbundle").then((m) => console.log(typeof m.Bundler, typeof m.layerNode))\n')
    expect(cjs.stderr).toBe("")
    expect(cjs.stdout).toBe("function object\n")
    const esm = node("static.mjs", 'import { Corpus } from "specbundle"\nconsole.log(typeof Corpus)\n')
    expect(esm.stderr).toBe("")
    expect(esm.stdout).toBe("function\n")
  })
})
