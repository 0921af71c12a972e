// The context-bundle composer: pure functions from Facts and raw parameters to the seed's values.
export { composeBundle, composeBundleText, planParts, stageLengths } from "./compose.js"
export type { Composed } from "./compose.js"
export { addressesIn } from "./cuts.js"
export { CUTS, LEFT_OUT_LINES, STAGE, maxStage } from "./cut-table.js"
export type { Cut, CutName } from "./cut-table.js"
export { validateParams } from "./params.js"
export type { BundleParams, SettledBundle } from "./params.js"
export * from "./types.js"
