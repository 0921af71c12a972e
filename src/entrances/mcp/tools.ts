// The MCP entrance's tools: schema'd parameters in, the use cases run, and the result rendered as
// the same bytes the CLI prints. A use case's parameter problems are a tool error holding the
// CLI's `{ diagnostics }` value; any other failure a tool error holding its stderr line.
import type * as McpSchema from "effect/ai/McpSchema"
import { CallToolResult, Tool } from "effect/ai/McpSchema"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as nodePath from "node:path"
import { isBudgetExceeded, isDiagnostics, isPartsExceeded } from "../../core/bundle/index.js"
import { factsOf } from "../../core/facts.js"
import { formatFinding } from "../../core/finding-text.js"
import { exceededLine } from "../../core/render/exceeded.js"
import { checkOutput, findingsPrefix, impactOutput, listOutput } from "../../core/render/outputs.js"
import { Bundler } from "../../usecases/Bundler.js"
import { Changes, impactProblems } from "../../usecases/Changes.js"
import { Corpus, summaryOf } from "../../usecases/Corpus.js"
import { budgetTokensProblems, fitLine, fitTokenBudget } from "../../core/tokens.js"
import { stagedStamp } from "../../node/stagedStamp.js"
import { loadTokenizer } from "../../node/tokenizer.js"
import type { Diagnostic } from "../../usecases/requests.js"
import { BundleRequest, CheckRequest, CorpusRequest, ImpactRequest, ListRequest, requestOf, tokenFields } from "../../usecases/requests.js"
import { decodeArguments } from "./arguments.js"
import type { Arguments, Parameters } from "./parameters.js"
import { parametersOf } from "./parameters.js"
import type { UseCaseError } from "../../usecases/requests.js"
import { ParameterProblems, RunFailure } from "../../usecases/requests.js"

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
 * own RunFailure) its one stderr line, the error's `message`; defects become one line too, never
 * a stack.
 */
const settle = <R>(self: Effect.Effect<CallToolResult, UseCaseError | RunFailure, R>) =>
  self.pipe(
    Effect.catch((e) => Effect.succeed(e._tag === "ParameterProblems" ? diagnosticsResult(e.diagnostics) : fail(`specbundle: ${e.message}\n`))),
    Effect.catchDefect((d) => Effect.succeed(fail(`specbundle: internal error: ${String((d as Error)?.message ?? d).split("\n")[0]}\n`)))
  )

/** Decodes the arguments; mistakes are a tool error with one diagnostic per wrong parameter (arguments.ts). */
const decode = <A>(schema: Schema.ConstraintDecoder<A>, payload: unknown): Result.Result<A, CallToolResult> =>
  Result.mapError(decodeArguments(schema, payload), diagnosticsResult)

/** `tokens` loaded (the tokenizer bundle beside this one, only when asked) and `budgetTokens` checked, as the CLI's flags. */
const tokensOf = (p: BundleArguments) =>
  Effect.gen(function* () {
    let target: number | undefined
    if (p.budgetTokens !== undefined) {
      const checked = budgetTokensProblems(String(p.budgetTokens), "budgetTokens", { encoding: p.tokens !== undefined, budget: p.budget !== undefined })
      if (isDiagnostics(checked)) return yield* new ParameterProblems({ diagnostics: checked.diagnostics })
      target = checked.target
    }
    if (p.tokens === undefined) return undefined
    const count = loadTokenizer(p.tokens, __dirname)
    if (typeof count !== "function") return yield* new RunFailure({ line: count.problem })
    return { encoding: p.tokens, count, target }
  })

const runBundle = (p: BundleArguments) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const tokens = yield* tokensOf(p)
    let prepared = yield* bundler.prepare(requestOf(BundleRequest, p))
    const split = p.parts === true || prepared.params.part !== undefined
    let fit: string | undefined
    if (tokens?.target !== undefined) {
      const found = fitTokenBudget(factsOf(prepared.graph), prepared.params, split, tokens.count, tokens.target)
      if (!isDiagnostics(found)) {
        fit = fitLine(found, tokens.target, tokens.encoding, split)
        prepared = { ...prepared, params: { ...prepared.params, budget: found.budget } }
      }
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
          fit,
          exceeded === null ? undefined : exceededLine(exceeded)
        )
      }
      const counts = counted(texts)
      return ok(JSON.stringify(counts === undefined ? { parts: of } : { parts: of, tokens: counts }) + "\n", fit)
    }
    const { value, text: out } = yield* bundler.compose(prepared)
    const counts = counted([out])
    // A budgetExceeded value is a result, as the CLI's (exit 0); the hint it prints on stderr comes last.
    return ok(
      out + "\n",
      counts === undefined ? undefined : JSON.stringify({ tokens: counts }),
      fit,
      isBudgetExceeded(value) || isPartsExceeded(value) ? exceededLine(value) : undefined
    )
  })

/**
 * The last answer to each `impact {staged}` request, with the stamp of the repository's staged
 * state taken before it was computed (src/node/stagedStamp.ts): a call whose stamp is the same
 * gets the same answer without asking git or reading anything (issue 50).
 */
const stagedAnswers = new Map<string, { readonly stamp: string; readonly result: CallToolResult }>()

const runImpact = (p: Arguments<typeof ImpactRequest.fields>) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const { linkBase, format } = p
    const request = requestOf(ImpactRequest, p)
    if (linkBase !== undefined && format !== "markdown") {
      return yield* new ParameterProblems({
        diagnostics: [...impactProblems(request), { scope: "link-base", problem: "--link-base goes with --format markdown." }]
      })
    }
    const root = nodePath.resolve(p.root ?? ".")
    const key = p.staged === true && p.changeset === undefined ? JSON.stringify([root, p]) : undefined
    const stamp =
      key === undefined ? undefined : stagedStamp(root, p.config !== undefined ? nodePath.resolve(p.config) : nodePath.join(root, "specbundle.config.json"))
    const kept = key === undefined ? undefined : stagedAnswers.get(key)
    if (stamp !== undefined && kept !== undefined && kept.stamp === stamp) return kept.result
    const { report, graph } = yield* changes.report(request)
    const result = ok(impactOutput(report, graph, format, linkBase ?? ""))
    if (key !== undefined) {
      if (stamp === undefined) stagedAnswers.delete(key)
      else stagedAnswers.set(key, { stamp, result })
    }
    return result
  })

const runCheck = (p: Arguments<typeof CheckRequest.fields>) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { format, root } = p
    const { graph } = yield* corpus.read(requestOf(CorpusRequest, p))
    // text: what `check` prints on stderr (every finding, then the counts); else its stdout.
    if (format === "text") return ok([...graph.findings.map(formatFinding), summaryOf(graph)].join("\n") + "\n")
    // GitHub resolves paths from the working folder, GitLab from the repository's top.
    return ok(checkOutput(graph, format, format === "gitlab" ? yield* corpus.repositoryPrefix(nodePath.resolve(root)) : findingsPrefix(root, process.cwd())))
  })

const runList = (p: Arguments<typeof ListRequest.fields>) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { graph } = yield* corpus.read(requestOf(CorpusRequest, p))
    return ok(listOutput(graph, p.what, p.format))
  })

type Services = Bundler | Changes | Corpus

interface ToolSpec {
  readonly tool: Tool
  readonly handle: (payload: unknown) => Effect.Effect<CallToolResult, never, Services>
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
  run: (p: A) => Effect.Effect<CallToolResult, UseCaseError | RunFailure, Services>
): ToolSpec => ({
  tool: new Tool({ name, description, inputSchema: inputSchemaOf(parameters.schema), annotations: ANNOTATIONS }),
  handle: (payload) => Result.match(decode(parameters.schema, payload), { onFailure: Effect.succeed, onSuccess: (p) => settle(run(parameters.arguments(p))) })
})

export const tools: ReadonlyArray<ToolSpec> = [
  define(
    "bundle",
    "Compose the context bundle for one scope (pack, specs, or the Specs a changeset impacts) within a hard budget. Returns the compact JSON value the CLI prints: the whole bundle, one part (part), or the part count (count). With tokens, a text item follows with the exact token counts. A budgetExceeded value comes with a last text item: the hint the CLI prints on stderr (the budget that would fit, or count/part to split it).",
    BundleParameters,
    runBundle
  ),
  define(
    "impact",
    "Report which Specs a changeset impacts: impacted Specs with reasons, Packs, removed Specs and Packs, lost bindings, one-hop risks, coverage unknown, unlinked code units.",
    ImpactParameters,
    runImpact
  ),
  define(
    "check",
    "Read the corpus and return every finding as file:line: code: message, then the counts (format text), or as JSON, GitHub workflow commands or SARIF 2.1.0.",
    CheckParameters,
    runCheck
  ),
  define(
    "list",
    "List the corpus's Packs (with member counts) or Specs (with kind and title) in id order: the ids a bundle scope names.",
    ListParameters,
    runList
  )
]
