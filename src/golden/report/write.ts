// Writes a golden report folder: each failing tape's recording as `<tape name>.cast` and the page,
// `index.html`, through a temporary file and a rename (a reader never sees half a page). A manifest
// lists what the report wrote, so the next one removes exactly those files it does not write again
// (a recording of a tape that now passes would look current): the folder is the user's, and no
// other file in it is ever removed.

import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { PanescopeError } from "../../errors.js";
import type { TapeResult } from "../run.js";
import { tapeItems } from "./build.js";
import { reportPage, type ReportItem } from "./page.js";

export const REPORT_PAGE = "index.html";
/** The files the last report wrote into its folder: `{ "version": 1, "files": [names] }`. */
export const REPORT_MANIFEST = ".panescope-report.json";

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

/**
 * The files an earlier report listed, only names a report writes (the page, `*.cast` in the folder
 * itself): a manifest edited by hand, or unreadable, never makes it remove another file.
 */
async function listedFiles(dir: string): Promise<string[]> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, REPORT_MANIFEST), "utf8")) as { files?: unknown };
    const files = Array.isArray(manifest.files) ? manifest.files : [];
    return files.filter((name): name is string => typeof name === "string" && (name === REPORT_PAGE || /^[A-Za-z0-9._-]+\.cast$/.test(name)));
  } catch {
    return [];
  }
}

async function writeManifest(dir: string, files: readonly string[]): Promise<void> {
  await writeAtomic(join(dir, REPORT_MANIFEST), `${JSON.stringify({ version: 1, files: [...files].sort() })}\n`);
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
    const earlier = await listedFiles(dir);
    const files = [...names.values(), ...(options.page ? [REPORT_PAGE] : [])];
    // Listed before they are written: a report stopped part way leaves nothing the next one does not know.
    await writeManifest(dir, [...new Set([...earlier, ...files])]);
    const casts: string[] = [];
    for (const [result, name] of names) {
      await writeAtomic(join(dir, name), result.cast ?? "");
      casts.push(join(dir, name));
    }
    let written: WrittenReport = { casts, items: 0 };
    if (options.page) {
      const items: ReportItem[] = [];
      for (const result of results) if (!result.passed) items.push(...(await tapeItems(result, names.get(result))));
      const passed = results.filter((r) => r.passed).length;
      const page = join(dir, REPORT_PAGE);
      await writeAtomic(page, reportPage(items, { passed, failed: results.length - passed, when: options.when.toISOString() }));
      written = { page, casts, items: items.length };
    }
    for (const name of earlier) if (!files.includes(name)) await rm(join(dir, name), { force: true });
    await writeManifest(dir, files);
    return written;
  } catch (error) {
    if (error instanceof PanescopeError) throw error;
    throw new PanescopeError("golden", `cannot write the report into ${dir}: ${(error as Error).message} (choose another folder with --report DIR)`, { cause: error });
  }
}
