// The MCP server's memory of its last staged answers: state made with each server, not a module's.
import type { CallToolResult } from "effect/ai/McpSchema"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

/**
 * The last answer to each `impact {staged}` request, with the stamp of the repository's staged
 * state taken before it was computed (src/node/stagedStamp.ts): a call whose stamp is the same
 * gets the same answer without asking git or reading anything. One per server, made with it
 * (server.ts provides the layer), never a module's.
 */
export class StagedAnswers extends Context.Service<StagedAnswers, Map<string, { readonly stamp: string; readonly result: CallToolResult }>>()(
  "specbundle/mcp/StagedAnswers"
) {
  static readonly layer: Layer.Layer<StagedAnswers> = Layer.sync(this, () => new Map())
}
