// `prepublishOnly`: refuses to publish a package whose tarball lacks what users run or read: the
// LICENSE, the README, every `bin` target and the bundle it loads, the library and its declarations
// (package.json `exports`), the config schema, the GitLab CI template and its note script, the
// example that `specbundle example` writes. It asks
// npm what the tarball would hold (`npm pack --dry-run --json`, which runs prepack and postpack like
// the real pack) and prints one line naming what is missing, exit 1; nothing on success.
//
//   node scripts/check-pack.mjs [DIR]     DIR: the package folder (default: this repository)
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const dir = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."))
const fail = (line) => {
  process.stderr.write(`check-pack: ${line}\n`)
  process.exit(1)
}

const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"))
const library = manifest.exports?.["."] ?? {}
const required = [
  "LICENSE",
  "README.md",
  ...Object.values(manifest.bin ?? {}),
  "bin/specbundle-main.cjs",
  "bin/specbundle-front.cjs",
  "bin/specbundle-hook.cjs",
  // `bundle --tokens` requires these beside the CLI's bundle (src/node/tokenizer.ts).
  "bin/specbundle-tokens-o200k_base.cjs",
  "bin/specbundle-tokens-cl100k_base.cjs",
  library.import,
  library.types,
  "schema/specbundle.config.schema.json",
  "ci/gitlab/specbundle.gitlab-ci.yml",
  "ci/gitlab/mr-note.mjs",
  "ci/gitlab/code-quality.mjs",
  // What `specbundle example DIR` copies and runs.
  "examples/make-history.mjs",
  "examples/bike-dock/specs/rides.pack.sdp.md"
]
  .filter((f) => typeof f === "string")
  .map((f) => path.posix.normalize(f))

// npm_config_dry_run from an outer `npm publish --dry-run` is harmless here: the pack is a dry run anyway.
const r = spawnSync("npm", ["pack", "--dry-run", "--json"], { cwd: dir, encoding: "utf8", shell: process.platform === "win32" })
if (r.status !== 0) fail(`npm pack --dry-run failed (exit ${r.status}): ${(r.stderr.trim().split("\n").pop() ?? "").slice(0, 200)}`)
let files
try {
  files = new Set(JSON.parse(r.stdout)[0].files.map((f) => f.path))
} catch {
  fail("npm pack --dry-run --json printed no file list")
}
const missing = required.filter((f) => !files.has(f))
if (missing.length > 0) fail(`the tarball lacks ${missing.join(", ")}: refusing to publish (check "files" in package.json and run npm run build)`)
