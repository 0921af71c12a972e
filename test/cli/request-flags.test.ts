// The CLI's flags come from the request Schemas (src/entrances/cli/flags.ts): every field of a
// request is its command's option, under the field's name in kebab case, with the field's
// placeholder and sentence, read back from the parser's own definitions (the help model).
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import type * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { bundleCommand } from "../../src/entrances/cli/commands/bundle.js"
import type { Args } from "../../src/entrances/cli/flags.js"
import { flagsOf } from "../../src/entrances/cli/flags.js"
import { impactCommand } from "../../src/entrances/cli/commands/impact.js"
import { listCommand } from "../../src/entrances/cli/commands/list.js"
import type { OptionModel } from "../../src/entrances/cli/model.js"
import { modelOf } from "../../src/entrances/cli/model.js"
import { choice, fieldInfo, text, texts, textOrNumber, toggle } from "../../src/usecases/fields.js"
import { BundleRequest, ImpactRequest, ListRequest } from "../../src/usecases/requests.js"

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** What the help model shows for a field: its option, placeholder and sentence as the spec says. */
const expectOption = (options: ReadonlyArray<OptionModel>, name: string, schema: Schema.Top) => {
  const { spec, kind, choices } = fieldInfo(name, schema)
  const option = options.find((o) => o.flag === `--${spec.flag ?? kebab(name)}`)
  expect(option, name).toBeDefined()
  expect(option!.description).toBe(spec.help ?? spec.description)
  expect(option!.value).toBe(kind === "toggle" ? null : (spec.value ?? choices.join("|")))
  // A choice is the parser's to check unless the use case words a wrong one (`text: true`).
  expect(option!.choices).toEqual(kind === "choice" && spec.text !== true ? choices : null)
  expect(option!.repeatable).toBe(spec.list === "repeat")
}

describe("request fields as flags", () => {
  it("every BundleRequest and ImpactRequest field is its command's option, with the field's placeholder and sentence", () => {
    const bundle = modelOf(bundleCommand(() => Effect.void))
    for (const [name, schema] of Object.entries(BundleRequest.fields)) expectOption(bundle.options, name, schema)
    const impact = modelOf(impactCommand(() => Effect.void))
    for (const [name, schema] of Object.entries(ImpactRequest.fields)) expectOption(impact.options, name, schema)
  })

  it("a field marked as a word is an argument: list's WHAT takes the request's choices", () => {
    const list = modelOf(listCommand(() => Effect.void))
    expect(list.args).toEqual([
      { name: "packs|specs", description: ListRequest.fields.what.ast.annotations?.description, repeated: false, choices: ["packs", "specs"] }
    ])
    expect(list.options.map((o) => o.flag)).not.toContain("--what")
  })

  it("a new field reaches the parser: its value is the request's (undefined when absent, a comma list an array, a default filled)", async () => {
    const fields = {
      name: text({ description: "A name.", value: "NAME", alias: "n" }),
      ids: texts({ description: "Ids.", value: "ID,...", list: "comma" }),
      size: textOrNumber({ description: "A size.", value: "N" }),
      mode: choice(["fast", "slow"], { description: "How.", default: "slow" }),
      dryRun: toggle({ description: "Do nothing." })
    }
    const seen: Array<Args<typeof fields>> = []
    const command = Command.make("probe", flagsOf(fields), (args) => Effect.sync(() => void seen.push(args)))
    expect(modelOf(command).options.map((o) => [...o.aliases, o.flag].join(" "))).toEqual(["-n --name", "--ids", "--size", "--mode", "--dry-run"])
    const parse = (argv: ReadonlyArray<string>) => Effect.runPromise(Command.runWith(command, { version: "0" })(argv).pipe(Effect.provide(NodeServices.layer)))
    await parse(["-n", "x", "--ids", "a, b,,c", "--size", "3", "--mode", "fast", "--dry-run"])
    await parse([])
    expect(seen).toEqual([
      { name: "x", ids: ["a", "b", "", "c"], size: "3", mode: "fast", dryRun: true },
      { name: undefined, ids: undefined, size: undefined, mode: "slow", dryRun: false }
    ])
  })
})
