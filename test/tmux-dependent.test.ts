// The tmux version matrix misses no test: every test file that starts a private tmux server (the
// fixture's startServer) is in TMUX_DEPENDENT, so CI runs it on every tmux version; and
// `npm run test:unit` (every test not in the list) misses no pure one: a file listed outside
// test/integration/ starts a server.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { matchesAny, SAME_ON_EVERY_TMUX, TMUX_DEPENDENT } from "./tmux-dependent.js";

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

  it("lists, outside test/integration, only files that start a tmux server (the rest run in test:unit)", () => {
    const named = files.filter((file) => !file.startsWith("test/integration/") && matchesAny(file, TMUX_DEPENDENT));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((file) => !/\bstartServer\(/.test(readFileSync(join(ROOT, file), "utf8")))).toEqual([]);
  });

  it("lists every folder of test/integration, also ones added later (shell, evidence)", () => {
    for (const folder of ["watch", "faults", "mcp", "golden", "cli", "docs", "tmux", "fidelity", "shell", "evidence"]) {
      expect(matchesAny(`test/integration/${folder}/a.test.ts`, TMUX_DEPENDENT), folder).toBe(true);
    }
    expect(files.filter((file) => file.startsWith("test/integration/") && !matchesAny(file, TMUX_DEPENDENT))).toEqual([]);
  });

  it("runs once only files that exist, are tmux-dependent and say why (the rest of the list runs on every version)", () => {
    for (const [file, why] of Object.entries(SAME_ON_EVERY_TMUX)) {
      expect(files, file).toContain(file);
      expect(matchesAny(file, TMUX_DEPENDENT), file).toBe(true);
      expect(why.length, file).toBeGreaterThan(10);
    }
    // The fault cases issues ask for on every tmux stay in the matrix.
    for (const file of ["test/integration/shell/faults.test.ts", "test/integration/evidence/record.test.ts", "test/integration/faults/server.test.ts"]) {
      expect(Object.keys(SAME_ON_EVERY_TMUX)).not.toContain(file);
    }
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
