// An impact report with every list empty: the pure renderers' tests fill in what each case needs.
import type { ImpactReport } from "../../src/core/changes/impact.js"

export const emptyReport = (): ImpactReport => ({
  changeset: "origin/main...HEAD",
  root: ".",
  changedFiles: [],
  impactedSpecs: [],
  impactedPacks: [],
  removedSpecs: [],
  removedPacks: [],
  lostBindings: [],
  atRisk: [],
  coverageUnknown: [],
  unlinked: [],
  outsideRoot: []
})
