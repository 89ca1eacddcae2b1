// Whether a pane's foreground program is blocked reading its terminal ("ready for input"), seen
// from /proc on Linux; elsewhere nothing shows it and the answer says so. A prompt regex is fooled
// by a program that prints its prompt and then works (or sleeps) before it reads; the kernel is not.
//
// Measured on Linux 6.18 (tmux 3.3a pane, /proc/PID/wchan of the foreground process group):
//   bash, python3, vim at their prompt   S  poll_schedule_timeout  (pselect6/poll on the tty)
//   cat, `read` in sh                    S  wait_woken             (read(2) in n_tty_read)
//   `sleep 100`, a script sleeping       S  hrtimer_nanosleep      (its shell: do_wait)
//   a busy loop                          R  0
// So: ready when no process of the foreground group is running (R) or in the disk wait (D), and
// one of them holds the pane's tty open and sleeps in a read or a poll/select. Which fds a poll
// watches is not visible without reading the process's memory: a program polling a socket while it
// has the tty open counts as ready (the quiet period the caller adds covers most of the rest).
import type { TmuxServer } from "../tmux/server.js";
import { TmuxFormat } from "../tmux/format.js";
import { procFiles, ptsIndex, ptsOf, type ProcFiles } from "./confirm/pane-process.js";

export interface Readiness {
  /** undefined: nothing here shows it (no /proc, the pane's process unreadable). */
  ready: boolean | undefined;
  /** What the answer rests on: the kernel's view of the foreground process group, or nothing. */
  evidence: "proc" | "none";
  /** One line for a person: which process, in which state and wait channel. */
  detail: string;
}

/**
 * How long output should have been quiet, besides the /proc evidence, before a wait on `ready`
 * ends: a program that blocks on the terminal between two bursts (a redraw, a reply to a cursor
 * position query) is seen reading for a moment. Generous against an 8x slower machine, short
 * against a person's patience.
 */
export const READY_QUIET_MS = 200;

/** Kernel wait channels of a read(2) blocked on a tty (n_tty_read sleeps in wait_woken since 4.x). */
const READING = /^(n_tty_read|wait_woken|tty_read)$/;
/** Wait channels of poll/select/epoll: waiting for any of several fds, the tty among them. */
const POLLING = /^(poll_schedule_timeout(\.constprop\.\d+)?|do_select|core_sys_select|do_sys_poll|ep_poll|do_epoll_wait)$/;
/** Numbers of read and of select/pselect6 in /proc/PID/syscall, on the architectures we know. */
const CALLS: Partial<Record<string, { read: number[]; select: number[] }>> = {
  x64: { read: [0], select: [23, 270] },
  arm64: { read: [63], select: [72] },
};

export interface PaneTtyIds {
  panePid: number;
  /** #{pane_tty}, e.g. /dev/pts/3. */
  paneTty: string;
}

const IDS = new TmuxFormat({ paneId: "pane_id", panePid: "pane_pid", paneTty: "pane_tty" });

/**
 * Asks tmux for the pane's process and tty, then judges from /proc. Rejects as a tmux command does
 * (no server; an unknown pane on tmux 3.4+, where 3.3a prints nothing and this answers unknown).
 */
export async function paneReadiness(server: TmuxServer, paneId: string, files: ProcFiles = procFiles): Promise<Readiness> {
  if (files === procFiles && process.platform !== "linux") return noProc();
  const ids = await paneTtyIds(server, paneId);
  if (!ids) return { ready: undefined, evidence: "none", detail: `tmux did not report ${paneId}'s process` };
  return readiness(ids, files);
}

/** The pane's process and tty, asked of tmux once (a wait then looks at /proc alone); undefined if unknown. */
export async function paneTtyIds(server: TmuxServer, paneId: string): Promise<PaneTtyIds | undefined> {
  const found = await server.display(paneId, IDS);
  return found?.paneId === paneId ? { panePid: Number(found.panePid), paneTty: found.paneTty } : undefined;
}

interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  pgrp: number;
  ttyNr: number;
  tpgid: number;
}

/** The judgement itself, from the pane's ids and /proc (a seam: tests give a made-up /proc). */
export function readiness(ids: PaneTtyIds, files: ProcFiles = procFiles): Readiness {
  if (files === procFiles && process.platform !== "linux") return noProc();
  const index = ptsIndex(ids.paneTty);
  const pane = readStat(files, ids.panePid);
  if (index === undefined || !pane) return { ready: undefined, evidence: "none", detail: `cannot read /proc/${ids.panePid}/stat or ${ids.paneTty} is not a pty` };
  // tpgid is the foreground group of the process's controlling tty: the pane's, if it still is.
  const stats = (descendants(files, pane.pid) ?? files.list("/proc").filter((name) => /^\d+$/.test(name)).map(Number)).map((pid) => (pid === pane.pid ? pane : readStat(files, pid)));
  const onTty = stats.filter((stat): stat is ProcStat => stat !== undefined && ptsOf(stat.ttyNr) === index);
  const foreground = onTty.find((stat) => stat.tpgid > 0)?.tpgid;
  const group = onTty.filter((stat) => stat.pgrp === foreground);
  if (foreground === undefined || group.length === 0) return { ready: false, evidence: "proc", detail: `no foreground process on ${ids.paneTty}` };
  const busy = group.find((stat) => stat.state === "R" || stat.state === "D");
  if (busy) return { ready: false, evidence: "proc", detail: `${describe(busy, files)} is ${busy.state === "R" ? "running" : "in a disk wait"}` };
  const reader = group.find((stat) => readsTty(stat, files, ids.paneTty));
  if (reader) return { ready: true, evidence: "proc", detail: `${describe(reader, files)} is waiting for input on ${ids.paneTty}` };
  return { ready: false, evidence: "proc", detail: `${group.map((stat) => describe(stat, files)).join(", ")}: not reading ${ids.paneTty}` };
}

/**
 * The pane's process and its descendants, from /proc/PID/task/TID/children (a look costs a few
 * reads, where walking all of /proc cost ~25 ms with 200 processes on a busy 2-core VM); undefined
 * where the kernel has no children files, and then every process is looked at. A process of the
 * foreground group that left the pane's process tree (reparented to init) is missed: rare, and it
 * errs towards "not ready".
 */
function descendants(files: ProcFiles, root: number): number[] | undefined {
  const found = [root];
  for (let i = 0; i < found.length && found.length < 4096; i++) {
    const pid = found[i] as number;
    const tasks = files.list(`/proc/${pid}/task`);
    for (const task of tasks.length === 0 ? [String(pid)] : tasks) {
      const children = files.read(`/proc/${pid}/task/${task}/children`);
      if (children === undefined) {
        if (pid === root) return undefined;
        continue;
      }
      for (const child of children.trim().split(" ")) if (/^\d+$/.test(child)) found.push(Number(child));
    }
  }
  return found;
}

function noProc(): Readiness {
  return { ready: undefined, evidence: "none", detail: `no /proc on ${process.platform}: whether the program reads its terminal cannot be seen` };
}

/** Sleeping in a read or poll, with the tty open (and, where the syscall is readable, on it). */
function readsTty(stat: ProcStat, files: ProcFiles, tty: string): boolean {
  if (stat.state !== "S") return false;
  const wchan = files.read(`/proc/${stat.pid}/wchan`)?.trim() ?? "";
  const reading = READING.test(wchan);
  if (!reading && !POLLING.test(wchan)) return false;
  const fds = files.list(`/proc/${stat.pid}/fd`);
  if (!fds.some((fd) => files.link(`/proc/${stat.pid}/fd/${fd}`) === tty)) return false;
  // /proc/PID/syscall needs ptrace rights (absent under Yama's ptrace_scope 1): a refinement only.
  const call = /^(\d+) (0x[0-9a-f]+)/.exec(files.read(`/proc/${stat.pid}/syscall`) ?? "");
  const calls = CALLS[process.arch];
  if (call && calls) {
    const [number, first] = [Number(call[1]), Number(call[2])];
    // read(fd, …): that fd must be the tty. select(nfds, …) with nfds 0 is a sleep.
    if (calls.read.includes(number) && reading) return files.link(`/proc/${stat.pid}/fd/${first}`) === tty;
    if (calls.select.includes(number)) return first > 0;
  }
  return true;
}

function describe(stat: ProcStat, files: ProcFiles): string {
  const wchan = files.read(`/proc/${stat.pid}/wchan`)?.trim();
  return `${stat.comm} (pid ${stat.pid}, ${stat.state}${wchan && wchan !== "0" ? ` in ${wchan}` : ""})`;
}

/** /proc/PID/stat: `pid (comm) state ppid pgrp session tty_nr tpgid …`; comm may hold anything. */
export function readStat(files: ProcFiles, pid: number): ProcStat | undefined {
  const text = files.read(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  const [state, , pgrp, , ttyNr, tpgid] = text.slice(close + 2).split(" ", 6);
  if (state === undefined || tpgid === undefined) return undefined;
  return { pid, comm: text.slice(open + 1, close), state, pgrp: Number(pgrp), ttyNr: Number(ttyNr), tpgid: Number(tpgid) };
}
