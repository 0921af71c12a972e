// The answers that need neither Effect nor effect/cli: the help pages and the version. The loader
// (src/loader.cjs) requires this small bundle (bin/specbundle-front.cjs) before the CLI's when the
// arguments ask for help or the version; it renders them from the command tree as data, which the
// build reads from the CLI's own definitions (scripts/build.mjs: src/entrances/cli/help-data.ts) and inlines
// here, with the same preflight and renderers bin.ts uses. So `--help` costs Node's start-up and
// this file (~0.1 s less than compiling and evaluating the CLI's bundle), and prints the same bytes
// (test/cli/help.test.ts compares them with the CLI bundle's own answers).
import { isatty } from "node:tty"
import { preflight } from "./entrances/cli/argv.js"
import { type HelpData, helpAnswer } from "./entrances/cli/help.js"

declare const SPECBUNDLE_HELP_DATA: HelpData

/**
 * Writes the page or the version the arguments ask for and returns true; false (nothing written)
 * for anything else, which the CLI's bundle then answers: a command to run, an argument problem, or
 * a setting in the environment the CLI refuses before any answer (SPECBUNDLE_WORKERS).
 */
export const answerFront = (argv: ReadonlyArray<string>): boolean => {
  if ((process.env.SPECBUNDLE_WORKERS ?? "") !== "") return false
  const data = SPECBUNDLE_HELP_DATA
  const text = helpAnswer(data, preflight(data.program, data.root, argv, isatty(0)))
  if (text === null) return false
  // A reader that closed the pipe early (`specbundle --help | head`) is not an error: exit 0, as the CLI does.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e
  })
  process.stdout.write(text)
  return true
}
