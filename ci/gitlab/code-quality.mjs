#!/usr/bin/env node
// The GitLab CI template's (specbundle.gitlab-ci.yml) check of the Code Quality report a
// specbundle command just wrote: the job goes on only when the command ended with an exit code it
// may end with and the file is the JSON array of issues GitLab reads. Anything else (an empty file
// because specbundle refused to start, a signal, wrong parameters) is one line on stderr and exit 1,
// so that the job fails instead of uploading a report GitLab would compare as "no findings".
//
//   node code-quality.mjs REPORT "COMMAND" STATUS ALLOWED...
//
// STATUS is the command's exit code, ALLOWED the codes it may end with while writing a whole
// report (check: 0 and 1, a refused carrier; impact: 0). Node alone, no dependencies.
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

const SEVERITIES = new Set(["info", "minor", "major", "critical", "blocker"])

/** What is wrong with the report's text as GitLab's Code Quality report, or null when nothing is. */
export const reportProblem = (text) => {
  if (text.trim() === "") return `is empty (${Buffer.byteLength(text)} bytes)`
  let issues
  try {
    issues = JSON.parse(text)
  } catch (e) {
    return `is not JSON (${String(e?.message ?? e).split("\n")[0]})`
  }
  if (!Array.isArray(issues)) return "is not a JSON array of issues"
  for (const [i, issue] of issues.entries()) {
    const at = `issue ${i + 1}`
    if (issue === null || typeof issue !== "object" || Array.isArray(issue)) return `${at} is not an object`
    for (const key of ["description", "check_name", "fingerprint"]) if (typeof issue[key] !== "string" || issue[key] === "") return `${at} lacks ${key}`
    if (!SEVERITIES.has(issue.severity)) return `${at} has no GitLab severity (info, minor, major, critical, blocker)`
    if (typeof issue.location?.path !== "string" || issue.location.path === "") return `${at} lacks location.path`
    const begin = issue.location.lines?.begin
    if (!Number.isInteger(begin) || begin < 1) return `${at} lacks location.lines.begin`
  }
  return null
}

const say = (line) => process.stderr.write(`specbundle gitlab: ${line}\n`)

const main = () => {
  const [report, command, status, ...allowed] = process.argv.slice(2)
  if (report === undefined || command === undefined || !/^[0-9]+$/.test(status ?? "") || allowed.length === 0 || !allowed.every((a) => /^[0-9]+$/.test(a))) {
    say('usage: node code-quality.mjs REPORT "COMMAND" STATUS ALLOWED... (the exit codes the command may end with)')
    return 2
  }
  if (!allowed.includes(status)) {
    say(`${command} failed (exit ${status}), so ${report} is not its report: its own line above says why`)
    return 1
  }
  let text
  try {
    text = fs.readFileSync(report, "utf8")
  } catch (e) {
    say(`${command} exited ${status} but ${report} cannot be read (${e.code ?? e.message})`)
    return 1
  }
  const problem = reportProblem(text)
  if (problem === null) return 0
  say(`${command} exited ${status} without a Code Quality report: ${report} ${problem}; its own lines above say why`)
  return 1
}

const invokedDirectly = process.argv[1] !== undefined && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))
if (invokedDirectly) process.exitCode = main()
