// A file named with -o that cannot be written: what is there and what to do, said alike by the
// commands that write one (record's cast, shot's picture, report's page).
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
  return `${messageOf(error)}: name a file in a folder you can write`;
}

/** Why `path` surely cannot be written, found without creating it (before any work), or undefined. */
export function surelyUnwritable(path: string, file: string): string | undefined {
  const folder = dirname(path);
  if (path.endsWith("/") || statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    return unwritable(path, Object.assign(new Error("is a folder"), { code: "EISDIR" }), file);
  }
  const parent = statSync(folder, { throwIfNoEntry: false });
  if (parent === undefined) return unwritable(path, Object.assign(new Error("no such folder"), { code: "ENOENT" }), file);
  if (!parent.isDirectory()) return `${folder} is not a folder: name a file in a folder you can write`;
  return undefined;
}
