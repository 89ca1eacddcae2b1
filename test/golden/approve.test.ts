// approve: one snapshot against its golden file. A hidden cursor pins no position (v2), a v1
// golden written before cursor visibility was recorded keeps passing until it is updated, and line
// ends an editor changed (CRLF, no final newline) do not fail a golden.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approve, type ApproveInput } from "../../src/golden/approve.js";
import { formatGolden } from "../../src/golden/format.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";

function menu(cursorX: number, cursorY: number, cursorVisible: boolean): ScreenSnapshot {
  return { cols: 10, rows: 3, cursorX, cursorY, cursorVisible, alternate: true, lines: ["> one", "  two", ""], styles: [] };
}

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panescope-approve-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const input = (screen: ScreenSnapshot, more: Partial<ApproveInput> = {}): ApproveInput => ({
  path: join(dir, "menu", "first.golden"),
  name: "first",
  screen,
  masks: [],
  colors: false,
  update: false,
  ci: false,
  ...more,
});

describe("approve", () => {
  it("passes a curses menu whose hidden cursor moved since the golden was written", async () => {
    expect((await approve(input(menu(0, 0, false)))).decision).toEqual({ kind: "written", reason: "new" });
    expect((await approve(input(menu(7, 2, false)))).decision).toEqual({ kind: "pass" });
  });

  it("fails when the cursor became visible, and says so in the diff", async () => {
    await approve(input(menu(0, 0, false)));
    const { decision } = await approve(input(menu(0, 0, true)));
    expect(decision.kind).toBe("fail");
    expect(decision.kind === "fail" ? decision.diff : "").toContain("-cursor: hidden\n+cursor: 0,0\n");
  });

  it("says a golden of a newer format needs a newer panescope, not only that the screen differs", async () => {
    const path = join(dir, "new.golden");
    await writeFile(path, formatGolden(menu(2, 1, false), { name: "first" }).replace("panescope golden v2", "panescope golden v3"));
    const { decision } = await approve(input(menu(2, 1, false), { path }));
    expect(decision.kind === "fail" ? decision.message : decision.kind).toMatch(/^\S+new\.golden is golden format v3, newer than this panescope reads \(v1 to v2\): upgrade panescope/);
  });

  it.each([
    ["without its final newline", (text: string) => text.slice(0, -1)],
    ["with CRLF line ends", (text: string) => text.replace(/\n/g, "\r\n")],
  ])("passes the same screen against a golden %s, leaves the file as it is, and an update writes LF with the final newline", async (_, edit) => {
    const path = join(dir, "edited.golden");
    const edited = edit(formatGolden(menu(2, 1, true), { name: "first" }));
    await writeFile(path, edited);
    expect((await approve(input(menu(2, 1, true), { path }))).decision).toEqual({ kind: "pass" });
    expect((await approve(input(menu(2, 1, true), { path, update: true }))).decision).toEqual({ kind: "pass" });
    expect(await readFile(path, "utf8")).toBe(edited);
    expect((await approve(input(menu(3, 1, true), { path, update: true }))).decision).toEqual({ kind: "written", reason: "updated" });
    expect(await readFile(path, "utf8")).toBe(formatGolden(menu(3, 1, true), { name: "first" }));
  });

  it("compares a v1 golden as v1 (it passes unchanged) and an update rewrites it as v2", async () => {
    const path = join(dir, "old.golden");
    const v1 = formatGolden(menu(2, 1, false), { name: "first", version: 1 });
    await writeFile(path, v1);
    expect((await approve(input(menu(2, 1, false), { path }))).decision).toEqual({ kind: "pass" });
    expect(await readFile(path, "utf8")).toBe(v1);
    expect((await approve(input(menu(3, 1, false), { path, update: true }))).decision).toEqual({ kind: "written", reason: "updated" });
    expect(await readFile(path, "utf8")).toContain("panescope golden v2\nname: first\nsize: 10x3\ncursor: hidden\n");
  });
});
