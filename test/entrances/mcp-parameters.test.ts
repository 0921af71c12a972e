// The MCP tools' parameters come from the request Schemas (src/entrances/mcp/parameters.ts): each
// field under the tool's name for it, its description, a choice as an enum, optional where the
// request's is or a default fills it; the decoded arguments come back as the request.
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { decodeArguments } from "../../src/entrances/mcp/arguments.js"
import { parametersOf } from "../../src/entrances/mcp/parameters.js"
import { BundleParameters, inputSchemaOf } from "../../src/entrances/mcp/tools.js"
import { choice, requiredChoice, requiredText, toggle } from "../../src/usecases/fields.js"
import { BundleRequest } from "../../src/usecases/requests.js"

describe("request fields as MCP parameters", () => {
  it("the bundle tool's parameters are BundleRequest's fields and the token fields, `parts` named count, none required", () => {
    const schema = inputSchemaOf(BundleParameters.schema) as { properties: Record<string, { description?: string }>; required: ReadonlyArray<string> }
    const names = Object.keys(BundleRequest.fields).map((n) => (n === "parts" ? "count" : n))
    expect(Object.keys(schema.properties)).toEqual([...names, "tokens", "budgetTokens"])
    expect(schema.required).toEqual([])
    expect(schema.properties.pack.description).toBe(BundleRequest.fields.pack.ast.annotations?.description)
    expect(schema.properties.count.description).toBe('Return the part count, {"parts":N}, instead of a value.')
  })

  it("a field's enum, its default filled, its tool name mapped back, and a wrong value in the decoder's words", () => {
    const fields = {
      root: requiredText({ description: "Where.", default: "." }),
      what: requiredChoice(["a", "b"], { description: "What." }),
      mode: choice(["fast", "slow"], { description: "How.", default: "slow" }),
      every: toggle({ description: "All of it.", mcp: { name: "all", description: "Every one." } }),
      cliOnly: toggle({ description: "Not for agents.", mcp: false })
    }
    const p = parametersOf(fields)
    expect(inputSchemaOf(p.schema)).toEqual({
      type: "object",
      required: ["what"],
      properties: {
        root: { type: "string", description: "Where." },
        what: { type: "string", enum: ["a", "b"], description: "What." },
        mode: { type: "string", enum: ["fast", "slow"], description: "How." },
        all: { type: "boolean", description: "Every one." }
      },
      additionalProperties: false
    })
    const decoded = decodeArguments(p.schema, { what: "b", all: true })
    expect(Result.isSuccess(decoded) && p.arguments(decoded.success)).toEqual({ root: ".", what: "b", mode: "slow", every: true })
    expect(decodeArguments(p.schema, { what: "c", cliOnly: true })).toEqual(
      Result.fail([
        { scope: "what", problem: 'Expected "a" or "b", got "c".' },
        { scope: "cliOnly", problem: "Unknown parameter; the tool takes root, what, mode, all." }
      ])
    )
  })
})
