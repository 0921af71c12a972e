import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // CLI subprocesses get a temporary code cache folder, never the user's (test/support/code-cache-env.ts).
    setupFiles: ["test/support/code-cache-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})
