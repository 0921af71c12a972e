/** The package version: the CLI, the MCP server and SARIF output all name it. */
export const VERSION = "0.1.0"
