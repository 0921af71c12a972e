// Entry of the worker threads that parse a large corpus (src/node/extractAll.ts), bundled
// apart as bin/specbundle-worker.cjs: it holds the readers and none of the CLI, so a worker does
// not evaluate Effect's and @effect/cli's modules before its first file (~0.1 s a worker).
import { runExtractWorker } from "./node/workerThread.js"

if (!runExtractWorker()) {
  process.stderr.write("specbundle: bin/specbundle-worker.cjs runs only as a worker thread of bin/specbundle.js\n")
  process.exitCode = 1
}
