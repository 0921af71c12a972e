// The packed package.json: `npm pack` runs `prepack` (build, then `strip`) and `postpack`
// (`restore`) around the tarball, the way pinst and clean-package do.
//
//   node scripts/pack-manifest.mjs strip     -> keeps package.json's bytes aside, writes it without
//                                               `scripts` and `devDependencies`
//   node scripts/pack-manifest.mjs restore   -> puts the kept bytes back
//
// Why: the tarball ships the built bundle (bin/), so its user needs no build step; a `prepare`
// left in the packed manifest is still listed by npm 11 as an install script to approve. The
// repository keeps `prepare`, which `npm ci` in a clone and a git-URL install need.
// A `strip` after a pack that died before `restore` first puts the kept bytes back, so the
// working tree never loses its scripts. `npm pack --ignore-scripts` skips both (and the build).
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const MANIFEST = path.join(repo, "package.json")
/** Gitignored, outside the packed `files`. */
const KEPT = path.join(repo, ".scratch", "package.json.before-pack")

const restore = () => {
  if (!fs.existsSync(KEPT)) return false
  fs.writeFileSync(MANIFEST, fs.readFileSync(KEPT))
  fs.rmSync(KEPT)
  return true
}

const strip = () => {
  restore()
  const bytes = fs.readFileSync(MANIFEST)
  const manifest = JSON.parse(bytes.toString("utf8"))
  delete manifest.scripts
  delete manifest.devDependencies
  fs.mkdirSync(path.dirname(KEPT), { recursive: true })
  fs.writeFileSync(KEPT, bytes)
  fs.writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`)
}

const command = process.argv[2]
if (command === "strip") strip()
else if (command === "restore") restore()
else {
  process.stderr.write(`pack-manifest: expected "strip" or "restore", got ${JSON.stringify(command ?? "")}\n`)
  process.exit(2)
}
