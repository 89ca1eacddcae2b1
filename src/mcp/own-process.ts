// The pane panescope runs in, found from what the process is rather than what its environment says:
// MCP clients often start servers with a minimal environment (no TMUX, no TMUX_PANE), yet a process
// in a pane still descends from the pane's process (#{pane_pid}) or has the pane's terminal
// (#{pane_tty}) as its controlling terminal or on its stdio. Linux /proc; elsewhere nothing is found
// this way and the environment alone decides (docs/security.md).
import { readFileSync, readlinkSync, statSync } from "node:fs";

/** What this process is, as far as a tmux pane could hold it. */
export interface ProcessSelf {
  /** This process and its ancestors (pids above 1), nearest first. */
  lineage: number[];
  /** Terminals this process has: its controlling terminal and any on stdin/stdout/stderr ("major:minor"). */
  ttys: Set<string>;
}

/** Reads `ProcessSelf` from /proc (empty where there is no /proc). Cheap: a few small files. */
export function readSelf(proc = "/proc", pid = process.pid): ProcessSelf {
  const lineage: number[] = [];
  const ttys = new Set<string>();
  let current = pid;
  // Bounded: a pid cycle cannot happen, a very deep tree is not a pane's business past 256.
  for (let i = 0; i < 256 && current > 1; i++) {
    const stat = statLine(proc, current);
    if (stat === undefined) break;
    lineage.push(current);
    if (i === 0 && stat.ttyNr !== 0) ttys.add(ttyNrDevice(stat.ttyNr));
    current = stat.ppid;
  }
  for (const fd of [0, 1, 2]) {
    const device = charDevice(`${proc}/${pid}/fd/${fd}`);
    if (device !== undefined) ttys.add(device);
  }
  return { lineage, ttys };
}

/** Whether a pane with process `panePid` and terminal `paneTty` (a path) holds this process. */
export function holds(self: ProcessSelf, panePid: number, paneTty: string): boolean {
  if (Number.isInteger(panePid) && panePid > 1 && self.lineage.includes(panePid)) return true;
  if (self.ttys.size === 0 || paneTty === "") return false;
  const device = charDevice(paneTty);
  return device !== undefined && self.ttys.has(device);
}

/** `ppid` and `tty_nr` of /proc/PID/stat; the command name (field 2) may contain spaces and `)`. */
export function parseStat(text: string): { ppid: number; ttyNr: number } | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  // After the name: state ppid pgrp session tty_nr …
  const [, ppid, , , ttyNr] = text.slice(close + 2).split(" ");
  const parsed = { ppid: Number(ppid), ttyNr: Number(ttyNr) };
  return Number.isInteger(parsed.ppid) && Number.isInteger(parsed.ttyNr) ? parsed : undefined;
}

/** The kernel's encoding of tty_nr (new_encode_dev) as "major:minor". */
export function ttyNrDevice(ttyNr: number): string {
  const major = (ttyNr >>> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >>> 12) & 0xfff00);
  return `${major}:${minor}`;
}

/** glibc's dev_t (stat's rdev) as "major:minor". */
export function rdevDevice(rdev: bigint): string {
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}

function statLine(proc: string, pid: number): { ppid: number; ttyNr: number } | undefined {
  try {
    return parseStat(readFileSync(`${proc}/${pid}/stat`, "latin1"));
  } catch {
    return undefined;
  }
}

/** The device of a character device (a terminal), following links; undefined for anything else. */
function charDevice(path: string): string | undefined {
  try {
    // A pipe or socket on stdio (an MCP client's) or /dev/null is not a terminal: only ttys count.
    if (path.includes("/fd/") && !/^\/dev\/(pts\/|tty)/.test(readlinkSync(path))) return undefined;
    const stat = statSync(path, { bigint: true });
    return stat.isCharacterDevice() && stat.rdev !== 0n ? rdevDevice(stat.rdev) : undefined;
  } catch {
    return undefined;
  }
}
