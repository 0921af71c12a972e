import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// Tests are laid out like the code (README, "Contributing"): one vitest project per folder.
// `npm run test:fast` runs the pure core and the services (seconds to a minute); `npm test` runs
// every project, end-to-end CLI runs in real git repositories and the entrances included.
const project = (name: string) => ({ extends: true as const, test: { name, include: [`test/${name}/**/*.test.ts`] } })

export default defineConfig({
  test: {
    // CLI subprocesses get a temporary code cache folder, never the user's (test/support/code-cache-env.ts).
    setupFiles: ["test/support/code-cache-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // At least two files at once: vitest's default (cores - 1) is one fork on a 2-core machine,
    // while most end-to-end time is a test waiting on a CLI or git subprocess (docs/decisions.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [project("core"), project("services"), project("cli"), project("entrances"), project("scripts")]
  }
})
