// expect(screen).toMatchGolden(name): writes a missing golden beside the test file's folder by
// default, passes an equal screen, fails a different one with the diff, and is counted in vitest's
// own snapshot summary (as vitest counts its snapshots: written, failed).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { goldenMatchers, suiteOf, type GoldenMatchers } from "../../src/golden/matcher.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";
import { counters, forgetGoldens } from "../support/golden-counts.js";

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T> extends GoldenMatchers<T> {}
}
expect.extend(goldenMatchers);

const dir = await mkdtemp(join(tmpdir(), "panescope-matcher-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const screen = (text: string): ScreenSnapshot => ({ cols: 8, rows: 1, cursorX: 0, cursorY: 0, cursorVisible: false, alternate: false, lines: [text], styles: [] });
describe("toMatchGolden", () => {
  it("writes a missing golden, then passes the same screen and fails another with the diff", async () => {
    const added = counters().added.total();
    await expect(screen("menu")).toMatchGolden("first", { dir, suite: "menu", ci: false, update: false });
    expect(await readFile(join(dir, "menu", "first.golden"), "utf8")).toContain("│menu    │");
    expect(counters().added.total()).toBe(added + 1);
    await expect(screen("menu")).toMatchGolden("first", { dir, suite: "menu", ci: false, update: false });
    const unmatched = counters().unmatched.total();
    await expect(expect(screen("MENU")).toMatchGolden("first", { dir, suite: "menu", ci: false, update: false })).rejects.toThrow(/-│menu {4}│\n\+│MENU {4}│/);
    expect(counters().unmatched.total()).toBe(unmatched + 1);
    forgetGoldens();
  });

  it("adds a failing golden to the report folder, one page for every failure, and names the page in the message", async () => {
    const report = join(dir, "report");
    const options = { dir, suite: "reported", ci: false, update: false, report };
    await expect(screen("one")).toMatchGolden("a", options);
    await expect(screen("two")).toMatchGolden("b", options);
    await expect(expect(screen("ONE")).toMatchGolden("a", options)).rejects.toThrow(`report: ${join(report, "index.html")}`);
    await expect(expect(screen("TWO")).toMatchGolden("b", options)).rejects.toThrow(/report: /);
    forgetGoldens();
    const page = await readFile(join(report, "index.html"), "utf8");
    expect(page.match(/<section class="item fail"/g)).toHaveLength(2);
    expect(page).toContain("matcher.test.ts › toMatchGolden &gt; adds a failing golden");
    expect(page.match(/class="diff"/g)).toHaveLength(4);
  });

  it("refuses .not: a golden says what the screen must be", async () => {
    await expect(expect(screen("x")).not.toMatchGolden("x", { dir, suite: "menu" })).rejects.toThrow(/cannot be negated/);
  });

  it("names the suite after the test file", () => {
    expect(suiteOf("/p/test/menu.test.ts")).toBe("menu");
    expect(suiteOf("a/b.spec.mjs")).toBe("b");
    expect(suiteOf("plain.js")).toBe("plain");
  });
});
