// The context-bundle composer: pure functions from Facts and raw parameters to the seed's values.
export { composeBundle, composeBundleText, planParts, stageLengths } from "./compose.js"
export type { Composed } from "./compose.js"
export { addressesIn } from "./cuts.js"
export { validateParams } from "./params.js"
export type { BundleRequest } from "./params.js"
export * from "./types.js"
