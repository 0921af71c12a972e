// The MCP entrance's tools, one file each under tools/ (what they share: tool.ts): schema'd
// parameters in, the use cases run, and the result rendered as the same bytes the CLI prints. A
// use case's parameter problems are a tool error holding the CLI's `{ diagnostics }` value; any
// other failure a tool error holding its stderr line. tools/list lists them in this order.
import type { ToolSpec } from "./tool.js"
import { bundleTool } from "./tools/bundle.js"
import { checkTool } from "./tools/check.js"
import { driftTool } from "./tools/drift.js"
import { impactTool } from "./tools/impact.js"
import { listTool } from "./tools/list.js"

export { inputSchemaOf, type ToolServices } from "./tool.js"
export { BundleParameters } from "./tools/bundle.js"
export { CheckParameters } from "./tools/check.js"
export { DriftParameters } from "./tools/drift.js"
export { ImpactParameters } from "./tools/impact.js"
export { StagedAnswers } from "./staged-answers.js"
export { ListParameters } from "./tools/list.js"

export const tools: ReadonlyArray<ToolSpec> = [bundleTool, impactTool, checkTool, listTool, driftTool]
