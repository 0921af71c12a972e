// What Claude Code's hooks run (`specbundle hook run session-start|user-prompt-submit`): the bundle
// of the working changes as the event's additional context (hooks/agents.ts decides its form and
// size), or nothing. A session never starts with an error: every outcome is exit 0, with at most
// one line on stderr (Claude Code keeps an exit-0 hook's stderr in its debug log). Loaded by
// hook-run.ts when the hook runs.
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { factsOf } from "../../../core/graph/facts.js"
import { Bundler } from "../../../usecases/Bundler.js"
import { Repository } from "../../../usecases/Repository.js"
import type { AgentEvent, AgentManager } from "./agents.js"
import { AGENT_CHANGESET, AGENTS, fitContext, recordOf, renderAt, sessionOf } from "./agents.js"
import { reasonOf } from "./pre-push.js"
import { Invocation, type Stdin } from "../invocation.js"
import { writeErr, writeOut } from "../output/output.js"

/** Past this many bytes the event is not read on (a pasted prompt): the run goes on without its session. */
const MAX_EVENT_BYTES = 4 * 1024 * 1024

/**
 * The event Claude Code passes on stdin ("" from a terminal). It sends one JSON object: once the
 * bytes read parse, the run goes on without waiting for the end of the stream.
 */
const readEvent = (stdin: Stdin): Promise<string> => {
  if (stdin.isTTY === true) return Promise.resolve("")
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const done = () => {
      if (settled) return
      settled = true
      stdin.removeAllListeners("data")
      stdin.destroy()
      resolve(Buffer.concat(chunks).toString("utf8"))
    }
    stdin.on("data", (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
      if (size > MAX_EVENT_BYTES) return done()
      const text = Buffer.concat(chunks).toString("utf8")
      if (/\}\s*$/.test(text) && sessionOf(text) !== null) done()
    })
    stdin.on("end", done)
    stdin.on("error", done)
  })
}

/** The file recording what the session last got: one per work tree (its git dir) and agent, one session at a time. */
const recordFile = (root: string, manager: AgentManager) =>
  Effect.map(
    Repository.use((r) => r.gitDirOrNull(root)),
    (dir) => (dir === null ? null : nodePath.join(dir, "specbundle", `${manager}-session`))
  )

const readRecord = (file: string): string | null => {
  try {
    return fs.readFileSync(file, "utf8")
  } catch {
    return null
  }
}

/** Written whole (a temp file, then a rename); a record that cannot be written only costs a repeat. */
const writeRecord = (file: string, text: string): void => {
  try {
    fs.mkdirSync(nodePath.dirname(file), { recursive: true })
    const temp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(temp, text)
    fs.renameSync(temp, file)
  } catch {
    // The next prompt gets the context again.
  }
}

/** The git operations that stop with conflicts in the work tree, by the file or folder each leaves in the git dir. */
const OPERATIONS: ReadonlyArray<readonly [string, string]> = [
  ["rebase-merge", "rebase"],
  ["rebase-apply", "rebase"],
  ["MERGE_HEAD", "merge"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"]
]

/** Up to three items, then how many more. */
const few = (items: ReadonlyArray<string>): string => (items.length <= 3 ? items.join(", ") : `${items.slice(0, 3).join(", ")} and ${items.length - 3} more`)

/**
 * Why impacted Specs are missing from the bundle (their carriers did not read): a merge, rebase,
 * cherry-pick or revert stopped with conflicts in the work tree, naming the unmerged paths, or a
 * carrier refused for another reason (`specbundle check` gives its line).
 */
const whyUnread = (root: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const repository = yield* Repository
    const specs = `${ids.length === 1 ? "the impacted Spec" : `the ${ids.length} impacted Specs`} ${few(ids)}`
    const gitDir = (yield* repository.gitDirOrNull(root)) ?? ""
    const operation = gitDir === "" ? undefined : OPERATIONS.find(([entry]) => fs.existsSync(nodePath.join(gitDir, entry)))?.[1]
    const unmerged = yield* repository.unmerged(root)
    if (unmerged.length > 0) {
      const state = operation === undefined ? "unmerged paths are left in the work tree" : `a ${operation} is in progress`
      return `${state} and ${few(unmerged)} still ${unmerged.length === 1 ? "holds" : "hold"} conflict markers, so ${specs} cannot be read until the conflicts are resolved`
    }
    return `${specs} cannot be read: ${ids.length === 1 ? "its carrier is" : "their carriers are"} refused (specbundle check names the line)`
  })

/** A branch with no commit yet: HEAD names no commit. */
const isUnborn = (cause: Cause.Cause<unknown>): boolean => {
  const failure = Cause.findErrorOption(cause)
  return (
    Option.isSome(failure) &&
    (failure.value as { _tag?: unknown; revision?: unknown })?._tag === "UnknownRevisionError" &&
    (failure.value as { revision?: unknown }).revision === AGENT_CHANGESET
  )
}

export const runAgentHook = (event: AgentEvent, root: string, manager: AgentManager = "claude-code") => {
  const agent = AGENTS[manager]
  // Gemini CLI shows an exit-0 hook's stderr to the user when its stdout is empty: it hears nothing.
  const say = (line: string) => (agent.quiet ? Effect.void : writeErr(`specbundle ${event}: ${line}`))
  return Effect.gen(function* () {
    const { cwd, stdin } = yield* Invocation
    const session = sessionOf(yield* Effect.promise(() => readEvent(stdin())))
    if (agent.events[event] === null) return yield* say(`${agent.unread}; no context added`)
    const bundler = yield* Bundler
    // The hook sets its own budget (fitContext), so a configuration's budget neither applies nor fails the run.
    const prepared = yield* bundler.prepare({ root: nodePath.resolve(cwd, root), changeset: AGENT_CHANGESET, budget: String(agent.ceiling) })
    const record = session === null ? null : yield* recordFile(prepared.root, manager)
    const specs = prepared.params.specs as ReadonlyArray<string>
    const fitted = specs.length === 0 ? null : fitContext(event, renderAt(factsOf(prepared.graph), prepared.params), agent)
    const text = fitted === null ? null : fitted.rendered.text
    if (event === "user-prompt-submit" && record !== null && session !== null && readRecord(record) === recordOf(session, text)) {
      return yield* say(
        text === null ? "the working changes still impact no Spec; no context added" : "the bundle is what this session last got; no context added"
      )
    }
    if (record !== null && session !== null) writeRecord(record, recordOf(session, text))
    // Impacted Specs whose carriers do not read (conflict markers mid-merge or mid-rebase): said, never taken for "no Spec".
    const unread = prepared.dangling.length === 0 ? null : yield* whyUnread(prepared.root, prepared.dangling)
    if (specs.length === 0)
      return yield* say(
        unread === null ? `the working changes (the work tree against ${AGENT_CHANGESET}) impact no Spec; no context added` : `${unread}; no context added`
      )
    if (unread !== null) yield* say(`${unread}; they are left out of the context`)
    if (fitted === null)
      return yield* say(
        `not even the list of the ${specs.length} impacted Specs fits in ${agent.ceiling} ${agent.manager === "codex" ? "bytes" : "characters"}; no context added (specbundle bundle --changeset ${AGENT_CHANGESET} --parts gives the bundle)`
      )
    yield* writeOut(fitted.stdout)
    const { form, of } = fitted.rendered
    if (form === "part")
      yield* say(
        `the bundle takes ${of} parts at the hook's budget of ${fitted.budget}; ${agent.name} got part 1 (specbundle bundle --changeset ${AGENT_CHANGESET} --parts --budget ${fitted.budget} gives all)`
      )
    if (form === "exceeded")
      yield* say(
        `not even one part of the bundle fits the hook's budget of ${fitted.budget}; ${agent.name} got the ids of the ${specs.length} impacted Specs (specbundle bundle --changeset ${AGENT_CHANGESET} --parts gives the bundle)`
      )
  }).pipe(
    // Outside a repository, no HEAD yet, a root that is not there: one line, nothing for the context.
    Effect.catchCause((cause) =>
      say(
        isUnborn(cause)
          ? `this branch has no commit yet, so there is no ${AGENT_CHANGESET} to compare the working changes with; no context added (the first commit gives one)`
          : `${reasonOf(cause)}; no context added`
      )
    )
  )
}
