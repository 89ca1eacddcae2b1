// The curses-menu case of issue 27: a program that hid its cursor (curs_set(0), here `tput civis`,
// the same terminfo string) moved that invisible cursor between two runs and its golden failed.
// A hidden cursor is now recorded as hidden, without a position: the second run passes. A visible
// cursor that moves still fails.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/golden/main.js";
import { parseCommand } from "../../../src/options.js";
import { captureIo, tapeDir } from "../../support/golden-tapes.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A menu drawn with the cursor hidden (or not), then the cursor parked at row;col. */
const menu = (hide: boolean, at: string): string =>
  [
    "size 20x5",
    `run ["sh", "-c", "${hide ? "tput civis; " : ""}printf '> one\\\\n  two\\\\n\\\\033[${at}H'; read x"]`,
    'wait "two"',
    "snapshot menu",
    "",
  ].join("\n");

async function golden(dir: string): Promise<{ code: number; text: string }> {
  const io = captureIo({ CI: "" });
  const command = parseCommand(["golden", dir], io.env);
  if (command.kind !== "golden") throw new Error(command.kind);
  return { code: await main(command.options, io), text: io.text() };
}

describe("a hidden cursor in a golden", () => {
  it("is written as hidden, and the invisible cursor moving does not fail the golden", async () => {
    const dir = await tapeDir({ "menu.tape": menu(true, "1;1") });
    dirs.push(dir);
    expect((await golden(dir)).code).toBe(0);
    const written = await readFile(join(dir, "menu/menu.golden"), "utf8");
    expect(written).toMatch(/^panescope golden v2\nname: menu\nsize: 20x5\ncursor: hidden\n/);
    await writeFile(join(dir, "menu.tape"), menu(true, "4;9"));
    const again = await golden(dir);
    expect(again.code, again.text).toBe(0);
    expect(await readFile(join(dir, "menu/menu.golden"), "utf8")).toBe(written);
  });

  it("still pins a visible cursor: moving it fails with the cursor line in the diff", async () => {
    const dir = await tapeDir({ "menu.tape": menu(false, "1;1") });
    dirs.push(dir);
    expect((await golden(dir)).code).toBe(0);
    await writeFile(join(dir, "menu.tape"), menu(false, "4;9"));
    const again = await golden(dir);
    expect(again.code).toBe(1);
    expect(again.text).toContain("-cursor: 0,0\n  +cursor: 8,3");
  });
});
