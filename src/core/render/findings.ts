// Corpus findings for machines (`check --format json|github|sarif`, `--findings github`): a JSON
// list, GitHub workflow commands (annotations on the lines that caused them), and SARIF 2.1.0 for
// code scanning. `prefix` turns root-relative paths into paths from the job's working folder, where
// GitHub looks for them. Pure.
import type { Finding } from "../model.js"
import { byCodeUnits } from "../model.js"
import { urlPath } from "./markdown-text.js"

const joined = (prefix: string, file: string): string => (prefix === "" ? file : `${prefix.replace(/\/+$/, "")}/${file}`)

/** The findings as one compact JSON list, each with the model's keys in its order. */
export const findingsJson = (findings: ReadonlyArray<Finding>): string =>
  JSON.stringify(findings.map((f) => ({ file: f.file, line: f.line, code: f.code, message: f.message, severity: f.severity })))

// The escaping of GitHub's toolkit (command.ts): data escapes %, CR and LF; a property value also
// escapes : and , (they separate properties).
export const escapeCommandData = (text: string): string => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
export const escapeCommandProperty = (text: string): string => escapeCommandData(text).replace(/:/g, "%3A").replace(/,/g, "%2C")

/** One `::error file=…,line=…,title=…::message` line per finding (`::warning` for warnings). */
export const findingsGithub = (findings: ReadonlyArray<Finding>, prefix = ""): string =>
  findings
    .map((f) => {
      const props = [`file=${escapeCommandProperty(joined(prefix, f.file))}`]
      if (f.line > 0) props.push(`line=${f.line}`)
      props.push(`title=${escapeCommandProperty(`specbundle ${f.code}`)}`)
      return `::${f.severity === "error" ? "error" : "warning"} ${props.join(",")}::${escapeCommandData(`${f.code}: ${f.message}`)}\n`
    })
    .join("")

export interface SarifTool {
  readonly version: string
  readonly informationUri?: string
}

/** A SARIF 2.1.0 log with one run; rule ids are the finding codes, sorted, and results point at them. */
export const findingsSarif = (findings: ReadonlyArray<Finding>, tool: SarifTool, prefix = ""): unknown => {
  const codes = [...new Set(findings.map((f) => f.code))].sort(byCodeUnits)
  const index = new Map(codes.map((c, i) => [c, i]))
  // A rule's level is the most severe level its findings carry.
  const refuses = new Set(findings.filter((f) => f.severity === "error").map((f) => f.code))
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "specbundle",
            version: tool.version,
            ...(tool.informationUri === undefined ? {} : { informationUri: tool.informationUri }),
            rules: codes.map((code) => ({
              id: code,
              name: code,
              shortDescription: { text: `specbundle finding ${code}` },
              defaultConfiguration: { level: refuses.has(code) ? "error" : "warning" }
            }))
          }
        },
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: index.get(f.code),
          level: f.severity === "error" ? "error" : "warning",
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: urlPath(joined(prefix, f.file)), uriBaseId: "%SRCROOT%" },
                ...(f.line > 0 ? { region: { startLine: f.line } } : {})
              }
            }
          ]
        }))
      }
    ]
  }
}
