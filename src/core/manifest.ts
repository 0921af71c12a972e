// manifest.json, the ticket beside the bundle (bundle-contract.md section 3): one Schema that
// `--out` encodes the manifest with and `stale` decodes it with, so a hand-edited value that would
// reach the reader's excludes or the file comparison is refused, naming its key.
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { sha256 } from "./discover.js"
import { schemaLine, shapeProblem } from "./schema-line.js"
import { ENCODINGS } from "./encodings.js"

export const MANIFEST = "manifest.json"

export const partFileName = (index: number): string => `part-${String(index).padStart(3, "0")}.json`

/** The ticket beside a part: `sha256:` + hex of the part file's exact bytes (compact JSON and its newline). */
export const ticket = (fileText: string): string => `sha256:${sha256(fileText)}`

export const graphDigest = (files: ReadonlyArray<{ readonly path: string; readonly hash: string }>): string => sha256(JSON.stringify(files))

const Sha256Hex = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)).annotations({ description: "hex SHA-256" })

const FileHash = Schema.Struct({ path: Schema.String, hash: Sha256Hex })

// The scope as the bundle states it; the specific forms first, since a Struct ignores extra keys.
const Scope = Schema.Union(
  // A perspective's subset (src/core/perspective.ts), with the changeset it read when one was given.
  Schema.Struct({ pack: Schema.String, members: Schema.Array(Schema.String), perspective: Schema.String, changeset: Schema.optional(Schema.String) }),
  Schema.Struct({ pack: Schema.String, members: Schema.Array(Schema.String) }),
  Schema.Struct({ pack: Schema.String }),
  Schema.Struct({ specs: Schema.Array(Schema.String), changeset: Schema.optional(Schema.String) })
)

export const PartRecord = Schema.Struct({
  /** The bare file name inside DIR (`part-001.json`). */
  file: Schema.String.pipe(Schema.pattern(/^part-\d{3,}\.json$/)),
  /** `sha256:` + hex of the part file's bytes. */
  hash: Schema.String.pipe(Schema.pattern(/^sha256:[0-9a-f]{64}$/)),
  used: Schema.NullOr(Schema.Int),
  /** With `bundle --tokens`: the exact count of the same text `used` measures, in that encoding. */
  tokens: Schema.optional(Schema.Struct({ value: Schema.NonNegativeInt, encoding: Schema.Literal(...ENCODINGS) }))
})

export const BuiltFrom = Schema.Struct({
  root: Schema.String,
  exclude: Schema.Array(Schema.String),
  config: Schema.NullOr(Schema.String),
  commit: Schema.NullOr(Schema.String),
  dirty: Schema.NullOr(Schema.Boolean),
  graphDigest: Sha256Hex,
  files: Schema.Array(FileHash)
})

export const ManifestSchema = Schema.Struct({
  scope: Scope,
  budget: Schema.Int.pipe(Schema.positive()),
  declarations: Schema.Literal("whole", "addresses"),
  parts: Schema.Array(PartRecord),
  builtFrom: BuiltFrom
}).annotations({ identifier: "SpecbundleManifest", description: "manifest.json, written by specbundle bundle --out" })

export type Manifest = typeof ManifestSchema.Type
export type PartRecord = typeof PartRecord.Type
export type BuiltFrom = typeof BuiltFrom.Type

/** The manifest as a use case builds it: scope, budget and declarations as it holds them; the Schema checks all. */
export interface ManifestDraft extends Omit<Manifest, "scope" | "budget" | "declarations"> {
  readonly scope: unknown
  readonly budget: unknown
  readonly declarations: unknown
}

const encode = Schema.encodeUnknownEither(ManifestSchema, { onExcessProperty: "error", errors: "first" })
const decode = Schema.decodeUnknownEither(ManifestSchema, { onExcessProperty: "error", errors: "first" })

/**
 * The manifest file's text (indented: it is not a budgeted value), or why the value is not one.
 * Takes the scope, budget and declarations as the CLI holds them (the composer has checked them).
 */
export const manifestText = (manifest: unknown): Either.Either<string, string> =>
  Either.match(encode(manifest), {
    onLeft: (error) => Either.left(schemaLine(error)),
    onRight: (encoded) => Either.right(`${JSON.stringify(encoded, null, 2)}\n`)
  })

/** Reads a manifest file's text; the problem is one line naming the key. */
export const parseManifest = (text: string): Either.Either<Manifest, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left("invalid JSON")
  }
  // builtFrom.files[i].path is four levels deep.
  const problem = shapeProblem(json, 32)
  if (problem !== null) return Either.left(problem)
  return Either.mapLeft(decode(json), schemaLine)
}
