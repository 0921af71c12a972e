// Running the built CLI held at a point of its work the test can see, instead of at a guessed time:
// a preload (node --require) makes each thread of the run, when it opens a file whose path matches
// the given pattern, or is about to rename a file onto such a path, write that path on fd 3 and wait
// for one byte on fd 4. The test acts while the run waits there (a signal, a save, a look at the
// file a rename is about to replace) and then lets it go on. Nothing of the CLI changes: the preload
// wraps node:fs's openSync, readFileSync, rename and renameSync, which the bundle calls through the
// module object (Effect's FileSystem takes `rename` from it when the bundle loads, after the preload).
// Without holding the run, the same preload counts what it reads (`countedReads`): each matching path
// is appended to a file the test reads back, as a long-lived process (the MCP server) goes on.
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Socket } from "node:net"
import { BIN } from "./cli.js"
import { tempDir } from "./tmp.js"

const PRELOAD = `"use strict"
const fs = require("node:fs")
const pattern = new RegExp(process.env.SPECBUNDLE_TEST_PAUSE_AT)
const log = process.env.SPECBUNDLE_TEST_COUNT_TO
const logFd = log === undefined ? undefined : fs.openSync(log, "a")
let depth = 0
const pause = (file) => {
  if (typeof file !== "string" || !pattern.test(file)) return
  if (logFd !== undefined) return void fs.writeSync(logFd, file + "\\n")
  fs.writeSync(3, file + "\\n")
  const answer = Buffer.alloc(1)
  for (;;) {
    try {
      fs.readSync(4, answer, 0, 1, null)
      return
    } catch (e) {
      if (e.code !== "EAGAIN") return
    }
  }
}
for (const name of ["openSync", "readFileSync", "rename", "renameSync"]) {
  const real = fs[name]
  const renames = name.startsWith("rename")
  fs[name] = function (file, ...rest) {
    // readFileSync opens through openSync: one pause per read. A rename pauses at its destination.
    if (depth === 0) pause(renames ? rest[0] : file)
    depth++
    try {
      return real.call(this, file, ...rest)
    } finally {
      depth--
    }
  }
}
`

let preloadFile: string | undefined
const preload = (): string => {
  if (preloadFile === undefined) {
    preloadFile = path.join(tempDir("specbundle-pause-"), "pause.cjs")
    fs.writeFileSync(preloadFile, PRELOAD)
  }
  return preloadFile
}

export interface PausedRun {
  readonly child: ChildProcess
  /** The paths the run paused at so far, in order. */
  readonly pauses: string[]
  stdout(): string
  stderr(): string
  /** The run's end, with both streams read to their end (rejected with what `onPause` threw, if it did). */
  readonly ended: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string }>
}

/**
 * Runs `node bin/specbundle.js ...args`; whenever a thread of it opens a file whose absolute path
 * matches `at`, or renames a file onto such a path, the run waits until `onPause(path, n)` (n:
 * pauses so far, from 1) has settled: before the open or the rename.
 */
export const runPaused = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly at: RegExp; readonly onPause: (file: string, n: number) => void | Promise<void> }
): PausedRun => {
  const child = spawn(process.execPath, ["--require", preload(), BIN, ...args], {
    cwd: options.cwd,
    env: { ...options.env, SPECBUNDLE_TEST_PAUSE_AT: options.at.source },
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"]
  })
  const marks = child.stdio[3] as Socket
  const answers = child.stdio[4] as Socket
  // The run may end (a signal) with a thread still waiting for its answer; read to its end, so it closes.
  answers.on("error", () => {}).resume()
  let out = ""
  let err = ""
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (out += c))
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (err += c))
  const pauses: string[] = []
  let failure: unknown
  let queue = Promise.resolve()
  let partial = ""
  marks.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n")
    partial = lines.pop() ?? ""
    for (const file of lines) {
      queue = queue.then(async () => {
        pauses.push(file)
        try {
          await options.onPause(file, pauses.length)
        } catch (e) {
          failure ??= e
        }
        // Answered whatever happened: a run left waiting would only end at the test's deadline.
        if (!answers.destroyed) answers.write("\n")
      })
    }
  })
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) =>
    child.on("close", (code, signal) => (failure === undefined ? resolve({ code, signal, stdout: out, stderr: err }) : reject(failure)))
  )
  return { child, pauses, stdout: () => out, stderr: () => err, ended }
}

/** Node's arguments and the environment that make a process record its reads, and what it read so far. */
export interface CountedReads {
  /** Before the script: `[process.execPath, ...execArgv, BIN, ...]`. */
  readonly execArgv: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  /** Each path matching `at` that a thread of the process opened, read or renamed onto so far, in order. */
  reads(): string[]
}

/** The preload of `runPaused`, counting instead of holding: for a process the test starts itself (an MCP client's). */
export const countedReads = (at: RegExp): CountedReads => {
  const log = path.join(tempDir("specbundle-reads-"), "reads.log")
  fs.writeFileSync(log, "")
  return {
    execArgv: ["--require", preload()],
    env: { SPECBUNDLE_TEST_PAUSE_AT: at.source, SPECBUNDLE_TEST_COUNT_TO: log },
    reads: () =>
      fs
        .readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l !== "")
  }
}
