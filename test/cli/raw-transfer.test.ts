// oxc's raw transfer reserves 6 GiB of virtual memory per parsing thread (src/node/oxcRaw.ts).
// Under a virtual memory limit that refuses it, the built CLI takes the whole-AST route for every
// code file and prints the same bytes, with and without worker threads.
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { CLI, cleanEnv } from "../support/hostile.js"
import { tempDir, writeFiles } from "../support/tmp.js"
import { skipping } from "../support/skip.js"

const root = tempDir("specbundle-raw-")
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
execFileSync(process.execPath, [path.resolve("scripts/gen-corpus.mjs"), root, "--specs", "80", "--packs", "1", "--ts-files", "160", "--anchor-every", "4"])
writeFiles(root, {
  "src/broken/bad.ts": `import { codeAnchor } from "@libar-dev/software-delivery-protocol"\nexport const a = codeAnchor({ id: "impl:x.y" \n`,
  "src/broken/comment.ts": `/** @sdpAnchor impl:broken.comment\n * @sdpSatisfies spec:broken.bad */\nexport const b = 1\n`
})

/** The CLI under `ulimit -v` (KiB; "unlimited" for none), through the shell that sets it. */
const run = (limit: string, workers: string) => {
  const args = ["bundle", "--root", root, "--pack", "pack:pack-000", "--parts", "--budget", "20000"].map((a) => `'${a}'`).join(" ")
  const r = spawnSync("sh", ["-c", `ulimit -v ${limit} && exec '${process.execPath}' '${CLI}' ${args}`], {
    encoding: "utf8",
    env: { ...cleanEnv(), SPECBUNDLE_CODE_CACHE: "0", SPECBUNDLE_WORKERS: workers },
    timeout: 120_000
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe.skipIf(skipping(process.platform !== "linux", "without room for oxc's transfer buffer", "the address-space limit (prlimit) is set the Linux way"))(
  "without room for oxc's transfer buffer",
  () => {
    it("prints what a run with it prints (4 GiB of virtual memory: the 6 GiB buffer is refused)", () => {
      const free = run("unlimited", "0")
      expect(free.status).toBe(0)
      // Anchors from code reached the bundle.
      expect(free.stdout).toMatch(/"impl:mod-\d+\.file-/)
      const limit = String(4 * 1024 * 1024)
      // The limit does refuse the buffer, so these runs take the whole-AST route.
      const probe = spawnSync("sh", ["-c", `ulimit -v ${limit} && exec '${process.execPath}' -e 'new ArrayBuffer(6 * 2 ** 30)'`], { encoding: "utf8" })
      expect(probe.stderr).toContain("Array buffer allocation failed")
      for (const workers of ["0", "1"]) expect(run(limit, workers)).toEqual(free)
    }, 120_000)
  }
)
