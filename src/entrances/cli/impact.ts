// `specbundle impact`: which Specs a changeset impacts (bundle-contract.md section 5). The handler
// loads from impact-run.ts when the command runs.
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { CommonArgs } from "./common.js"
import { changesetOptions, choiceOption, common, flag, valueOption } from "./common.js"

const options = {
  ...common,
  ...changesetOptions,
  format: choiceOption(
    "format",
    ["json", "text", "markdown", "gitlab"],
    "json",
    "json: compact JSON on one line; text: the counts, then the detail, for people; markdown: for a pull-request comment; gitlab: a GitLab Code Quality report (findings, lost bindings, at-risk nodes)."
  ),
  linkBase: valueOption(
    "link-base",
    "URL",
    "With --format markdown: put URL (such as https://github.com/OWNER/REPO/blob/SHA/) before every file link; in a GitLab CI job it defaults to the pipeline commit's -/blob/SHA/."
  ),
  noDiagram: flag("no-diagram", "With --format markdown: leave out the Mermaid picture of changed files, impacted Specs and Packs at the top."),
  findings: choiceOption("findings", ["text", "github"], "text", "Write corpus findings on stderr as text lines, or as GitHub workflow commands (annotations).")
} as const

export interface ImpactArgs extends CommonArgs {
  readonly changeset: Option.Option<string>
  readonly staged: boolean
  readonly format: "json" | "text" | "markdown" | "gitlab"
  readonly linkBase: Option.Option<string>
  readonly noDiagram: boolean
  readonly findings: "text" | "github"
}

export const impactCommand = Command.make("impact", options, (args) =>
  Effect.promise(() => import("./impact-run.js")).pipe(Effect.flatMap((run) => run.runImpactCommand(args)))
).pipe(
  Command.withDescription(
    [
      "Report which Specs a change impacts: impactedSpecs with reasons, impactedPacks, removedSpecs, removedPacks, lostBindings, atRisk (one hop), coverageUnknown, unlinked code units, and changed files outside the root.",
      "Exit 0 with the report; 2 for wrong parameters; 1 when git fails (not a repository, unknown revision, shallow clone); with --strict, 1 after the report when a carrier was refused."
    ].join("\n")
  )
)

export const impactExamples = [
  "specbundle impact --changeset HEAD~1 --format text",
  "specbundle impact --staged --strict",
  "specbundle impact --changeset HEAD~1 --format markdown --findings github"
]
