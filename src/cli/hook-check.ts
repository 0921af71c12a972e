// What the hooks run (`specbundle hook run pre-commit|pre-push`, bundle-contract.md section 6).
// pre-commit refuses only a commit whose staged carriers do not read; pre-push is informational
// and never blocks a push. Loaded by hook-run.ts when `hook run` runs.
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as nodePath from "node:path"
import { Changes } from "../services/Changes.js"
import { Git } from "../services/git.js"
import { renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { ServicesLive } from "./live.js"
import { formatFinding, writeErr } from "./output.js"

/** The staged check: findings of staged carriers refuse the commit; the rest is one tally line. */
export const runPreCommit = (root: string) =>
  Effect.gen(function* () {
    // The impact use case over the index, with the configuration's excludes.
    const changes = yield* Changes
    const { report, graph } = yield* renderProblems(changes.report({ root, staged: true }))
    const staged = new Set(report.changedFiles.filter((f) => f.status !== "deleted").map((f) => f.path))
    const refusals = graph.findings.filter((f) => f.severity === "error")
    const ours = refusals.filter((f) => staged.has(f.file))
    const elsewhere = new Set(refusals.filter((f) => !staged.has(f.file)).map((f) => f.file))
    if (ours.length > 0) yield* writeErr(ours.map(formatFinding).join("\n"))
    if (elsewhere.size > 0) {
      const n = elsewhere.size
      yield* writeErr(`${n} ${n === 1 ? "carrier" : "carriers"} elsewhere ${n === 1 ? "is" : "are"} refused; \`specbundle check\` lists them`)
    }
    if (ours.length > 0) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.provide(ServicesLive))

const ZERO = /^0+$/

/** git's stdout, or null for any failure (no repository, no git): the Git service's one runner. */
const git = (cwd: string, args: ReadonlyArray<string>) => Effect.flatMap(Git, (g) => g.attempt(cwd, args))

const rev = (cwd: string, text: string) =>
  git(cwd, ["rev-parse", "--verify", "--quiet", "--end-of-options", text]).pipe(Effect.map((out) => (out === null ? "" : out.trim())))

/** Every stdin line git gives a pre-push hook: `<local ref> <local sha> <remote ref> <remote sha>`. */
const readStdin = (): Promise<string> =>
  process.stdin.isTTY === true
    ? Promise.resolve("")
    : new Promise((resolve) => {
        const chunks: Buffer[] = []
        process.stdin.on("data", (c: Buffer) => chunks.push(c))
        process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
        process.stdin.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")))
      })

/** Runs this specbundle again (the loader, the same Node); resolves to its exit code. */
const composeBundle = (args: ReadonlyArray<string>): Promise<number | null> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [process.argv[1] ?? "", ...args], { stdio: ["ignore", "ignore", "inherit"] })
    child.on("error", () => resolve(null))
    child.on("close", (code) => resolve(code))
  })

/**
 * The range a pushed ref adds: from the remote's tip when this clone has it; otherwise (a force
 * push over a tip never fetched, a new branch) from the merge base with the remote's default
 * branch; null when neither is known.
 */
const rangeOf = (cwd: string, remote: string, localSha: string, remoteSha: string) =>
  Effect.gen(function* () {
    if (!ZERO.test(remoteSha) && (yield* rev(cwd, `${remoteSha}^{commit}`)) !== "") return `${remoteSha}..${localSha}`
    const main = yield* rev(cwd, `refs/remotes/${remote}/HEAD^{commit}`)
    if (main === "") return null
    const base = yield* git(cwd, ["merge-base", "--end-of-options", main, localSha])
    return base === null || base.trim() === "" ? null : `${base.trim()}..${localSha}`
  })

/** Composes the bundle for each pushed range into `<git dir>/specbundle/<remote>/`; always exit 0. */
export const runPrePush = (root: string, gitArgs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const cwd = process.cwd()
    const remote = gitArgs[0] || process.env.PRE_COMMIT_REMOTE_NAME || "origin"
    const gitDir = yield* git(cwd, ["rev-parse", "--absolute-git-dir"])
    if (gitDir === null) return yield* writeErr(`specbundle: pre-push: ${cwd} is not inside a git repository; no bundle composed`)
    const folder = remote.replace(/[^A-Za-z0-9._-]/g, "_")
    const out = nodePath.join(gitDir.trim(), "specbundle", /^\.*$/.test(folder) ? "_" : folder)
    const lines = (yield* Effect.promise(readStdin)).split("\n").filter((l) => l.trim() !== "")
    // The pre-commit framework hands the range in its environment instead of stdin.
    const from = process.env.PRE_COMMIT_FROM_REF
    const to = process.env.PRE_COMMIT_TO_REF
    if (lines.length === 0 && from && to) lines.push(`${to} ${to} ${from} ${from}`)
    for (const line of lines) {
      const [localRef, localSha = "", , remoteSha = ""] = line.trim().split(/\s+/)
      if (ZERO.test(localSha)) continue // a deleted ref adds nothing
      const range = yield* rangeOf(cwd, remote, localSha, remoteSha)
      if (range === null) {
        yield* writeErr(
          `specbundle: pre-push: cannot tell what ${localRef} adds to ${remote} (its tip there is not in this clone and ${remote}/HEAD is unknown); no bundle composed`
        )
        continue
      }
      const code = yield* Effect.promise(() => composeBundle(["bundle", "--changeset", range, "--root", root, "--parts", "--out", out, "--quiet"]))
      if (code !== 0) yield* writeErr(`specbundle: pre-push: the bundle for ${range} was not composed (exit ${code ?? "?"}); the push goes on`)
    }
  }).pipe(Effect.provide(Git.Default))
