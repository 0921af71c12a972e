import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// Tests are laid out like the code (README, "Contributing"): one vitest project per folder.
// `npm run test:fast` runs the pure core and the services (seconds to a minute); `npm test` runs
// every project, end-to-end CLI runs in real git repositories and the entrances included.
const project = (name: string) => ({ extends: true as const, test: { name, include: [`test/${name}/**/*.test.ts`] } })

export default defineConfig({
  test: {
    // CLI subprocesses get a temporary code cache folder, never the user's (test/support/code-cache-env.ts);
    // the worker's event loop turns between tests (test/support/event-loop.ts).
    setupFiles: ["test/support/code-cache-env.ts", "test/support/event-loop.ts"],
    // Every run builds bin/ and dist/ once before any test file, never "if missing": a stale bundle
    // must not pass (test/support/build-once.ts). The root's globalSetup is not inherited by the projects.
    globalSetup: ["test/support/build-once.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // At least two files at once, also on 2 cores (vitest's default there is one): the end-to-end
    // files spend much of their time waiting on subprocesses, sleeps and signals. One test must then
    // not hold its worker's event loop for long (spawnSync): vitest's RPC to it times out at 60 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [project("core"), project("node"), project("services"), project("usecases"), project("cli"), project("entrances"), project("scripts")]
  }
})
