// The fields every reading command shares (the output switches, `--findings`) and `impact`'s own,
// as request fields (src/usecases/fields.ts) without effect/cli: the command definitions build
// their flags from them (flags.ts), and the hook's own entrance (src/hook.ts) reads the same
// fields' defaults without loading the parser (hook-argv.ts).
import { choice, toggle } from "../../../usecases/fields.js"
import { ImpactRequest, type corpusFields } from "../../../usecases/requests.js"
import type { Args } from "../flags.js"

/** The switches every reading command takes besides the request: how it reports on stderr and exits. */
export const outputFields = {
  strict: toggle({ description: "Exit 1 after printing the result when a carrier was refused." }),
  quiet: toggle({ description: "Print no warnings or progress on stderr; refusals still show, capped like the rest." }),
  verbose: toggle({ description: "List every corpus finding on stderr instead of the first few and a tally." })
}

/** `--findings text|github`: how bundle and impact write corpus findings on stderr (output.ts writeFindings). */
export const findingsField = {
  findings: choice(["text", "github"], {
    description: "Write corpus findings on stderr as text lines, or as GitHub workflow commands (annotations).",
    default: "text"
  })
}

/** A command's fields: the corpus's (root, exclude, config), the output switches, then the rest of the request's and the command's own. */
export const commandFields = <F extends typeof corpusFields>(request: F) => {
  const { root, exclude, config, ...rest } = request
  return { root, exclude, config, ...outputFields, ...rest }
}

/** `impact`'s fields: the request's, the output switches, `--no-diagram` and `--findings`. */
export const impactFields = {
  ...commandFields(ImpactRequest.fields),
  noDiagram: toggle({ description: "With --format markdown: leave out the Mermaid picture of changed files, impacted Specs and Packs at the top." }),
  ...findingsField
}

export type ImpactArgs = Args<typeof impactFields>
