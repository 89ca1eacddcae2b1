// Which tapes `panescope golden PATH...` runs: every *.tape named or found under a folder, each once
// however it is spelled, in the order given.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findTapes } from "../../src/golden/main.js";
import { tapeDir } from "../support/golden-tapes.js";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const dir = await tapeDir({ "g/x.tape": "run x\n", "g/y.tape": "run y\n", "g/sub/z.tape": "run z\n" });
  dirs.push(dir);
  return dir;
}

describe("findTapes", () => {
  it("a tape given twice in different spellings runs once, under its first spelling", async () => {
    const dir = await folder();
    const first = join(dir, "g/x.tape");
    expect(await findTapes([first, `${dir}/./g/x.tape`, `${dir}/g/sub/../x.tape`])).toEqual([first]);
  });

  it("a tape named and also found under its folder runs once, in the place first given", async () => {
    const dir = await folder();
    expect(await findTapes([`${dir}/g/./y.tape`, join(dir, "g")])).toEqual([`${dir}/g/./y.tape`, join(dir, "g/sub/z.tape"), join(dir, "g/x.tape")]);
  });

  it("a file named that is not a *.tape is refused: its goldens would have no folder", async () => {
    const dir = await tapeDir({ "x.txt": "run x\n" });
    dirs.push(dir);
    await expect(findTapes([join(dir, "x.txt")])).rejects.toThrow(/x\.txt: not a \*\.tape file/);
  });
});
