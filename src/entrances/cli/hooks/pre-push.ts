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
import { Bundler, partText } from "../../../usecases/Bundler.js"
import { Drift } from "../../../usecases/Drift.js"
import { driftSummaryLine } from "../../../core/render/drift.js"
import { Settings } from "../../../node/runtime.js"
import { Repository } from "../../../usecases/Repository.js"
import { writeOutDir } from "../handlers/bundle-run.js"
import { counted } from "../../../core/plural.js"
import type { HookManager } from "./print.js"
import { Invocation, type Stdin } from "../invocation.js"
import { writeErr } from "../output/output.js"
import { lineOf } from "../exit.js"

const ZERO = /^0+$/
const say = (line: string) => writeErr(`specbundle pre-push: ${line}`)

/** Every stdin line git gives a pre-push hook: `<local ref> <local sha> <remote ref> <remote sha>`. */
const readStdin = (stdin: Stdin): Promise<string> =>
  stdin.isTTY === true
    ? Promise.resolve("")
    : new Promise((resolve) => {
        const chunks: Buffer[] = []
        stdin.on("data", (c: Buffer) => chunks.push(c))
        stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
        stdin.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")))
      })

/** The commit `sha` names (a tag object peeled), or null when it names none this clone has. */
const commitOf = (cwd: string, sha: string) => Repository.use((r) => r.commitOf(cwd, sha))

/** Why there is no repository to compose in: git's own reason when it refuses one (safe.directory). */
export const noRepositoryLine = (cwd: string, refusal: string | null): string => `${refusal ?? `${cwd} is not inside a git repository`}; no bundle composed`

/**
 * git ran the hook with an empty list of pushed refs: a push with nothing to send (`Everything
 * up-to-date`), or, under lefthook, an entry without `use_stdin: true` (the two look the same).
 */
export const noRefsLine = (manager: HookManager): string =>
  manager === "lefthook"
    ? "git listed no ref to push: nothing to send, or the lefthook entry lacks use_stdin: true (see specbundle hook print pre-push --manager lefthook); no bundle composed"
    : "git listed no ref to push (nothing to send); no bundle composed"

/** What one pushed ref adds: a range to compose, or why there is none. */
type Pushed = { readonly range: string } | { readonly skip: string }

/**
 * The range a pushed ref adds. From the remote's tip when this clone has that commit. Otherwise (a
 * new branch, a force push over a tip never fetched) the commits no remote-tracking ref of any
 * remote holds are the new ones, as the pre-commit framework decides: the range starts at the first
 * parent of the oldest of them. When even that one has no parent, nothing of the history is known
 * to be on a remote (a first push) and there is no base to compare with.
 */
const rangeOf = (cwd: string, localRef: string, localSha: string, remoteSha: string): Effect.Effect<Pushed, never, Repository> =>
  Effect.gen(function* () {
    // An annotated tag arrives as the tag object's id: the range and its label name the commit.
    const local = yield* commitOf(cwd, localSha)
    if (local === null) return { skip: `${localRef} names no commit (a tag of a tree or a blob); no bundle composed` }
    const remote = ZERO.test(remoteSha) ? null : yield* commitOf(cwd, remoteSha)
    if (remote !== null) return { range: `${remote}..${local}` }
    const listed = yield* Repository.use((r) => r.unpushed(cwd, local))
    if (listed === null) return { skip: `cannot list the commits of ${localRef}; no bundle composed` }
    const oldest = listed[0] ?? []
    if (oldest.length === 0) return { skip: `${localRef} adds no commit that is not already on a remote-tracking ref; no bundle composed` }
    if (oldest.length < 2)
      return {
        skip: `none of the commits of ${localRef} is on a remote-tracking ref this clone knows (a first push), so there is no base to compare with; no bundle composed`
      }
    return { range: `${oldest[1]}..${local}` }
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

/**
 * "this change leaves N Specs drifted" and the accept command, for a range that drifts a Spec
 * clean at its base (issue 51); nothing when it drifts none, or when the drift pass fails (the
 * bundle's line already says what went wrong with the range).
 */
const driftOf = (root: string, range: string) =>
  Effect.flatMap(Drift, (drift) => drift.run({ root, changeset: range })).pipe(
    Effect.map((r) => (r.report.drifted.length === 0 ? null : driftSummaryLine(r.report))),
    Effect.orElseSucceed(() => null)
  )

/** The one line of a compose that failed: its own line or message, never a stack. */
export const reasonOf = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.findErrorOption(cause)
  return Option.isNone(failure) ? "internal error" : lineOf(failure.value)
}

/** Composes the bundle for each pushed range into `<git dir>/specbundle/<remote>/`; always exit 0. */
export const runPrePush = (root: string, gitArgs: ReadonlyArray<string>, manager: HookManager = "husky") =>
  Effect.gen(function* () {
    const { cwd, stdin } = yield* Invocation
    const { preCommit } = yield* Settings
    const fs = yield* FileSystem.FileSystem
    const remote = gitArgs[0] || preCommit.remoteName || "origin"
    const gitDir = yield* (yield* Repository).gitDir(cwd)
    if ("refusal" in gitDir) return yield* say(noRepositoryLine(cwd, gitDir.refusal))
    const folder = remote.replace(/[^A-Za-z0-9._-]/g, "_")
    const out = nodePath.join(gitDir.dir, "specbundle", /^\.*$/.test(folder) ? "_" : folder)
    const lines = (yield* Effect.promise(() => readStdin(stdin()))).split("\n").filter((l) => l.trim() !== "")
    // The pre-commit framework reads git's stdin itself and hands the range over in its environment.
    const from = preCommit.fromRef
    const to = preCommit.toRef
    if (lines.length === 0 && from && to) lines.push(`${preCommit.localBranch || to} ${to} ${from} ${from}`)
    // Nothing sent is no push: the previous push's bundle stays.
    if (lines.length === 0 && preCommit.remoteName === undefined) return yield* say(noRefsLine(manager))
    // A push's earlier bundle goes first: after this push the folder holds this push's bundle or
    // nothing, never an older one a later step would take for this push's.
    yield* fs.remove(out, { recursive: true }).pipe(Effect.ignore)
    if (lines.length === 0) return yield* say("the pre-commit framework gave no range (a first push: none of it is on a remote yet); no bundle composed")
    for (const line of lines) {
      const [localRef, localSha = "", , remoteSha = ""] = line.trim().split(/\s+/)
      if (ZERO.test(localSha)) continue // a deleted ref adds nothing
      const pushed = yield* rangeOf(cwd, localRef, localSha, remoteSha)
      if ("skip" in pushed) {
        yield* say(pushed.skip)
        continue
      }
      const result = yield* compose(nodePath.resolve(cwd, root), pushed.range, out).pipe(Effect.sandbox, Effect.result)
      if (Result.isFailure(result)) {
        yield* say(`the bundle for ${pushed.range} was not composed (${reasonOf(result.failure)}); the push goes on`)
        continue
      }
      const { count, refused, exceeded } = result.success
      yield* say(
        [
          `wrote the bundle of ${localRef} (${pushed.range}, ${counted(count, "part")}) to ${out}`,
          ...(refused > 0 ? [`${counted(refused, "carrier is", "carriers are")} refused in the corpus (specbundle check lists them)`] : []),
          ...(exceeded ? ["an item is larger than one part's budget (budgetExceeded in the parts)"] : [])
        ].join("; ")
      )
      const drifted = yield* driftOf(nodePath.resolve(cwd, root), pushed.range)
      if (drifted !== null) yield* say(drifted)
    }
  })
