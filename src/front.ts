// The answers that need neither Effect nor effect/cli: the help pages and the version. The loader
// (src/loader.cjs) requires this small bundle (bin/specbundle-front.cjs) before the CLI's when the
// arguments ask for help or the version; it renders them from the command tree as data, which the
// build reads from the CLI's own definitions (scripts/build.mjs: src/entrances/cli/help-data.ts) and inlines
// here, with the same preflight and renderers bin.ts uses. So `--help` costs Node's start-up and
// this file (~0.1 s less than compiling and evaluating the CLI's bundle), and prints the same bytes
// (test/cli/help.test.ts compares them with the CLI bundle's own answers).
//
// It loads no module beyond node:fs unless stdout may be a terminal: node:tty (and node:net under
// it) or a process.stdout stream cost 2-7 ms each, as much as the rest of the answer together
// (docs/decisions.md, "Start-up"). Where stdout is a terminal both are needed for its width anyway.
import { fstatSync, statSync, writeSync } from "node:fs"
import { preflight } from "./entrances/cli/argv.js"
import { type HelpData, helpAnswer, pageKey, type Stdout } from "./entrances/cli/help.js"

/** The command tree as JSON text: V8 reads a string and JSON.parse faster than the same object literal. */
declare const SPECBUNDLE_HELP_JSON: string
/** The pages as written where stdout is not a terminal, rendered by the build (help.ts plainPages). */
declare const SPECBUNDLE_HELP_PAGES: Readonly<Record<string, string>>

/**
 * Whether `fd` is certainly not a terminal: a pipe or a file, or the null device, which is a
 * character device as terminals are. Anything else (a terminal, an unknown device, a failed
 * stat) is left to node:tty.
 */
const notTerminal = (fd: number): boolean => {
  try {
    const stat = fstatSync(fd)
    if (!stat.isCharacterDevice()) return true
    const nul = statSync("/dev/null")
    return stat.rdev === nul.rdev && stat.ino === nul.ino && stat.dev === nul.dev
  } catch {
    return false
  }
}

const isatty = (fd: number): boolean => !notTerminal(fd) && (require("node:tty") as typeof import("node:tty")).isatty(fd)

/**
 * Writes the whole text to fd 1. A reader that went away (`specbundle --help | head`, EPIPE) is
 * not an error: exit 0, as the CLI does. A non-blocking stdout that is full (EAGAIN) hands the
 * rest to process.stdout, which waits for it.
 */
const writeStdout = (text: string): void => {
  const bytes = Buffer.from(text, "utf8")
  let at = 0
  try {
    while (at < bytes.length) at += writeSync(1, bytes, at)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EPIPE") return
    if (code !== "EAGAIN") throw e
    viaStream(bytes.subarray(at))
  }
}

/** Writes through process.stdout, which a terminal needs (and a full non-blocking pipe). */
const viaStream = (data: string | Uint8Array): void => {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e
  })
  process.stdout.write(data)
}

/**
 * Writes the page or the version the arguments ask for and returns true; false (nothing written)
 * for anything else, which the CLI's bundle then answers: a command to run, an argument problem, or
 * a setting in the environment the CLI refuses before any answer (SPECBUNDLE_WORKERS).
 */
export const answerFront = (argv: ReadonlyArray<string>): boolean => {
  if ((process.env.SPECBUNDLE_WORKERS ?? "") !== "") return false
  const data = JSON.parse(SPECBUNDLE_HELP_JSON) as HelpData
  // Where stdout may be a terminal the page needs its width, from process.stdout as bin.ts reads it.
  const terminal = !notTerminal(1)
  // process.stdout's answers (creating the stream: on a terminal, node:tty's), NO_COLOR from this process's environment.
  const stdout = (): Stdout =>
    terminal ? { isTTY: process.stdout.isTTY === true, columns: process.stdout.columns, noColor: process.env.NO_COLOR } : { isTTY: false }
  const pre = preflight(data.program, data.root, argv, () => isatty(0))
  // Into a pipe, a file or the null device the page is the build's: no renderer to compile.
  const key = terminal ? undefined : pageKey(pre)
  const text = key !== undefined && Object.hasOwn(SPECBUNDLE_HELP_PAGES, key) ? SPECBUNDLE_HELP_PAGES[key] : helpAnswer(data, pre, stdout)
  if (text === null) return false
  if (terminal) viaStream(text)
  else writeStdout(text)
  return true
}
