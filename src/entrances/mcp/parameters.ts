// A tool's parameters built from request fields (src/usecases/fields.ts): each field under the
// tool's name for it, with its description, optional where the request's is or where the entrance
// fills a default (`root`), so the published JSON Schema shows a choice as an `enum` and a budget
// as a string or a number. The decoded arguments come back as the request: the fields' own names,
// defaults filled.
import * as Schema from "effect/Schema"
import type { Defaulted } from "../../usecases/fields.js"
import { fieldInfo } from "../../usecases/fields.js"
import { spellingOf } from "../../usecases/spelling.js"

/** How the use cases' problems name a field here: as the tool's parameter (`changeset`, `count` for `parts`). */
export const PARAMETER_NAMES = spellingOf((field, spec) => (spec.mcp === false ? field : (spec.mcp?.name ?? field)))

/** A field's value once decoded: the request's type, `undefined` when left out unless a default fills it. */
type Value<S> =
  S extends Defaulted<Schema.optionalKey<infer I>>
    ? I["Type"]
    : S extends Schema.optionalKey<infer I>
      ? I["Type"] | undefined
      : S extends Schema.Top
        ? S["Type"]
        : never

/** A tool's arguments for these fields, as the request names them. */
export type Arguments<F extends Schema.Struct.Fields> = { readonly [K in keyof F]: Value<F[K]> }

export interface Parameters<A> {
  /** What the tool decodes and publishes (tools.ts inputSchemaOf). */
  readonly schema: Schema.ConstraintDecoder<object>
  /** The decoded parameters as the request. */
  readonly arguments: (decoded: object) => A
}

interface Param {
  readonly field: string
  readonly name: string
  readonly fill: string | undefined
}

export const parametersOf = <F extends Schema.Struct.Fields>(fields: F): Parameters<Arguments<F>> => {
  const params: Param[] = []
  const shape: Record<string, Schema.Top> = {}
  for (const [field, schema] of Object.entries(fields) as Array<[string, Schema.Top]>) {
    const { spec, optional } = fieldInfo(field, schema)
    if (spec.mcp === false) continue
    const name = spec.mcp?.name ?? field
    let type = optional ? (schema as Schema.optionalKey<Schema.Top>).schema : schema
    if (spec.mcp?.description !== undefined) type = type.annotate({ description: spec.mcp.description })
    // optionalKey: a parameter may be left out, never given as null (its JSON Schema says just "string").
    shape[name] = optional || spec.default !== undefined ? Schema.optionalKey(type) : type
    params.push({ field, name, fill: spec.default })
  }
  return {
    schema: Schema.Struct(shape) as unknown as Schema.ConstraintDecoder<object>,
    arguments: (decoded) => {
      const given = decoded as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const p of params) {
        const value = given[p.name] ?? p.fill
        if (value !== undefined) out[p.field] = value
      }
      return out as Arguments<F>
    }
  }
}
