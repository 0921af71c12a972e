// The command tree as plain data, read from the @effect/cli definitions themselves (their
// descriptors), so the help page, the argument pre-checks and "did you mean" cannot drift from what
// the parser accepts. The descriptors' shapes are @effect/cli 0.77's (pinned in package.json).
import type * as Command from "@effect/cli/Command"

export interface OptionModel {
  /** `--budget` */
  readonly flag: string
  readonly aliases: ReadonlyArray<string>
  /** The value's placeholder (`N|TIER`, `json|pretty|ndjson`), or null for a flag that takes none. */
  readonly value: string | null
  /** The values the parser accepts (a choice option), or null when any text is taken. */
  readonly choices: ReadonlyArray<string> | null
  readonly description: string
  readonly repeatable: boolean
  readonly optional: boolean
}

export interface ArgModel {
  readonly name: string
  readonly description: string
  /** Takes any number of words (Args.repeated): `hook run pre-push <remote> <url>`. */
  readonly repeated: boolean
  /** The words it takes (Args.choice), or null for any. */
  readonly choices: ReadonlyArray<string> | null
}

export interface CommandModel {
  readonly name: string
  readonly description: string
  readonly options: ReadonlyArray<OptionModel>
  readonly args: ReadonlyArray<ArgModel>
  readonly subcommands: ReadonlyArray<CommandModel>
}

// The descriptor nodes, loosely typed: only the fields read here.
type Node = { readonly _tag: string; readonly [k: string]: any }

/** The text of a HelpDoc (paragraphs joined by newlines); spans' text values in order. */
export const docText = (doc: Node | undefined): string => {
  if (doc === undefined) return ""
  switch (doc._tag) {
    case "Paragraph":
      return spanText(doc.value)
    case "Sequence":
      return [docText(doc.left), docText(doc.right)].filter((t) => t !== "").join("\n")
    default:
      return ""
  }
}

const spanText = (span: Node): string => {
  switch (span._tag) {
    case "Text":
    case "Code":
    case "Strong":
    case "Weak":
    case "URI":
    case "Error":
      return typeof span.value === "string" ? span.value : spanText(span.value)
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    default:
      return ""
  }
}

const placeholder = (primitive: Node, pseudoName: { _tag: string; value?: string }): string | null => {
  if (primitive._tag === "Bool") return null
  if (pseudoName._tag === "Some") return pseudoName.value!
  if (primitive._tag === "Choice") return (primitive.alternatives as Array<[string, unknown]>).map(([name]) => name).join("|")
  return "VALUE"
}

const optionsOf = (node: Node, optional: boolean, repeatable: boolean): OptionModel[] => {
  switch (node._tag) {
    case "Single":
      return [
        {
          flag: node.fullName,
          aliases: (node.aliases as string[]).map((a) => (a.length === 1 ? `-${a}` : `--${a}`)),
          value: placeholder(node.primitiveType, node.pseudoName),
          choices: node.primitiveType._tag === "Choice" ? (node.primitiveType.alternatives as Array<[string, unknown]>).map(([name]) => name) : null,
          description: docText(node.description),
          repeatable,
          optional
        }
      ]
    case "Map":
      return optionsOf(node.options, optional, repeatable)
    case "Both":
      return [...optionsOf(node.left, optional, repeatable), ...optionsOf(node.right, optional, repeatable)]
    case "OrElse":
      return [...optionsOf(node.left, true, repeatable), ...optionsOf(node.right, true, repeatable)]
    case "WithDefault":
    case "WithFallback":
      return optionsOf(node.options, true, repeatable)
    case "Variadic": {
      const min = node.min._tag === "Some" ? (node.min.value as number) : 0
      return optionsOf(node.argumentOption, optional || min === 0, true)
    }
    case "KeyValueMap":
      return optionsOf(node.argumentOption, optional, true)
    default:
      return []
  }
}

const argsOf = (node: Node): ArgModel[] => {
  switch (node._tag) {
    case "Single": {
      const primitive = node.primitiveType as Node
      const choices = primitive._tag === "Choice" ? (primitive.alternatives as Array<[string, unknown]>).map(([n]) => n) : null
      const name = choices !== null ? choices.join("|") : node.pseudoName._tag === "Some" ? node.pseudoName.value : node.name
      return [{ name, description: docText(node.description), repeated: false, choices }]
    }
    case "Variadic":
      return argsOf(node.args).map((a) => ({ ...a, name: `[${a.name}]...`, repeated: true }))
    case "Map":
    case "WithDefault":
    case "WithFallbackConfig":
      return argsOf(node.args)
    case "Both":
      return [...argsOf(node.left), ...argsOf(node.right)]
    default:
      return []
  }
}

const commandOf = (node: Node): CommandModel => {
  switch (node._tag) {
    case "Standard":
      return {
        name: node.name,
        description: docText(node.description),
        options: optionsOf(node.options, false, false),
        args: argsOf(node.args),
        subcommands: []
      }
    case "Map":
      return commandOf(node.command)
    case "Subcommands":
      return { ...commandOf(node.parent), subcommands: (node.children as Node[]).map(commandOf) }
    default:
      return { name: node.name ?? "", description: "", options: [], args: [], subcommands: [] }
  }
}

/** The model of a command (and its subcommands) built with Command.make. */
export const modelOf = (command: Command.Command<any, any, any, any>): CommandModel => commandOf((command as unknown as { descriptor: Node }).descriptor)
