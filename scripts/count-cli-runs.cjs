// Counts runs of the built CLI during a test run (issue 39's figure): NODE_OPTIONS="--require ./scripts/count-cli-runs.cjs"
// with SPECBUNDLE_SPAWN_LOG=FILE appends one line per run of bin/specbundle.js (or an installed one) to FILE.
const log = process.env.SPECBUNDLE_SPAWN_LOG
const bin = process.argv[1] ?? ""
if (log && /bin[\\/]specbundle\.js$|specbundle[\\/]bin[\\/]specbundle\.js$|node_modules[\\/]\.bin[\\/]specbundle$/.test(bin)) {
  require("node:fs").appendFileSync(log, `${process.argv.slice(2, 4).join(" ")}\n`)
}
