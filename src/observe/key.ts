// The cursor key's store, the only file observe/ touches. The key outlives the process so that a
// genuine cursor from an earlier panescope still verifies (and is answered as "restarted") while an
// altered one is an error; when it cannot be stored, a per-process key is used and we say so.
//
// Decisions on an existing `cursor-key`:
// - 32 bytes, regular file: used. If group/world bits are set it is chmod-ed to 0600 with a warning
//   and kept: the key only authenticates read positions (a forged cursor reaches nothing a caller
//   could not read without one), so keeping old cursors valid outweighs rotating.
// - wrong size or not a regular file: we never wrote it, so no genuine cursor depends on it; it is
//   replaced (warning), unlinked only if it is still the same inode we judged.
// Creation is race-free: write a temp file (0600), then link() it to the final name; link fails if
// another process won, and the loser reads the winner's key.

import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const KEY_BYTES = 32;
export const KEY_FILE = "cursor-key";

export interface CursorKeyOptions {
  /** Directory holding `cursor-key`; default `$XDG_STATE_HOME/panescope` or `~/.local/state/panescope`. */
  dir?: string;
  env?: Record<string, string | undefined>;
  warn?: (message: string) => void;
  /** Source of key bytes (a seam for tests). */
  random?: (size: number) => Uint8Array;
}

export interface CursorKey {
  key: Uint8Array;
  /** False when the key lives only in this process (cursors will not survive a restart). */
  persistent: boolean;
  path?: string;
}

export function defaultKeyDir(env: Record<string, string | undefined> = process.env): string {
  const state = env.XDG_STATE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  if (state !== undefined && state.startsWith("/")) return join(state, "panescope");
  return join(env.HOME || homedir(), ".local", "state", "panescope");
}

export function loadCursorKey(options: CursorKeyOptions = {}): CursorKey {
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`${message}\n`));
  const random = options.random ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const dir = options.dir ?? defaultKeyDir(options.env);
  const path = join(dir, KEY_FILE);
  try {
    // A few rounds: a concurrent process may replace a bad file between our read and our link.
    for (let round = 0; round < 3; round++) {
      const existing = readExisting(path, warn);
      if (existing.key) return { key: existing.key, persistent: true, path };
      const key = random(KEY_BYTES);
      if (createKey(dir, path, key, existing.badInode)) return { key, persistent: true, path };
    }
    throw new Error("the key file keeps changing");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    warn(`panescope: cannot store the cursor key in ${dir} (${why}): cursors will not survive a restart`);
    return { key: random(KEY_BYTES), persistent: false };
  }
}

/** The stored key, or why there is none: absent, or present but unusable (its inode). */
function readExisting(path: string, warn: (message: string) => void): { key?: Uint8Array; badInode?: number } {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    if (isCode(error, "ENOENT")) return {};
    if (isCode(error, "ELOOP")) return { badInode: fs.lstatSync(path).ino }; // a symlink: never follow
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size !== KEY_BYTES) {
      warn(`panescope: ${path} is not a ${KEY_BYTES}-byte key file: replacing it`);
      return { badInode: stat.ino };
    }
    const key = new Uint8Array(KEY_BYTES);
    if (fs.readSync(fd, key, 0, KEY_BYTES, 0) !== KEY_BYTES) return { badInode: stat.ino };
    if ((stat.mode & 0o077) !== 0) {
      fs.fchmodSync(fd, 0o600);
      warn(`panescope: ${path} was readable by others: its mode is now 0600`);
    }
    return { key };
  } finally {
    fs.closeSync(fd);
  }
}

/** Publishes `key` at `path` unless another process got there first (then returns false). */
function createKey(dir: string, path: string, key: Uint8Array, badInode: number | undefined): boolean {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (badInode !== undefined) {
    try {
      if (fs.lstatSync(path).ino === badInode) fs.unlinkSync(path);
    } catch (error) {
      if (!isCode(error, "ENOENT")) throw error;
    }
  }
  const temp = join(dir, `.${KEY_FILE}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = fs.openSync(temp, "wx", 0o600);
  try {
    fs.writeSync(fd, key);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, path);
    return true;
  } catch (error) {
    if (isCode(error, "EEXIST")) return false;
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
