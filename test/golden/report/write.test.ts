// Writing a report folder: the page and the failing tapes' recordings, and a manifest of them, so a
// later report removes what an earlier one wrote there and does not write again — and nothing else.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPORT_MANIFEST, writeGoldenReport } from "../../../src/golden/report/write.js";
import type { TapeResult } from "../../../src/golden/run.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function folder(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "panescope-report-write-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const cast = `${JSON.stringify({ version: 2, width: 6, height: 1 })}\n[0.1,"o","hi"]\n`;

/** A tape's result: failed (with its recording) or passed. */
function result(tape: string, passed: boolean): TapeResult {
  return { path: `golden/${tape}.tape`, snapshots: [], ...(passed ? {} : { error: `golden/${tape}.tape:3 (wait): "x" did not appear` }), cast, passed, ms: 1 };
}

const files = async (dir: string): Promise<string[]> => (await readdir(dir)).sort();

describe("writeGoldenReport", () => {
  it("removes the recordings and page an earlier report wrote that this one does not write again, and nothing else", async () => {
    // The user's notes, and a recording no report of this folder listed (kept: never ours to remove).
    const dir = await folder({ "notes.txt": "mine", "old.cast": "not listed" });
    const when = new Date(0);
    await writeGoldenReport(dir, [result("menu", false), result("order", false)], { page: true, when });
    expect(await files(dir)).toEqual([REPORT_MANIFEST, "index.html", "menu.cast", "notes.txt", "old.cast", "order.cast"]);

    // menu now passes: its recording from the first run must not look current.
    await writeGoldenReport(dir, [result("menu", true), result("order", false)], { page: true, when });
    expect(await files(dir)).toEqual([REPORT_MANIFEST, "index.html", "notes.txt", "old.cast", "order.cast"]);

    // --record alone, everything passes: no page and no recording is current any more.
    await writeGoldenReport(dir, [result("menu", true), result("order", true)], { page: false, when });
    expect(await files(dir)).toEqual([REPORT_MANIFEST, "notes.txt", "old.cast"]);
  });

  it("removes only names it could have written there: a manifest naming other files or other folders is not followed", async () => {
    const dir = await folder({ "notes.txt": "mine", "menu.cast": "listed" });
    const outside = await folder({ "keep.cast": "outside" });
    const listed = ["notes.txt", "../", join("..", outside.split("/").at(-1) ?? "", "keep.cast"), `${outside}/keep.cast`, "menu.cast"];
    await writeFile(join(dir, REPORT_MANIFEST), JSON.stringify({ version: 1, files: listed }));
    await writeGoldenReport(dir, [], { page: false, when: new Date(0) });
    expect(await files(dir)).toEqual([REPORT_MANIFEST, "notes.txt"]);
    expect(await files(outside)).toEqual(["keep.cast"]);
  });

  it("removes nothing when the manifest cannot be read", async () => {
    const dir = await folder({ "menu.cast": "kept", [REPORT_MANIFEST]: "{ not json" });
    await writeGoldenReport(dir, [], { page: false, when: new Date(0) });
    expect(await files(dir)).toEqual([REPORT_MANIFEST, "menu.cast"]);
  });
});
