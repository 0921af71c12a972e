// The help pages' input without the terminal's part (width, bold): the command tree as data, read
// from the CLI's definitions. The build evaluates this once and inlines the value into the front
// bundle (src/front.ts), which answers `--help` and `--version` without loading the CLI.
import { type HelpData, plainPages } from "./help.js"
import { BUILT_INS, EXAMPLES, PROGRAM, VERSION, model } from "./main.js"

export const helpData = (): HelpData => ({ program: PROGRAM, version: VERSION, root: model(), examples: EXAMPLES, builtIns: BUILT_INS })

/** The pages as written where stdout is not a terminal (help.ts plainPages), for the front bundle. */
export const helpPages = (): Record<string, string> => plainPages(helpData())
