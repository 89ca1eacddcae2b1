// What the commands that write a file named with -o (record, shot, report) say about one they cannot write.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { surelyUnwritable, unwritable } from "../src/output-file.js";

const dir = mkdtempSync(join(tmpdir(), "panescope-output-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const notes = join(dir, "notes.txt");
writeFileSync(notes, "a file, not a folder\n");
mkdirSync(join(dir, "pictures"));

describe("a file named with -o that cannot be written", () => {
  it("a file where a folder of its path should be is named, not thrown as ENOTDIR", () => {
    const why = "is a file, not a folder: name a file in a folder you can write";
    expect(surelyUnwritable(join(notes, "pane.svg"), "pane.svg")).toBe(`${notes} ${why}`);
    expect(surelyUnwritable(join(notes, "deeper", "pane.svg"), "pane.svg")).toBe(`${notes} ${why}`);
    const opened = Object.assign(new Error(`ENOTDIR: not a directory, open '${join(notes, "pane.cast")}'`), { code: "ENOTDIR" });
    expect(unwritable(join(notes, "pane.cast"), opened, "pane.cast")).toBe(`${notes} ${why}`);
  });

  it("a file in a folder that is there is writable; one in a folder that is not says to create it", () => {
    expect(surelyUnwritable(join(dir, "pictures", "pane.svg"), "pane.svg")).toBeUndefined();
    expect(surelyUnwritable(join(dir, "none", "pane.svg"), "pane.svg")).toBe(`the folder ${join(dir, "none")} does not exist: create it, or name a file in a folder that does`);
  });
});
