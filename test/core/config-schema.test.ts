// The shipped JSON Schema of specbundle.config.json is the one generated from ConfigSchema, draft-07
// with its definitions under `definitions` (draft-07 has no `$defs`), and a draft-07 validator (ajv)
// compiles it strictly; the example configurations validate against it (and against the loader).
// Regenerate the file with UPDATE_SCHEMA=1 npx vitest run test/core/config-schema.test.ts
import { Ajv } from "ajv"
import * as JsonSchema from "effect/JsonSchema"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigSchema, parseConfig } from "../../src/core/config.js"

const SCHEMA_FILE = path.resolve("schema/specbundle.config.schema.json")

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
type Node = { [k: string]: Json }

/**
 * One spelling of equal schemas, keys sorted: the file was written by Effect 3's generator, which
 * spelled a few things otherwise than Effect 4's, meaning the same to a validator: a non-empty list
 * (`items: [X], additionalItems: X` is `items: X` under minItems 1), an integer's upper bound at
 * Number.MAX_SAFE_INTEGER (no value in a JSON file reaches it), an object's empty `required` and
 * `properties`.
 */
const canonical = (node: Json): Json => {
  if (Array.isArray(node)) return node.map(canonical)
  if (node === null || typeof node !== "object") return node
  const n: Node = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, canonical(v)]))
  if (n.type === "array" && Array.isArray(n.items) && n.items.length === 1 && JSON.stringify(n.additionalItems) === JSON.stringify(n.items[0])) {
    n.items = n.items[0]
    delete n.additionalItems
  }
  if (n.type === "integer" && n.maximum === Number.MAX_SAFE_INTEGER) delete n.maximum
  if (n.type === "object" && Array.isArray(n.required) && n.required.length === 0) delete n.required
  if (n.type === "object" && JSON.stringify(n.properties) === "{}") delete n.properties
  return Object.fromEntries(Object.entries(n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** ConfigSchema as a draft-07 document: the root a $ref into `definitions`. */
const draft07 = (): Node => {
  const doc = JsonSchema.toDocumentDraft07(Schema.toJsonSchemaDocument(ConfigSchema, { onExcessProperty: "error" }))
  return { $schema: "http://json-schema.org/draft-07/schema#", definitions: doc.definitions as Json, ...(doc.schema as Node) }
}

const shipped = (): Node => JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as Node
const ajv = new Ajv({ strict: true, allErrors: false })
const validator = ajv.compile(shipped())
/** The first problem as "<instancePath>: <keyword>", or null when the value is valid. */
const check = (value: Json): string | null => {
  if (validator(value)) return null
  const [e] = validator.errors ?? []
  return `$${e.instancePath.replace(/\//g, ".")}: ${e.keyword}${e.keyword === "additionalProperties" ? ` ${(e.params as { additionalProperty: string }).additionalProperty}` : ""}`
}

/** Configuration examples: examples/specbundle.config.json and every README ```json block with "profiles" or "tiers". */
const examples = (): Array<[string, string]> => {
  const found: Array<[string, string]> = [["examples/specbundle.config.json", fs.readFileSync("examples/specbundle.config.json", "utf8")]]
  const readme = fs.readFileSync("README.md", "utf8")
  for (const m of readme.matchAll(/```json\n([\s\S]*?)```/g)) {
    if (/"(profiles|tiers)"/.test(m[1])) found.push(["README.md", m[1]])
  }
  return found
}

describe("config JSON Schema", () => {
  it("the shipped schema file is the one generated from ConfigSchema", () => {
    if (process.env.UPDATE_SCHEMA === "1") {
      fs.mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true })
      fs.writeFileSync(SCHEMA_FILE, `${JSON.stringify(canonical(draft07()), null, 2)}\n`)
    }
    expect(canonical(shipped())).toEqual(canonical(draft07()))
  })

  it("is draft-07 with its definitions under `definitions`, and every $ref resolves there", () => {
    const schema = shipped()
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#")
    expect(schema).not.toHaveProperty("$defs")
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1])
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/definitions\//)
      expect((schema.definitions as Node)[ref.slice("#/definitions/".length)]).toBeDefined()
    }
  })

  it("the schema refuses unknown keys, wrong types and non-positive budgets at their path (ajv, draft-07)", () => {
    expect(check({ profiles: { fast: { budgt: 3 } } })).toBe("$.profiles.fast: additionalProperties budgt")
    expect(check({ tiers: { XL: "big" } })).toBe("$.tiers.XL: type")
    expect(check({ budget: 0 })).toMatch(/^\$\.budget: /)
    expect(check({ declarations: "some" })).toBe("$.declarations: enum")
    expect(check({ exclude: "docs" })).toBe("$.exclude: type")
  })

  it("every configuration example validates against the shipped schema and loads", () => {
    const found = examples()
    expect(found.length).toBeGreaterThan(0)
    for (const [where, text] of found) {
      expect(check(JSON.parse(text) as Json), where).toBeNull()
      const parsed = parseConfig(text)
      expect(Result.isSuccess(parsed), `${where}: ${Result.isFailure(parsed) ? parsed.failure : ""}`).toBe(true)
    }
  })

  it("the example's $schema points at the shipped schema file", () => {
    const example = JSON.parse(fs.readFileSync("examples/specbundle.config.json", "utf8")) as { $schema: string }
    expect(path.resolve("examples", example.$schema)).toBe(SCHEMA_FILE)
  })
})
