#!/usr/bin/env node
// Builds dist/ with tsc only when it is older than src/: `npm run demo`, `golden` and `bench` ran
// tsc every time (about 2 minutes on a slow machine, for a demo of 15 s). Stale means a source
// (or a tsconfig) is newer than the oldest output of a source, or a source has no output yet.
// Usage: node scripts/build-if-stale.mjs (from the repository root, as npm runs it).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Why `root`'s dist/ must be built again, or undefined when it is up to date. */
export function staleReason(root) {
  const src = join(root, "src");
  let newest = { path: "", mtime: -Infinity };
  let oldestOutput = Infinity;
  for (const source of [...sources(src), ...CONFIGS.map((c) => join(root, c))]) {
    const mtime = mtimeOf(source);
    if (mtime === undefined) continue; // a tsconfig the repository does not have
    if (mtime > newest.mtime) newest = { path: source, mtime };
    if (!source.startsWith(src)) continue;
    const output = join(root, "dist", relative(src, source).replace(/\.ts$/, ".js"));
    const built = mtimeOf(output);
    if (built === undefined) return `${relative(root, output)} is missing`;
    oldestOutput = Math.min(oldestOutput, built);
  }
  return newest.mtime > oldestOutput ? `${relative(root, newest.path)} is newer than dist/` : undefined;
}

function main() {
  const root = process.cwd();
  const reason = staleReason(root);
  if (reason === undefined) return 0;
  process.stderr.write(`building dist/: ${reason}\n`);
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  return result.status ?? 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
