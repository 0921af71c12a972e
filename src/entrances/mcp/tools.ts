// The MCP entrance's tools: schema'd parameters in, the use cases run, and the result rendered as
// the same bytes the CLI prints. A use case's parameter problems are a tool error holding the
// CLI's `{ diagnostics }` value; any other failure a tool error holding its stderr line.
import type * as McpSchema from "effect/ai/McpSchema"
import { CallToolResult, Tool } from "effect/ai/McpSchema"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as nodePath from "node:path"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { isBudgetExceeded, isPartsExceeded } from "../../core/bundle/index.js"
import { factsOf } from "../../core/graph/facts.js"
import type { Graph } from "../../core/model.js"
import { formatFinding } from "../../core/render/finding-text.js"
import { exceededLine } from "../../core/render/exceeded.js"
import { danglingLine, noSpecFileWarning, unmatchedExcludeLines } from "../../core/render/corpus-lines.js"
import { checkOutput, findingsPrefix, impactOutput, listOutput } from "../../core/render/outputs.js"
import { Bundler, type PreparedBundle } from "../../usecases/Bundler.js"
import { Changes } from "../../usecases/Changes.js"
import { Corpus, summaryOf } from "../../usecases/Corpus.js"
import { type CountTokens, fitLine } from "../../core/tokens.js"
import { GitEnvironment, stagedStamp } from "../../node/runtime.js"
import { FieldSpelling } from "../../usecases/spelling.js"
import type { Diagnostic } from "../../usecases/requests.js"
import { BundleRequest, CheckRequest, CorpusRequest, ImpactRequest, ListRequest, requestOf, tokenFields } from "../../usecases/requests.js"
import { decodeArguments } from "./arguments.js"
import { capBudget, OutputCap, partMembers, partSentence, reserveOf } from "./cap.js"
import type { Arguments, Parameters } from "./parameters.js"
import { PARAMETER_NAMES, parametersOf } from "./parameters.js"
import type { UseCaseError } from "../../usecases/requests.js"

const bundleFields = { ...BundleRequest.fields, ...tokenFields }

export const BundleParameters = parametersOf(bundleFields)
export const ImpactParameters = parametersOf(ImpactRequest.fields)
export const CheckParameters = parametersOf(CheckRequest.fields)
export const ListParameters = parametersOf(ListRequest.fields)

type BundleArguments = Arguments<typeof bundleFields>

/** A tool's result: text content, as the CLI prints it; then the token counts and what the CLI prints beside it on stderr. */
const ok = (out: string, ...more: ReadonlyArray<string | undefined>) =>
  new CallToolResult({
    isError: false,
    content: [{ type: "text", text: out }, ...more.filter((t) => t !== undefined).map((t) => ({ type: "text" as const, text: t + "\n" }))]
  })

const fail = (out: string, structured?: unknown) =>
  new CallToolResult({
    isError: true,
    content: [{ type: "text", text: out }],
    ...(structured === undefined ? {} : { structuredContent: structured })
  })

const diagnosticsResult = (diagnostics: ReadonlyArray<Diagnostic>) => fail(JSON.stringify({ diagnostics }) + "\n", { diagnostics })

/**
 * The use case's failures as tool errors, in one place: parameter problems hold the CLI's
 * `{ diagnostics }` value, any other failure (configuration, read, git's tagged errors, a tool's
 * tokenizer that would not load) its one stderr line, the error's `message`; defects become one line too, never
 * a stack.
 */
const settle = <R>(self: Effect.Effect<CallToolResult, UseCaseError, R>) =>
  self.pipe(
    // The use cases name the tools' parameters in their problems (`changeset`, not `--changeset`).
    Effect.provideService(FieldSpelling, PARAMETER_NAMES),
    Effect.catch((e) => Effect.succeed(e._tag === "ParameterProblems" ? diagnosticsResult(e.diagnostics) : fail(`specbundle: ${e.message}\n`))),
    Effect.catchDefect((d) => Effect.succeed(fail(`specbundle: internal error: ${String((d as Error)?.message ?? d).split("\n")[0]}\n`)))
  )

/** Decodes the arguments; mistakes are a tool error with one diagnostic per wrong parameter (arguments.ts). */
const decode = <A>(schema: Schema.ConstraintDecoder<A>, payload: unknown): Result.Result<A, CallToolResult> =>
  Result.mapError(decodeArguments(schema, payload), diagnosticsResult)

/** The o200k counter the cap counts with (the tokenizer bundle beside this one; Node keeps it once loaded). */
const capCounter = (bundler: Bundler["Service"]): Effect.Effect<CountTokens> =>
  bundler.tokens({ tokens: "o200k_base" }, __dirname).pipe(
    Effect.map((counter): CountTokens => counter?.count ?? utf8Bytes),
    // A build without the tokenizer bundle: UTF-8 bytes stand in (a token is at least one byte, so
    // never fewer than o200k tokens; UTF-16 code units can be fewer for text outside ASCII).
    Effect.catch(() => Effect.succeed(utf8Bytes)),
    Effect.provideService(FieldSpelling, PARAMETER_NAMES)
  )

/** A text's UTF-8 bytes: a bound on its o200k token count. */
const utf8Bytes: CountTokens = (text) => Buffer.byteLength(text, "utf8")

const runBundle = (p: BundleArguments, given: Record<string, unknown>) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    // The tokenizer bundle beside this one, only when asked (Bundler.tokens); the token target's budget found by Bundler.fit.
    const tokens = yield* bundler.tokens(p, __dirname)
    let prepared: PreparedBundle = yield* bundler.prepare(requestOf(BundleRequest, p))
    // What the CLI says on stderr about the scope: the impacted ids it left out, excludes that matched nothing.
    const notes = [danglingLine(prepared.dangling) ?? undefined, ...unmatchedExcludeLines(prepared.exclude, prepared.excluded, p.root)]
    // No budget given: the answer fits the agent's tool-result cap (cap.ts), split when the whole does not.
    let capped: string | undefined
    const noBudget = p.budget === undefined && p.budgetTokens === undefined && p.profile === undefined
    if (noBudget) {
      const cap = yield* OutputCap
      const budget = capBudget(factsOf(prepared.graph), prepared.params, yield* capCounter(bundler), cap.tokens - reserveOf(cap.tokens))
      if (budget !== null) {
        const part = prepared.params.part ?? (p.parts === true ? undefined : 1)
        prepared = { ...prepared, params: { ...prepared.params, budget, part } }
        capped = `The whole bundle is over the ${cap.tokens}-token limit of a tool result (o200k_base; ${cap.fromEnvironment ? "MAX_MCP_OUTPUT_TOKENS sets it" : "MAX_MCP_OUTPUT_TOKENS in the server's environment changes it"}), so it is split at budget ${budget}.`
      }
    }
    /** The call that returns part `k` of this split: the arguments given, the budget found, the part. */
    const callFor = (k: number) => {
      const { count: _count, ...rest } = given
      return { name: "bundle", arguments: { ...rest, ...(capped === undefined ? {} : { budget: prepared.params.budget }), part: k } }
    }
    /** A part's sentence: the Specs of the scope it leaves out and the call that returns the next part. */
    const partLine = (value: unknown): string | undefined => {
      const at = (value as { readonly part?: { readonly index: number } }).part
      if (at === undefined) return capped
      const members = partMembers(factsOf(prepared.graph), prepared.params)
      if (members === null) return capped
      const sentence = partSentence(at.index, members.scope, members.parts, callFor)
      return capped === undefined ? sentence : `${capped} ${sentence}`
    }
    const split = p.parts === true || prepared.params.part !== undefined
    let fit: string | undefined
    const fitted = bundler.fit(prepared, tokens, split)
    if (fitted.fit !== null && tokens?.target !== undefined) {
      fit = fitLine(fitted.fit, tokens.target, tokens.encoding, split, PARAMETER_NAMES)
      prepared = fitted.prepared
    }
    const counted = (texts: ReadonlyArray<string>) =>
      tokens === undefined ? undefined : texts.map((t) => ({ value: tokens.count(t), encoding: tokens.encoding }))
    if (p.parts === true) {
      const { of, parts, exceeded } = yield* bundler.split(prepared)
      const texts = tokens === undefined && of !== null ? [] : (yield* Stream.runCollect(parts)).map((t) => t.text)
      // No split fits the budget: the value that says so, as `--parts` prints it, and its hint.
      if (of === null) {
        const counts = counted(texts)
        return ok(
          texts.map((t) => t + "\n").join(""),
          counts === undefined ? undefined : JSON.stringify({ tokens: counts }),
          ...notes,
          fit,
          exceeded === null ? undefined : exceededLine(exceeded, PARAMETER_NAMES)
        )
      }
      const counts = counted(texts)
      const first = capped === undefined ? undefined : `${capped} The call that returns part 1: ${JSON.stringify(callFor(1))}`
      return ok(JSON.stringify(counts === undefined ? { parts: of } : { parts: of, tokens: counts }) + "\n", ...notes, fit, first)
    }
    const { value, text: out } = yield* bundler.compose(prepared)
    const counts = counted([out])
    // A budgetExceeded value is a result, as the CLI's (exit 0); the hint it prints on stderr comes last.
    const result = ok(
      out + "\n",
      counts === undefined ? undefined : JSON.stringify({ tokens: counts }),
      ...notes,
      fit,
      partLine(value),
      isBudgetExceeded(value) || isPartsExceeded(value) ? exceededLine(value, PARAMETER_NAMES) : undefined
    )
    if (!noBudget) return result
    // No split fits under the cap (a value repeats its scope: ten thousand ids in `specs` are over it
    // alone): one line that says so, not an answer the agent would refuse.
    const cap = yield* OutputCap
    const total = (yield* capCounter(bundler))(result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"), cap.tokens)
    if (total <= cap.tokens) return result
    return fail(
      `specbundle: the bundle of this scope is over the ${cap.tokens}-token limit of a tool result (o200k_base), and no split fits under it: each part repeats the scope (${scopeSize(value)}). Give a narrower scope (a Pack, fewer specs, members), or run specbundle bundle with --out DIR and read its parts.\n`
    )
  })

/** How large the scope a value repeats is, in words: its Spec count, or its length. */
const scopeSize = (value: unknown): string => {
  const scope = (value as { readonly scope?: { readonly specs?: ReadonlyArray<string>; readonly members?: ReadonlyArray<string> } }).scope
  const ids = scope?.specs ?? scope?.members
  return ids === undefined ? `${JSON.stringify(scope ?? null).length} characters` : `${ids.length} Spec ids`
}

/**
 * The last answer to each `impact {staged}` request, with the stamp of the repository's staged
 * state taken before it was computed (src/node/stagedStamp.ts): a call whose stamp is the same
 * gets the same answer without asking git or reading anything. One per server, made with it
 * (server.ts provides the layer), never a module's.
 */
export class StagedAnswers extends Context.Service<StagedAnswers, Map<string, { readonly stamp: string; readonly result: CallToolResult }>>()(
  "specbundle/mcp/StagedAnswers"
) {
  static readonly layer: Layer.Layer<StagedAnswers> = Layer.sync(this, () => new Map())
}

const runImpact = (p: Arguments<typeof ImpactRequest.fields>) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const stagedAnswers = yield* StagedAnswers
    const { linkBase, format } = p
    // The use case checks the link base (impactProblems): a problem is its { diagnostics } value.
    const request = requestOf(ImpactRequest, p)
    const root = nodePath.resolve(p.root ?? ".")
    const key = p.staged === true && p.changeset === undefined ? JSON.stringify([root, p]) : undefined
    const stamp =
      key === undefined
        ? undefined
        : stagedStamp(root, p.config !== undefined ? nodePath.resolve(p.config) : nodePath.join(root, "specbundle.config.json"), yield* GitEnvironment)
    const kept = key === undefined ? undefined : stagedAnswers.get(key)
    if (stamp !== undefined && kept !== undefined && kept.stamp === stamp) return kept.result
    const { report, graph, exclude, excluded } = yield* changes.report(request)
    const result = ok(impactOutput(report, graph, format, linkBase ?? ""), ...unmatchedExcludeLines(exclude, excluded, p.root))
    if (key !== undefined) {
      if (stamp === undefined) stagedAnswers.delete(key)
      else stagedAnswers.set(key, { stamp, result })
    }
    return result
  })

/** What `check` and `list` print on stderr beside the findings: excludes that matched nothing, then no Spec file at all. */
const readWarnings = (graph: Graph, exclude: ReadonlyArray<string>, excluded: ReadonlySet<string>, root: string): string[] => {
  const empty = noSpecFileWarning(graph, nodePath.resolve(root), exclude.length > 0, PARAMETER_NAMES)
  return [...unmatchedExcludeLines(exclude, excluded, root), ...(empty === null ? [] : [empty])]
}

const runCheck = (p: Arguments<typeof CheckRequest.fields>) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { format, root } = p
    const { graph, exclude, excluded } = yield* corpus.read(requestOf(CorpusRequest, p))
    const warnings = readWarnings(graph, exclude, excluded, root)
    // text: what `check` prints on stderr (every finding, the warnings, then the counts); else its stdout, the warnings after it.
    if (format === "text") return ok([...graph.findings.map(formatFinding), ...warnings, summaryOf(graph)].join("\n") + "\n")
    // GitHub resolves paths from the working folder, GitLab from the repository's top.
    const prefix = format === "gitlab" ? yield* corpus.repositoryPrefix(nodePath.resolve(root)) : findingsPrefix(root, process.cwd())
    return ok(checkOutput(graph, format, prefix), ...warnings)
  })

const runList = (p: Arguments<typeof ListRequest.fields>) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { graph, exclude, excluded } = yield* corpus.read(requestOf(CorpusRequest, p))
    return ok(listOutput(graph, p.what, p.format), ...readWarnings(graph, exclude, excluded, p.root))
  })

/** What the tools run on: the use cases, the output cap and the staged answers, each the server's. */
export type ToolServices = Bundler | Changes | Corpus | OutputCap | StagedAnswers

interface ToolSpec {
  readonly tool: Tool
  readonly handle: (payload: unknown) => Effect.Effect<CallToolResult, never, ToolServices>
}

/**
 * The published JSON Schema of a tool's parameters: closed (unknown names are refused, as the
 * decoder refuses them) and with `required` always present, as earlier releases published it.
 */
export const inputSchemaOf = (schema: Schema.Constraint): McpSchema.ToolJson => {
  const {
    properties,
    required = [],
    additionalProperties
  } = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" }).schema as {
    properties?: Record<string, { readonly [x: string]: unknown }>
    required?: ReadonlyArray<string>
    additionalProperties?: unknown
  }
  return { type: "object", required, properties, additionalProperties }
}

const ANNOTATIONS: McpSchema.ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

const define = <A>(
  name: string,
  description: string,
  parameters: Parameters<A>,
  run: (p: A, given: Record<string, unknown>) => Effect.Effect<CallToolResult, UseCaseError, ToolServices>
): ToolSpec => ({
  tool: new Tool({ name, description, inputSchema: inputSchemaOf(parameters.schema), annotations: ANNOTATIONS }),
  handle: (payload) =>
    Result.match(decode(parameters.schema, payload), {
      onFailure: Effect.succeed,
      onSuccess: (p) => settle(run(parameters.arguments(p), p as Record<string, unknown>))
    })
})

export const tools: ReadonlyArray<ToolSpec> = [
  define(
    "bundle",
    "The context bundle of one scope (pack, specs, or the Specs a changeset impacts) within a hard budget: the compact JSON value the CLI prints, one part (part) or the part count (count). Text items after it: token counts (tokens), what the CLI says on stderr, the hint for a budgetExceeded value.",
    BundleParameters,
    runBundle
  ),
  define("impact", "Which Specs a changeset impacts and why, with Packs, removals, lost bindings, risks and unlinked code.", ImpactParameters, runImpact),
  define("check", "Every finding of the corpus, as check prints it.", CheckParameters, runCheck),
  define("list", "The corpus's Packs or Specs in id order: the ids a bundle scope names.", ListParameters, runList)
]
