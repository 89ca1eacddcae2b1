// Whether a watched pane still runs the process its observer watches, read from /proc instead of
// asked of tmux. Output confirmed this way skips a question through a control client: on every echo
// of a key that was a round trip (≈0.4 ms on the 2-core VM) plus work in tmux and in two `tmux -C`
// relays, the largest part of wake latency beyond the echo itself (docs/benchmarks.md, figure 3).
// Linux only, and only where the tmux server is visibly this machine's; otherwise `find` gives
// undefined and watches ask tmux as before (confirm.ts).
//
// Why two facts prove that no respawn happened before the look (tmux 3.2a–3.7c spawn.c: a respawn
// closes the pane's pty master, then forks the new process on a new pty):
//  1. The server still holds the pane's pty master at the same fd (its fdinfo `tty-index` is the
//     pane's pts number). While anything still holds the old master (a child tmux has just forked,
//     before it closes its fds), the old pty lives on and a new one gets another index.
//  2. The pane's process is alive, the same one (start time), the server's child, and the pane's
//     pty is still its controlling terminal: when the last master closes, the kernel hangs the pty
//     up, which takes it away (seen here: a SIGHUP-ignoring shell survived `respawn-pane -k` with
//     tty_nr 0). An index is reused only after its pty is gone everywhere, so (2) fails then.
// Both are read after the output arrived, (1) before (2), through files kept open: a read of an
// open /proc file is one system call and always current (a dead process's stat fails to read;
// fdinfo looks the fd up in the server again), where opening walks /proc's paths every time.
import { closeSync, openSync, readdirSync, readlinkSync, readSync } from "node:fs";

/** The filesystem calls a look needs (a seam: tests give a made-up /proc). */
export interface ProcFiles {
  /** A small file's text, or undefined when it cannot be read. */
  read(path: string): string | undefined;
  list(path: string): string[];
  link(path: string): string | undefined;
  /** Opens a file to read again and again; undefined when it cannot. */
  open(path: string): number | undefined;
  /** An open file's text now (read from its start), or undefined when it cannot be read. */
  reread(handle: number): string | undefined;
  close(handle: number): void;
}

export interface PaneProcessIds {
  serverPid: number;
  panePid: number;
  /** #{pane_tty}, e.g. /dev/pts/3. */
  paneTty: string;
}

export class PaneProcess {
  private closed = false;

  private constructor(
    private readonly files: ProcFiles,
    private readonly ids: PaneProcessIds,
    /** The server's fdinfo of the pane's master, and the pane process's stat, kept open. */
    private readonly master: number,
    private readonly stat: number,
    private readonly index: number,
    private readonly ttyNr: number,
    private readonly start: string,
  ) {}

  /** Looks the pane up in /proc; undefined when the facts cannot be read or do not fit. */
  static find(ids: PaneProcessIds, files: ProcFiles = procFiles): PaneProcess | undefined {
    if (files === procFiles && process.platform !== "linux") return undefined;
    const index = ptsIndex(ids.paneTty);
    if (index === undefined || !Number.isSafeInteger(ids.serverPid) || !Number.isSafeInteger(ids.panePid)) return undefined;
    // The stat file is opened first and kept: what it says now and later is about this process.
    const statFile = files.open(`/proc/${ids.panePid}/stat`);
    if (statFile === undefined) return undefined;
    const stat = parseStat(files.reread(statFile));
    const fd = masterFd(files, ids, index, stat);
    const master = fd === undefined ? undefined : files.open(`/proc/${ids.serverPid}/fdinfo/${fd}`);
    if (master === undefined || stat === undefined) {
      files.close(statFile);
      return undefined;
    }
    return new PaneProcess(files, ids, master, statFile, index, stat.ttyNr, stat.start);
  }

  /** True only when the pane certainly still runs the same process on the same pty (see the top). */
  same(): boolean {
    if (this.closed) return false;
    if (masterIndex(this.files.reread(this.master)) !== this.index) return false;
    const stat = parseStat(this.files.reread(this.stat));
    return stat !== undefined && alive(stat) && stat.ppid === this.ids.serverPid && stat.ttyNr === this.ttyNr && stat.start === this.start;
  }

  /** Lets the open files go (the watch ended, or a look failed: it never succeeds again). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.files.close(this.master);
    this.files.close(this.stat);
  }
}

/** The server's fd holding the pane's pty master, when the pane's process fits (see the top). */
function masterFd(files: ProcFiles, ids: PaneProcessIds, index: number, stat: Stat | undefined): string | undefined {
  if (!stat || !alive(stat) || stat.ppid !== ids.serverPid || ptsOf(stat.ttyNr) !== index) return undefined;
  // Exactly one fd of the server must be this pty's master.
  let fd: string | undefined;
  for (const entry of files.list(`/proc/${ids.serverPid}/fd`)) {
    const target = files.link(`/proc/${ids.serverPid}/fd/${entry}`);
    if (target !== "/dev/ptmx" && target !== "/dev/pts/ptmx") continue;
    if (masterIndex(files.read(`/proc/${ids.serverPid}/fdinfo/${entry}`)) !== index) continue;
    if (fd !== undefined) return undefined;
    fd = entry;
  }
  return fd;
}

interface Stat {
  state: string;
  ppid: number;
  ttyNr: number;
  /** Start time in clock ticks since boot, as text (it can pass 2^53 only in theory; compared only). */
  start: string;
}

/** /proc/PID/stat: `pid (comm) state ppid pgrp session tty_nr … starttime(22) …`; comm may hold anything. */
export function parseStat(text: string | undefined): Stat | undefined {
  if (text === undefined) return undefined;
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  // Only the first 20 fields after the command: the rest of the line is not split (every look).
  const fields: string[] = [];
  for (let from = close + 2; fields.length < 20; ) {
    const end = text.indexOf(" ", from);
    fields.push(text.slice(from, end < 0 ? undefined : end));
    if (end < 0) break;
    from = end + 1;
  }
  const [state, ppid, , , ttyNr] = fields;
  const start = fields[19];
  if (state === undefined || ppid === undefined || ttyNr === undefined || start === undefined || !/^\d+$/.test(start)) return undefined;
  return { state, ppid: Number(ppid), ttyNr: Number(ttyNr), start };
}

/** The `tty-index:` line of a pty master's fdinfo (Linux 4.19+); undefined for any other file. */
export function masterIndex(text: string | undefined): number | undefined {
  const found = text === undefined ? null : /^tty-index:\s*(\d+)$/m.exec(text);
  return found ? Number(found[1]) : undefined;
}

/** N of /dev/pts/N. */
export function ptsIndex(tty: string): number | undefined {
  const found = /^\/dev\/pts\/(\d+)$/.exec(tty);
  return found ? Number(found[1]) : undefined;
}

/** The pts number a stat tty_nr names (Unix98 pty slaves: major 136, minor = N), else undefined. */
export function ptsOf(ttyNr: number): number | undefined {
  const major = (ttyNr >>> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >>> 12) & 0xfff00);
  return major === 136 ? minor : undefined;
}

function alive(stat: Stat): boolean {
  return stat.state !== "Z" && stat.state !== "X" && stat.state !== "x";
}

/** The real /proc. Its files are small and report size 0: one read from the start into a reused buffer. */
const buffer = Buffer.alloc(4096);
export const procFiles: ProcFiles = {
  read(path) {
    const handle = procFiles.open(path);
    if (handle === undefined) return undefined;
    try {
      return procFiles.reread(handle);
    } finally {
      procFiles.close(handle);
    }
  },
  open(path) {
    try {
      return openSync(path, "r");
    } catch {
      return undefined;
    }
  },
  reread(handle) {
    try {
      return buffer.toString("latin1", 0, readSync(handle, buffer, 0, buffer.length, 0));
    } catch {
      return undefined;
    }
  },
  close(handle) {
    try {
      closeSync(handle);
    } catch {
      // Already closed: nothing to let go.
    }
  },
  list(path) {
    try {
      return readdirSync(path);
    } catch {
      return [];
    }
  },
  link(path) {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  },
};
