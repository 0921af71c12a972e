// A small Markdown corpus that shows each of issue 17's departures from the recipe: entry
// addresses written in example steps, pinned declarations shorter than their addresses (the
// declaration cut makes the bundle longer), U+2028 inside a keyed rule, an Intent of only questions.
import { writeFiles } from "./tmp.js"

export const PROBE_PACK = "pack:probe"
export const SHAPE = "spec:probe.a#design.shape"
export const WHY = "spec:probe.b#question.why"
export const RULE_CAP = "spec:probe.b#rule.cap"

const front = (lines: ReadonlyArray<string>) => ["---", ...lines, "---"]
/** Words that every cut before the declaration cut removes, so each of those stages is shorter. */
const filler = (word: string) => ` ${word}`.repeat(12)

export const PROBE_FILES: Readonly<Record<string, string>> = {
  "specs/probe.pack.sdp.md": [
    ...front(["id: pack:probe", "specs:", "  - spec:probe.a", "  - spec:probe.a.inside", "  - spec:probe.b"]),
    "# Probe",
    "",
    "A Pack that probes the cuts.",
    ""
  ].join("\n"),
  "specs/probe/a.sdp.md": [
    ...front(["id: spec:probe.a", "kind: behavior", "altitude: feature", "readiness: defined", "relations:", "  dependsOn: spec:probe.b"]),
    "# Probe A",
    "",
    `A probe of the cuts,${filler("narrative")}.`,
    "",
    "## Intent",
    "",
    `- outcome: A shape is drawn,${filler("outcome")}.`,
    "",
    "## Behavior",
    "",
    `- rule: Shapes are drawn once,${filler("rule")}.`,
    "",
    "## Example space",
    "",
    "```gwt-vocabulary",
    `Given a shape per ${SHAPE} of {sides:number},${filler("space")}`,
    "When it is drawn",
    "Then it shows",
    "```",
    "",
    "## Design",
    "",
    "- shape: `s`",
    "- size: `z`",
    ""
  ].join("\n"),
  // A member example: its steps sit in its own member row.
  "specs/probe/a.inside.sdp.md": [
    ...front([
      "id: spec:probe.a.inside",
      "kind: example",
      "altitude: story",
      "readiness: defined",
      "relations:",
      "  refines: spec:probe.a",
      "  verifies: spec:probe.a"
    ]),
    "# A triangle is drawn",
    "",
    "## Intent",
    "",
    "```gwt",
    `Given a shape per ${SHAPE} of {sides: 3},${filler("inside")}`,
    "When it is drawn",
    "Then it shows",
    "```",
    ""
  ].join("\n"),
  // An example outside the Pack: its steps sit in the example row of the member it refines.
  "specs/probe/a.outside.sdp.md": [
    ...front(["id: spec:probe.a.outside", "kind: example", "altitude: story", "readiness: defined", "relations:", "  refines: spec:probe.a"]),
    "# A square is drawn",
    "",
    "## Intent",
    "",
    "```gwt",
    "Given a shape of {sides: 4}",
    `When it is drawn as ${WHY} asks,${filler("outside")}`,
    "Then it shows",
    "```",
    ""
  ].join("\n"),
  "specs/probe/b.sdp.md": [
    ...front(["id: spec:probe.b", "kind: behavior", "altitude: feature", "readiness: idea", "relations: {}"]),
    "# Probe B",
    "",
    "## Intent",
    "",
    "### Open questions",
    "",
    `- [non-blocking #why] Why\u2028now,${filler("question")}?`,
    "",
    "## Behavior",
    "",
    `- rule.cap: Caps\u2028hold,${filler("cap")}.`,
    ""
  ].join("\n")
}

export const writeProbeCorpus = (root: string): void => writeFiles(root, PROBE_FILES)
