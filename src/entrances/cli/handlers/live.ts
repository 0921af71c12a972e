// The services the command handlers use. Only the handlers (the *-run.ts files, loaded when their
// command runs) import this, so `--help` neither evaluates the readers, git and the composer nor
// builds them. What they run on (the worker pool, the parse cache: src/node/runtime.ts) is
// src/bin.ts's to provide, once for the process.
import { UseCasesLive } from "../../../usecases/layer.js"

/** The use cases, as every entrance has them (src/usecases/layer.ts). */
export const ServicesLive = UseCasesLive
