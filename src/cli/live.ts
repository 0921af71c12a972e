// The services the command handlers use. Only the handlers (the *-run.ts files, loaded when their
// command runs) import this, so `--help` neither evaluates the readers, git and the composer nor
// builds them.
import * as Layer from "effect/Layer"
import { Composer } from "../services/Composer.js"
import { GraphReader } from "../services/GraphReader.js"
import { Impact } from "../services/Impact.js"

export const ServicesLive = Layer.mergeAll(GraphReader.Default, Impact.Default, Composer.Default)
