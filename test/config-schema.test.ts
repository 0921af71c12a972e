// The shipped JSON Schema of specbundle.config.json is the one generated from ConfigSchema, and the
// example configurations validate against it (and against the loader). Regenerate the file with
// UPDATE_SCHEMA=1 npx vitest run test/config-schema.test.ts
import { JSONSchema } from "effect"
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigSchema, parseConfig } from "../src/core/config.js"

const SCHEMA_FILE = path.resolve("schema/specbundle.config.schema.json")
const generated = JSON.stringify(JSONSchema.make(ConfigSchema), null, 2) + "\n"

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
type Node = { [k: string]: Json }

/** The draft-07 subset the generated schema uses; returns the first problem's path, or null. */
const validate = (root: Node, node: Node, value: Json, at: string): string | null => {
  if (typeof node.$ref === "string") {
    const target = node.$ref.replace(/^#\//, "").split("/").reduce<Json>((n, k) => (n as Node)[k], root)
    return validate(root, target as Node, value, at)
  }
  if (Array.isArray(node.anyOf)) {
    return node.anyOf.some((n) => validate(root, n as Node, value, at) === null) ? null : `${at}: no anyOf branch matches`
  }
  if (Array.isArray(node.enum) && !node.enum.includes(value)) return `${at}: not one of ${JSON.stringify(node.enum)}`
  switch (node.type) {
    case "string":
      if (typeof value !== "string") return `${at}: not a string`
      break
    case "integer":
      if (!Number.isInteger(value)) return `${at}: not an integer`
      break
    case "array":
      if (!Array.isArray(value)) return `${at}: not an array`
      for (const [i, v] of value.entries()) {
        const p = validate(root, node.items as Node, v, `${at}[${i}]`)
        if (p !== null) return p
      }
      break
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return `${at}: not an object`
      const props = (node.properties ?? {}) as Node
      for (const key of (node.required ?? []) as string[]) if (!(key in value)) return `${at}.${key}: required`
      for (const [k, v] of Object.entries(value)) {
        const sub = k in props ? props[k] : node.additionalProperties
        if (sub === false) return `${at}.${k}: unknown key`
        if (sub !== undefined && sub !== true) {
          const p = validate(root, sub as Node, v, `${at}.${k}`)
          if (p !== null) return p
        }
      }
      break
    }
  }
  if (typeof node.exclusiveMinimum === "number" && typeof value === "number" && !(value > node.exclusiveMinimum)) return `${at}: not above ${node.exclusiveMinimum}`
  return null
}

const shipped = (): Node => JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as Node
const check = (value: Json): string | null => validate(shipped(), shipped(), value, "$")

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
  it("the shipped schema file equals the one generated from ConfigSchema", () => {
    if (process.env.UPDATE_SCHEMA === "1") {
      fs.mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true })
      fs.writeFileSync(SCHEMA_FILE, generated)
    }
    expect(fs.readFileSync(SCHEMA_FILE, "utf8")).toBe(generated)
  })

  it("the schema refuses unknown keys, wrong types and non-positive budgets at their path", () => {
    expect(check({ profiles: { fast: { budgt: 3 } } })).toBe("$.profiles.fast.budgt: unknown key")
    expect(check({ tiers: { XL: "big" } })).toBe("$.tiers.XL: not an integer")
    expect(check({ budget: 0 })).toBe("$.budget: no anyOf branch matches")
    expect(check({ declarations: "some" })).toMatch(/^\$\.declarations: not one of/)
    expect(check({ exclude: "docs" })).toBe("$.exclude: not an array")
  })

  it("every configuration example validates against the shipped schema and loads", () => {
    const found = examples()
    expect(found.length).toBeGreaterThan(0)
    for (const [where, text] of found) {
      expect(check(JSON.parse(text) as Json), where).toBeNull()
      const parsed = parseConfig(text)
      expect(Either.isRight(parsed), `${where}: ${Either.isLeft(parsed) ? parsed.left : ""}`).toBe(true)
    }
  })

  it("the example's $schema points at the shipped schema file", () => {
    const example = JSON.parse(fs.readFileSync("examples/specbundle.config.json", "utf8")) as { $schema: string }
    expect(path.resolve("examples", example.$schema)).toBe(SCHEMA_FILE)
  })
})
