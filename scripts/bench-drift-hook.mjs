#!/usr/bin/env node
// The pre-push hook with drift (issue 51), by CPU, on a generated history: a 1,000-Spec corpus
// (scripts/gen-corpus.mjs, 2,000 TypeScript files) committed, then 300 commits that each edit one
// code file (every tenth also a Spec's carrier): 301 commits; a bare remote holds the 251st, so a
// push sends 50. Each round runs, for every build given, `hook run pre-push origin URL` with git's
// stdin line (the pushed range's bundle, then its drift pass) and `drift --changeset REMOTE..LOCAL
// --quiet` alone, each warm (its cache folder filled by a first run that is not counted), CPU
// user+sys with git's children (/usr/bin/time), medians over the rounds. Builds must print the
// same bytes.
//
//   node scripts/bench-drift-hook.mjs [--runs N] [BUILD_DIR ...]
// BUILD_DIR: a checkout holding bin/specbundle.js (default: this one). The repository is built
// once under the OS temp folder and kept.
import { execFileSync, spawnSync } from "node:child_process"
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const SCRIPTS = path.dirname(fileURLToPath(import.meta.url))
const argv = process.argv.slice(2)
const at = argv.indexOf("--runs")
const runs = at < 0 ? 7 : Number(argv.splice(at, 2)[1])
const builds = argv.length === 0 ? [path.dirname(SCRIPTS)] : argv.map((b) => path.resolve(b))

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid"
}
const git = (cwd, ...args) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 1 << 28 }).trim()

/** The repository (built once): the corpus, 301 commits, a bare remote at the 251st. */
const repository = () => {
  const dir = path.join(os.tmpdir(), "specbundle-bench-drift-1000-301")
  const ready = path.join(dir, ".git", "specbundle-bench-ready")
  if (existsSync(ready)) return dir
  rmSync(dir, { recursive: true, force: true })
  rmSync(`${dir}-remote.git`, { recursive: true, force: true })
  execFileSync(
    process.execPath,
    [path.join(SCRIPTS, "gen-corpus.mjs"), dir, "--specs", "1000", "--packs", "10", "--ts-files", "2000", "--anchor-every", "5", "--seed", "1"],
    { stdio: "ignore" }
  )
  git(dir, "init", "-q", "-b", "main")
  git(dir, "add", "-A")
  git(dir, "commit", "-q", "-m", "corpus")
  const files = (sub, ext) =>
    readdirSync(path.join(dir, sub), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(ext))
      .sort()
      .map((f) => path.join(sub, f))
  const code = files("src", ".ts")
  const specs = files("specs", ".md")
  for (let i = 1; i <= 300; i++) {
    appendFileSync(path.join(dir, code[(i * 7919) % code.length]), `// edit ${i}\n`)
    if (i % 10 === 0) appendFileSync(path.join(dir, specs[(i * 104729) % specs.length]), `\nEdit ${i} of the narrative.\n`)
    git(dir, "commit", "-q", "-am", `edit ${i}`)
    if (i === 250) {
      git(path.dirname(dir), "init", "-q", "--bare", `${dir}-remote.git`)
      git(dir, "push", "-q", `${dir}-remote.git`, "HEAD:refs/heads/main")
    }
  }
  writeFileSync(ready, "")
  return dir
}

const dir = repository()
const remote = `${dir}-remote.git`
const local = git(dir, "rev-parse", "HEAD")
const remoteTip = git(remote, "rev-parse", "main")
const stdinLine = `refs/heads/main ${local} refs/heads/main ${remoteTip}\n`
const scenarios = [
  { name: "pre-push hook (bundle + drift of the 50 pushed commits)", args: ["hook", "run", "pre-push", "origin", remote], input: stdinLine },
  { name: `drift --changeset REMOTE..LOCAL --quiet`, args: ["drift", "--changeset", `${remoteTip}..${local}`, "--quiet"], input: "" }
]

const tmp = mkdtempSync(path.join(os.tmpdir(), "specbundle-bench-drift-hook-"))
const run = (build, scenario, cache) => {
  const env = { ...GIT_ENV, SPECBUNDLE_CODE_CACHE_DIR: cache }
  delete env.SPECBUNDLE_CODE_CACHE
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, path.join(build, "bin", "specbundle.js"), ...scenario.args], {
    cwd: dir,
    env,
    input: scenario.input,
    encoding: "latin1",
    maxBuffer: 1 << 28
  })
  const lines = r.stderr.trimEnd().split("\n")
  const [u, s] = lines.pop().split(" ").map(Number)
  return { cpu: (u + s) * 1000, out: `${r.status}\n${r.stdout}\n${lines.join("\n")}` }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

console.log(
  `repository: ${dir} (${git(dir, "rev-list", "--count", "HEAD")} commits; remote at ${remoteTip.slice(0, 12)}, ${git(dir, "rev-list", "--count", `${remoteTip}..${local}`)} pushed)`
)
for (const scenario of scenarios) {
  const caches = builds.map((_, i) => path.join(tmp, `cache-${scenarios.indexOf(scenario)}-${i}`))
  // The first run of each build fills its cache folder; not counted.
  const first = builds.map((b, i) => run(b, scenario, caches[i]))
  const cpu = builds.map(() => [])
  for (let round = 0; round < runs; round++)
    builds.forEach((b, i) => {
      const r = run(b, scenario, caches[i])
      if (r.out !== first[0].out) throw new Error(`${b}: another output than ${builds[0]}'s:\n${r.out}\n---\n${first[0].out}`)
      cpu[i].push(r.cpu)
    })
  console.log(`\n${scenario.name}, warm, CPU ms (user+sys with git's children), median of ${runs}:`)
  builds.forEach((b, i) =>
    console.log(`  ${b}: ${Math.round(median(cpu[i]))} ms (first run ${Math.round(first[i].cpu)} ms; all ${cpu[i].map(Math.round).join(", ")})`)
  )
}
rmSync(tmp, { recursive: true, force: true })
