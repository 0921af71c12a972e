// Bundles the CLI into one CommonJS file: a bundled Effect CLI starts in about a third of the
// time of an unbundled one (shared/docs/style.md section 3). oxc-parser stays external: it ships a
// native binding that cannot be inlined, and it is loaded only when a file may hold an anchor.
import { build } from "esbuild"
import { chmodSync } from "node:fs"

await build({
  entryPoints: ["src/bin.ts"],
  outfile: "bin/specbundle.js",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  minifySyntax: true,
  treeShaking: true,
  legalComments: "none",
  external: ["oxc-parser", "@parcel/watcher"],
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning"
})
chmodSync("bin/specbundle.js", 0o755)
