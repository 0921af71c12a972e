// The `bundle` handler, loaded when the command runs (bundle.ts holds its definition, all `--help` needs).
// Parses the arguments into a BundleRequest, runs the Bundler use case, and renders: the value or
// the parts on stdout (or into --out), findings and warnings on stderr.
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { isBudgetExceeded, isPartsExceeded } from "../core/bundle/index.js"
import { hasRefusal } from "../core/graph.js"
import { counted } from "../core/plural.js"
import { exceededLine } from "../core/render/exceeded.js"
import type { PartRecord } from "../core/manifest.js"
import { MANIFEST, partFileName, ticket } from "../core/manifest.js"
import type { PartText, PreparedBundle } from "../services/Bundler.js"
import { Bundler, partText } from "../services/Bundler.js"
import type { BundleRequest } from "../services/requests.js"
import type { BundleArgs } from "./bundle.js"
import { failWithDiagnostics, renderProblems } from "./diagnostics.js"
import { ExitWith } from "./errors.js"
import { warnUnmatched } from "./excludes.js"
import { ServicesLive } from "./live.js"
import { ensureDir, outDirProblem, removeOtherParts, writeAtomic, writeManifest } from "./out.js"
import { writeErr, writeFindings, writeOut } from "./output.js"
import { withProgress } from "./progress.js"

const list = (value: string): string[] => value.split(",").map((s) => s.trim())
const get = Option.getOrUndefined

/** The command line as a request: text stays text, the composer's rules judge it. */
export const requestOf = (args: BundleArgs): BundleRequest => ({
  root: args.root,
  exclude: args.exclude,
  config: get(args.config),
  profile: get(args.profile),
  pack: get(args.pack),
  perspective: get(args.perspective),
  members: Option.isSome(args.members) ? list(args.members.value) : undefined,
  specs: Option.isSome(args.specs) ? list(args.specs.value) : undefined,
  changeset: get(args.changeset),
  staged: args.staged,
  budget: get(args.budget),
  declarations: get(args.declarations),
  part: get(args.part),
  parts: args.parts
})

/** Reads the request's graph and shows what the reading found (warnings, then findings, on stderr). */
export const prepareBundle = (args: BundleArgs) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const request = requestOf(args)
    const changeset = request.changeset !== undefined || request.staged === true
    const prepare = bundler.prepare(request)
    const prepared = yield* renderProblems(changeset ? prepare : withProgress(prepare, `reading ${args.root}`, args.quiet))
    if (prepared.dangling.length > 0 && !args.quiet) {
      yield* writeErr(`impacted ids the graph does not hold (a dangling binding or a refused carrier), left out of the scope: ${prepared.dangling.join(", ")}`)
    }
    yield* writeFindings(prepared.graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(prepared.exclude, args.root, args.quiet)
    return prepared
  })

const show = (compact: string, format: BundleArgs["format"]): string =>
  format === "pretty" ? JSON.stringify(JSON.parse(compact), null, 2) + "\n" : compact + "\n"

/** Writes the parts and the manifest into `dir`; the previous set stays whole until each rename. */
export const writeOutDir = <E>(dir: string, args: Pick<BundleArgs, "quiet">, prepared: PreparedBundle, texts: Stream.Stream<PartText, E>) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    yield* ensureDir(dir)
    const records: PartRecord[] = []
    // `--part K` writes part-00K.json: the part's own number (bundle-contract.md section 3).
    const first = typeof prepared.params.part === "number" ? prepared.params.part : 1
    yield* Stream.runForEach(texts, ({ text, used }) => {
      const file = partFileName(first + records.length)
      const bytes = text + "\n"
      records.push({ file, hash: ticket(bytes), used })
      return writeAtomic(dir, file, bytes)
    })
    const manifest = yield* bundler.manifest(prepared, records)
    yield* writeManifest(dir, manifest)
    yield* removeOtherParts(
      dir,
      records.map((r) => r.file)
    )
    if (!args.quiet) yield* writeErr(`wrote ${counted(records.length, "part file")} and ${MANIFEST} to ${dir}`)
    return records.length
  })

/**
 * Composes and writes; the exit code follows the result (2 diagnostics, 1 with --strict and a refusal).
 * Succeeds with the number of parts written (1 for a single value).
 */
export const composeAndWrite = (args: BundleArgs, prepared: PreparedBundle) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const out = get(args.out)
    let count = 1
    let exceeded = false
    if (args.parts) {
      const split = yield* renderProblems(bundler.split(prepared))
      const oversized = split.exceeded
      const parts = Stream.map(split.parts, partText)
      if (oversized !== null) yield* writeErr(exceededLine(oversized))
      exceeded = oversized !== null
      if (out !== undefined) count = yield* writeOutDir(out, args, prepared, parts)
      else {
        count = 0
        yield* Stream.runForEach(parts, ({ text }) => {
          count += 1
          return writeOut(show(text, args.format))
        })
      }
    } else {
      const { value, text } = yield* renderProblems(bundler.compose(prepared))
      if (isBudgetExceeded(value) || isPartsExceeded(value)) {
        exceeded = true
        yield* writeErr(exceededLine(value))
      }
      const used = "used" in value ? (value.used as number) : null
      if (out !== undefined) yield* writeOutDir(out, args, prepared, Stream.make({ text, used }))
      else yield* writeOut(show(text, args.format))
    }
    if (args.strict && hasRefusal(prepared.graph)) return yield* new ExitWith({ code: 1 })
    // 3, not 1: a gate can tell "did not fit" from "failed"; the value is already written.
    if (exceeded && args.failOnExceeded === true) {
      yield* writeErr(`the bundle did not fit the budget (${prepared.params.budget ?? "default"}): budgetExceeded, exit 3 (--fail-on-exceeded)`)
      return yield* new ExitWith({ code: 3 })
    }
    return count
  })

/** A bad `--out` is a parameter problem found before the corpus is read. */
const checkOut = (args: BundleArgs) =>
  Effect.gen(function* () {
    const out = get(args.out)
    const problem = out === undefined ? null : yield* outDirProblem(out)
    if (problem !== null) yield* failWithDiagnostics([problem])
  })

export const runBundle = (args: BundleArgs) =>
  checkOut(args).pipe(
    Effect.zipRight(prepareBundle(args)),
    Effect.flatMap((prepared) => composeAndWrite(args, prepared)),
    Effect.asVoid,
    Effect.withSpan("bundle"),
    Effect.provide(ServicesLive)
  )
