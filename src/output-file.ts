// A file named with -o that cannot be written: what is there and what to do, said alike by the
// commands that write one (record's cast, shot's picture, report's page).
import type { Stats } from "node:fs";
import { fs, path as paths } from "./builtins.js";
import { messageOf } from "./errors.js";

const { existsSync, statSync } = fs;
const { dirname, join } = paths;

/**
 * What to do about `path`, which failed with `error`; `file` names a file for the example
 * (`pane.cast`). ENOENT also comes from a folder that exists but makes no files (/proc), and
 * EISDIR from a name ending in "/" whether or not that folder exists: each says what is there.
 */
export function unwritable(path: string, error: unknown, file: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" && !existsSync(dirname(path))) return `the folder ${dirname(path)} does not exist: create it, or name a file in a folder that does`;
  if (code === "EISDIR" && existsSync(path)) return `it is a folder: name a file in it (-o ${join(path, file)})`;
  if (code === "EISDIR") return `the folder ${path} does not exist, and -o names a file: create it and name a file in it (-o ${join(path, file)})`;
  const blocking = code === "ENOTDIR" ? fileInTheWay(dirname(path)) : undefined;
  if (blocking !== undefined) return `${blocking} is a file, not a folder: name a file in a folder you can write`;
  return `${messageOf(error)}: name a file in a folder you can write`;
}

/** What is at `path`: undefined where nothing is, also when a folder on the way is a file (ENOTDIR). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** The file that stands where `folder` or a folder above it should be (`-o notes.txt/pane.svg`), if any. */
function fileInTheWay(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    const found = statOf(at);
    if (found !== undefined) return found.isDirectory() ? undefined : at;
    if (dirname(at) === at) return undefined;
  }
}

/** Why `path` surely cannot be written, found without creating it (before any work), or undefined. */
export function surelyUnwritable(path: string, file: string): string | undefined {
  const folder = dirname(path);
  if (path.endsWith("/") || statOf(path)?.isDirectory()) {
    return unwritable(path, Object.assign(new Error("is a folder"), { code: "EISDIR" }), file);
  }
  const blocking = fileInTheWay(folder);
  if (blocking !== undefined) return `${blocking} is a file, not a folder: name a file in a folder you can write`;
  if (statOf(folder) === undefined) return unwritable(path, Object.assign(new Error("no such folder"), { code: "ENOENT" }), file);
  return undefined;
}
