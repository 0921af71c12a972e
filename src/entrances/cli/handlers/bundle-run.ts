// The `bundle` handler, loaded when the command runs (bundle.ts holds its definition, all `--help` needs).
// Parses the arguments into a BundleRequest, runs the Bundler use case, and renders: the value or
// the parts on stdout (or into --out), findings and warnings on stderr.
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import { isBudgetExceeded, isPartsExceeded } from "../../../core/bundle/index.js"
import { hasRefusal } from "../../../core/graph/graph.js"
import { counted } from "../../../core/plural.js"
import { danglingLine } from "../../../core/render/corpus-lines.js"
import { exceededLine } from "../../../core/render/exceeded.js"
import type { PartRecord } from "../../../core/manifest.js"
import type { TokenCount } from "../../../core/tokens.js"
import { fitLine, tokensLine } from "../../../core/tokens.js"
import { MANIFEST, partFileName, ticket } from "../../../core/manifest.js"
import type { PartText, PreparedBundle, TokenCounter } from "../../../usecases/Bundler.js"
import { Bundler, partText } from "../../../usecases/Bundler.js"
import { BundleRequest, requestOf } from "../../../usecases/requests.js"
import type { BundleArgs } from "../commands/bundle.js"
import { problems } from "../../../usecases/requests.js"
import { ExitWith, OutputFolderFailure } from "../errors.js"
import { FLAG_NAMES } from "../flags.js"
import { warnUnmatched } from "../output/excludes.js"
import { ensureDir, outDirProblem, removeOtherParts, writeAtomic, writeManifest } from "../output/out.js"
import { Invocation, inCwd, located } from "../invocation.js"
import { writeErr, writeFindings, writeOut } from "../output/output.js"
import { withProgress } from "../output/progress.js"

/** Reads the request's graph and shows what the reading found (warnings, then findings, on stderr). */
export const prepareBundle = (args: BundleArgs) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const request = yield* located(requestOf(BundleRequest, args))
    const changeset = request.changeset !== undefined || request.staged === true
    // Only a manifest (--out) lists the files with their hashes.
    const prepare = bundler.prepare(request, { hashes: args.out !== undefined })
    const prepared = yield* changeset ? prepare : withProgress(prepare, `reading ${args.root}`, args.quiet)
    const dangling = danglingLine(prepared.dangling)
    if (dangling !== null && !args.quiet) yield* writeErr(dangling)
    yield* writeFindings(prepared.graph.findings, { quiet: args.quiet, all: args.verbose, style: args.findings, root: args.root })
    yield* warnUnmatched(prepared.exclude, prepared.excluded, args.root, args.quiet)
    return prepared
  })

const show = (compact: string, format: BundleArgs["format"]): string =>
  format === "pretty" ? JSON.stringify(JSON.parse(compact), null, 2) + "\n" : compact + "\n"

/** A part's text, with its token count when `--tokens` asked for one (the manifest records it). */
type CountedText = PartText & { readonly tokens?: TokenCount }

/** Writes the parts and the manifest into `dir`; the previous set stays whole until each rename. */
export const writeOutDir = <E>(dir: string, args: Pick<BundleArgs, "quiet">, prepared: PreparedBundle, texts: Stream.Stream<CountedText, E>) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    yield* ensureDir(dir)
    const records: PartRecord[] = []
    // `--part K` writes part-00K.json: the part's own number (bundle-contract.md section 3).
    const first = typeof prepared.params.part === "number" ? prepared.params.part : 1
    yield* Stream.runForEach(texts, ({ text, used, tokens }) => {
      const file = partFileName(first + records.length)
      const bytes = text + "\n"
      records.push({ file, hash: ticket(bytes), used, ...(tokens === undefined ? {} : { tokens }) })
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

/** `--tokens`: the encoding and its counter; `target`, the `--budget-tokens` asked for. */
type Tokens = TokenCounter

/**
 * Composes and writes; the exit code follows the result (2 diagnostics, 1 with --strict and a refusal).
 * Succeeds with the number of parts written (1 for a single value). With `tokens`, each written
 * text is counted: one stderr line, and the manifest with --out.
 */
export const composeAndWrite = (args: BundleArgs, prepared: PreparedBundle, tokens?: Tokens) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const out = args.out
    let count = 1
    let exceeded = false
    const counts: number[] = []
    // `-o FILE`: stdout's bytes, gathered and written at once, so FILE is never partial.
    const output: string[] = []
    const emit = (text: string) => (args.output === undefined ? writeOut(text) : Effect.sync(() => void output.push(text)))
    const withTokens = (t: PartText): CountedText => {
      if (tokens === undefined) return t
      const value = tokens.count(t.text)
      counts.push(value)
      return { ...t, tokens: { value, encoding: tokens.encoding } }
    }
    if (args.parts) {
      const split = yield* bundler.split(prepared)
      const oversized = split.exceeded
      const parts = Stream.map(split.parts, (p) => withTokens(partText(p)))
      if (oversized !== null) yield* writeErr(exceededLine(oversized, FLAG_NAMES))
      exceeded = oversized !== null
      if (out !== undefined) count = yield* writeOutDir(out, args, prepared, parts)
      else {
        count = 0
        yield* Stream.runForEach(parts, ({ text }) => {
          count += 1
          return emit(show(text, args.format))
        })
      }
    } else {
      const { value, text } = yield* bundler.compose(prepared)
      if (isBudgetExceeded(value) || isPartsExceeded(value)) {
        exceeded = true
        yield* writeErr(exceededLine(value, FLAG_NAMES))
      }
      const used = "used" in value ? (value.used as number) : null
      const one = withTokens({ text, used })
      if (out !== undefined) yield* writeOutDir(out, args, prepared, Stream.make(one))
      else yield* emit(show(text, args.format))
    }
    if (args.output !== undefined) {
      yield* writeAtomic(nodePath.dirname(args.output), nodePath.basename(args.output), output.join(""))
      if (!args.quiet) yield* writeErr(`wrote ${counted(output.length, "JSON value")} to ${args.output}`)
    }
    if (tokens !== undefined) yield* writeErr(tokensLine(tokens.encoding, counts, args.parts))
    if (args.strict && hasRefusal(prepared.graph)) return yield* new ExitWith({ code: 1 })
    // 3, not 1: a gate can tell "did not fit" from "failed"; the value is already written.
    if (exceeded && args.failOnExceeded === true) {
      yield* writeErr(`the bundle did not fit the budget (${prepared.params.budget ?? "default"}): budgetExceeded, exit 3 (--fail-on-exceeded)`)
      return yield* new ExitWith({ code: 3 })
    }
    return count
  })

/**
 * A bad `--out` (or `--out` beside `--output`, or `--output` naming a folder) is a parameter
 * problem found before the corpus is read; `--output` in a folder that does not exist, a failure.
 */
const checkOut = (args: BundleArgs) =>
  Effect.gen(function* () {
    const out = args.out
    if (out !== undefined && args.output !== undefined) {
      return yield* problems([{ scope: "output", problem: "Give --out DIR (part files and a manifest) or --output FILE (what stdout would carry), not both." }])
    }
    const problem = out === undefined ? null : yield* outDirProblem(out)
    if (problem !== null) yield* problems([problem])
    if (args.output !== undefined) yield* checkOutputFile(args.output)
  })

/**
 * `--output FILE`: not a folder (exit 2), and in a folder that exists (else exit 1, nothing
 * composed). A relative FILE is the run's folder's, as the write's (writeAtomic: inCwd).
 */
const checkOutputFile = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const kind = (path: string) =>
      fs.stat(path).pipe(
        Effect.map((info) => info.type),
        Effect.orElseSucceed(() => null)
      )
    const full = yield* inCwd(file)
    if ((yield* kind(full)) === "Directory") {
      return yield* problems([{ scope: "output", problem: `--output ${file} is a folder; name a file, or give --out DIR for part files.` }])
    }
    const folder = nodePath.dirname(full)
    const type = yield* kind(folder)
    if (type === null) return yield* new OutputFolderFailure({ file, folder, reason: "missing" })
    if (type !== "Directory") return yield* new OutputFolderFailure({ file, folder, reason: "not-a-folder" })
  })

/** `--tokens` and `--budget-tokens`, checked before the corpus is read; the tokenizer loads only when asked (Bundler.tokens). */
const tokensOf = (args: BundleArgs) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    return yield* bundler.tokens(args, (yield* Invocation).bin)
  })

/** With `--budget-tokens`: the request at the code-unit budget its token target translates to (Bundler.fit), said on stderr. */
const fitted = (args: BundleArgs, prepared: PreparedBundle, tokens: Tokens | undefined) =>
  Effect.gen(function* () {
    const split = args.parts || prepared.params.part !== undefined
    const { prepared: fitted, fit } = (yield* Bundler).fit(prepared, tokens, split)
    if (fit !== null && tokens?.target !== undefined) yield* writeErr(fitLine(fit, tokens.target, tokens.encoding, split, FLAG_NAMES))
    return fitted
  })

export const runBundle = (args: BundleArgs) =>
  checkOut(args).pipe(
    Effect.andThen(tokensOf(args)),
    Effect.flatMap((tokens) =>
      prepareBundle(args).pipe(
        Effect.flatMap((prepared) => fitted(args, prepared, tokens)),
        Effect.flatMap((prepared) => composeAndWrite(args, prepared, tokens))
      )
    ),
    Effect.asVoid,
    Effect.withSpan("bundle")
  )
