// What Claude Code's hooks run (`specbundle hook run session-start|user-prompt-submit`): the bundle
// of the working changes as the event's additional context (hook-agent.ts decides its form and
// size), or nothing. A session never starts with an error: every outcome is exit 0, with at most
// one line on stderr (Claude Code keeps an exit-0 hook's stderr in its debug log). Loaded by
// hook-run.ts when the hook runs.
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { factsOf } from "../../core/facts.js"
import { Bundler } from "../../usecases/Bundler.js"
import { Git } from "../../node/git.js"
import type { AgentEvent } from "./hook-agent.js"
import { AGENT_CHANGESET, CONTEXT_CEILING, fitContext, recordOf, renderAt, sessionOf } from "./hook-agent.js"
import { reasonOf } from "./hook-push.js"
import { ServicesLive } from "./live.js"
import { Invocation, type Stdin } from "./invocation.js"
import { writeErr, writeOut } from "./output.js"

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

/** The file recording what the session last got: one per work tree (its git dir), one session at a time. */
const recordFile = (root: string) =>
  Effect.map(
    Effect.flatMap(Git, (g) => g.attempt(root, ["rev-parse", "--absolute-git-dir"])),
    (out) => (out === null || out.trim() === "" ? null : nodePath.join(out.trim(), "specbundle", "claude-code-session"))
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

export const runAgentHook = (event: AgentEvent, root: string) => {
  const say = (line: string) => writeErr(`specbundle ${event}: ${line}`)
  return Effect.gen(function* () {
    const { cwd, stdin } = yield* Invocation
    const session = sessionOf(yield* Effect.promise(() => readEvent(stdin())))
    const bundler = yield* Bundler
    // The hook sets its own budget (fitContext), so a configuration's budget neither applies nor fails the run.
    const prepared = yield* bundler.prepare({ root: nodePath.resolve(cwd, root), changeset: AGENT_CHANGESET, budget: String(CONTEXT_CEILING) })
    const record = session === null ? null : yield* recordFile(prepared.root)
    const specs = prepared.params.specs as ReadonlyArray<string>
    const fitted = specs.length === 0 ? null : fitContext(event, renderAt(factsOf(prepared.graph), prepared.params))
    const text = fitted === null ? null : fitted.rendered.text
    if (event === "user-prompt-submit" && record !== null && session !== null && readRecord(record) === recordOf(session, text)) {
      return yield* say(
        text === null ? "the working changes still impact no Spec; no context added" : "the bundle is what this session last got; no context added"
      )
    }
    if (record !== null && session !== null) writeRecord(record, recordOf(session, text))
    if (specs.length === 0) return yield* say(`the working changes (the work tree against ${AGENT_CHANGESET}) impact no Spec; no context added`)
    if (fitted === null)
      return yield* say(
        `not even the list of the ${specs.length} impacted Specs fits in ${CONTEXT_CEILING} characters; no context added (specbundle bundle --changeset ${AGENT_CHANGESET} --parts gives the bundle)`
      )
    yield* writeOut(fitted.stdout)
    const { form, of } = fitted.rendered
    if (form === "part")
      yield* say(
        `the bundle takes ${of} parts at the hook's budget of ${fitted.budget}; Claude got part 1 (specbundle bundle --changeset ${AGENT_CHANGESET} --parts --budget ${fitted.budget} gives all)`
      )
    if (form === "exceeded")
      yield* say(
        `not even one part of the bundle fits the hook's budget of ${fitted.budget}; Claude got the ids of the ${specs.length} impacted Specs (specbundle bundle --changeset ${AGENT_CHANGESET} --parts gives the bundle)`
      )
  }).pipe(
    // Outside a repository, no HEAD yet, a root that is not there: one line, nothing for the context.
    Effect.catchCause((cause) => say(`${reasonOf(cause)}; no context added`)),
    Effect.provide(ServicesLive)
  )
}
