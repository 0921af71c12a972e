// Inputs for the configuration and manifest parsers (test/core/schema-lines.test.ts): a full valid
// value, then at every path of it each wrong value, the key deleted, and an unknown key beside it;
// and a few hand-picked texts. Deterministic: the same list, in the same order, every run.
const criteria = {
  kind: "behavior",
  altitude: ["feature"],
  readiness: "ready",
  floorAtLeast: "idea",
  floorAtMost: "ready",
  floorBelowStated: true,
  holds: false,
  questions: "any",
  implemented: true,
  hasVerifier: false,
  hasEnabledExamples: true,
  relatesTo: { id: ["spec:a*"], type: "dependsOn", direction: "in" },
  layer: "domain",
  ids: "spec:*",
  impacted: false
}

export const FULL_CONFIG = {
  $schema: "../schema/specbundle.config.schema.json",
  exclude: ["vendor", "drafts"],
  budget: "XL",
  tiers: { XL: 400000, M: 50000 },
  declarations: "addresses",
  profiles: { fast: { budget: 3000, declarations: "whole", exclude: ["x"], perspective: "mine" }, big: { budget: "L" } },
  perspectives: { mine: { description: "d", ...criteria, anyOf: [{ kind: ["rule", "model"] }, { holds: true }], order: "floor" } }
}

const HEX = "a".repeat(64)
export const FULL_MANIFEST = {
  scope: { pack: "pack:p", members: ["spec:a"], perspective: "x", changeset: "HEAD" },
  budget: 16000,
  declarations: "whole",
  parts: [
    { file: "part-001.json", hash: `sha256:${HEX}`, used: 1234 },
    { file: "part-002.json", hash: `sha256:${HEX}`, used: null }
  ],
  builtFrom: { root: "/r", exclude: ["vendor"], config: null, commit: "abc", dirty: false, graphDigest: HEX, files: [{ path: "specs/a.sdp.md", hash: HEX }] }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** One of each kind a key may wrongly hold: null, numbers (negative, fractional, huge), strings, booleans, lists, objects. */
const WRONGS: Json[] = [null, 0, -5, 1.5, 1e300, "", "text", "whole", true, [], [1], ["a"], {}, { a: 1 }]

const pathsOf = (value: Json, at: Array<string | number> = []): Array<Array<string | number>> => {
  const out = [at]
  if (value !== null && typeof value === "object")
    for (const [k, child] of Object.entries(value)) out.push(...pathsOf(child, [...at, Array.isArray(value) ? Number(k) : k]))
  return out
}

/** A copy of `root` with `change` applied to the parent of `path` and its last key. */
const changedAt = (root: Json, path: ReadonlyArray<string | number>, change: (parent: any, key: string | number) => void): Json => {
  const copy = structuredClone(root)
  let parent: any = copy
  for (const k of path.slice(0, -1)) parent = parent[k]
  change(parent, path[path.length - 1]!)
  return copy
}

/** The full value, then each path's variants, as JSON texts. */
export const variants = (full: object): string[] => {
  const out = [JSON.stringify(full)]
  for (const path of pathsOf(full as Json)) {
    for (const wrong of WRONGS) out.push(JSON.stringify(path.length === 0 ? wrong : changedAt(full as Json, path, (p, k) => (p[k] = structuredClone(wrong)))))
    if (path.length > 0) out.push(JSON.stringify(changedAt(full as Json, path, (p, k) => (Array.isArray(p) ? p.splice(k as number, 1) : delete p[k]))))
    const value = path.reduce<any>((v, k) => v[k], full)
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      out.push(JSON.stringify(path.length === 0 ? { ...value, bogus: 1 } : changedAt(full as Json, path, (p, k) => (p[k] = { ...p[k], bogus: 1 }))))
    }
  }
  return out
}

/** Texts the variants do not reach: broken JSON, prototype keys, deep nesting, names the schema cannot judge. */
export const EXTRA = [
  "",
  "[]",
  "null",
  '{"__proto__": {"a": 1}}',
  '{"profiles": {"__proto__": {}}}',
  JSON.stringify({ budget: JSON.parse("[".repeat(40) + "]".repeat(40)) }),
  JSON.stringify({ perspectives: { blocked: { holds: true } } }),
  JSON.stringify({ perspectives: { "a b": {} } }),
  JSON.stringify({ profiles: { p: { perspective: "nope" } } }),
  JSON.stringify({ perspectives: { x: { kind: [] } } }),
  JSON.stringify({ perspectives: { x: { relatesTo: { type: "dependsOn" } } } }),
  JSON.stringify({ perspectives: { x: { anyOf: [] } } }),
  JSON.stringify({ perspectives: { x: { ids: [] } } }),
  JSON.stringify({ perspectives: { x: { layer: ["ui"] } } }),
  JSON.stringify({ profiles: { constructor: {} } }),
  JSON.stringify({ tiers: { "": 3 } }),
  JSON.stringify({ budget: 5, extra: 1, more: 2 }),
  JSON.stringify({ exclude: [1, 2] }),
  JSON.stringify({ perspectives: { x: { kind: ["rule", "nope"] } } }),
  JSON.stringify({ perspectives: { x: { kind: ["rule", 3] } } })
]

/** Every case, in order: [parser, text]. `manifestText` takes the parsed value. */
export const schemaCases = (): Array<["config" | "manifest" | "manifestText", string]> => [
  ...[...variants(FULL_CONFIG), ...EXTRA].map((t): ["config", string] => ["config", t]),
  ...[...variants(FULL_MANIFEST), ...EXTRA].map((t): ["manifest", string] => ["manifest", t]),
  ...variants(FULL_MANIFEST).map((t): ["manifestText", string] => ["manifestText", t])
]
