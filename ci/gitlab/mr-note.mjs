#!/usr/bin/env node
// The merge-request note of the GitLab CI template (specbundle.gitlab-ci.yml): posts the impact
// report as one note on the pipeline's merge request, and on later pushes edits that note (found
// by a hidden marker) instead of adding another. GitLab's REST API, Node's fetch, no dependencies.
//
//   node mr-note.mjs REPORT.md
//
// From the job: CI_API_V4_URL, CI_MERGE_REQUEST_IID, CI_MERGE_REQUEST_PROJECT_ID (the project the
// merge request lives in; a fork's pipeline runs in the fork), CI_MERGE_REQUEST_SOURCE_PROJECT_ID.
// CI_COMMIT_REF_PROTECTED ("true" on a protected branch: a protected variable reaches only those).
// Ours: SPECBUNDLE_GITLAB_TOKEN (an access token with the api scope: a project or group access
// token, which GitLab.com gives only to Premium and Ultimate, or a personal access token, of a bot
// account on Free; the job token may read notes but not write them), SPECBUNDLE_ROOT (the corpus
// root, part of the marker), SPECBUNDLE_GITLAB_TIMEOUT_MS (per request, default 30000).
//
// Like the GitHub action's comment: a note that cannot be posted (no token, a fork, a refused or
// unanswered request) is one line on stderr and exit 0, since the report is in the job's artifacts
// anyway; a wrong invocation is one line and exit 2. The token is never printed.
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

const TOKEN_VARIABLE = "SPECBUNDLE_GITLAB_TOKEN"
/** Notes read per page (GitLab's maximum), and pages read at most: a merge request with 10,000 notes gets a new one. */
const PER_PAGE = 100
const MAX_PAGES = 100

/** Finds the note; the root is part of it so two corpora in one repository keep two notes (the action's marker). */
export const markerFor = (root) => `<!-- specbundle-impact root=${encodeURIComponent(root)} -->`

/** A request GitLab refused or did not answer; `line` is what the job log shows. */
export class NoteError extends Error {
  constructor(line) {
    super(line)
    this.line = line
  }
}

/** What the token must be, where a line says to set it. */
const TOKEN_KIND =
  "an access token with the api scope whose user is a Reporter or more on the project: a project access token (GitLab.com: Premium or Ultimate), else a bot account's personal access token"

const HINTS = {
  401: `${TOKEN_VARIABLE} is not a valid token (expired, revoked or mistyped): set it to ${TOKEN_KIND}`,
  403: `the token in ${TOKEN_VARIABLE} may not write notes here: give it the api scope and at least the Reporter role on the project`
}

/** GitLab's own words for a refusal ({"message": …} or {"error": …}), on one short line, if it gave any. */
const reasonOf = async (response) => {
  try {
    const body = await response.json()
    const text = typeof body?.message === "string" ? body.message : typeof body?.error === "string" ? body.error : ""
    return text.replace(/\s+/g, " ").trim().slice(0, 200)
  } catch {
    return ""
  }
}

/** One API call, bounded by `timeoutMs`; the parsed JSON body and the response, or a NoteError. */
const call = async (api, token, method, path, timeoutMs, body) => {
  const shown = `${method} ${path.replace(/\?.*$/, "")}`
  let response
  try {
    response = await fetch(`${api}${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": token, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs)
    })
  } catch (e) {
    if (e?.name === "TimeoutError" || e?.name === "AbortError") throw new NoteError(`GitLab did not answer ${shown} within ${timeoutMs} ms`)
    throw new NoteError(`could not reach GitLab at ${api}: ${String(e?.cause?.message ?? e?.message ?? e).split("\n")[0]}`)
  }
  if (!response.ok) {
    const reason = await reasonOf(response)
    const hint = HINTS[response.status]
    throw new NoteError(`GitLab answered ${response.status}${reason === "" ? "" : ` (${reason})`} to ${shown}${hint === undefined ? "" : `: ${hint}`}`)
  }
  try {
    return { json: await response.json(), response }
  } catch (e) {
    if (e?.name === "TimeoutError" || e?.name === "AbortError") throw new NoteError(`GitLab did not answer ${shown} within ${timeoutMs} ms`)
    throw new NoteError(`GitLab's answer to ${shown} is not JSON`)
  }
}

/**
 * Edits the merge request's note that starts with `marker`, or posts one: the notes are read
 * oldest first, a page of 100 at a time, until the marker is found or the pages end. System notes
 * (GitLab's own "added 1 commit") are skipped. Returns "posted" or "updated".
 */
export const upsertNote = async ({ api, project, iid, token, marker, body, timeoutMs = 30_000 }) => {
  const base = `/projects/${encodeURIComponent(project)}/merge_requests/${encodeURIComponent(iid)}/notes`
  let existing = null
  for (let page = 1; existing === null && page <= MAX_PAGES; page++) {
    const { json, response } = await call(api, token, "GET", `${base}?sort=asc&order_by=created_at&per_page=${PER_PAGE}&page=${page}`, timeoutMs)
    if (!Array.isArray(json)) throw new NoteError(`GitLab's answer to GET ${base} is not a list of notes`)
    existing = json.find((n) => n?.system !== true && typeof n?.body === "string" && n.body.startsWith(marker)) ?? null
    // X-Next-Page is empty on the last page; without the header, a short page is the last.
    const next = response.headers.get("x-next-page")
    if (next === "" || (next === null && json.length < PER_PAGE)) break
  }
  const text = `${marker}\n${body}`
  if (existing !== null) await call(api, token, "PUT", `${base}/${encodeURIComponent(existing.id)}`, timeoutMs, { body: text })
  else await call(api, token, "POST", base, timeoutMs, { body: text })
  return existing === null ? "posted" : "updated"
}

const say = (line) => process.stderr.write(`specbundle gitlab: ${line}\n`)

const main = async () => {
  const env = process.env
  const args = process.argv.slice(2)
  if (args.length !== 1 || args[0].startsWith("-")) {
    say("usage: node mr-note.mjs REPORT.md (the Markdown of specbundle impact --format markdown)")
    return 2
  }
  let report
  try {
    report = fs.readFileSync(args[0], "utf8")
  } catch (e) {
    say(`cannot read the report ${args[0]}: ${e.code ?? e.message}`)
    return 2
  }
  const iid = env.CI_MERGE_REQUEST_IID ?? ""
  if (iid === "") {
    say("no merge request here (CI_MERGE_REQUEST_IID is not set), no note posted")
    return 0
  }
  const project = env.CI_MERGE_REQUEST_PROJECT_ID || env.CI_PROJECT_ID || ""
  const token = env[TOKEN_VARIABLE] ?? ""
  if (token === "") {
    const source = env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID ?? ""
    if (source !== "" && project !== "" && source !== project) {
      say(`no note posted: this merge request comes from a fork, whose pipeline does not get ${TOKEN_VARIABLE}; the report is in the job's artifacts`)
    } else if (env.CI_COMMIT_REF_PROTECTED === "true") {
      say(`no note posted: set ${TOKEN_VARIABLE}, a masked CI/CD variable holding ${TOKEN_KIND} (the job token cannot write notes)`)
    } else {
      // A protected variable is not given to a pipeline of an unprotected branch: "set it" would mislead whoever set it.
      say(
        `no note posted: ${TOKEN_VARIABLE} is not in this pipeline: if it is set, it is protected and this branch is not (clear its "Protect variable" flag); else set it, a masked CI/CD variable holding ${TOKEN_KIND}`
      )
    }
    return 0
  }
  const api = (env.CI_API_V4_URL ?? "").replace(/\/+$/, "")
  if (api === "" || project === "") {
    say("no CI_API_V4_URL or CI_MERGE_REQUEST_PROJECT_ID: run this in a GitLab merge-request pipeline")
    return 2
  }
  const raw = env.SPECBUNDLE_GITLAB_TIMEOUT_MS ?? ""
  const timeoutMs = raw === "" ? 30_000 : Number(raw)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    say(`SPECBUNDLE_GITLAB_TIMEOUT_MS must be a whole number of milliseconds, got "${raw}"`)
    return 2
  }
  try {
    const how = await upsertNote({ api, project, iid, token, marker: markerFor(env.SPECBUNDLE_ROOT || "."), body: report, timeoutMs })
    say(`note ${how} on !${iid}`)
  } catch (e) {
    say(`could not post the merge-request note: ${e instanceof NoteError ? e.line : String(e?.message ?? e).split("\n")[0]}`)
  }
  return 0
}

const invokedDirectly = process.argv[1] !== undefined && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))
if (invokedDirectly) process.exitCode = await main()
