// The configuration file: data, validated on load, never code. Flags override the file, the file
// overrides the defaults (shared/docs/bundle-contract.md section 4).
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { DEFAULT_BUDGET } from "./bundle/types.js"
import { schemaLine, shapeProblem } from "./schema-line.js"

export const DEFAULT_TIERS: Readonly<Record<string, number>> = { S: 16_000, M: 64_000, L: 200_000 }
export const CONFIG_FILE = "specbundle.config.json"

/** What a wrong value is, for "expected ..., got ...": the JSON kind, and a number's own text. */
const kindOf = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "a list"
  switch (typeof value) {
    case "string":
      return `a string (${JSON.stringify(value)})`
    case "number":
      return `the number ${value}`
    case "boolean":
      return String(value)
    default:
      return "an object"
  }
}

/** The error a wrong value gets: what the key takes in words, never its description. */
const expected = (what: string) => ({ message: (issue: ParseResult.ParseIssue) => ({ message: `expected ${what}, got ${kindOf(issue.actual)}`, override: false }) })

// The JSON Schema is spelled out: the generated one puts the bound beside a $ref, which draft-07 ignores.
const PositiveInt = Schema.Int.pipe(Schema.positive()).annotations({
  ...expected("a positive integer"),
  description: "A positive integer, in UTF-16 code units.",
  jsonSchema: { type: "integer", exclusiveMinimum: 0, description: "A positive integer, in UTF-16 code units." }
})
const Budget = Schema.Union(PositiveInt, Schema.String.annotations({ description: "A tier name." })).annotations({
  ...expected("a positive integer or a tier name"),
  description: "The budget: a positive integer of UTF-16 code units, or a tier name."
})
const Declarations = Schema.Literal("whole", "addresses").annotations({
  ...expected('"whole" or "addresses"'),
  description: "\"addresses\" lets the last cut replace pinned declarations by their entry addresses."
})
const Exclude = Schema.Array(Schema.String.annotations(expected("a path"))).annotations({
  ...expected("a list of paths"),
  description: "Root-relative paths to leave out, matched at segment boundaries." })

export const ProfileSchema = Schema.Struct({
  budget: Schema.optional(Budget),
  declarations: Schema.optional(Declarations),
  exclude: Schema.optional(Exclude)
}).annotations({ ...expected("an object of budget, declarations and exclude"), identifier: "Profile", description: "A named set of bundle parameters, chosen with --profile NAME." })

export const ConfigSchema = Schema.Struct({
  $schema: Schema.optional(Schema.String.annotations(expected("the schema's path or URL as text"))),
  exclude: Schema.optional(Exclude),
  budget: Schema.optional(Budget),
  tiers: Schema.optional(
    Schema.Record({ key: Schema.String, value: PositiveInt }).annotations({
      ...expected("an object of tier names and positive integers"),
      description: "Budget tiers by name, merged over S 16000, M 64000, L 200000."
    })
  ),
  declarations: Schema.optional(Declarations),
  profiles: Schema.optional(
    Schema.Record({ key: Schema.String, value: ProfileSchema }).annotations({ ...expected("an object of named profiles"), description: "Named parameter sets, chosen with --profile NAME." })
  )
}).annotations({ ...expected("an object"), identifier: "SpecbundleConfig", title: "specbundle configuration", description: "specbundle.config.json" })

export type Config = typeof ConfigSchema.Type

const decode = Schema.decodeUnknownEither(ConfigSchema, { onExcessProperty: "error", errors: "first" })

/** Far deeper than any valid configuration (`profiles.NAME.tiers.KEY` is four levels). */
const MAX_CONFIG_DEPTH = 32

/** What a key takes, for the values whose schema is a union (its members' messages name only one branch). */
const UNION_WORDS: Readonly<Record<string, string>> = {
  budget: "a positive integer or a tier name",
  declarations: '"whole" or "addresses"',
  tiers: "a positive integer"
}

/** "expected <words>, got <kind>" for a wrong value under a union-typed key; null for the rest. */
const wrongValue = (json: unknown, path: ReadonlyArray<PropertyKey>): string | null => {
  const key = [...path].reverse().find((k) => typeof k === "string" && Object.prototype.hasOwnProperty.call(UNION_WORDS, k))
  // `tiers` itself is an object (its own message); the words are for a tier's value.
  if (key === undefined || (key === "tiers" && path[path.length - 1] === "tiers")) return null
  const value = path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), json)
  return `expected ${UNION_WORDS[key as string]}, got ${kindOf(value)}`
}

/** Parses and validates the file's text; the error is one line naming the key's path. */
export const parseConfig = (text: string): Either.Either<Config, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Either.left(`not valid JSON (${(e as Error).message})`)
  }
  const problem = shapeProblem(json, MAX_CONFIG_DEPTH)
  if (problem !== null) return Either.left(problem)
  return Either.mapLeft(decode(json), (error) => schemaLine(error, (path) => wrongValue(json, path)))
}

export interface Settings {
  readonly exclude: ReadonlyArray<string>
  /** As written: a number or a tier name still to resolve. */
  readonly budget: number | string | undefined
  readonly declarations: string | undefined
  readonly tiers: Readonly<Record<string, number>>
}

/** Merges defaults < file < profile < flags. Flag values stay text: the composer validates them. */
export const settingsFor = (
  config: Config | undefined,
  profile: string | undefined,
  flags: { readonly exclude: ReadonlyArray<string>; readonly budget?: string; readonly declarations?: string }
): Either.Either<Settings, string> => {
  // Own keys only: "constructor" or "__proto__" must not pick up Object.prototype's members.
  const profiles = config?.profiles
  const chosen = profile === undefined || profiles === undefined || !Object.hasOwn(profiles, profile) ? undefined : profiles[profile]
  if (profile !== undefined && chosen === undefined) {
    const known = Object.keys(config?.profiles ?? {})
    return Either.left(`unknown profile "${profile}"${known.length > 0 ? ` (known: ${known.join(", ")})` : " (the configuration defines none)"}`)
  }
  return Either.right({
    exclude: [...(config?.exclude ?? []), ...(chosen?.exclude ?? []), ...flags.exclude],
    budget: flags.budget ?? chosen?.budget ?? config?.budget,
    declarations: flags.declarations ?? chosen?.declarations ?? config?.declarations,
    tiers: { ...DEFAULT_TIERS, ...(config?.tiers ?? {}) }
  })
}

/**
 * A budget as the composer takes it: a tier name becomes its number, integer text becomes a number,
 * anything else passes through unchanged so the composer's diagnostics name it.
 */
export const resolveBudget = (budget: number | string | undefined, tiers: Readonly<Record<string, number>>): unknown => {
  if (budget === undefined || typeof budget === "number") return budget ?? DEFAULT_BUDGET
  if (Object.hasOwn(tiers, budget)) return tiers[budget]
  return numericText(budget)
}

/**
 * "12" -> 12, "1.5" -> 1.5, "-1" -> -1. Only a number's own canonical text converts: "01",
 * "2.0" or a value too large to hold exactly stays text, so the diagnostic quotes what was typed.
 */
export const numericText = (text: string): unknown => {
  const n = Number(text)
  return text !== "" && Number.isFinite(n) && String(n) === text ? n : text
}
