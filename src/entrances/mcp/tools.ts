// The MCP entrance's tools: schema'd parameters in, the use cases run, and the result rendered as
// the same bytes the CLI prints. A use case's parameter problems are a tool error holding the
// CLI's `{ diagnostics }` value; any other failure a tool error holding its stderr line.
import type * as McpSchema from "effect/ai/McpSchema"
import { CallToolResult, Tool } from "effect/ai/McpSchema"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { isBudgetExceeded, isDiagnostics, isPartsExceeded } from "../../core/bundle/index.js"
import { factsOf } from "../../core/facts.js"
import { formatFinding } from "../../core/finding-text.js"
import { exceededLine } from "../../core/render/exceeded.js"
import { checkOutput, findingsPrefix, impactOutput, listOutput } from "../../core/render/outputs.js"
import { Bundler } from "../../usecases/Bundler.js"
import { Changes, impactProblems } from "../../usecases/Changes.js"
import { Corpus, summaryOf } from "../../usecases/Corpus.js"
import { ENCODINGS, budgetTokensProblems, fitLine, fitTokenBudget } from "../../core/tokens.js"
import { loadTokenizer } from "../../node/tokenizer.js"
import type { BundleRequest, Diagnostic } from "../../usecases/requests.js"
import { decodeArguments } from "./arguments.js"
import type { UseCaseError } from "../../usecases/requests.js"
import { ParameterProblems, RunFailure } from "../../usecases/requests.js"

// optionalKey: a parameter may be left out, never given as null (its JSON Schema says just "string").
const text = (description: string) => Schema.optionalKey(Schema.String.annotate({ description }))
const texts = (description: string) => Schema.optionalKey(Schema.Array(Schema.String).annotate({ description }))
/** Text or a number (a budget, a part); finite, as JSON numbers are. */
const textOrNumber = (description: string) => Schema.optionalKey(Schema.Union([Schema.String, Schema.Finite]).annotate({ description }))
const choice = <const L extends ReadonlyArray<string>>(literals: L, description: string) => Schema.Literals(literals).annotate({ description })

const corpusFields = {
  root: text("Extraction root: the corpus folder (may be a sub-folder of a git repository). Default: the server's current folder."),
  exclude: texts("Root-relative paths to leave out, matched at segment boundaries."),
  config: text("Configuration file (default: <root>/specbundle.config.json when present).")
}

const changesetFields = {
  changeset: text("A changeset: REV (against the working tree), A..B or A...B."),
  staged: Schema.optionalKey(Schema.Boolean.annotate({ description: "The staged changes (the index against HEAD)." }))
}

export const BundleParameters = Schema.Struct({
  ...corpusFields,
  pack: text("Scope: a Pack id; members come in manifest order."),
  members: texts("With pack: an ordered subset of its members."),
  perspective: text("With pack: a perspective (built-in or the configuration's) that chooses the members; beside a changeset, among the impacted ones."),
  specs: texts("Scope: an ordered list of Spec ids."),
  ...changesetFields,
  budget: textOrNumber("Hard limit in UTF-16 code units of the compact JSON, or a tier name (S, M, L). Default 100000."),
  profile: text("A named set of bundle parameters from the configuration file."),
  declarations: text("whole (default) or addresses."),
  part: textOrNumber("Return only this 1-based part of the split bundle."),
  count: Schema.optionalKey(Schema.Boolean.annotate({ description: 'Return the number of parts the bundle splits into, as {"parts":N}, instead of a value.' })),
  tokens: Schema.optionalKey(
    choice(
      ENCODINGS,
      'Count the exact tokens of each part\'s compact JSON in this encoding: a second text item {"tokens":[{"value":N,"encoding":E}]}, or "tokens" beside "parts" with count. The value and its budget stay in code units.'
    )
  ),
  budgetTokens: textOrNumber(
    "With tokens, instead of budget: a token target; the bundle is composed at the largest code-unit budget found at which every part counts at most this many tokens (a text item says which)."
  )
})

export const ImpactParameters = Schema.Struct({
  ...corpusFields,
  ...changesetFields,
  format: Schema.optionalKey(
    choice(["json", "text", "markdown"], "json (default): the report as compact JSON; text: a report for people; markdown: a pull-request comment.")
  ),
  linkBase: text("With format markdown: a URL put before every file link (such as https://github.com/OWNER/REPO/blob/SHA/).")
})

export const CorpusParameters = Schema.Struct(corpusFields)

export const CheckParameters = Schema.Struct({
  ...corpusFields,
  format: Schema.optionalKey(
    choice(
      ["text", "json", "github", "sarif"],
      "text (default): file:line: code: message lines, then the counts; json, github (workflow commands) or sarif (SARIF 2.1.0): what check --format prints."
    )
  )
})

export const ListParameters = Schema.Struct({
  ...corpusFields,
  what: choice(["packs", "specs"], "packs: every Pack with its title and member count; specs: every Spec with its kind and title."),
  format: Schema.optionalKey(choice(["text", "json"], "text (default): one id a line with what it is; json: one compact JSON value."))
})

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

const asText = (v: string | number | undefined): string | undefined => (v === undefined ? undefined : String(v))

export const bundleRequestOf = (p: typeof BundleParameters.Type): BundleRequest => ({
  root: p.root ?? ".",
  exclude: p.exclude,
  config: p.config,
  profile: p.profile,
  pack: p.pack,
  perspective: p.perspective,
  members: p.members,
  specs: p.specs,
  changeset: p.changeset,
  staged: p.staged,
  budget: asText(p.budget),
  declarations: p.declarations,
  part: asText(p.part),
  parts: p.count
})

/** `tokens` loaded (the tokenizer bundle beside this one, only when asked) and `budgetTokens` checked, as the CLI's flags. */
const tokensOf = (p: typeof BundleParameters.Type) =>
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

const runBundle = (p: typeof BundleParameters.Type) =>
  Effect.gen(function* () {
    const bundler = yield* Bundler
    const tokens = yield* tokensOf(p)
    let prepared = yield* bundler.prepare(bundleRequestOf(p))
    const split = p.count === true || prepared.params.part !== undefined
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
    if (p.count === true) {
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

const runImpact = (p: typeof ImpactParameters.Type) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const { linkBase, format, ...rest } = p
    const request = { ...rest, root: p.root ?? "." }
    if (linkBase !== undefined && format !== "markdown") {
      return yield* new ParameterProblems({
        diagnostics: [...impactProblems(request), { scope: "link-base", problem: "--link-base goes with --format markdown." }]
      })
    }
    const { report, graph } = yield* changes.report(request)
    return ok(impactOutput(report, graph, format ?? "json", linkBase ?? ""))
  })

const runCheck = (p: typeof CheckParameters.Type) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { format, ...request } = p
    const root = p.root ?? "."
    const { graph } = yield* corpus.read({ ...request, root })
    // text: what `check` prints on stderr (every finding, then the counts); else its stdout.
    if (format === undefined || format === "text") return ok([...graph.findings.map(formatFinding), summaryOf(graph)].join("\n") + "\n")
    return ok(checkOutput(graph, format, findingsPrefix(root, process.cwd())))
  })

const runList = (p: typeof ListParameters.Type) =>
  Effect.gen(function* () {
    const corpus = yield* Corpus
    const { what, format, ...request } = p
    const { graph } = yield* corpus.read({ ...request, root: p.root ?? "." })
    return ok(listOutput(graph, what, format ?? "text"))
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
  schema: Schema.ConstraintDecoder<A>,
  run: (p: A) => Effect.Effect<CallToolResult, UseCaseError | RunFailure, Services>
): ToolSpec => ({
  tool: new Tool({ name, description, inputSchema: inputSchemaOf(schema), annotations: ANNOTATIONS }),
  handle: (payload) => Result.match(decode(schema, payload), { onFailure: Effect.succeed, onSuccess: (p) => settle(run(p)) })
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
