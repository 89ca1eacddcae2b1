// The cursor key's store, the only file observe/ touches. The key outlives the process so that a
// genuine cursor from an earlier panescope still verifies (and is answered as "restarted") while an
// altered one is an error; when it cannot be stored, a per-process key is used and we say so.
//
// An existing `cursor-key` is used only if, checked on the open descriptor (never by path), it is a
// regular file of 32 bytes with one link, owned by us, with no group/other permission bits. It is
// opened with O_NOFOLLOW|O_NONBLOCK: a symlink is never followed and a FIFO cannot block startup.
// Anything else is replaced by a fresh key (a warning says why): we never wrote such a file, or
// someone else could have read or swapped it, so no cursor worth keeping depends on it. The bad
// name is unlinked only if it is still the inode we judged.
// The directory must be ours: a group/world-writable one is tightened to 0700 (warning); one owned
// by another user is not used (per-process key, warning).
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
  /** The uid files must belong to (a seam for tests); default process.getuid(). */
  uid?: number;
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
  const me = options.uid ?? process.getuid?.();
  try {
    prepareDir(dir, me, warn);
    // A few rounds: a concurrent process may replace a bad file between our read and our link.
    for (let round = 0; round < 3; round++) {
      const existing = readExisting(dir, path, me);
      if (existing.key) return { key: existing.key, persistent: true, path };
      if (existing.bad) warn(`panescope: ${path} ${existing.bad.why}: replacing it with a new key (older cursors will be refused)`);
      const key = random(KEY_BYTES);
      if (createKey(dir, path, key, existing.bad?.ino)) return { key, persistent: true, path };
    }
    throw new Error("the key file keeps changing");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    warn(`panescope: cannot store the cursor key in ${dir} (${why}): cursors will not survive a restart`);
    return { key: random(KEY_BYTES), persistent: false };
  }
}

/** Creates the directory (0700) or checks an existing one: ours, and not writable by others. */
function prepareDir(dir: string, me: number | undefined, warn: (message: string) => void): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dir);
  if (!stat.isDirectory()) throw new Error("not a directory");
  if (me !== undefined && stat.uid !== me) throw new Error(`the directory belongs to uid ${stat.uid}, not to us (uid ${me})`);
  if ((stat.mode & 0o022) !== 0) {
    fs.chmodSync(dir, 0o700);
    warn(`panescope: ${dir} was writable by others (mode ${octal(stat.mode)}): its mode is now 0700`);
  }
}

interface Bad {
  ino: number;
  why: string;
}

/** The stored key, or why there is none: absent, or present but unusable (its inode and why). */
function readExisting(dir: string, path: string, me: number | undefined): { key?: Uint8Array; bad?: Bad } {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (isCode(error, "ENOENT")) return {};
    // Linux reports a symlink under O_NOFOLLOW as ELOOP; some systems as EMLINK or EFTYPE.
    if (isCode(error, "ELOOP") || isCode(error, "EMLINK") || isCode(error, "EFTYPE")) {
      return { bad: { ino: fs.lstatSync(path).ino, why: "is a symbolic link" } };
    }
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    // A second link may be a creator's temp file, just before it is removed: not a reason to replace.
    // If no temp file is there any more, the creator has finished and the link count is back to 1.
    const why = unusable(stat, me, () => publishing(dir, stat) || fs.fstatSync(fd).nlink === 1);
    if (why !== undefined) return { bad: { ino: stat.ino, why } };
    const key = new Uint8Array(KEY_BYTES);
    if (fs.readSync(fd, key, 0, KEY_BYTES, 0) !== KEY_BYTES) return { bad: { ino: stat.ino, why: "could not be read whole" } };
    return { key };
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a stat of the key file disqualifies it, or undefined when it is a key we could have written. */
function unusable(stat: fs.Stats, me: number | undefined, publishing: () => boolean): string | undefined {
  if (!stat.isFile()) return "is not a regular file";
  if (stat.nlink !== 1 && !(stat.nlink === 2 && publishing())) return `has ${stat.nlink} hard links (another name could change it)`;
  if (me !== undefined && stat.uid !== me) return `belongs to uid ${stat.uid}, not to us (uid ${me})`;
  if ((stat.mode & 0o077) !== 0) return `has mode ${octal(stat.mode)} (others could read or change it; ours is 0600)`;
  if (stat.size !== KEY_BYTES) return `is ${stat.size} bytes, not a ${KEY_BYTES}-byte key`;
  return undefined;
}

/**
 * True when the second link is a creator's temp file (createKey links it, then removes it): another
 * panescope is publishing this very key right now, which is not a reason to replace it.
 */
function publishing(dir: string, stat: fs.Stats): boolean {
  const prefix = `.${KEY_FILE}.`;
  return fs.readdirSync(dir).some((name) => {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) return false;
    try {
      const other = fs.lstatSync(join(dir, name));
      return other.ino === stat.ino && other.dev === stat.dev;
    } catch {
      return false; // removed meanwhile
    }
  });
}

const octal = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

/** Publishes `key` at `path` unless another process got there first (then returns false). */
function createKey(dir: string, path: string, key: Uint8Array, badInode: number | undefined): boolean {
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
