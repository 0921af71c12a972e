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
    projects: [project("core"), project("services"), project("cli"), project("entrances"), project("scripts")]
  }
})
