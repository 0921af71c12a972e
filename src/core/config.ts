// The configuration file: data, validated on load, never code. Flags override the file, the file
// overrides the defaults (shared/docs/bundle-contract.md section 4).
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { DECLARATIONS, DEFAULT_BUDGET } from "./bundle/types.js"
import { ALTITUDES, RELATION_TYPES, RUNGS, SPEC_KINDS } from "./model.js"
import type { Perspective } from "./graph/perspective.js"
import { BUILT_IN_PERSPECTIVES, DIRECTIONS, FLOOR_RUNGS, ORDERS, QUESTION_FILTERS, perspectiveNames } from "./graph/perspective.js"
import { LAYERS } from "./read/anchors-fields.js"
import { MESSAGE, STRICT, WORDS, schemaLine, shapeProblem } from "./schema-line.js"
import { didYouMean } from "./suggest.js"

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
const expected = (what: string) => ({ [WORDS]: what })
/** "expected <words>, got <kind>": how schemaLine words a value the WORDS annotation names. */
const wrongKind = (words: string, actual: unknown): string => `expected ${words}, got ${kindOf(actual)}`

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0)).annotate({
  ...expected("a positive integer"),
  description: "A positive integer, in UTF-16 code units."
})
const Budget = Schema.Union([PositiveInt, Schema.String.annotate({ description: "A tier name." })]).annotate({
  ...expected("a positive integer or a tier name"),
  description: "The budget: a positive integer of UTF-16 code units, or a tier name."
})
/** `"whole" or "addresses"`: the declaration modes as a message names them. */
const DECLARATION_WORDS = DECLARATIONS.map((d) => JSON.stringify(d)).join(" or ")
const Declarations = Schema.Literals(DECLARATIONS).annotate({
  ...expected(DECLARATION_WORDS),
  description: '"addresses" lets the last cut replace pinned declarations by their entry addresses.'
})
const Exclude = Schema.Array(Schema.String.annotate(expected("a path"))).annotate({
  ...expected("a list of paths"),
  description: "Root-relative paths to leave out, matched at segment boundaries."
})

/** One value or a non-empty list of them (an or); the message names both forms, not the union's first branch. */
const oneOrMany = <S extends Schema.Top>(item: S, description: string, values?: ReadonlyArray<string>) => {
  const one = values === undefined ? "a string" : `one of ${values.join(", ")}`
  return Schema.Union([item, Schema.NonEmptyArray(item)]).annotate({ description, [MESSAGE]: `expected ${one}, or a non-empty list of them` })
}
const Flag = (description: string) => Schema.optionalKey(Schema.Boolean.annotate({ ...expected("true or false"), description }))
const FloorRung = Schema.Literals(FLOOR_RUNGS).annotate(expected(`one of ${FLOOR_RUNGS.join(", ")}`))

// Exact meanings: docs/decisions.md, "Perspectives".
const criteriaFields = {
  kind: Schema.optionalKey(oneOrMany(Schema.Literals(SPEC_KINDS), "The member's kind, or any of a list.", SPEC_KINDS)),
  altitude: Schema.optionalKey(oneOrMany(Schema.Literals(ALTITUDES), "The member's altitude, or any of a list.", ALTITUDES)),
  readiness: Schema.optionalKey(oneOrMany(Schema.Literals(RUNGS), "The member's stated rung, or any of a list.", RUNGS)),
  floorAtLeast: Schema.optionalKey(FloorRung.annotate({ description: "The floor reached is this rung or above (none < idea < scoped < defined < ready)." })),
  floorAtMost: Schema.optionalKey(FloorRung.annotate({ description: "The floor reached is this rung or below (none < idea < scoped < defined < ready)." })),
  floorBelowStated: Flag("true: the floor reached is below the stated rung (the statement is not yet honest); false: it is not."),
  holds: Flag("true: at least one clause of the stated next rung fails (the member's holds); false: none does."),
  questions: Schema.optionalKey(
    Schema.Literals(QUESTION_FILTERS).annotate({
      ...expected(QUESTION_FILTERS.map((q) => `"${q}"`).join(", ")),
      description: "any: at least one open question; blocking: at least one blocking one; none: no open question."
    })
  ),
  implemented: Flag("true: a code unit implements the member (an anchored satisfies); false: none does."),
  hasVerifier: Flag("true: a test anchor or an enabled example verifies the member; false: nothing does."),
  hasEnabledExamples: Flag("true: an example Spec refining or verifying the member is enabled (a test anchor verifies it); false: none is."),
  relatesTo: Schema.optionalKey(
    Schema.Struct({
      id: oneOrMany(Schema.String, "The other end's id, or a pattern where * matches any run of characters; any of a list."),
      type: Schema.optionalKey(oneOrMany(Schema.Literals(RELATION_TYPES), "The authored relation type, or any of a list (default: all six).", RELATION_TYPES)),
      direction: Schema.optionalKey(
        Schema.Literals(DIRECTIONS).annotate({
          ...expected('"out", "in" or "either"'),
          description: "out: the member declares the relation (default); in: the other end declares it on the member; either."
        })
      )
    }).annotate({ ...expected("an object of id, type and direction"), description: "The member relates to a given id by a declared, authored relation." })
  ),
  layer: Schema.optionalKey(
    oneOrMany(Schema.Literals(LAYERS), "The layer of the component of a code unit that implements or references the member, or any of a list.", LAYERS)
  ),
  ids: Schema.optionalKey(oneOrMany(Schema.String, "The member's id, or a pattern where * matches any run of characters; any of a list.")),
  impacted: Flag("true: the changeset given (--changeset or --staged) impacts the member; false: it does not. Needs a changeset.")
}

const CriteriaSchema = Schema.Struct(criteriaFields).annotate({
  ...expected("an object of criteria"),
  identifier: "PerspectiveCriteria",
  description: "Criteria that must all hold; a list inside one criterion is an or."
})

export const PerspectiveSchema = Schema.Struct({
  description: Schema.optionalKey(Schema.String.annotate({ ...expected("text"), description: "What the lens is for; not part of any bundle." })),
  ...criteriaFields,
  anyOf: Schema.optionalKey(
    Schema.NonEmptyArray(CriteriaSchema).annotate({
      ...expected("a non-empty list of criteria objects"),
      description: "Alternatives: at least one set must hold, beside every other criterion."
    })
  ),
  order: Schema.optionalKey(
    Schema.Literals(ORDERS).annotate({
      ...expected('"manifest" or "floor"'),
      description: "manifest (default): the Pack's order; floor: least ready first, ties in manifest order."
    })
  )
}).annotate({
  ...expected("an object of criteria"),
  identifier: "Perspective",
  description: "A named filter over a Pack's members, chosen with --perspective NAME: every criterion given must hold."
})

// The schema's type is the core's Perspective: a change to one that the other lacks fails to compile.
const _perspectiveFits: Perspective = {} as typeof PerspectiveSchema.Type
void _perspectiveFits

const PERSPECTIVE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

export const ProfileSchema = Schema.Struct({
  budget: Schema.optionalKey(Budget),
  declarations: Schema.optionalKey(Declarations),
  exclude: Schema.optionalKey(Exclude),
  perspective: Schema.optionalKey(
    Schema.String.annotate({
      ...expected("a perspective's name"),
      description: "A perspective (built-in or configured) the profile applies; --perspective overrides it."
    })
  )
}).annotate({
  ...expected("an object of budget, declarations, exclude and perspective"),
  identifier: "Profile",
  description: "A named set of bundle parameters, chosen with --profile NAME."
})

export const ConfigSchema = Schema.Struct({
  $schema: Schema.optionalKey(Schema.String.annotate(expected("the schema's path or URL as text"))),
  exclude: Schema.optionalKey(Exclude),
  budget: Schema.optionalKey(Budget),
  tiers: Schema.optionalKey(
    Schema.Record(Schema.String, PositiveInt).annotate({
      ...expected("an object of tier names and positive integers"),
      description: "Budget tiers by name, merged over S 16000, M 64000, L 200000."
    })
  ),
  declarations: Schema.optionalKey(Declarations),
  profiles: Schema.optionalKey(
    Schema.Record(Schema.String, ProfileSchema).annotate({
      ...expected("an object of named profiles"),
      description: "Named parameter sets, chosen with --profile NAME."
    })
  ),
  perspectives: Schema.optionalKey(
    Schema.Record(Schema.String, PerspectiveSchema).annotate({
      ...expected("an object of named perspectives"),
      description: "Named perspectives beside the built-ins (blocked, changed, not-ready, unimplemented, unverified), chosen with --perspective NAME."
    })
  )
}).annotate({ ...expected("an object"), identifier: "SpecbundleConfig", title: "specbundle configuration", description: "specbundle.config.json" })

export type Config = typeof ConfigSchema.Type

const decode = Schema.decodeUnknownResult(ConfigSchema, STRICT)

/** Far deeper than any valid configuration (`perspectives.NAME.anyOf.0.relatesTo.id.0` is seven levels). */
const MAX_CONFIG_DEPTH = 32

/** What a key takes, for the values whose schema is a union (its members' messages name only one branch). */
const UNION_WORDS: Readonly<Record<string, string>> = {
  budget: "a positive integer or a tier name",
  declarations: DECLARATION_WORDS,
  tiers: "a positive integer"
}

/** "expected <words>, got <kind>" for a wrong value under a union-typed key; null for the rest. */
const wrongValue = (json: unknown, path: ReadonlyArray<PropertyKey>): string | null => {
  const key = [...path].reverse().find((k) => typeof k === "string" && Object.hasOwn(UNION_WORDS, k))
  // `tiers` itself is an object (its own message); the words are for a tier's value.
  if (key === undefined || (key === "tiers" && path[path.length - 1] === "tiers")) return null
  const value = path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), json)
  return `expected ${UNION_WORDS[key as string]}, got ${kindOf(value)}`
}

/** Parses and validates the file's text; the error is one line naming the key's path. */
export const parseConfig = (text: string): Result.Result<Config, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail(`not valid JSON (${(e as Error).message})`)
  }
  const problem = shapeProblem(json, MAX_CONFIG_DEPTH)
  if (problem !== null) return Result.fail(problem)
  const decoded = Result.mapError(decode(json), (error) => schemaLine(error.issue, json, (path) => wrongValue(json, path), wrongKind))
  return Result.flatMap(decoded, (config) => {
    const problem = referenceProblem(config)
    return problem === null ? Result.succeed(config) : Result.fail(problem)
  })
}

/** A budget written as text that names no tier (of the defaults and the file's) and is no positive integer. */
const budgetProblem = (key: string, budget: number | string | undefined, tiers: Readonly<Record<string, number>>): string | null => {
  if (typeof budget !== "string") return null
  const n = resolveBudget(budget, tiers)
  if (typeof n === "number" && Number.isSafeInteger(n) && n > 0) return null
  const names = Object.keys(tiers)
  return `${key}: expected a positive integer or a tier name (${names.join(", ")}), got ${kindOf(budget)}.${tierHint(budget, names)}`
}

/** What the schema cannot see: budget tier names, perspective names and the perspective a profile names. */
const referenceProblem = (config: Config): string | null => {
  const tiers = { ...DEFAULT_TIERS, ...(config.tiers ?? {}) }
  const budget = budgetProblem("budget", config.budget, tiers)
  if (budget !== null) return budget
  for (const [profile, set] of Object.entries(config.profiles ?? {})) {
    const problem = budgetProblem(`profiles.${profile}.budget`, set.budget, tiers)
    if (problem !== null) return problem
  }
  for (const name of Object.keys(config.perspectives ?? {})) {
    if (Object.hasOwn(BUILT_IN_PERSPECTIVES, name)) return `perspectives.${name}: "${name}" is a built-in perspective; choose another name`
    if (!PERSPECTIVE_NAME.test(name)) return `perspectives.${name}: a perspective name is letters, digits, ".", "_" and "-", starting with a letter or digit`
  }
  for (const [profile, set] of Object.entries(config.profiles ?? {})) {
    const name = set.perspective
    if (name === undefined) continue
    const known = perspectiveNames(config.perspectives)
    if (!known.includes(name)) return `profiles.${profile}.perspective: unknown perspective "${name}" (known: ${known.join(", ")})`
  }
  return null
}

export interface Settings {
  readonly exclude: ReadonlyArray<string>
  /** As written: a number or a tier name still to resolve. */
  readonly budget: number | string | undefined
  readonly declarations: string | undefined
  readonly tiers: Readonly<Record<string, number>>
  /** The perspective's name: the flag, else the profile's. */
  readonly perspective: string | undefined
}

/** Merges defaults < file < profile < flags. Flag values stay as given (text, or a program's number): the composer validates them. */
export const settingsFor = (
  config: Config | undefined,
  profile: string | undefined,
  flags: { readonly exclude: ReadonlyArray<string>; readonly budget?: string | number; readonly declarations?: string; readonly perspective?: string }
): Result.Result<Settings, string> => {
  // Own keys only: "constructor" or "__proto__" must not pick up Object.prototype's members.
  const profiles = config?.profiles
  const chosen = profile === undefined || profiles === undefined || !Object.hasOwn(profiles, profile) ? undefined : profiles[profile]
  if (profile !== undefined && chosen === undefined) {
    const known = Object.keys(config?.profiles ?? {})
    return Result.fail(`unknown profile "${profile}"${known.length > 0 ? ` (known: ${known.join(", ")})` : " (the configuration defines none)"}`)
  }
  return Result.succeed({
    exclude: [...(config?.exclude ?? []), ...(chosen?.exclude ?? []), ...flags.exclude],
    budget: flags.budget ?? chosen?.budget ?? config?.budget,
    declarations: flags.declarations ?? chosen?.declarations ?? config?.declarations,
    tiers: { ...DEFAULT_TIERS, ...(config?.tiers ?? {}) },
    perspective: flags.perspective ?? chosen?.perspective
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
 * A budget text that is neither a tier nor a number: the problem names the tiers it could be
 * (the defaults, then the configuration's), so `--budget XL` says what exists. Null otherwise.
 */
export const budgetTierProblem = (budget: number | string | undefined, tiers: Readonly<Record<string, number>>): string | null => {
  if (typeof budget !== "string" || typeof resolveBudget(budget, tiers) !== "string") return null
  const names = Object.keys(tiers)
  return `Unknown budget ${JSON.stringify(budget)}: give a positive integer (UTF-16 code units) or a tier: ${names.join(", ")}.${tierHint(budget, names)}`
}

/** " Did you mean ...?" for a tier name: the same letters in another case first, else the near names. */
const tierHint = (budget: string, names: ReadonlyArray<string>): string => {
  const sameLetters = names.filter((n) => n.toLowerCase() === budget.toLowerCase())
  // The same letters are the answer however far apart their case is ("xxl" is "XXL").
  return sameLetters.length > 0 ? ` Did you mean ${sameLetters.map((n) => JSON.stringify(n)).join(" or ")}?` : didYouMean(budget, names)
}

/**
 * The line for a configuration path that is a folder (`--config specs`), instead of the read's
 * EISDIR; `cited`: the field that named it, as the entrance cites it (`--config`), null when none did.
 */
export const configFolderProblem = (cited: string | null): string =>
  `is a folder, not a configuration file${cited !== null ? `; ${cited} takes a JSON file such as specbundle.config.json` : ""}`

/**
 * "12" -> 12, "1.5" -> 1.5, "-1" -> -1. Only a number's own canonical text converts: "01",
 * "2.0" or a value too large to hold exactly stays text, so the diagnostic quotes what was typed.
 */
export const numericText = (text: string): unknown => {
  const n = Number(text)
  return text !== "" && Number.isFinite(n) && String(n) === text ? n : text
}
