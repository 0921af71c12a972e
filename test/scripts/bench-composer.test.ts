// `npm run bench`'s composer-alone row bundles a program over the pure core by source path
// (scripts/bench-composer.mjs). When core's files moved into graph/ the row quietly said "n/a
// (composer missing)"; this test builds that program, so a moved file fails here instead.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { expect, it } from "vitest"
// @ts-expect-error: a plain .mjs script without types
import { buildComposerProgram } from "../../scripts/bench-composer.mjs"

it("the bench's composer-alone program builds from the pure core's current paths", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-composer-"))
  try {
    const out = path.join(dir, "composer.mjs")
    const built = (await buildComposerProgram(path.join(import.meta.dirname, "..", ".."), out)) as { ok: boolean; reason?: string }
    expect(built).toEqual({ ok: true })
    expect(fs.statSync(out).size).toBeGreaterThan(0)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
