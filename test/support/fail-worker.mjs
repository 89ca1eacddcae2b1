// Preloaded (`node --import`) into a run of the built CLI: every worker thread fails as it starts,
// the main thread runs as usual (test/integration/mcp/engine-thread.test.ts: a failed engine).
import { isMainThread } from "node:worker_threads";

if (!isMainThread) throw new Error("injected failure of a worker thread");
