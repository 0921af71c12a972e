// Builds the CLI into three files in bin/ (build outputs, gitignored):
//   - bin/specbundle-main.cjs: the whole CLI bundled into one CommonJS file. A bundled Effect CLI
//     starts in about a third of the time of an unbundled one (shared/docs/style.md section 3).
//   - bin/specbundle.js: the small hand-written loader src/loader.cjs, copied verbatim. It compiles
//     the bundle with V8's code cache, which saves most of the bundle's parse at start-up.
//   - bin/specbundle-hook.cjs: src/hook.ts, the pre-commit hook's command lines without effect/cli,
//     which the loader compiles instead of the CLI's bundle for them (its own code cache).
//   - bin/specbundle-worker.cjs: src/worker.ts, the readers alone, for the worker threads that
//     parse a large corpus (they do not evaluate the CLI's modules).
//   - bin/specbundle-tokens-<encoding>.cjs: gpt-tokenizer's counter for one encoding (o200k_base
//     2.0 MB, cl100k_base 0.8 MB, most of it the ranks), required by src/node/tokenizer.ts only
//     when `--tokens` names it: the CLI's bundle and `--help` carry none of it, and an install
//     needs no runtime dependency for it (docs/decisions.md, "Token counts").
// Both bundles are minified (0.9 MB and 0.3 MB instead of 1.9 and 0.6): V8 pre-parses every
// byte when it compiles a script without a cache (the first run, a worker), ~25 ms less for
// `--help`. No code reads a function's name; nothing prints a stack trace.
// oxc-parser stays external: it ships a native binding that cannot be inlined, and it is loaded
// only when a file may hold an anchor. The loader compiles the bundle with vm.Script, which cannot
// run import() without --experimental-vm-modules, so esbuild turns the external import() calls into
// require(): oxc-parser is an ES module, which require() loads on Node >= 22.19 (package.json
// "engines") without a flag.
import { build } from "esbuild"
import { isAscii } from "node:buffer"
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"

const PAYLOAD = "bin/specbundle-main.cjs"
const LOADER = "bin/specbundle.js"
/** The worker threads' own bundle (src/worker.ts): the readers without the CLI. */
const WORKER = "bin/specbundle-worker.cjs"
const MCP = "bin/specbundle-mcp.cjs"
/** Help pages and the version without the CLI (src/front.ts), required first by the loader when asked for them. */
const FRONT = "bin/specbundle-front.cjs"
/** The pre-commit hook's command lines without effect/cli (src/hook.ts), compiled by the loader instead of the CLI's bundle for them. */
const HOOK = "bin/specbundle-hook.cjs"
const LIBRARY = "dist/index.js"

// debug (simple-git's logger) asks for supports-color inside a try and does without it. Nothing
// installs it, so each run had Node look for it in every node_modules folder above bin/ (~0.25 ms),
// and a copy found there (a stranger's) would have been loaded: it is an empty module here.
const noSupportsColor = {
  name: "no-supports-color",
  setup(b) {
    b.onResolve({ filter: /^supports-color$/ }, () => ({ path: "supports-color", namespace: "specbundle-empty" }))
    b.onLoad({ filter: /.*/, namespace: "specbundle-empty" }, () => ({ contents: "module.exports = {}", loader: "js" }))
  }
}

const options = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  minify: true,
  treeShaking: true,
  legalComments: "none",
  external: ["oxc-parser", "@parcel/watcher"],
  supported: { "dynamic-import": false },
  metafile: true,
  logLevel: "warning",
  plugins: [noSupportsColor]
}
// The command tree as data, read from the CLI's own definitions (src/entrances/cli/help-data.ts,
// bundled to a temp file and evaluated once): inlined as JSON text into the CLI's bundle (its
// argument pre-checks) and the front's (the help pages).
const scratch = mkdtempSync(join(tmpdir(), "specbundle-build-"))
let helpData
let helpPages
try {
  const dataFile = join(scratch, "help-data.cjs")
  await build({ ...options, minify: false, entryPoints: ["src/entrances/cli/help-data.ts"], outfile: dataFile })
  const evaluated = createRequire(import.meta.url)(dataFile)
  helpData = evaluated.helpData()
  helpPages = evaluated.helpPages()
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
const result = await build({
  ...options,
  entryPoints: ["src/bin.ts"],
  outfile: PAYLOAD,
  define: { SPECBUNDLE_MODEL_JSON: JSON.stringify(JSON.stringify(helpData.root)) }
})
const hook = await build({ ...options, entryPoints: ["src/hook.ts"], outfile: HOOK })
await build({ ...options, entryPoints: ["src/worker.ts"], outfile: WORKER })
// The MCP server (src/entrances/mcp/main.ts): its own bundle, required by `specbundle mcp` only, so the CLI's
// bundle and `--help` carry none of effect/ai and effect/rpc.
await build({ ...options, entryPoints: ["src/entrances/mcp/main.ts"], outfile: MCP })
// One tokenizer bundle per encoding (the encodings of src/core/tokens.ts), with gpt-tokenizer's
// license: it is redistributed here, not installed.
const tokenizerLicense = readFileSync(
  createRequire(import.meta.url)
    .resolve("gpt-tokenizer/package.json")
    .replace(/package\.json$/, "LICENSE"),
  "utf8"
)
for (const encoding of ["o200k_base", "cl100k_base"]) {
  await build({
    ...options,
    stdin: {
      contents: `const { countTokens, isWithinTokenLimit } = require("gpt-tokenizer/encoding/${encoding}")\nmodule.exports = { countTokens, isWithinTokenLimit }`,
      resolveDir: ".",
      loader: "js"
    },
    outfile: `bin/specbundle-tokens-${encoding}.cjs`,
    // Raw UTF-8 ranks: 2.0 MB instead of 2.8 with \u escapes, and quicker to parse (Node's own require reads it).
    charset: "utf8",
    banner: {
      js: `/* gpt-tokenizer (${encoding}), https://github.com/niieani/gpt-tokenizer; ranks from OpenAI's tiktoken (MIT).\n${tokenizerLicense.trim()}\n*/`
    }
  })
}
// The library (src/index.ts): one ES module. effect stays external, shared with the host program
// (the one peerDependency, which npm installs); the rest is inlined, @effect/platform-node's
// NodeFileSystem included, so a plain install needs no second peer (docs/decisions.md, "The published
// package"). Its declarations: `npm run build:types`.
await build({
  ...options,
  entryPoints: ["src/index.ts"],
  outfile: LIBRARY,
  format: "esm",
  minify: false,
  supported: {},
  external: [...options.external, "effect"],
  // Inlined CommonJS packages call require() for Node's built-ins: give the module one.
  banner: { js: 'import { createRequire as __specbundleRequire } from "node:module"\nconst require = __specbundleRequire(import.meta.url)' }
})

// The front (src/front.ts): help pages and the version without the CLI's bundle, from the command
// tree read above, inlined as JSON text and parsed when a page is asked for. The text is a
// double-quoted string in a footer, not a define: esbuild's minifier would print the define as a
// template literal (fewer escapes), which V8 scans ~0.5 ms slower on every `--help` (the front has
// no code cache; docs/decisions.md, "Start-up").
await build({
  ...options,
  entryPoints: ["src/front.ts"],
  outfile: FRONT,
  define: { SPECBUNDLE_HELP_JSON: "__specbundleHelpJson", SPECBUNDLE_HELP_PAGES: "__specbundleHelpPages" },
  footer: {
    js: `var __specbundleHelpJson = ${JSON.stringify(JSON.stringify(helpData))};\nvar __specbundleHelpPages = ${JSON.stringify(helpPages)};`
  }
})

// A dynamic import() left in the bundle would fail at run time under the loader: refuse it here.
const dynamic = [...Object.values(result.metafile.outputs), ...Object.values(hook.metafile.outputs)]
  .flatMap((output) => output.imports)
  .filter((i) => i.kind === "dynamic-import")
if (dynamic.length > 0) throw new Error(`build: import() left in ${PAYLOAD}: ${dynamic.map((i) => i.path).join(", ")}`)

// The loader decodes an ASCII bundle as Latin-1, ~3 ms faster than UTF-8 for the same text.
// esbuild escapes non-ASCII characters in strings but not in regular expression literals: write
// those as \u escapes.
for (const file of [PAYLOAD, HOOK]) {
  const payloadBytes = readFileSync(file)
  if (!isAscii(payloadBytes)) {
    const at = payloadBytes.findIndex((b) => b > 0x7f)
    throw new Error(`build: ${file} is not ASCII at byte ${at}: ${JSON.stringify(payloadBytes.subarray(Math.max(0, at - 40), at + 8).toString("utf8"))}`)
  }
}

const loader = readFileSync("src/loader.cjs", "utf8")
if (!loader.startsWith("#!/usr/bin/env node\n") || ![PAYLOAD, HOOK].every((file) => loader.includes(`"${file.slice("bin/".length)}"`))) {
  throw new Error(`build: src/loader.cjs must start with a node shebang and load ${PAYLOAD} and ${HOOK}`)
}
copyFileSync("src/loader.cjs", LOADER)
chmodSync(LOADER, 0o755)
