// The pre-commit hook's command lines, read without effect/cli (src/hook.ts): `impact --staged`
// with `--strict`, `--quiet` and `--root DIR`, each at most once, in any order, and what an
// installed pre-commit hook runs, `hook run pre-commit [--root DIR]`. The arguments are
// the ones effect/cli's parse gives the `impact` handler for the same words: every other field at
// the value its flag gives when left out, as flags.ts builds each flag
// (test/cli/hook-path.test.ts compares the two parses). Anything else is undefined: the CLI's
// bundle reads it.
import { fieldInfo } from "../../usecases/fields.js"
import type { Schema } from "effect"
import { type ImpactArgs, impactFields } from "./commands/fields.js"

/** The value of a flag left out, as flags.ts's flagOf gives it. */
const absent = (name: string, schema: Schema.Top): unknown => {
  const { spec, kind } = fieldInfo(name, schema)
  switch (kind) {
    case "toggle":
      return false
    case "choice":
      return spec.text === true ? undefined : spec.default
    case "texts":
      return spec.list === "repeat" ? [] : undefined
    default:
      return spec.default
  }
}

const SWITCHES: Readonly<Record<string, "staged" | "strict" | "quiet">> = { "--staged": "staged", "--strict": "strict", "--quiet": "quiet" }

/** The hook's command line as the `impact` handler's arguments, or undefined for any other words. */
export const hookArgs = (argv: ReadonlyArray<string>): ImpactArgs | undefined => {
  if (argv[0] !== "impact") return undefined
  const given: Record<string, unknown> = {}
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string
    const name = Object.hasOwn(SWITCHES, word) ? SWITCHES[word] : word === "--root" ? "root" : undefined
    if (name === undefined || Object.hasOwn(given, name)) return undefined
    if (name !== "root") {
      given[name] = true
      continue
    }
    // A value the parser could read as a flag, or none: the CLI's to answer.
    const value = argv[++i]
    if (value === undefined || value === "" || value.startsWith("-")) return undefined
    given.root = value
  }
  if (given.staged !== true) return undefined
  return Object.fromEntries(
    Object.entries(impactFields).map(([name, schema]) => [name, Object.hasOwn(given, name) ? given[name] : absent(name, schema as Schema.Top)])
  ) as ImpactArgs
}

/** The root of `hook run pre-commit [--root DIR]` (what hook install writes; "." as the flag's default), or undefined for any other words. */
export const preCommitRoot = (argv: ReadonlyArray<string>): string | undefined => {
  if (argv[0] !== "hook" || argv[1] !== "run" || argv[2] !== "pre-commit") return undefined
  if (argv.length === 3) return "."
  const value = argv[4]
  if (argv.length !== 5 || argv[3] !== "--root" || value === undefined || value === "" || value.startsWith("-")) return undefined
  return value
}
