// The `impact` handler, loaded when the command runs (impact.ts holds its definition, all `--help` needs).
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Result from "effect/Result"
import { text } from "node:stream/consumers"
import { pathLines } from "../../../core/changes/changeset.js"
import { hasRefusal } from "../../../core/graph/graph.js"
import { gitlabLinkBase } from "../../../core/render/gitlab.js"
import { impactOutput } from "../../../core/render/outputs.js"
import { Settings } from "../../../node/runtime.js"
import { Changes, impactProblems } from "../../../usecases/Changes.js"
import { FLAG_NAMES } from "../flags.js"
import { ImpactRequest, requestOf } from "../../../usecases/requests.js"
import { problems } from "../../../usecases/requests.js"
import { ExitWith } from "../errors.js"
import { warnUnmatched } from "../output/excludes.js"
import type { ImpactArgs } from "../commands/impact.js"
import { Invocation, inCwd, located } from "../invocation.js"
import { writeFindings, writeOut } from "../output/output.js"

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

export const runImpactCommand = (args: ImpactArgs) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const { gitlab } = yield* Settings
    // The flag names the file; the request holds its lines (the MCP tool's `paths`).
    const paths = args.paths === undefined ? undefined : yield* pathsFrom(args.paths)
    const request = requestOf(ImpactRequest, { ...args, paths })
    if (args.noDiagram && args.format !== "markdown") {
      return yield* problems([...impactProblems(request, FLAG_NAMES), { scope: "no-diagram", problem: "--no-diagram goes with --format markdown." }])
    }
    const { report, graph, exclude, excluded } = yield* changes.report(yield* located(request), { hashes: false })
    yield* writeFindings(graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(exclude, excluded, args.root, args.quiet)
    yield* writeOut(impactOutput(report, graph, args.format, args.linkBase ?? (args.format === "markdown" ? gitlabLinkBase(gitlab) : ""), !args.noDiagram))
    if (args.strict && hasRefusal(graph)) return yield* new ExitWith({ code: 1 })
  }).pipe(Effect.withSpan("impact"))
