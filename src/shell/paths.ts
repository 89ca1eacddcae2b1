// Where the shared daemon of one tmux server listens, and whether that place can be trusted. The
// socket lives in `$XDG_RUNTIME_DIR/panescope/` (else `.panescope/` beside the tmux server's own
// socket), a directory of ours with mode 0700: Node cannot ask a unix socket for its peer's uid
// (no SO_PEERCRED in node:net), so the directory is the check — only our uid (and root) can reach a
// socket in it. Both ends refuse a directory or socket owned by another user or open to others.
import type { Stats } from "node:fs";
import { fs, path as pathOps } from "../builtins.js";
import { PanescopeError } from "../errors.js";
import { tmuxEnv } from "../tmux/env.js";

const { chmodSync, lstatSync, mkdirSync } = fs;
const { dirname, isAbsolute, join, resolve } = pathOps;

export type Env = Readonly<Record<string, string | undefined>>;

/** Which tmux server: its socket as `-S PATH` or `-L NAME` (neither: the default, or $TMUX's). */
export interface ServerChoice {
  socketName?: string;
  socketPath?: string;
  tmux?: string;
}

export interface DaemonPaths {
  /** The tmux server's socket path, as tmux resolves it (the daemon is started with -S this). */
  tmuxSocket: string;
  dir: string;
  socket: string;
  /** Held (O_EXCL) by the one process starting the daemon. */
  lock: string;
  /** The daemon's stderr, appended to by each daemon in turn (start.ts). */
  log: string;
  /** Each reader's cursor per pane, so a restarted daemon answers them `missed: restarted`. */
  readers: string;
}

function uid(): number {
  return process.getuid?.() ?? 0;
}

/**
 * The socket tmux itself would use: -S (a relative path from here, as tmux takes it: the daemon
 * runs elsewhere), else -L in $TMUX_TMPDIR/tmux-UID, else $TMUX's, else "default".
 */
export function tmuxSocketOf(choice: ServerChoice, env: Env): string {
  if (choice.socketPath !== undefined) return resolve(choice.socketPath);
  const base = join(env.TMUX_TMPDIR || "/tmp", `tmux-${uid()}`);
  if (choice.socketName !== undefined) return join(base, choice.socketName);
  // tmux without -L/-S inside a pane talks to that pane's server.
  return tmuxEnv(env).socket ?? join(base, "default");
}

/**
 * 64 bits naming a socket path: two FNV-1a hashes with different offsets. Not node:crypto, whose
 * loading cost a `panescope read` 3–7 ms; a collision needs two of one user's tmux sockets.
 */
function nameOf(path: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (const byte of Buffer.from(path)) {
    a = Math.imul(a ^ byte, 0x01000193) >>> 0;
    b = Math.imul(b ^ byte, 0x01000193) >>> 0;
  }
  return `${a.toString(16).padStart(8, "0")}${b.toString(16).padStart(8, "0")}`;
}

/** The daemon's files for a tmux server: named by a hash of its socket path (a socket path is ≤ 107 bytes). */
export function daemonPaths(choice: ServerChoice, env: Env): DaemonPaths {
  const tmuxSocket = tmuxSocketOf(choice, env);
  const runtime = env.XDG_RUNTIME_DIR;
  // The XDG spec: a relative value is invalid and ignored.
  const dir = runtime !== undefined && isAbsolute(runtime) ? join(runtime, "panescope") : join(dirname(tmuxSocket), ".panescope");
  const name = nameOf(tmuxSocket);
  const at = (suffix: string): string => join(dir, `${name}.${suffix}`);
  return { tmuxSocket, dir, socket: at("sock"), lock: at("lock"), log: at("log"), readers: at("readers.jsonl") };
}

/** Why `stats` (of `what`) cannot be trusted, or undefined when it is ours and closed to others. */
function distrust(stats: Stats, what: string, closedMode: number): string | undefined {
  if (stats.uid !== uid()) return `${what} belongs to uid ${stats.uid}, not to you (uid ${uid()}): another user could answer or read your calls`;
  if ((stats.mode & closedMode) !== 0) return `${what} has mode ${(stats.mode & 0o777).toString(8)}: others may enter it; it must be 700`;
  return undefined;
}

function refuse(why: string, path: string): PanescopeError {
  return new PanescopeError("daemon", `refusing the daemon directory ${path}: ${why}. Remove it (or fix it: chmod 700, owned by you), or set XDG_RUNTIME_DIR to a directory of yours`);
}

/** The directory's own stats (never following a symlink); undefined when it is missing. */
function dirStats(dir: string): Stats | undefined {
  try {
    return lstatSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    throw new PanescopeError("daemon", `the daemon directory ${dir} cannot be read (${(error as Error).message})`, { cause: error });
  }
}

function checkDir(dir: string, stats: Stats): void {
  if (stats.isSymbolicLink() || !stats.isDirectory()) throw refuse("it is not a directory (a symlink is refused too)", dir);
  const why = distrust(stats, "it", 0o077);
  if (why !== undefined) throw refuse(why, dir);
}

/** Checks the directory (never following a symlink); throws a `daemon` error saying why it is refused. */
export function requireTrustedDir(dir: string): void {
  const stats = dirStats(dir);
  if (stats === undefined) throw new PanescopeError("daemon", `the daemon directory ${dir} cannot be read (it does not exist): run the command again to create it`);
  checkDir(dir, stats);
}

/**
 * Creates the directory 0700 if missing (its parent must exist: $XDG_RUNTIME_DIR or tmux's own),
 * then checks it. Looks before it creates: every call after the first is one lstat, no mkdir
 * failing with EEXIST (an error built and thrown on each `panescope read`).
 */
export function ensureTrustedDir(dir: string): void {
  const found = dirStats(dir);
  if (found !== undefined) return checkDir(dir, found);
  try {
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o700); // the umask may have taken bits away; never adds any
  } catch (error) {
    // EEXIST: a racing caller made it between our look and our mkdir; it is checked below all the same.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new PanescopeError("daemon", `cannot create the daemon directory ${dir} (${(error as Error).message}): set XDG_RUNTIME_DIR to a directory of yours`, { cause: error });
    }
  }
  requireTrustedDir(dir);
}

/** What is at the socket path: nothing, a socket of ours, or something refused (with why). */
export function socketState(path: string): "absent" | "ours" | { refused: string } {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return "absent";
  }
  if (!stats.isSocket()) return { refused: `${path} is not a socket: remove it` };
  const why = distrust(stats, "the socket", 0o077);
  return why === undefined ? "ours" : { refused: `${path}: ${why}` };
}

/** The caller's directory (open_pane starts there: the daemon runs in /), or undefined once it was removed. */
export function callerCwd(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
