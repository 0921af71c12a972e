// What bin.ts decides before effect/cli parses: help and version (rendered by us), and the
// argument mistakes we word ourselves (a missing value, a repeated option, a misspelt command,
// option or choice with the nearest name). Everything else is left to the parser, given the
// arguments in one spelling (`--flag=value`), so it reads every value as we did: a value that
// starts with "-" stays a value, and a switch never takes the word after it. The option table is
// the parser's own (model.ts).
import { didYouMean } from "../../core/suggest.js"
import type { CommandModel, OptionModel } from "./model.js"

export type Preflight =
  | { readonly _tag: "TopHelp" }
  | { readonly _tag: "CommandHelp"; readonly command: CommandModel }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Problem"; readonly problem: string }
  /** A refusal in the words the parser of earlier releases used (their stderr line has no scope). */
  | { readonly _tag: "Refused"; readonly problem: string }
  /** For the parser: the arguments, each option as `--flag=value` (a switch `--flag=true`). */
  | { readonly _tag: "Parse"; readonly argv: ReadonlyArray<string> }

const HELP = new Set(["--help", "-h"])
const VERSION = new Set(["--version", "-v", "-V"])
/** Top-level options effect/cli itself handles. */
const PASSED = new Set(["--completions", "--wizard", "--log-level"])

const quote = (s: string) => `'${s}'`

const findOption = (command: CommandModel, token: string): OptionModel | undefined => command.options.find((o) => o.flag === token || o.aliases.includes(token))

/** A word that reads as a git revision: a range, a `~`/`^` suffix, a symbolic ref, a commit id, a remote branch. */
const looksLikeRevision = (word: string): boolean =>
  word.includes("..") ||
  /[~^]/.test(word) ||
  /^(HEAD|@|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD)$/.test(word) ||
  /^[0-9a-f]{7,64}$/.test(word) ||
  /^(refs|origin|upstream)\//.test(word)

/** A word where the command takes no more: say so, and which option an id or a revision would go with. */
const strayWord = (program: string, command: CommandModel, word: string): string => {
  // `impact` reads nothing but a change, so any other word there is most likely one too.
  const revision = findOption(command, "--changeset") !== undefined && (looksLikeRevision(word) || command.name === "impact")
  const hint =
    word.startsWith("pack:") && findOption(command, "--pack")
      ? ` (a Pack id goes after --pack: --pack ${word})`
      : word.startsWith("spec:") && findOption(command, "--specs")
        ? ` (Spec ids go after --specs: --specs ${word})`
        : revision
          ? ` (a revision goes after --changeset: did you mean --changeset ${word}?)`
          : ""
  return `unexpected argument ${quote(word)} for ${program} ${command.name}${hint}. See ${program} ${command.name} --help.`
}

/** `stdinIsTTY` is asked only for `--wizard` (the front bundle need not load node:tty to answer a page). */
export const preflight = (program: string, root: CommandModel, argv: ReadonlyArray<string>, stdinIsTTY: () => boolean): Preflight => {
  const end = argv.indexOf("--")
  const tokens = end < 0 ? argv : argv.slice(0, end)
  // The top level: only the first word may be one of its options; otherwise it names the command.
  if (tokens.length > 0) {
    const t = tokens[0]
    if (HELP.has(t)) return { _tag: "TopHelp" }
    if (VERSION.has(t)) return { _tag: "Version" }
    if (t === "--wizard" && !stdinIsTTY()) {
      return { _tag: "Problem", problem: "--wizard asks its questions on a terminal, and stdin is not one; give the command and its options as arguments." }
    }
    if (PASSED.has(t) || t.startsWith("--log-level=") || t.startsWith("--completions=")) return { _tag: "Parse", argv }
    if (t.startsWith("-")) {
      const known = [...HELP, "--version", "--completions", "--wizard"]
      return {
        _tag: "Problem",
        problem: `unknown option ${quote(t)} for ${program}.${didYouMean(t, known, quote)} Options follow the command: ${program} <command> [options].`
      }
    }
  }
  // No command at all: the top page.
  if (argv.length === 0) return { _tag: "TopHelp" }
  if (tokens.length === 0) return { _tag: "Parse", argv }
  const name = tokens[0]
  const command = root.subcommands.find((c) => c.name === name)
  if (command === undefined) {
    const names = root.subcommands.map((c) => c.name)
    return { _tag: "Problem", problem: `unknown command ${quote(name)}.${didYouMean(name, names, quote)} Commands: ${names.join(", ")}.` }
  }
  const seen = new Map<string, string>()
  /** The words given so far (`hook run`): a refusal names them. */
  const positional: string[] = []
  const canonical: string[] = [name]
  let refused: string | undefined
  let words = 0
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]
    if (HELP.has(t)) return { _tag: "CommandHelp", command }
    if (!t.startsWith("-") || t === "-") {
      words += 1
      if (words > command.args.length && command.args.at(-1)?.repeated !== true) return { _tag: "Problem", problem: strayWord(program, command, t) }
      // A word from a fixed list (`list packs|specs`): name the list, and the nearest word, in our own terms.
      const choices = command.args[Math.min(words, command.args.length) - 1]?.choices ?? null
      if (choices !== null && !choices.includes(t)) {
        const where = [program, command.name, ...positional].join(" ")
        return { _tag: "Problem", problem: `${where} takes ${choices.join(", ")}, not ${JSON.stringify(t)}.${didYouMean(t, choices, quote)}` }
      }
      positional.push(t)
      canonical.push(t)
      continue
    }
    const eq = t.startsWith("--") ? t.indexOf("=") : -1
    const flag = eq > 0 ? t.slice(0, eq) : t
    const option = findOption(command, flag)
    if (option === undefined) {
      if (t === "--version" || t === "-V") return { _tag: "Version" }
      const flags = command.options.flatMap((o) => [o.flag, ...o.aliases])
      return {
        _tag: "Problem",
        problem: `unknown option ${quote(flag)} for ${program} ${command.name}.${didYouMean(flag, flags, quote)} See ${program} ${command.name} --help.`
      }
    }
    let value = ""
    if (option.value !== null) {
      if (eq > 0) {
        value = t.slice(eq + 1)
        // An empty `--root=`: refused as it always was, once the other checks found nothing.
        if (value === "" && option.choices === null) refused ??= `Received unknown argument: '${t}'`
      } else {
        const next = tokens[i + 1]
        // A following option's name is not a value (a value may start with "-": the checks name it).
        if (next === undefined || (next.startsWith("--") && findOption(command, next.split("=")[0]) !== undefined) || HELP.has(next)) {
          if (next !== undefined && HELP.has(next)) return { _tag: "CommandHelp", command }
          return { _tag: "Problem", problem: `${option.flag} needs a value: ${option.flag} ${option.value}.` }
        }
        value = next
        i += 1
      }
    }
    // The parser drops an empty value of a repeated option (`--exclude ''`) in silence: refuse it here.
    if (option.value !== null && option.repeatable && value === "") {
      return { _tag: "Problem", problem: `${option.flag} "" is empty: give it a value (${option.flag} ${option.value}), or leave the option out.` }
    }
    if (option.choices !== null && !option.choices.includes(value)) {
      const near = didYouMean(value, option.choices, quote)
      return { _tag: "Problem", problem: `${option.flag} takes ${option.choices.join(", ")}, not ${JSON.stringify(value)}.${near}` }
    }
    const before = seen.get(option.flag)
    if (before !== undefined && !option.repeatable) {
      const both = option.value === null ? "" : ` (${JSON.stringify(before)} and ${JSON.stringify(value)})`
      return { _tag: "Problem", problem: `${option.flag} is given twice${both}; give it once.` }
    }
    seen.set(option.flag, value)
    // A switch as given with its own value (`--strict=false`), else `--strict=true`.
    canonical.push(option.value !== null ? `${option.flag}=${value}` : eq > 0 ? t : `${option.flag}=true`)
  }
  if (refused !== undefined) return { _tag: "Refused", problem: refused }
  return { _tag: "Parse", argv: end < 0 ? canonical : [...canonical, ...argv.slice(end)] }
}
