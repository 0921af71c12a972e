// manifest.json, the ticket beside the bundle (bundle-contract.md section 3): one Schema that
// `--out` encodes the manifest with and `stale` decodes it with, so a hand-edited value that would
// reach the reader's excludes or the file comparison is refused, naming its key.
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { DECLARATIONS } from "./bundle/types.js"
import { sha256 } from "./read/discover.js"
import { ENCODINGS } from "./encodings.js"
import { STRICT, TYPE_NAME, schemaLine, shapeProblem } from "./schema-line.js"

export const MANIFEST = "manifest.json"

export const partFileName = (index: number): string => `part-${String(index).padStart(3, "0")}.json`

/** The ticket beside a part: `sha256:` + hex of the part file's exact bytes (compact JSON and its newline). */
export const ticket = (fileText: string): string => `sha256:${sha256(fileText)}`

export const graphDigest = (files: ReadonlyArray<{ readonly path: string; readonly hash: string }>): string => sha256(JSON.stringify(files))

/** A string matching `pattern`, named as the refusal line names it. */
const Matching = (pattern: RegExp, expected = `a string matching the pattern ${pattern.source}`) => Schema.String.check(Schema.isPattern(pattern, { expected }))

const Sha256Hex = Matching(/^[0-9a-f]{64}$/, "hex SHA-256")
/** An integer; "Int" inside another type's name. */
const Int = Schema.Number.check(Schema.isInt({ [TYPE_NAME]: "Int" }))
/** Effect 3's NonNegativeInt, its checks in its order and words. */
const NonNegativeInt = Schema.Number.check(
  Schema.isGreaterThanOrEqualTo(0, { expected: "a non-negative number" }),
  Schema.isInt({ [TYPE_NAME]: "NonNegativeInt" })
)

const FileHash = Schema.Struct({ path: Schema.String, hash: Sha256Hex })

// The scope as the bundle states it; the specific forms first, since a Struct ignores extra keys.
const Scope = Schema.Union([
  // A perspective's subset (src/core/graph/perspective.ts), with the changeset it read when one was given.
  Schema.Struct({ pack: Schema.String, members: Schema.Array(Schema.String), perspective: Schema.String, changeset: Schema.optionalKey(Schema.String) }),
  Schema.Struct({ pack: Schema.String, members: Schema.Array(Schema.String) }),
  Schema.Struct({ pack: Schema.String }),
  Schema.Struct({ specs: Schema.Array(Schema.String), changeset: Schema.optionalKey(Schema.String) })
])

export const PartRecord = Schema.Struct({
  /** The bare file name inside DIR (`part-001.json`). */
  file: Matching(/^part-\d{3,}\.json$/),
  /** `sha256:` + hex of the part file's bytes. */
  hash: Matching(/^sha256:[0-9a-f]{64}$/),
  used: Schema.NullOr(Int),
  /** With `bundle --tokens`: the exact count of the same text `used` measures, in that encoding. */
  tokens: Schema.optionalKey(Schema.Struct({ value: NonNegativeInt, encoding: Schema.Literals(ENCODINGS) }))
})

export const BuiltFrom = Schema.Struct({
  root: Schema.String,
  exclude: Schema.Array(Schema.String),
  config: Schema.NullOr(Schema.String),
  commit: Schema.NullOr(Schema.String),
  dirty: Schema.NullOr(Schema.Boolean),
  /**
   * A changeset bundle only: the commit its old side resolved to (REV, A, the merge base of
   * A...B, HEAD for --staged; null before the first commit). `stale` resolves the changeset again
   * and compares (bundle-contract.md section 3).
   */
  base: Schema.optionalKey(Schema.NullOr(Schema.String)),
  graphDigest: Sha256Hex,
  files: Schema.Array(FileHash)
})

export const ManifestSchema = Schema.Struct({
  scope: Scope,
  budget: Int.check(Schema.isGreaterThan(0, { expected: "a positive number" })),
  declarations: Schema.Literals(DECLARATIONS),
  parts: Schema.Array(PartRecord),
  builtFrom: BuiltFrom
}).annotate({ identifier: "SpecbundleManifest", description: "manifest.json, written by specbundle bundle --out" })

export type Manifest = typeof ManifestSchema.Type
export type PartRecord = typeof PartRecord.Type
export type BuiltFrom = typeof BuiltFrom.Type

/** The manifest as a use case builds it: scope, budget and declarations as it holds them; the Schema checks all. */
export interface ManifestDraft extends Omit<Manifest, "scope" | "budget" | "declarations"> {
  readonly scope: unknown
  readonly budget: unknown
  readonly declarations: unknown
}

const encode = Schema.encodeUnknownResult(ManifestSchema, STRICT)
const decode = Schema.decodeUnknownResult(ManifestSchema, STRICT)

/**
 * The manifest file's text (indented: it is not a budgeted value), or why the value is not one.
 * Takes the scope, budget and declarations as the CLI holds them (the composer has checked them).
 */
export const manifestText = (manifest: unknown): Result.Result<string, string> =>
  Result.match(encode(manifest), {
    onFailure: (error) => Result.fail(schemaLine(error.issue, manifest)),
    onSuccess: (encoded) => Result.succeed(`${JSON.stringify(encoded, null, 2)}\n`)
  })

/** Reads a manifest file's text; the problem is one line naming the key. */
export const parseManifest = (text: string): Result.Result<Manifest, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Result.fail("invalid JSON")
  }
  // builtFrom.files[i].path is four levels deep.
  const problem = shapeProblem(json, 32)
  if (problem !== null) return Result.fail(problem)
  return Result.mapError(decode(json), (error) => schemaLine(error.issue, json))
}
