// What the pre-push hook runs (`specbundle hook run pre-push`, bundle-contract.md section 6): the
// bundle of each pushed range, composed into `<git dir>/specbundle/<remote>/`. Informational: it
// never blocks a push, and says in one line per pushed ref where the bundle went or why there is
// none. Loaded by hook-run.ts when `hook run pre-push` runs.
import * as FileSystem from "effect/FileSystem"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import { Bundler, partText } from "../services/Bundler.js"
import { Git } from "../services/git.js"
import { writeOutDir } from "./bundle-run.js"
import { ServicesLive } from "./live.js"
import { writeErr } from "./output.js"

const ZERO = /^0+$/
const say = (line: string) => writeErr(`specbundle pre-push: ${line}`)
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** git's stdout, or null for any failure (no repository, no git): the Git service's one runner. */
const git = (cwd: string, args: ReadonlyArray<string>) => Effect.flatMap(Git, (g) => g.attempt(cwd, args))

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

/** What one pushed ref adds: a range to compose, or why there is none. */
type Pushed = { readonly range: string } | { readonly skip: string }

/**
 * The range a pushed ref adds. From the remote's tip when this clone has that commit. Otherwise (a
 * new branch, a force push over a tip never fetched) the commits no remote-tracking ref of any
 * remote holds are the new ones, as the pre-commit framework decides: the range starts at the first
 * parent of the oldest of them. When even that one has no parent, nothing of the history is known
 * to be on a remote (a first push) and there is no base to compare with.
 */
const rangeOf = (cwd: string, localRef: string, localSha: string, remoteSha: string): Effect.Effect<Pushed, never, Git> =>
  Effect.gen(function* () {
    if (!ZERO.test(remoteSha) && (yield* git(cwd, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${remoteSha}^{commit}`])) !== null)
      return { range: `${remoteSha}..${localSha}` }
    const listed = yield* git(cwd, ["rev-list", "--topo-order", "--reverse", "--parents", localSha, "--not", "--remotes"])
    if (listed === null) return { skip: `cannot list the commits of ${localRef}; no bundle composed` }
    const oldest = listed.split("\n")[0].trim().split(" ")
    if (oldest[0] === "") return { skip: `${localRef} adds no commit that is not already on a remote-tracking ref; no bundle composed` }
    if (oldest.length < 2)
      return {
        skip: `none of the commits of ${localRef} is on a remote-tracking ref this clone knows (a first push), so there is no base to compare with; no bundle composed`
      }
    return { range: `${oldest[1]}..${localSha}` }
  })

/** Composes `range` into `out`: the parts and manifest `bundle --changeset RANGE --parts --out DIR` writes. */
const compose = (root: string, range: string, out: string) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const prepared = yield* bundler.prepare({ root, changeset: range, parts: true })
    const { parts, exceeded } = yield* bundler.split(prepared)
    const count = yield* writeOutDir(out, { quiet: true }, prepared, Stream.map(parts, partText))
    const refused = new Set(prepared.graph.findings.filter((f) => f.severity === "error").map((f) => f.file)).size
    return { count, refused, exceeded: exceeded !== null }
  })

/** The one line of a compose that failed: its own line or message, never a stack. */
const reasonOf = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isNone(failure)) return "internal error"
  const e = failure.value as { line?: string; message?: string; diagnostics?: ReadonlyArray<{ scope: string; problem: string }> }
  return e.diagnostics?.map((d) => `${d.scope}: ${d.problem}`).join("; ") ?? e.line ?? e.message ?? String(e)
}

/** Composes the bundle for each pushed range into `<git dir>/specbundle/<remote>/`; always exit 0. */
export const runPrePush = (root: string, gitArgs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const cwd = process.cwd()
    const fs = yield* FileSystem.FileSystem
    const remote = gitArgs[0] || process.env.PRE_COMMIT_REMOTE_NAME || "origin"
    const gitDir = yield* git(cwd, ["rev-parse", "--absolute-git-dir"])
    if (gitDir === null) return yield* say(`${cwd} is not inside a git repository; no bundle composed`)
    const folder = remote.replace(/[^A-Za-z0-9._-]/g, "_")
    const out = nodePath.join(gitDir.trim(), "specbundle", /^\.*$/.test(folder) ? "_" : folder)
    // The previous push's bundle goes first: after this push the folder holds this push's bundle
    // or nothing, never an older one a later step would take for this push's.
    yield* fs.remove(out, { recursive: true }).pipe(Effect.ignore)
    const lines = (yield* Effect.promise(readStdin)).split("\n").filter((l) => l.trim() !== "")
    // The pre-commit framework reads git's stdin itself and hands the range over in its environment.
    const from = process.env.PRE_COMMIT_FROM_REF
    const to = process.env.PRE_COMMIT_TO_REF
    if (lines.length === 0 && from && to) lines.push(`${process.env.PRE_COMMIT_LOCAL_BRANCH || to} ${to} ${from} ${from}`)
    if (lines.length === 0) {
      return yield* say(
        process.env.PRE_COMMIT_REMOTE_NAME !== undefined
          ? "the pre-commit framework gave no range (a first push: none of it is on a remote yet); no bundle composed"
          : "git's list of pushed refs did not arrive on stdin (lefthook passes it only with use_stdin: true; see specbundle hook print pre-push --manager lefthook); no bundle composed"
      )
    }
    for (const line of lines) {
      const [localRef, localSha = "", , remoteSha = ""] = line.trim().split(/\s+/)
      if (ZERO.test(localSha)) continue // a deleted ref adds nothing
      const pushed = yield* rangeOf(cwd, localRef, localSha, remoteSha)
      if ("skip" in pushed) {
        yield* say(pushed.skip)
        continue
      }
      const result = yield* compose(root, pushed.range, out).pipe(Effect.sandbox, Effect.result)
      if (Result.isFailure(result)) {
        yield* say(`the bundle for ${pushed.range} was not composed (${reasonOf(result.failure)}); the push goes on`)
        continue
      }
      const { count, refused, exceeded } = result.success
      yield* say(
        [
          `wrote the bundle of ${localRef} (${pushed.range}, ${plural(count, "part", "parts")}) to ${out}`,
          ...(refused > 0 ? [`${plural(refused, "carrier is", "carriers are")} refused in the corpus (specbundle check lists them)`] : []),
          ...(exceeded ? ["an item is larger than one part's budget (budgetExceeded in the parts)"] : [])
        ].join("; ")
      )
    }
  }).pipe(Effect.provide(ServicesLive))
