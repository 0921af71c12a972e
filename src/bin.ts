// Entry point of the bundled CLI: the program (src/entrances/cli/program.ts, the one tests also run
// in process) as the process (src/process.ts: its stdout, stderr, folder, environment and stdin, the
// worker threads, the loader's parse cache, signals and the exit; how the run ends, its stderr line
// and exit code, is src/entrances/cli/exit.ts). `mcp` requires a bundle of its own
// (bin/specbundle-mcp.cjs); the pre-commit hook's command lines have one too (src/hook.ts).
import { endOfExit } from "./entrances/cli/exit.js"
import { program } from "./entrances/cli/program.js"
import { runProcess } from "./process.js"

runProcess((runtime) => program(process.argv.slice(2), runtime), endOfExit)
