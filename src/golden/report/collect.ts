// The golden report for test runners (expectGolden, toMatchGolden): each failing golden adds its
// item to DIR/items/ and its recording to DIR, then the page is rebuilt from every item there, so
// test files in parallel workers all end up on one page. Empty DIR to start a fresh report.

import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PanescopeError } from "../../errors.js";
import { recordingOf } from "./build.js";
import { reportPage, type ReportItem } from "./page.js";
import { REPORT_PAGE, writeAtomic } from "./write.js";

const ITEMS = "items";

/** A file name from a suite and a snapshot name (both already safe for goldenPath). */
function itemName(suite: string, name: string): string {
  return `${suite}--${name}`.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** Adds one failing golden (and the session's recording, if any) to the report in `dir`; returns the page. */
export async function addToReport(dir: string, suite: string, item: ReportItem, cast?: string): Promise<string> {
  try {
    const base = itemName(suite, item.snapshot ?? "step");
    await mkdir(join(dir, ITEMS), { recursive: true });
    if (cast !== undefined) {
      await writeAtomic(join(dir, `${base}.cast`), cast);
      const recording = await recordingOf(cast, `${base}.cast`);
      if (recording !== undefined) item.recording = recording;
    }
    await writeAtomic(join(dir, ITEMS, `${base}.json`), JSON.stringify(item));
    const items: ReportItem[] = [];
    for (const file of (await readdir(join(dir, ITEMS))).filter((f) => f.endsWith(".json")).sort()) {
      // A file another worker is renaming into place, or a leftover of another version: skip it.
      const text = await readFile(join(dir, ITEMS, file), "utf8").catch(() => "");
      try {
        items.push(JSON.parse(text) as ReportItem);
      } catch {
        continue;
      }
    }
    const page = join(dir, REPORT_PAGE);
    await writeAtomic(page, reportPage(items, { failed: items.length, when: new Date().toISOString() }));
    return page;
  } catch (error) {
    throw new PanescopeError("golden", `cannot write the golden report into ${dir}: ${(error as Error).message} (set PANESCOPE_REPORT or the report option to a folder you can write)`, { cause: error });
  }
}
