// The frontmatter tree both YAML readers build (markdown-yaml.ts with `yaml`, markdown-yaml-fast.ts
// by hand) and the policy's limits they share: lines kept on every node for findings.

export interface YStr {
  readonly t: "str"
  readonly value: string
  readonly plain: boolean
  readonly line: number
}
export interface YSeq {
  readonly t: "seq"
  readonly items: ReadonlyArray<YNode>
  readonly line: number
}
export interface YEntry {
  readonly key: string
  readonly keyLine: number
  readonly value: YNode
}
export interface YMap {
  readonly t: "map"
  readonly entries: ReadonlyArray<YEntry>
  readonly line: number
}
export type YNode = YStr | YSeq | YMap

export const MAX_NODES = 2000
export const MAX_DEPTH = 16
export const MAX_SCALAR_BYTES = 16 * 1024

/** Plain scalars the YAML core schema would not read as a string (null, bool, int, float). */
export const CORE_NON_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/
