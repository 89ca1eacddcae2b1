// Test runner settings: integration tests start real tmux servers, so they get generous timeouts
// and run in forks (each test file owns its private tmux servers); dist/ is built first when stale.
import { defineConfig } from "vitest/config";
import { TEST_FILES_AT_ONCE } from "./test/workers.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["./test/support/build-dist.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    maxWorkers: TEST_FILES_AT_ONCE,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
