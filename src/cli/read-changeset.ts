// The changeset half of `bundle` and `impact`: run the Impact service and turn its errors into
// exit codes (a malformed revision is a parameter problem, exit 2; git failures exit 1).
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Changeset } from "../core/changeset.js"
import { changesetText } from "../core/changeset.js"
import { decodeChangeset } from "../services/GitDiff.js"
import { Impact } from "../services/Impact.js"
import { failWithDiagnostics } from "./diagnostics.js"
import { CliFailure, type ParameterError } from "./errors.js"
import { writeErr } from "./output.js"

export interface ChangesetArgs {
  readonly root: string
  readonly changeset: Option.Option<string>
  readonly staged: boolean
  readonly quiet: boolean
}

const decode = (args: ChangesetArgs): Effect.Effect<Changeset, ParameterError> =>
  args.staged
    ? Effect.succeed({ _tag: "Staged" } as const)
    : decodeChangeset(Option.getOrElse(args.changeset, () => "")).pipe(
        Effect.catchAll((e) => failWithDiagnostics([{ scope: "changeset", problem: e.message }]))
      )

export const runImpact = (args: ChangesetArgs, exclude: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const changeset = yield* decode(args)
    const label = args.staged ? "--staged" : Option.getOrElse(args.changeset, () => changesetText(changeset))
    const impact = yield* Impact
    const result = yield* impact.run({ root: args.root, changeset, exclude, label }).pipe(
      Effect.catchAll((e): Effect.Effect<never, ParameterError | CliFailure> =>
        e._tag === "InvalidRevisionError"
          ? failWithDiagnostics([{ scope: "changeset", problem: e.message }])
          : Effect.fail(new CliFailure({ line: e.message }))
      )
    )
    return { ...result, label }
  })

/** The graph and the specs scope a changeset gives: impacted ids the graph holds, in id order. */
export const readChangeset = (args: ChangesetArgs, exclude: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { report, graph, files, label, diff } = yield* runImpact(args, exclude)
    const ids = report.impactedSpecs.map((r) => r.id)
    const dangling = ids.filter((id) => !graph.specs.has(id))
    if (dangling.length > 0 && !args.quiet) {
      yield* writeErr(`impacted ids the graph does not hold (a dangling binding or a refused carrier), left out of the scope: ${dangling.join(", ")}`)
    }
    // When the graph came from a commit's tree, that commit is what the bundle was built from.
    const builtFromCommit = diff.newSource._tag === "Tree" ? diff.newSource.commit : null
    return { graph, files, specs: ids.filter((id) => graph.specs.has(id)), label, builtFromCommit }
  })
