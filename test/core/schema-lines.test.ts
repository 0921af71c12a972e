// The refusal lines of the configuration file and the manifest are the CLI's output: they did not
// change with Effect 4, which words its own schema issues differently. test/fixtures/schema-lines/
// effect3.txt holds, one per line, what specbundle printed under Effect 3 for each case
// test/support/schema-cases.ts generates ("ok" where the value was accepted), recorded from 770c821
// and again from main at 54ac5f8 (its parts' `tokens` key and the budget naming no tier changed 87
// lines; main's sources bundled against its Effect 3.22.4 by esbuild): every key of a full
// configuration and a full manifest given each kind of wrong value, deleted, or beside an unknown
// key, and texts the Schema cannot judge alone.
// The manifest's optional `builtFrom.base` (a changeset bundle's old side, 2026-12-07) is written into
// the 24 lines that spell builtFrom's type, as Effect 3 spelled an optional key.
import * as Result from "effect/Result"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { parseConfig } from "../../src/core/config.js"
import { manifestText, parseManifest } from "../../src/core/manifest.js"
import { FULL_CONFIG, FULL_MANIFEST, schemaCases } from "../support/schema-cases.js"

const EFFECT3 = fs
  .readFileSync(path.join(import.meta.dirname, "..", "fixtures", "schema-lines", "effect3.txt"), "utf8")
  .split("\n")
  .slice(0, -1)

const lineOf = (parser: "config" | "manifest" | "manifestText", text: string): string => {
  const r: Result.Result<unknown, string> =
    parser === "config" ? parseConfig(text) : parser === "manifest" ? parseManifest(text) : manifestText(JSON.parse(text))
  return Result.isFailure(r) ? r.failure : "ok"
}

describe("refusal lines", () => {
  const cases = schemaCases()

  it("are Effect 3's, byte for byte, for every generated case", () => {
    expect(cases.length).toBe(EFFECT3.length)
    const differ = cases.flatMap(([parser, text], i) => {
      const line = lineOf(parser, text)
      return line === EFFECT3[i] ? [] : [{ parser, text: text.slice(0, 200), was: EFFECT3[i], now: line }]
    })
    expect(differ.slice(0, 5)).toEqual([])
  })

  it("cover both parsers' accepted and refused values, the refused in many different words", () => {
    const refused = EFFECT3.filter((l) => l !== "ok")
    expect(EFFECT3[0]).toBe("ok")
    expect(new Set(refused).size).toBeGreaterThan(500)
    for (const needle of ["unknown key", "is missing", "expected a positive integer, got", "Expected string, actual", "Expected SpecbundleManifest, actual"])
      expect(
        refused.some((l) => l.includes(needle)),
        needle
      ).toBe(true)
  })

  it("accepted values decode to themselves", () => {
    expect(Result.getOrThrow(parseConfig(JSON.stringify(FULL_CONFIG)))).toEqual(FULL_CONFIG)
    expect(Result.getOrThrow(parseManifest(Result.getOrThrow(manifestText(FULL_MANIFEST))))).toEqual(FULL_MANIFEST)
  })
})
