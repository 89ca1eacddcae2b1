// The ready rules on a made-up /proc: which states and wait channels of the foreground process
// group mean "blocked reading its terminal" (measured values: src/watch/ready.ts).
import { describe, expect, it } from "vitest";
import type { ProcFiles } from "../../src/watch/confirm/pane-process.js";
import { readiness, readStat } from "../../src/watch/ready.js";

const TTY = "/dev/pts/3";
const TTY_NR = (136 << 8) | 3;

interface Proc {
  pid: number;
  comm: string;
  state: string;
  pgrp: number;
  wchan: string;
  fds?: Record<string, string>;
  syscall?: string;
  /** Given on any process: the kernel lists children (/proc/PID/task/TID/children) for all. */
  children?: number[];
}

/** /proc with these processes, all on pts/3, whose foreground group is `foreground`. */
function fakeProc(foreground: number, procs: Proc[]): ProcFiles {
  const files = new Map<string, string>();
  const links = new Map<string, string>();
  for (const p of procs) {
    files.set(`/proc/${p.pid}/stat`, `${p.pid} (${p.comm}) ${p.state} 1 ${p.pgrp} ${p.pgrp} ${TTY_NR} ${foreground} 0 0\n`);
    files.set(`/proc/${p.pid}/wchan`, p.wchan);
    if (p.syscall !== undefined) files.set(`/proc/${p.pid}/syscall`, p.syscall);
    for (const [fd, target] of Object.entries(p.fds ?? { 0: TTY })) links.set(`/proc/${p.pid}/fd/${fd}`, target);
    if (procs.some((q) => q.children)) {
      files.set(`/proc/${p.pid}/task/${p.pid}/children`, (p.children ?? []).map((c) => `${c} `).join(""));
      links.set(`/proc/${p.pid}/task/${p.pid}`, "");
    }
  }
  return {
    read: (path) => files.get(path),
    list: (path) => {
      if (path === "/proc") return [...procs.map((p) => String(p.pid)), "self", "meminfo"];
      const prefix = `${path}/`;
      return [...links.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
    },
    link: (path) => links.get(path),
    open: () => undefined,
    reread: () => undefined,
    close: () => undefined,
  };
}

const ids = { panePid: 10, paneTty: TTY };
const shell = (over: Partial<Proc> = {}): Proc => ({ pid: 10, comm: "bash", state: "S", pgrp: 10, wchan: "poll_schedule_timeout.constprop.0", ...over });

describe.runIf(process.platform === "linux")("readiness from /proc", () => {
  it("a shell polling its tty at the prompt is ready", () => {
    expect(readiness(ids, fakeProc(10, [shell()]))).toEqual({ ready: true, evidence: "proc", detail: `bash (pid 10, S in poll_schedule_timeout.constprop.0) is waiting for input on ${TTY}` });
  });

  it("a foreground job that sleeps is not ready though its shell waits for it", () => {
    const procs = [shell({ wchan: "do_wait" }), { pid: 11, comm: "sleep", state: "S", pgrp: 11, wchan: "hrtimer_nanosleep" }];
    expect(readiness(ids, fakeProc(11, procs))).toMatchObject({ ready: false, detail: `sleep (pid 11, S in hrtimer_nanosleep): not reading ${TTY}` });
  });

  it("a running process in the foreground group is never ready, even beside a reader", () => {
    const procs = [shell({ pgrp: 20 }), { pid: 21, comm: "loop", state: "R", pgrp: 20, wchan: "0" }];
    expect(readiness(ids, fakeProc(20, procs))).toMatchObject({ ready: false, detail: "loop (pid 21, R) is running" });
  });

  it("a poll counts only with the tty open; a read only on the tty; a select of no fds is a sleep", () => {
    expect(readiness(ids, fakeProc(10, [shell({ fds: { 0: "/dev/null", 3: "socket:[9]" } })])).ready).toBe(false);
    expect(readiness(ids, fakeProc(10, [shell({ wchan: "wait_woken", fds: { 0: TTY, 5: "pipe:[7]" }, syscall: "0 0x5 0x7ff 0x1" })])).ready).toBe(process.arch === "x64" ? false : true);
    expect(readiness(ids, fakeProc(10, [shell({ wchan: "wait_woken", syscall: "0 0x0 0x7ff 0x1" })])).ready).toBe(true);
    expect(readiness(ids, fakeProc(10, [shell({ syscall: "270 0x0 0x0 0x0" })])).ready).toBe(process.arch === "x64" ? false : true);
  });

  it("where the kernel lists children, only the pane's process tree is looked at", () => {
    const procs = [shell({ wchan: "do_wait", children: [11] }), { pid: 11, comm: "python3", state: "S", pgrp: 11, wchan: "poll_schedule_timeout" }, { pid: 99, comm: "elsewhere", state: "R", pgrp: 11, wchan: "0" }];
    expect(readiness(ids, fakeProc(11, procs))).toMatchObject({ ready: true, detail: `python3 (pid 11, S in poll_schedule_timeout) is waiting for input on ${TTY}` });
    expect(readiness(ids, fakeProc(11, procs.map((p) => ({ ...p, children: undefined }))))).toMatchObject({ ready: false, detail: "elsewhere (pid 99, R) is running" });
  });

  it("says it cannot tell when the pane's process cannot be read", () => {
    expect(readiness({ panePid: 99, paneTty: TTY }, fakeProc(10, [shell()]))).toMatchObject({ ready: undefined, evidence: "none" });
  });

  it("reads a stat whose command holds spaces and parentheses", () => {
    const files = fakeProc(10, [shell({ comm: "a) (b" })]);
    expect(readStat(files, 10)).toEqual({ pid: 10, comm: "a) (b", state: "S", pgrp: 10, ttyNr: TTY_NR, tpgid: 10 });
  });
});
