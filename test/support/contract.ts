// Lines and key orders the contract states verbatim (shared/docs/bundle-contract.md), one copy for
// every test that holds the code to them: a test compares the code's value with these, never the
// code's value with itself.

/** Section 2: the seven leftOut lines, in cut order (the seventh only under declarations: "addresses"). */
export const CONTRACT_LEFT_OUT = [
  "Boundary details; ids kept per direction.",
  "Footing details; ids kept per relation type.",
  "Member narrative.",
  "Example step text, including member sections and example-space vocabulary.",
  "Non-blocking question text; addresses and links kept.",
  "Section entry values other than pinned declarations; addresses and lines kept.",
  "Pinned declaration text; entry addresses kept."
] as const

/** Section 5: the impact report's keys, in order. */
export const IMPACT_REPORT_KEYS = [
  "changeset",
  "root",
  "changedFiles",
  "impactedSpecs",
  "impactedPacks",
  "removedSpecs",
  "removedPacks",
  "lostBindings",
  "atRisk",
  "coverageUnknown",
  "unlinked",
  "outsideRoot"
] as const
