// The tmux version matrix misses no test: every test file that starts a private tmux server (the
// fixture's startServer) is in TMUX_DEPENDENT, so CI runs it on every tmux version.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { matchesAny, TMUX_DEPENDENT } from "./tmux-dependent.js";

const ROOT = resolve(import.meta.dirname, "..");

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : path.endsWith(".test.ts") ? [relative(ROOT, path)] : [];
  });
}

describe("the tmux version matrix", () => {
  const files = testFiles(join(ROOT, "test"));

  it("lists every test file that starts a tmux server", () => {
    const starting = files.filter((file) => /\bstartServer\(/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(starting.length).toBeGreaterThan(10);
    expect(starting.filter((file) => !matchesAny(file, TMUX_DEPENDENT))).toEqual([]);
  });

  it("lists no file that is not there", () => {
    for (const glob of TMUX_DEPENDENT) expect(files.some((file) => matchesAny(file, [glob])), glob).toBe(true);
  });

  it("reads globs as vitest does: ** any folders, * within one", () => {
    expect(matchesAny("test/integration/a.test.ts", ["test/integration/**/*.test.ts"])).toBe(true);
    expect(matchesAny("test/integration/faults/a.test.ts", ["test/integration/**/*.test.ts"])).toBe(true);
    expect(matchesAny("test/mcp/a.test.ts", ["test/integration/**/*.test.ts"])).toBe(false);
    expect(matchesAny("test/mcp/server.test.ts", ["test/mcp/server.test.ts"])).toBe(true);
    expect(matchesAny("test/mcp/serverXtest.ts", ["test/mcp/server.test.ts"])).toBe(false);
  });
});
