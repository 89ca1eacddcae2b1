#!/usr/bin/env node
// Builds dist/ as `npm run build` does (tsc, then the CLI bundle) only when it is older than src/:
// `npm run demo`, `golden` and `bench` ran tsc every time (about 2 minutes on a slow machine, for a
// demo of 15 s). Stale means a source (or a tsconfig) is newer than the oldest output of a source,
// a source has no output yet, or dist/cli.js is tsc's and not the bundle (a build stopped between
// the two, or tsc run alone).
// Usage: node scripts/build-if-stale.mjs (from the repository root, as npm runs it).
import { spawnSync } from "node:child_process";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { MARK, OUTPUT } from "./bundle-cli.mjs";

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
  if (newest.mtime > oldestOutput) return `${relative(root, newest.path)} is newer than dist/`;
  return isBundle(join(root, OUTPUT)) ? undefined : `${OUTPUT} is not the bundle`;
}

/** Whether the file's second line (after the shebang) is the bundle's mark. */
function isBundle(path) {
  const head = Buffer.alloc(256);
  const fd = openSync(path, "r");
  try {
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString("utf8");
    return text.split("\n")[1] === MARK;
  } finally {
    closeSync(fd);
  }
}

function main() {
  const root = process.cwd();
  const reason = staleReason(root);
  if (reason === undefined) return 0;
  process.stderr.write(`building dist/: ${reason}\n`);
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) return result.status ?? 1;
  return spawnSync(process.execPath, [join(root, "scripts/bundle-cli.mjs")], { cwd: root, stdio: "inherit" }).status ?? 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
