// The `impact` handler, loaded when the command runs (impact.ts holds its definition, all `--help` needs).
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FileSystem from "effect/FileSystem"
import * as Result from "effect/Result"
import * as nodePath from "node:path"
import { text } from "node:stream/consumers"
import { CONFIG_FILE } from "../../../core/config.js"
import { pathLines } from "../../../core/changes/changeset.js"
import { hasRefusal } from "../../../core/graph/graph.js"
import { gitlabLinkBase } from "../../../core/render/gitlab.js"
import { impactOutput } from "../../../core/render/outputs.js"
import { GitEnvironment, type KeptAnswer, ParseCache, Settings, keepAnswer, keptAnswer, stagedStamp } from "../../../node/runtime.js"
import { Changes, impactProblems } from "../../../usecases/Changes.js"
import { FLAG_NAMES } from "../flag-names.js"
import { ImpactRequest, requestOf } from "../../../usecases/requests.js"
import { problems } from "../../../usecases/requests.js"
import { ExitWith } from "../errors.js"
import { warnUnmatched } from "../output/excludes.js"
import type { ImpactArgs } from "../commands/impact.js"
import { Invocation, inCwd, located } from "../invocation.js"
import { Output, writeErr, writeFindings, writeOut } from "../output/output.js"

/**
 * `--paths-from FILE|-`: the lines of FILE (relative to the run's folder) or of stdin. A FILE that
 * cannot be read, or `-` on a terminal, is a wrong parameter: exit 2, one line naming the flag.
 */
const pathsFrom = (file: string) =>
  Effect.gen(function* () {
    const { stdin, stdinIsTTY } = yield* Invocation
    if (file === "-") {
      if (stdinIsTTY()) return yield* problems([{ scope: "paths-from", problem: "--paths-from -: stdin is a terminal; pipe the paths in, one a line." }])
      return pathLines(yield* Effect.promise(() => text(stdin())))
    }
    const fs = yield* FileSystem.FileSystem
    const read = yield* fs.readFileString(yield* inCwd(file)).pipe(Effect.result)
    if (Result.isFailure(read)) {
      const reason = read.failure.reason._tag === "NotFound" ? "no such file" : "cannot be read"
      return yield* problems([{ scope: "paths-from", problem: `--paths-from ${file}: ${reason}.` }])
    }
    return pathLines(read.success)
  })

const impactRun = (args: ImpactArgs) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const { gitlab } = yield* Settings
    // The flag names the file; the request holds its lines (the MCP tool's `paths`).
    const paths = args.paths === undefined ? undefined : yield* pathsFrom(args.paths)
    const request = requestOf(ImpactRequest, { ...args, paths })
    if (args.noDiagram && args.format !== "markdown") {
      return yield* problems([...impactProblems(request, FLAG_NAMES), { scope: "no-diagram", problem: "--no-diagram goes with --format markdown." }])
    }
    const { report, graph, exclude, excluded, driftNotes } = yield* changes.report(yield* located(request), { hashes: false })
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(exclude, excluded, args.root, args.quiet)
    if (!args.quiet) for (const note of driftNotes) yield* writeErr(`specbundle: drift: ${note}`)
    yield* writeOut(impactOutput(report, graph, args.format, args.linkBase ?? (args.format === "markdown" ? gitlabLinkBase(gitlab) : ""), !args.noDiagram))
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  })

/**
 * `impact --staged` (the pre-commit hook's run) with the parse cache's store: the stamp of the
 * repository's staged state is taken first, from stat data alone (src/node/stagedStamp.ts), and a
 * run of the same request, environment and terminal under the same stamp prints what the last one
 * printed and exits as it did, no git process started, nothing read (src/node/savedAnswer.ts).
 * Else it runs, and its answer is kept under that stamp when it ends as a report does (exit 0, or 1
 * from --strict); a run that failed otherwise keeps nothing. No stamp (a file changed within the
 * racy window, a git variable that moves the index, as git's own hooks set): it runs as ever.
 */
const stagedRun = (args: ImpactArgs) =>
  Effect.gen(function* () {
    const { store } = yield* ParseCache
    if (args.staged !== true || args.changeset !== undefined || args.paths !== undefined || args.drift || store === undefined) return yield* impactRun(args)
    const output = yield* Output
    const env = yield* GitEnvironment
    const { cwd } = yield* Invocation
    const root = nodePath.resolve(cwd, args.root)
    const stamp = stagedStamp(root, args.config !== undefined ? nodePath.resolve(cwd, args.config) : nodePath.join(root, CONFIG_FILE), env)
    if (stamp === undefined) return yield* impactRun(args)
    const settings = yield* Settings
    // Everything a run's bytes can depend on besides the stamp: the build (the store's), Node, the
    // folder, the arguments, the whole environment (git's and ours), and the terminal.
    const variables = Object.entries(env)
      .filter((e) => e[1] !== undefined)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    const key = JSON.stringify([process.version, cwd, args, variables, settings, output.stderrIsTTY, output.stdoutColumns ?? null])
    const kept = keptAnswer(store, key, stamp)
    if (kept !== undefined) {
      for (const [stream, text] of kept.writes) {
        if (stream === "out") yield* output.out(text)
        else output.err(text)
      }
      if (kept.exit !== 0) return yield* new ExitWith({ code: kept.exit })
      return
    }
    const writes: Array<KeptAnswer["writes"][number]> = []
    const recording: Output["Service"] = {
      ...output,
      out: (text) => {
        writes.push(["out", text])
        return output.out(text)
      },
      err: (text) => {
        writes.push(["err", text])
        output.err(text)
      }
    }
    const exit = yield* Effect.exit(impactRun(args).pipe(Effect.provideService(Output, recording)))
    if (Exit.isSuccess(exit)) keepAnswer(store, key, stamp, { writes, exit: 0 })
    else {
      const failure = Cause.findErrorOption(exit.cause)
      if (failure._tag === "Some" && failure.value instanceof ExitWith && failure.value.code === 1 && args.strict)
        keepAnswer(store, key, stamp, { writes, exit: 1 })
    }
    return yield* exit
  })

export const runImpactCommand = (args: ImpactArgs) => stagedRun(args).pipe(Effect.withSpan("impact"))
