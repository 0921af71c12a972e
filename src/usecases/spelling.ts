// How a use case's problems name the request's fields. The use cases decide what is wrong and
// name the field (a diagnostic's scope, and the field in its words); each entrance spells the
// names its own way: the CLI as its flags (`--changeset`, scope `budget-tokens`), the MCP server
// as its tools' parameters (`changeset`, `count`), the library as the fields themselves.
import * as Context from "effect/Context"
import type * as Schema from "effect/Schema"
import { type FieldSpec, fieldInfo } from "./fields.js"
import { BundleRequest, CheckRequest, ImpactRequest, ListRequest, MembersRequest, tokenFields } from "./requests.js"

export interface Spelling {
  /** The field as the entrance names it: a diagnostic's scope. */
  readonly name: (field: string) => string
  /** The field as a problem's words cite it (`--changeset` on the command line). */
  readonly cite: (field: string) => string
}

/** The fields' own names: the library's spelling, and what a use case spells with unless told. */
export const FIELD_NAMES: Spelling = { name: (field) => field, cite: (field) => field }

/** The spelling in context; an entrance provides its own (`Effect.provideService(FieldSpelling, ...)`). */
export const FieldSpelling = Context.Reference<Spelling>("specbundle/FieldSpelling", { defaultValue: () => FIELD_NAMES })

/** Every request field by name (a name shared by two requests is the same field). */
const FIELDS: Readonly<Record<string, Schema.Top>> = {
  ...ListRequest.fields,
  ...CheckRequest.fields,
  ...MembersRequest.fields,
  ...ImpactRequest.fields,
  ...tokenFields,
  ...BundleRequest.fields
}

/**
 * An entrance's spelling from how it names a field given its spec (`named`), and how its words
 * cite that name (`cite`: `--changeset` on the command line); a name no request has stays as given.
 */
export const spellingOf = (named: (field: string, spec: FieldSpec) => string, cite: (name: string) => string = (name) => name): Spelling => {
  const name = (field: string) => {
    const schema = FIELDS[field]
    return schema === undefined ? field : named(field, fieldInfo(field, schema).spec)
  }
  return { name, cite: (field) => cite(name(field)) }
}
