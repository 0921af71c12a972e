// The services the command handlers use. Only the handlers (the *-run.ts files, loaded when their
// command runs) import this, so `--help` neither evaluates the readers, git and the composer nor
// builds them.
import * as Layer from "effect/Layer"
import { Bundler } from "../services/Bundler.js"
import { Changes } from "../services/Changes.js"
import { Corpus } from "../services/Corpus.js"
import { GraphReader } from "../services/GraphReader.js"
import { Git } from "../services/git.js"

export const ServicesLive = Layer.mergeAll(Bundler.Default, Changes.Default, Corpus.Default, GraphReader.Default, Git.Default)
