// A finding as one line, `file:line: code: message`: what `check` prints and the MCP `check` tool returns.
import type { Finding } from "../model.js"

export const formatFinding = (f: Finding): string => `${f.file}:${f.line}: ${f.code}: ${f.severity === "warning" ? "warning: " : ""}${f.message}`
