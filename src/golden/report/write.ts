// Writes a golden report folder: each failing tape's recording as `<tape name>.cast` and the page,
// `index.html`, through a temporary file and a rename (a reader never sees half a page).

import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { PanescopeError } from "../../errors.js";
import type { TapeResult } from "../run.js";
import { tapeItems } from "./build.js";
import { reportPage, type ReportItem } from "./page.js";

export const REPORT_PAGE = "index.html";

/** Writes `text` to `path` atomically. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** A file name for each failing tape's cast, unique in the folder (two tapes may share a name). */
function castNames(results: readonly TapeResult[]): Map<TapeResult, string> {
  const names = new Map<TapeResult, string>();
  const taken = new Set<string>();
  for (const result of results) {
    if (result.passed || result.cast === undefined) continue;
    const base = basename(result.path, ".tape").replace(/[^A-Za-z0-9._-]/g, "_");
    let name = `${base}.cast`;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}.cast`;
    taken.add(name);
    names.set(result, name);
  }
  return names;
}

export interface WrittenReport {
  /** The page, when one was asked for. */
  page?: string;
  casts: string[];
  items: number;
}

/** The failing tapes' recordings into `dir`, and the page unless `page` is false (--record alone). */
export async function writeGoldenReport(dir: string, results: readonly TapeResult[], options: { page: boolean; when: Date }): Promise<WrittenReport> {
  try {
    await mkdir(dir, { recursive: true });
    const names = castNames(results);
    const casts: string[] = [];
    for (const [result, name] of names) {
      await writeAtomic(join(dir, name), result.cast ?? "");
      casts.push(join(dir, name));
    }
    const items: ReportItem[] = [];
    if (options.page) for (const result of results) if (!result.passed) items.push(...(await tapeItems(result, names.get(result))));
    if (!options.page) return { casts, items: 0 };
    const passed = results.filter((r) => r.passed).length;
    const page = join(dir, REPORT_PAGE);
    await writeAtomic(page, reportPage(items, { passed, failed: results.length - passed, when: options.when.toISOString() }));
    return { page, casts, items: items.length };
  } catch (error) {
    if (error instanceof PanescopeError) throw error;
    throw new PanescopeError("golden", `cannot write the report into ${dir}: ${(error as Error).message} (choose another folder with --report DIR)`, { cause: error });
  }
}
