// The services the command handlers use. Only the handlers (the *-run.ts files, loaded when their
// command runs) import this, so `--help` neither evaluates the readers, git and the composer nor
// builds them. What they run on (the worker pool, the parse cache: src/node/runtime.ts) is
// src/bin.ts's to provide, once for the process.
import * as Layer from "effect/Layer"
import { Bundler } from "../../usecases/Bundler.js"
import { Changes } from "../../usecases/Changes.js"
import { Corpus } from "../../usecases/Corpus.js"
import { GitDiff } from "../../services/GitDiff.js"
import { GraphReader } from "../../services/GraphReader.js"
import { Git } from "../../node/git.js"

export const ServicesLive = Layer.mergeAll(Bundler.Default, Changes.Default, Corpus.Default, GraphReader.Default, GitDiff.Default, Git.Default)
