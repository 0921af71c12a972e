// What a CLI run is started with besides its arguments: the working folder, the environment and
// stdin. The handlers read them here, never from `process`, so the same program runs as the real
// process (bin.ts provides the process's own) and in a test's own process with a folder, an
// environment and a stdin of its own (test/support/run.ts).
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import type { Readable } from "node:stream"

/** A stdin stream, with its `isTTY` when it is a terminal. */
export type Stdin = Readable & { readonly isTTY?: boolean }

export interface InvocationShape {
  /** The working folder: relative paths on the command line are relative to it. */
  readonly cwd: string
  /** The environment (the settings and hook variables the handlers read; git gets it too). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** stdin is a terminal (`--wizard` needs one; a hook's event is not read from one). */
  readonly stdinIsTTY: () => boolean
  /** stdin, opened only when a handler reads it (a hook's refs or event). */
  readonly stdin: () => Stdin
  /** The CLI a written hook runs: the node binary and this script. */
  readonly node: string
  readonly script: string
  /** The built CLI's folder (bin/): the tokenizer bundles it loads on demand, examples/ beside it. */
  readonly bin: string
}

/** The run's folder, environment and stdin: bin.ts gives the process's, a test its own (test/support/run.ts). */
export class Invocation extends Context.Service<Invocation, InvocationShape>()("specbundle/cli/Invocation") {}

/** A path as given on the command line, made absolute against the run's working folder. */
export const inCwd = (path: string): Effect.Effect<string, never, Invocation> => Invocation.useSync((i) => nodePath.resolve(i.cwd, path))

/**
 * A request's root and configuration file made absolute against the run's working folder, for the
 * use cases (which resolve what they get against the process's); messages keep the words given.
 */
export const located = <R extends { readonly root: string; readonly config?: string | undefined }>(request: R): Effect.Effect<R, never, Invocation> =>
  Invocation.useSync((i) => ({
    ...request,
    root: nodePath.resolve(i.cwd, request.root),
    ...(request.config === undefined ? {} : { config: nodePath.resolve(i.cwd, request.config) })
  }))
