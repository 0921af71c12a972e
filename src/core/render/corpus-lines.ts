// The lines about a corpus read that `check` and `list` print on stderr. Pure.
import type { Graph } from "../model.js"
import { classifyPath, unmatchedExcludes } from "../read/discover.js"
import { counted } from "../plural.js"
import type { FieldNaming } from "../tokens.js"

/** The summary line `check` prints after the findings: "23 specs, 2 packs, 10 anchors, 0 findings". */
export const summaryOf = (graph: Graph): string =>
  [counted(graph.specs.size, "spec"), counted(graph.packs.size, "pack"), counted(graph.anchors.size, "anchor"), counted(graph.findings.length, "finding")].join(
    ", "
  )

/**
 * One warning line when the read found no Spec file at all (no Spec, no Pack, no finding on a
 * carrier): a root given wrong would otherwise read as an empty, healthy corpus. `root` is the
 * folder as the user should see it (absolute); `excluded` says excludes were in effect; `spell`
 * cites the root field as the entrance does (`--root`). Null when there is a Spec file.
 */
export const noSpecFileWarning = (graph: Graph, root: string, excluded: boolean, spell: Pick<FieldNaming, "cite">): string | null => {
  if (graph.specs.size > 0 || graph.packs.size > 0) return null
  if (graph.findings.some((f) => classifyPath(f.file) === "markdown" || classifyPath(f.file) === "gherkin")) return null
  const where = excluded ? `${root} (outside the excludes)` : root
  return `specbundle: warning: no Spec file under ${where}; Spec files are named *.sdp.md or *.sdp.gherkin (give the corpus folder with ${spell.cite("root")} DIR)`
}

/**
 * One warning line per exclude that left nothing out (`excluded`: those the read says did), as the
 * CLI prints them on stderr and the MCP tools answer them: an exclude is never ignored silently.
 */
export const unmatchedExcludeLines = (excludes: ReadonlyArray<string>, excluded: ReadonlySet<string>, root: string): string[] =>
  unmatchedExcludes(excludes, excluded).map((e) => `specbundle: warning: exclude "${e}" matches nothing under ${root}`)

/** Why a changeset's bundle leaves impacted ids out (a dangling binding or a refused carrier); null when it leaves none. */
export const danglingLine = (dangling: ReadonlyArray<string>): string | null =>
  dangling.length === 0 ? null : `impacted ids the graph does not hold (a dangling binding or a refused carrier), left out of the scope: ${dangling.join(", ")}`
