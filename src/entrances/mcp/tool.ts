// What every MCP tool shares: a result as text items (the bytes the CLI prints, then what it says
// on stderr), the use case's failures as tool errors (parameter problems hold the CLI's
// `{ diagnostics }` value; any other failure its stderr line), the arguments decoded by the tool's
// Schema, and `define`, which makes a tool of a name, words, parameters and a handler. Each tool is
// a file under tools/; tools.ts lists them.
import type * as McpSchema from "effect/ai/McpSchema"
import { CallToolResult, Tool } from "effect/ai/McpSchema"
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type { Graph } from "../../core/model.js"
import { noSpecFileWarning, unmatchedExcludeLines } from "../../core/render/corpus-lines.js"
import type { CountTokens } from "../../core/tokens.js"
import type { Bundler } from "../../usecases/Bundler.js"
import type { Changes } from "../../usecases/Changes.js"
import type { Corpus } from "../../usecases/Corpus.js"
import type { Drift } from "../../usecases/Drift.js"
import { FieldSpelling } from "../../usecases/spelling.js"
import type { Diagnostic, UseCaseError } from "../../usecases/requests.js"
import { decodeArguments } from "./arguments.js"
import type { OutputCap } from "./cap.js"
import type { StagedAnswers } from "./staged-answers.js"
import type { Parameters } from "./parameters.js"
import { PARAMETER_NAMES } from "./parameters.js"

/** A tool's result: text content, as the CLI prints it; then the token counts and what the CLI prints beside it on stderr. */
export const ok = (out: string, ...more: ReadonlyArray<string | undefined>) =>
  new CallToolResult({
    isError: false,
    content: [{ type: "text", text: out }, ...more.filter((t) => t !== undefined).map((t) => ({ type: "text" as const, text: t + "\n" }))]
  })

export const fail = (out: string, structured?: unknown) =>
  new CallToolResult({
    isError: true,
    content: [{ type: "text", text: out }],
    ...(structured === undefined ? {} : { structuredContent: structured })
  })

export const diagnosticsResult = (diagnostics: ReadonlyArray<Diagnostic>) => fail(JSON.stringify({ diagnostics }) + "\n", { diagnostics })

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
export const capCounter = (bundler: Bundler["Service"]): Effect.Effect<CountTokens> =>
  bundler.tokens({ tokens: "o200k_base" }, __dirname).pipe(
    Effect.map((counter): CountTokens => counter?.count ?? utf8Bytes),
    // A build without the tokenizer bundle: UTF-8 bytes stand in (a token is at least one byte, so
    // never fewer than o200k tokens; UTF-16 code units can be fewer for text outside ASCII).
    Effect.catch(() => Effect.succeed(utf8Bytes)),
    Effect.provideService(FieldSpelling, PARAMETER_NAMES)
  )

/** A text's UTF-8 bytes: a bound on its o200k token count. */
const utf8Bytes: CountTokens = (text) => Buffer.byteLength(text, "utf8")

/** What `check` and `list` print on stderr beside the findings: excludes that matched nothing, then no Spec file at all. */
export const readWarnings = (graph: Graph, exclude: ReadonlyArray<string>, excluded: ReadonlySet<string>, root: string): string[] => {
  const empty = noSpecFileWarning(graph, nodePath.resolve(root), exclude.length > 0, PARAMETER_NAMES)
  return [...unmatchedExcludeLines(exclude, excluded, root), ...(empty === null ? [] : [empty])]
}

/** What the tools run on: the use cases and the cap. */
/** What the tools run on: the use cases, the output cap and the staged answers, each the server's. */
export type ToolServices = Bundler | Changes | Corpus | Drift | OutputCap | StagedAnswers

export interface ToolSpec {
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

// No idempotentHint: MCP gives it (as destructiveHint) meaning only when readOnlyHint is false, and
// tools/list is read by every agent session (destructiveHint stays, for clients that read it anyway).
const ANNOTATIONS: McpSchema.ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false }

/** A tool: its name and words, its parameters (published as JSON Schema, decoded), and its handler, its failures settled. */
export const define = <A>(
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
