// The test configs' global setup: builds dist/ when it is older than src/ (scripts/build-if-stale.mjs),
// so a test file run alone, after `npm ci` or an edit, runs the built CLI of the sources it tests
// (the CLI, daemon and demo tests run dist/cli.js). Under `npm test` dist/ was just built: a look, no build.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  const root = resolve(import.meta.dirname, "../..");
  const built = spawnSync(process.execPath, [resolve(root, "scripts/build-if-stale.mjs")], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error(`building dist/ failed (exit ${built.status ?? built.signal}): see the compiler's output above`);
}
