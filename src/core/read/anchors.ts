// Anchors in code (sdp-format.md section 7): the constant form (a top-level const over an
// import-bound builder) and the comment form (a top-level JSDoc block with @sdp… tags).
//
// Refusal granularity (our decision): a file that does not parse yields one error and no anchor.
// Otherwise a refused anchor (bad id, non-static value, unknown property, …) yields its error
// findings and is dropped alone; the healthy anchors of the same file survive. The format says
// "the whole anchor is refused", not the whole file, and a code file is not a carrier of truth:
// losing every binding of a file for one typo would hide more than it protects.
import type { CallExpression, Program, parseSync } from "oxc-parser"
import type { AnchorNode, CarrierRead, Finding } from "../model.js"
import { readCommentBlock, hasReservedTag } from "./anchors-comment.js"
import { ANCHOR_BUILDERS, CARRIER_BUILDERS, PACKAGE, calleeName, collectBindings, readConstantAnchor, unwrap } from "./anchors-constant.js"
import type { AnchorBuilder, Bindings } from "./anchors-constant.js"
import { parseHazard } from "./anchors-depth.js"
import { validateAnchor } from "./anchors-fields.js"
import type { Problem, RawAnchor } from "./anchors-fields.js"
import { blankOutside, insideSpans, keptStatements, surelyTopLevel, type Words, wordIndex } from "./anchors-slice.js"
import type { OutlineComment, OutlineError, OutlineParser } from "./anchors-slice.js"

export interface AnchorParser {
  /** oxc-parser's parseSync: the AST as JS objects. */
  readonly parse: typeof parseSync
  /** The outline parses (src/node/oxcRaw.ts); without them every file takes the whole-AST route. */
  readonly outline?: OutlineParser
}

export interface AnchorOptions {
  /** The corpus root is the protocol package itself: its own builder modules count (7.1). */
  readonly selfHosting: boolean
}

const SELF_IDS_IMPORT = /["']\.{1,2}\/[^"'\n]*\bids(?:\.[jt]s)?["']/

/** Cheap text pre-check: may this file hold an anchor? (no parse) */
export const mayHoldAnchor = (text: string, options: AnchorOptions): boolean =>
  text.includes(PACKAGE) ||
  text.includes("@sdpAnchor") ||
  text.includes("@sdp-anchor") ||
  (options.selfHosting && (text.includes("code-anchor") || SELF_IDS_IMPORT.test(text)))

/** The markers as bytes, made once (the pre-check runs on every code file). */
const PACKAGE_BYTES = Buffer.from(PACKAGE)
const SDP_BYTES = Buffer.from("@sdp")
const ANCHOR_TAG_BYTES = Buffer.from("@sdpAnchor")
const KEBAB_TAG_BYTES = Buffer.from("@sdp-anchor")

/**
 * The same pre-check on the file's bytes, before any decoding: the markers are ASCII, and a UTF-8
 * decoder (even one replacing bad bytes) keeps every ASCII byte, so the bytes hold a marker exactly
 * when the text does. Most code files end here, neither decoded nor copied.
 */
export const mayHoldAnchorBytes = (bytes: Uint8Array, options: AnchorOptions): boolean => {
  const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // The self-hosting test has a regular expression: run it on a latin1 view (one char per byte).
  if (options.selfHosting) return mayHoldAnchor(view.toString("latin1"), options)
  // "@sdp" first: both comment markers start with it, and most files hold neither it nor the package.
  return view.includes(PACKAGE_BYTES) || (view.includes(SDP_BYTES) && (view.includes(ANCHOR_TAG_BYTES) || view.includes(KEBAB_TAG_BYTES)))
}

/** 1-based line of a UTF-16 offset (oxc-parser 0.159 reports UTF-16 offsets, like JS strings). */
const lineIndex = (text: string): ((offset: number) => number) => {
  const starts = [0]
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1)
  return (offset) => {
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
}

const isAnchorBuilder = (name: string | null): name is AnchorBuilder => name !== null && name in ANCHOR_BUILDERS

/** Builder calls that are the initializer of a top-level const (exported or not). */
const topLevelAnchorCalls = (program: Program, bindings: Bindings): Array<[CallExpression, AnchorBuilder]> => {
  const calls: Array<[CallExpression, AnchorBuilder]> = []
  for (const statement of program.body) {
    const decl =
      statement.type === "VariableDeclaration"
        ? statement
        : statement.type === "ExportNamedDeclaration" && statement.declaration?.type === "VariableDeclaration"
          ? statement.declaration
          : null
    if (decl === null || decl.kind !== "const") continue
    for (const declarator of decl.declarations) {
      if (declarator.init === null) continue
      const init = unwrap(declarator.init)
      if (init.type !== "CallExpression") continue
      const name = calleeName(init.callee, bindings)
      if (isAnchorBuilder(name)) calls.push([init, name])
    }
  }
  return calls
}

/** Every other protocol authoring call in the file, wherever it sits (not extracted: a warning). */
const misplacedCalls = (program: Program, bindings: Bindings, recognized: ReadonlySet<unknown>): Array<[CallExpression, string]> => {
  const found: Array<[CallExpression, string]> = []
  // An explicit stack, not recursion: a left-leaning chain (`a.b.c…`, tagged templates, `1+1+…`)
  // is parsed without recursion but can be tens of thousands of nodes deep. Pre-order, as before.
  const stack: unknown[] = [program.body]
  while (stack.length > 0) {
    const value = stack.pop()
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i])
      continue
    }
    if (value === null || typeof value !== "object") continue
    const node = value as { type?: unknown }
    if (node.type === "CallExpression" && !recognized.has(node)) {
      const name = calleeName((node as CallExpression).callee, bindings)
      if (name !== null && (isAnchorBuilder(name) || CARRIER_BUILDERS.has(name))) found.push([node as CallExpression, name])
    }
    const children = Object.entries(node).filter(([key, child]) => key !== "parent" && typeof child === "object")
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i][1])
  }
  return found
}

/**
 * Cheap text check before the AST walk for misplaced calls: every builder call mentions a bound
 * local name, and each local is mentioned once by its import. When the mentions left over are no
 * more than the calls already recognized, there is nothing to find and the walk (the costliest JS
 * step for a large file) is skipped. Over-counting only costs the walk, never a finding.
 */
const mayHoldMisplacedCalls = (words: Words, bindings: Bindings, recognized: number): boolean => {
  let mentions = 0
  for (const [local, exported] of bindings.named) {
    if (isAnchorBuilder(exported) || CARRIER_BUILDERS.has(exported)) mentions += words(local).length - 1
  }
  for (const local of bindings.modules) mentions += words(local).length - 1
  return mentions > recognized
}

type Add = (p: Problem, severity?: Finding["severity"]) => void

const isAnchorComment = (comment: OutlineComment): boolean => comment.type === "Block" && comment.value.startsWith("*") && hasReservedTag(comment.value)

/** Constant-form anchors and misplaced-call warnings, from the AST (or that of the kept statements). */
const readConstants = (program: Program, file: string, options: AnchorOptions, lineOf: (o: number) => number, words: Words, add: Add): RawAnchor[] => {
  const raws: RawAnchor[] = []
  const bindings = collectBindings(program, file, options.selfHosting)
  if (bindings.named.size === 0 && bindings.modules.size === 0) return raws
  const recognized = new Set<unknown>()
  for (const [call, builder] of topLevelAnchorCalls(program, bindings)) {
    recognized.add(call)
    const read = readConstantAnchor(call, builder, bindings, lineOf)
    for (const p of read.problems) add(p, p.severity)
    if (read.raw !== null) raws.push(read.raw)
  }
  const misplaced = mayHoldMisplacedCalls(words, bindings, recognized.size) ? misplacedCalls(program, bindings, recognized) : []
  for (const [call, name] of misplaced) {
    const where = isAnchorBuilder(name) ? "an anchor is read only from a top-level const" : `${name}(…) is read only in a .sdp.ts carrier`
    add({ line: lineOf(call.start), code: "extract/misplaced-authoring", message: `${name}(…) is not extracted here: ${where}` }, "warning")
  }
  return raws
}

/** Comment-form anchors; `inside` tells whether a comment sits inside a top-level statement. */
const readComments = (
  comments: ReadonlyArray<OutlineComment>,
  inside: (c: OutlineComment) => boolean,
  lineOf: (o: number) => number,
  add: Add
): RawAnchor[] => {
  const raws: RawAnchor[] = []
  for (const comment of comments) {
    if (!isAnchorComment(comment)) continue
    const line = lineOf(comment.start)
    if (inside(comment)) {
      add({
        line,
        code: "extract/invalid-anchor-comment",
        message: "a comment with reserved @sdp… tags must sit at the top level of the file, not inside a declaration"
      })
      continue
    }
    const read = readCommentBlock(comment.value, line)
    for (const p of read.problems) add(p)
    if (read.raw !== null) raws.push(read.raw)
  }
  return raws
}

type Parsed = { readonly errors: ReadonlyArray<OutlineError>; readonly read: () => RawAnchor[] }

/** The whole file's AST as JS objects: always right, and the costly route. */
const wholeAst = (file: string, text: string, options: AnchorOptions, parser: AnchorParser, lineOf: (o: number) => number, words: Words, add: Add): Parsed => {
  const result = parser.parse(file, text)
  return {
    errors: result.errors,
    read: () => {
      const program = result.program
      const constants = readConstants(program, file, options, lineOf, words, add)
      return [...constants, ...readComments(result.comments, (c) => insideSpans(program.body, c), lineOf, add)]
    }
  }
}

/** The outline for errors, comments and imports; objects only for the kept statements. */
const keptAst = (file: string, text: string, options: AnchorOptions, parser: AnchorParser, lineOf: (o: number) => number, words: Words, add: Add): Parsed => {
  const route = parser.outline
  const outline = route?.outline(file, text) ?? null
  if (route === undefined || outline === null) return wholeAst(file, text, options, parser, lineOf, words, add)
  const read = () => {
    const spans = keptStatements(text, outline, file, options.selfHosting, words)
    if (spans === null) return wholeAst(file, text, options, parser, lineOf, words, add).read()
    let constants: RawAnchor[] = []
    if (spans.length > 0) {
      let small: ReturnType<OutlineParser["parseKept"]>
      try {
        small = route.parseKept(file, blankOutside(text, spans))
      } catch (e) {
        // oxc's deserializer recurses once per nesting level: a deep kept statement can overflow
        // the stack where JSON.parse does not, and the whole AST decides. Anything else is a bug.
        if (!(e instanceof RangeError)) throw e
        return wholeAst(file, text, options, parser, lineOf, words, add).read()
      }
      if (small.errors.length > 0) return wholeAst(file, text, options, parser, lineOf, words, add).read()
      constants = readConstants(small.program, file, options, lineOf, words, add)
    }
    // Asked only of anchor comments, so worked out on the first one.
    let sure: ReadonlySet<unknown> | undefined
    const inside = (c: OutlineComment) => !(sure ??= surelyTopLevel(text, outline)).has(c) && insideSpans(outline.statements, c)
    return [...constants, ...readComments(outline.comments, inside, lineOf, add)]
  }
  return { errors: outline.errors, read }
}

export const parseAnchors = (file: string, text: string, options: AnchorOptions, parser: AnchorParser): CarrierRead => {
  const lineOf = lineIndex(text)
  // The kept-statement search and the misplaced-call check ask the same words of this text.
  const words = wordIndex(text)
  const findings: Finding[] = []
  // Messages quote literals (an id may hold "\n"): a finding stays one line.
  const add: Add = (p, severity = "error") =>
    findings.push({ file, line: p.line, code: p.code, message: p.message.replace(/\r/g, "\\r").replace(/\n/g, "\\n"), severity })

  const hazard = parseHazard(text)
  if (hazard !== null) {
    // oxc-parser would crash or exhaust the heap on it, taking the whole run down (anchors-depth.ts).
    add({ line: 1, code: "extract/parse-error", message: `${hazard}, so it is not parsed and none of its anchors are read` })
    return { file, specs: [], packs: [], anchors: [], findings }
  }
  let raws: RawAnchor[]
  try {
    const parsed = keptAst(file, text, options, parser, lineOf, words, add)
    const error = parsed.errors.find((e) => e.severity === "Error")
    if (error !== undefined) {
      const at = error.labels[0]?.start
      add({
        line: at === undefined ? 1 : lineOf(at),
        code: "extract/parse-error",
        message: `the file does not parse, so none of its anchors are read: ${error.message}`
      })
      return { file, specs: [], packs: [], anchors: [], findings }
    }
    raws = parsed.read()
  } catch (error) {
    add({ line: 1, code: "extract/parse-error", message: `the file could not be parsed: ${error instanceof Error ? error.message : String(error)}` })
    return { file, specs: [], packs: [], anchors: [], findings }
  }

  const anchors: AnchorNode[] = []
  for (const raw of raws) {
    const { anchor, problems } = validateAnchor(raw, file)
    for (const p of problems) add(p)
    if (anchor !== null) anchors.push(anchor)
  }
  anchors.sort((a, b) => a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  findings.sort((a, b) => a.line - b.line)
  return { file, specs: [], packs: [], anchors, findings }
}
