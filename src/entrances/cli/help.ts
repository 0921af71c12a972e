// The help pages, rendered from the command model (model.ts: read from the parser's own
// definitions) and wrapped to the terminal's width, 80 columns when stdout is not a terminal.
// effect/cli's own pages (its CliOutput formatter) are laid out otherwise (DESCRIPTION first, FLAGS
// and GLOBAL FLAGS tables, lines not wrapped to the terminal); this renderer keeps the project's.
import type { Preflight } from "./argv.js"
import type { CommandModel, OptionModel } from "./model.js"

export interface HelpInput {
  readonly program: string
  readonly version: string
  readonly root: CommandModel
  /** Examples per command name ("" for the top level), each a command line that runs as written. */
  readonly examples: Readonly<Record<string, ReadonlyArray<string>>>
  /** Options the runtime adds at the top level (--help, --version, --completions, --wizard). */
  readonly builtIns: ReadonlyArray<{ readonly label: string; readonly description: string }>
  readonly width: number
  readonly bold: boolean
}

/** The help pages' input without the terminal's part: the command tree as data (help-data.ts). */
export type HelpData = Omit<HelpInput, "width" | "bold">

/** What a page's layout takes from stdout: whether it is a terminal, and then its width. */
export interface Stdout {
  readonly isTTY: boolean
  readonly columns?: number | undefined
  /** NO_COLOR's value in the run's environment (the settings', src/node/runtime.ts; the front bundle reads its own). */
  readonly noColor?: string | undefined
}

/**
 * The text a help or version request prints on this stdout (wrapped to a terminal's width, bold
 * headings unless NO_COLOR), or null when `pre` asks for neither. One answer for the CLI (bin.ts)
 * and the front bundle (src/front.ts), so the two cannot print different pages. `stdout` is asked
 * only for a page; the front gives its own where creating process.stdout would cost more than the page.
 */
export const helpAnswer = (data: HelpData, pre: Preflight, stdout: () => Stdout): string | null => {
  if (pre._tag === "Version") return `${data.version}\n`
  if (pre._tag !== "TopHelp" && pre._tag !== "CommandHelp") return null
  const out = stdout()
  const tty = out.isTTY
  const help: HelpInput = {
    ...data,
    width: tty ? Math.max(40, out.columns ?? 80) : 80,
    bold: tty && (out.noColor ?? "") === ""
  }
  return pre._tag === "TopHelp" ? renderTopHelp(help) : renderCommandHelp(help, pre.command)
}

/**
 * Where stdout is not a terminal a page depends on the command line alone: each page as helpAnswer
 * writes it there, by pageKey. The build renders them into the front bundle (scripts/build.mjs), so
 * `--help` into a pipe or a file compiles no renderer (~0.5 ms of a ~25 ms answer).
 */
export const plainPages = (data: HelpData): Record<string, string> => {
  const plain = (): Stdout => ({ isTTY: false })
  const pages: Record<string, string> = { "": helpAnswer(data, { _tag: "TopHelp" }, plain) ?? "" }
  for (const command of data.root.subcommands) pages[command.name] = helpAnswer(data, { _tag: "CommandHelp", command }, plain) ?? ""
  return pages
}

/** A page's key among plainPages: "" the top page, a command's name its page; undefined for anything else. */
export const pageKey = (pre: Preflight): string | undefined => (pre._tag === "TopHelp" ? "" : pre._tag === "CommandHelp" ? pre.command.name : undefined)

/** Splits text into lines of at most `width` columns (a longer word stands alone), each prefixed. */
export const wrap = (text: string, width: number, first: string, rest = " ".repeat(first.length)): string[] => {
  const out: string[] = []
  for (const paragraph of text.split("\n")) {
    // Lines that start with spaces are kept as written (indented examples inside a description).
    const words = paragraph.split(" ").filter((w) => w !== "")
    let line = out.length === 0 ? first : rest
    let empty = true
    for (const word of words) {
      if (!empty && line.length + 1 + word.length > width) {
        out.push(line)
        line = rest + word
      } else line = empty ? line + word : `${line} ${word}`
      empty = false
    }
    out.push(empty ? line.trimEnd() : line)
  }
  return out
}

const optionLabel = (o: OptionModel): string => [...o.aliases, o.flag].join(", ") + (o.value === null ? "" : ` ${o.value}`)

const usageItem = (o: OptionModel): string => {
  const body = o.value === null ? o.flag : `${o.flag} ${o.value}`
  return o.optional ? `[${body}]${o.repeatable ? "..." : ""}` : `${body}${o.repeatable ? "..." : ""}`
}

/** A usage line wrapped with a hanging indent under the first option. */
const usage = (head: string, items: ReadonlyArray<string>, width: number): string[] => {
  const indent = " ".repeat(Math.min(head.length + 1, 24))
  const lines: string[] = []
  let line = head
  for (const item of items) {
    if (line.length + 1 + item.length > width && line.trim() !== head.trim()) {
      lines.push(line)
      line = indent + item
    } else line = `${line} ${item}`
  }
  lines.push(line)
  return lines
}

/** Two columns: labels, then descriptions wrapped beside them (or below a long label). */
const table = (rows: ReadonlyArray<readonly [string, string]>, width: number): string[] => {
  const column = Math.min(26, Math.max(...rows.map(([l]) => l.length + 4)))
  const lines: string[] = []
  for (const [label, description] of rows) {
    const pad = " ".repeat(column)
    if (label.length + 4 > column) {
      lines.push(`  ${label}`)
      lines.push(...wrap(description, width, pad))
    } else lines.push(...wrap(description, width, `  ${label}`.padEnd(column), pad))
  }
  return lines
}

/** The first sentence of a description (for the command list). */
const summary = (description: string): string => {
  const first = description.split("\n")[0]
  const end = first.search(/\.(\s|$)/)
  return end < 0 ? first : first.slice(0, end + 1)
}

const heading = (text: string, bold: boolean) => (bold ? `\u001b[1m${text}\u001b[0m` : text)

export const renderTopHelp = (h: HelpInput): string => {
  const lines: string[] = [
    ...wrap(`${h.program} ${h.version}: ${h.root.description.split("\n")[0]}`, h.width, ""),
    "",
    heading("USAGE", h.bold),
    `  ${h.program} <command> [options]`,
    `  ${h.program} --help | --version`,
    "",
    heading("COMMANDS", h.bold),
    ...table(
      h.root.subcommands.map((c) => [c.name, summary(c.description)] as const),
      h.width
    ),
    "",
    heading("OPTIONS", h.bold),
    ...table(
      h.builtIns.map((b) => [b.label, b.description] as const),
      h.width
    )
  ]
  const rest = h.root.description.split("\n").slice(1).join("\n").trim()
  if (rest !== "") lines.push("", ...wrap(rest, h.width, ""))
  lines.push("", ...wrap(`Run '${h.program} <command> --help' for a command's options.`, h.width, ""))
  return lines.join("\n") + "\n"
}

export const renderCommandHelp = (h: HelpInput, command: CommandModel): string => {
  const head = `  ${h.program} ${command.name}`
  const args = command.args.map((a) => a.name)
  const lines: string[] = [
    heading("USAGE", h.bold),
    ...usage(head, [...args, ...command.options.map(usageItem)], h.width),
    "",
    heading("DESCRIPTION", h.bold),
    ...command.description.split("\n").flatMap((p) => (p.trim() === "" ? [""] : wrap(p, h.width, "  ")))
  ]
  const argRows = command.args.filter((a) => a.description !== "").map((a) => [a.name, a.description] as const)
  if (argRows.length > 0) lines.push("", heading("ARGUMENTS", h.bold), ...table(argRows, h.width))
  if (command.options.length > 0) {
    lines.push(
      "",
      heading("OPTIONS", h.bold),
      ...table(
        command.options.map((o) => [optionLabel(o), o.description] as const),
        h.width
      )
    )
  }
  const examples = h.examples[command.name] ?? []
  if (examples.length > 0) lines.push("", heading("EXAMPLES", h.bold), ...examples.map((e) => `  ${e}`))
  return lines.join("\n") + "\n"
}
