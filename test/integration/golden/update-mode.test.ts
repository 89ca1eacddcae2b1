// expectGolden in a real vitest: a changed screen fails, and `vitest -u` rewrites the golden the
// way it rewrites snapshots (unless CI=true, where nothing is ever written).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const dir = await mkdtemp(join(tmpdir(), "panescope-update-mode-"));
afterAll(() => rm(dir, { recursive: true, force: true }));
const golden = join(dir, "update-mode/greeting.golden");

function vitest(greeting: string, args: string[] = [], env: Record<string, string> = {}) {
  return execa(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "test/integration/golden/fixtures/vitest.config.ts", ...args], {
    cwd: ROOT,
    reject: false,
    env: { CI: "", PANESCOPE_UPDATE: "", GOLDEN_DIR: dir, GREETING: greeting, ...env },
  });
}

// One vitest process per step (each a few seconds); the steps build on each other, in order.
describe("expectGolden under vitest", () => {
  it("writes a missing golden", async () => {
    const first = await vitest("hello");
    expect(first.exitCode, first.stdout).toBe(0);
    expect(await readFile(golden, "utf8")).toContain("│hello               │");
  });

  it("fails a changed screen, saying how to update, and writes nothing", async () => {
    const changed = await vitest("howdy");
    expect(changed.exitCode).toBe(1);
    expect(changed.stdout + changed.stderr).toContain("re-run with --update (or vitest -u, or PANESCOPE_UPDATE=1)");
    expect(await readFile(golden, "utf8")).toContain("│hello");
  });

  it("vitest -u under CI=true still writes nothing", async () => {
    const ci = await vitest("howdy", ["-u"], { CI: "true" });
    expect(ci.exitCode).toBe(1);
    expect(await readFile(golden, "utf8")).toContain("│hello");
  });

  it("vitest -u rewrites the golden, as it rewrites snapshots", async () => {
    const update = await vitest("howdy", ["-u"]);
    expect(update.exitCode, update.stdout).toBe(0);
    expect(await readFile(golden, "utf8")).toContain("│howdy               │");
  });
});
