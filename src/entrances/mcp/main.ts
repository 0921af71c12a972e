// Entry of bin/specbundle-mcp.cjs: the MCP server alone. The CLI's `mcp` handler requires this
// bundle and calls `serve`; worker threads parse a large corpus as in the CLI.
import * as nodePath from "node:path"
import { enableWorkers } from "../../node/extractAll.js"
import { serve as serveStdio } from "./server.js"

export const serve = (signal?: AbortSignal): Promise<void> => {
  enableWorkers(nodePath.join(__dirname, "specbundle-worker.cjs"))
  return serveStdio(signal)
}
