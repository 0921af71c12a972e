// Runs a CLI command in the test's own process: the program bin.ts runs (src/entrances/cli/
// program.ts: argv preflight, effect/cli's parse with our help pages, the handler, exit.ts's exit
// code and stderr line) with stdout and stderr collected, in a working folder, environment and
// stdin of the test's choosing, against the real file system and real git. No process is started
// for specbundle itself (git still runs as git), so a check of a handler costs no build and no
// start-up. What needs a process (signals, pipes, hooks fired by git, the loader and its caches,
// worker threads, the packed tarball) runs the built CLI instead: test/support/cli.ts.
import { Console as NodeConsole } from "node:console"
import * as path from "node:path"
import { Readable, Writable } from "node:stream"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { exitCodeOf } from "../../src/entrances/cli/exit.js"
import { Invocation } from "../../src/entrances/cli/invocation.js"
import { Output } from "../../src/entrances/cli/output/output.js"
import { program } from "../../src/entrances/cli/program.js"
import { BIN, gitCleanEnv, type Run } from "./cli.js"
import { TestRuntime } from "./runtime.js"
import { cleanEnv } from "./hostile.js"

export type { Run }

export interface RunOptions {
  /** The run's whole environment (gitCleanEnv() if absent); git gets it too. */
  readonly env?: NodeJS.ProcessEnv
  /** Text on stdin (empty if absent, as a spawned run's closed pipe). */
  readonly stdin?: string
}

/** A writable that hands each chunk on as text. */
const sink = (write: (text: string) => void) =>
  new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(chunk.toString())
      done()
    }
  })

/** hostile.ts's runCli in process: the arguments first, `env` on top of cleanEnv(). */
export const runCli = (args: ReadonlyArray<string>, cwd: string, options: { readonly env?: NodeJS.ProcessEnv } = {}): Promise<Run> =>
  run(cwd, args, { env: { ...cleanEnv(), ...options.env } })

/**
 * `specbundle ...args` in `cwd`, in process: its exit status and both streams, as `cli()` gives
 * them for a spawned run.
 */
export const run = async (cwd: string, args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Run> => {
  const output = Output.collect()
  const stdin = options.stdin ?? ""
  const invocation = Layer.succeed(Invocation, {
    cwd,
    env: options.env ?? gitCleanEnv(),
    stdinIsTTY: () => false,
    stdin: () => Readable.from(stdin === "" ? [] : [Buffer.from(stdin)]),
    node: process.execPath,
    script: BIN,
    bin: path.dirname(BIN)
  })
  // What effect/cli prints itself (a completion script) goes through Console: into the same streams.
  const console = new NodeConsole({
    stdout: sink((t) => output.append("stdout", t)),
    stderr: sink((t) => output.append("stderr", t))
  })
  const exit = await Effect.runPromiseExit(
    program(args, TestRuntime).pipe(Effect.provide(Layer.merge(output.layer, invocation)), Effect.provideService(Console.Console, console))
  )
  const status = exitCodeOf(exit, (text) => output.append("stderr", text))
  return { status, stdout: output.stdout(), stderr: output.stderr() }
}
