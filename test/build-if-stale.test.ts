// scripts/build-if-stale.mjs, which `npm run demo`, `golden` and `bench` run first: dist/ is built
// again only when a source or a tsconfig is newer than it, a source has no output yet, or dist/cli.js
// is not the bundle.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MARK } from "../scripts/bundle-cli.mjs";
import { staleReason } from "../scripts/build-if-stale.mjs";

let root: string;

/** Writes `path` under the root with its modification time `seconds` after the epoch. */
function file(path: string, seconds: number, text = ""): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  utimesSync(full, seconds, seconds);
}

function project(): void {
  root = mkdtempSync(join(tmpdir(), "panescope-stale-"));
  file("tsconfig.json", 100);
  file("src/cli.ts", 100);
  file("src/mcp/main.ts", 100);
  file("dist/cli.js", 200, `#!/usr/bin/env node\n${MARK}\n`);
  file("dist/mcp/main.js", 200);
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("build-if-stale", () => {
  it("a dist/ newer than every source is up to date", () => {
    project();
    expect(staleReason(root)).toBeUndefined();
  });

  it("a source edited after the build makes dist/ stale, naming the source", () => {
    project();
    file("src/mcp/main.ts", 300);
    expect(staleReason(root)).toBe("src/mcp/main.ts is newer than dist/");
  });

  it("a source without output (a new file) makes dist/ stale", () => {
    project();
    file("src/watch/hub.ts", 50);
    expect(staleReason(root)).toBe("dist/watch/hub.js is missing");
  });

  it("a tsconfig edited after the build makes dist/ stale", () => {
    project();
    file("tsconfig.json", 300);
    expect(staleReason(root)).toBe("tsconfig.json is newer than dist/");
  });

  it("an output older than its source counts even when others are newer (an interrupted build)", () => {
    project();
    file("dist/cli.js", 90, `#!/usr/bin/env node\n${MARK}\n`);
    expect(staleReason(root)).toBe("src/cli.ts is newer than dist/");
  });

  it("a dist/cli.js from tsc alone, not bundled, makes dist/ stale", () => {
    project();
    file("dist/cli.js", 200, "#!/usr/bin/env node\n// The `panescope` command\n");
    expect(staleReason(root)).toBe("dist/cli.js is not the bundle");
  });
});
