// How a request field is named on the command line, without effect/cli (flags.ts builds the flags
// from the same names; the hook's own entrance, src/hook.ts, spells problems with them too).
import { spellingOf } from "../../usecases/spelling.js"

export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** How the use cases' problems name a field on the command line: as its flag (scope `budget-tokens`, words `--budget-tokens`). */
export const FLAG_NAMES = spellingOf(
  (field, spec) => spec.flag ?? kebab(field),
  (name) => `--${name}`
)
