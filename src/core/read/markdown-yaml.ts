// The frontmatter YAML policy (sdp-format.md section 2): failsafe schema, unique string keys, no
// anchors, aliases, tags or directives, bounded size. One parse and one walk: the walk checks the
// policy and copies the document into a small line-carrying tree the envelope readers consume.
import type { Node as YamlNode } from "yaml"
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, Scalar } from "yaml"
import { CODES, type Sink, utf8Length } from "./markdown-findings.js"
import { readSimpleFrontmatter } from "./markdown-yaml-fast.js"
import type { YEntry, YNode, YStr } from "./markdown-yaml-tree.js"
import { CORE_NON_STRING, MAX_DEPTH, MAX_NODES, MAX_SCALAR_BYTES } from "./markdown-yaml-tree.js"

export type { YEntry, YMap, YNode, YSeq, YStr } from "./markdown-yaml-tree.js"

export interface YamlRead {
  /** The document, or null when it is empty. */
  readonly root: YNode | null
  /** False when the YAML itself is malformed or breaks the policy. */
  readonly ok: boolean
}

const firstLine = (s: string): string => s.split("\n", 1)[0].trim()

/**
 * Parses frontmatter text whose first line is file line `firstFileLine`. Findings go to `sink`.
 * The hand-read subset (markdown-yaml-fast.ts) answers first; it answers only where the full read
 * below would give the same tree and no finding, so every message comes from the full read.
 */
export const readFrontmatterYaml = (text: string, firstFileLine: number, sink: Sink): YamlRead => {
  const fast = readSimpleFrontmatter(text, firstFileLine)
  return fast === undefined ? readFrontmatterYamlFull(text, firstFileLine, sink) : { root: fast, ok: true }
}

/** The full read: yaml's parser, then the policy walk. */
export const readFrontmatterYamlFull = (text: string, firstFileLine: number, sink: Sink): YamlRead => {
  let bad = false
  const report = (line: number, code: string, message: string) => {
    bad = true
    sink.error(line, code, message)
  }
  const lc = new LineCounter()
  let doc: ReturnType<typeof parseDocument>
  try {
    doc = parseDocument(text, { schema: "failsafe", uniqueKeys: true, strict: true, prettyErrors: false, lineCounter: lc })
  } catch (e) {
    // yaml's parser recurses once a level: thousands of levels (`- - - …`, found by fuzzing)
    // overflow the stack. Far past the policy's limit, so refused the way the walk refuses it.
    if (!(e instanceof RangeError)) throw e
    report(firstFileLine, CODES.frontmatter, `frontmatter YAML nests deeper than ${MAX_DEPTH} levels; flatten it`)
    // An empty mapping with ok false: the caller adds no finding of its own (empty, not a mapping).
    return { root: { t: "map", entries: [], line: firstFileLine }, ok: false }
  }
  const lineAt = (offset: number): number => lc.linePos(offset).line + firstFileLine - 1
  const frontmatterError = (offset: number, message: string) => report(lineAt(offset), CODES.frontmatter, message)

  for (const e of doc.errors) {
    if (e.code === "MULTIPLE_DOCS") {
      frontmatterError(e.pos[0], "frontmatter holds more than one YAML document; keep one mapping between the --- lines")
    } else if (e.code === "DUPLICATE_KEY") {
      frontmatterError(e.pos[0], "a frontmatter key is written twice; keep each key once")
    } else {
      frontmatterError(e.pos[0], `frontmatter YAML is malformed (${e.code}: ${firstLine(e.message)}); fix the YAML syntax`)
    }
  }
  // Unresolved-tag warnings are reported by the walk, which names the tag.
  for (const w of doc.warnings) {
    if (w.code !== "TAG_RESOLVE_FAILED") frontmatterError(w.pos[0], `frontmatter YAML: ${firstLine(w.message)}; fix the YAML`)
  }

  let nodes = 0
  let tooMany = false
  let tooDeep = false

  const convert = (node: unknown, depth: number, keyName: string | null): YNode | null => {
    if (++nodes > MAX_NODES) {
      if (!tooMany) {
        tooMany = true
        report(firstFileLine, CODES.frontmatter, `frontmatter has more than ${MAX_NODES} YAML nodes; shorten it`)
      }
      return null
    }
    if (isAlias(node)) {
      // Never resolved: an alias is refused as written.
      report(lineAt(node.range?.[0] ?? 0), CODES.yamlAlias, `YAML alias *${node.source} is not allowed; write the value out`)
      return null
    }
    const yn = node as YamlNode
    const offset = yn.range?.[0] ?? 0
    const line = lineAt(offset)
    if (yn.anchor !== undefined) {
      report(line, CODES.yamlAlias, `YAML anchor &${yn.anchor} is not allowed; remove it and write values out`)
    }
    if (yn.tag !== undefined) {
      report(line, CODES.frontmatter, `YAML tag ${yn.tag} is not allowed; remove the tag (every value is text)`)
    }
    if (isScalar(node)) {
      const value = String(node.value)
      const plain = node.type === Scalar.PLAIN
      if (value.length * 3 > MAX_SCALAR_BYTES && utf8Length(value) > MAX_SCALAR_BYTES) {
        report(line, CODES.frontmatter, "a frontmatter value is over 16 KiB; shorten it")
      }
      if (plain && keyName !== null && CORE_NON_STRING.test(value)) {
        report(
          line,
          CODES.frontmatter,
          value === ""
            ? `frontmatter key "${keyName}" has no value; write one`
            : `plain value ${value} of "${keyName}" is not text in YAML; quote it ("${value}") if you mean text`
        )
      }
      return { t: "str", value, plain, line }
    }
    if (depth > MAX_DEPTH) {
      if (!tooDeep) {
        tooDeep = true
        report(line, CODES.frontmatter, `frontmatter YAML nests deeper than ${MAX_DEPTH} levels; flatten it`)
      }
      return null
    }
    if (isSeq(node)) {
      const items: YNode[] = []
      for (const item of node.items) {
        const c = convert(item, depth + 1, keyName ?? "list item")
        if (c !== null) items.push(c)
      }
      return { t: "seq", items, line }
    }
    if (isMap(node)) {
      const entries: YEntry[] = []
      for (const pair of node.items) {
        if (!isPair(pair)) continue
        const k = pair.key
        if (!isScalar(k)) {
          const kl = isAlias(k) || k === null ? line : lineAt((k as YamlNode).range?.[0] ?? offset)
          if (isAlias(k)) convert(k, depth + 1, null)
          else report(kl, CODES.frontmatter, "a frontmatter key must be plain text; write key: value")
          continue
        }
        nodes++
        const keyLine = lineAt(k.range?.[0] ?? offset)
        if (k.anchor !== undefined) report(keyLine, CODES.yamlAlias, `YAML anchor &${k.anchor} is not allowed; remove it`)
        if (k.tag !== undefined) report(keyLine, CODES.frontmatter, `YAML tag ${k.tag} is not allowed; remove the tag`)
        const key = String(k.value)
        const value = pair.value === null ? ({ t: "str", value: "", plain: true, line: keyLine } as YStr) : convert(pair.value, depth + 1, key)
        if (pair.value === null) report(keyLine, CODES.frontmatter, `frontmatter key "${key}" has no value; write one`)
        if (value !== null) entries.push({ key, keyLine, value })
      }
      return { t: "map", entries, line }
    }
    report(line, CODES.frontmatter, "unsupported YAML node; use plain mappings, lists and text")
    return null
  }

  const root = doc.contents === null ? null : convert(doc.contents, 1, null)
  return { root, ok: !bad }
}
