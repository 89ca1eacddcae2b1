// The /proc look at a pane's process, against a made-up /proc: what it must find before it vouches,
// and each change that makes it stop vouching for good.
import { describe, expect, it } from "vitest";
import { masterIndex, PaneProcess, parseStat, ptsIndex, ptsOf, type ProcFiles } from "../../../src/watch/confirm/pane-process.js";

const SERVER = 100;
const PANE = 200;
/** tty_nr of /dev/pts/N as the kernel writes it in /proc/PID/stat (major 136). */
const ttyNr = (n: number): number => (n & 0xff) | (136 << 8) | ((n & ~0xff) << 12);

/** A process's stat line: fields 3.. after a comm that holds spaces and parentheses. */
function statLine(state: string, ppid: number, tty: number, start: number): string {
  const rest = Array.from({ length: 49 }, (_, i) => String(i + 100));
  rest[0] = state;
  rest[1] = String(ppid);
  rest[4] = String(tty);
  rest[19] = String(start);
  return `${PANE} (sh (weird) name) ${rest.join(" ")}\n`;
}

class FakeProc implements ProcFiles {
  files = new Map<string, string>();
  links = new Map<string, string>();
  private handles: string[] = [];
  open(path: string): number | undefined {
    if (!this.files.has(path)) return undefined;
    this.handles.push(path);
    return this.handles.length - 1;
  }
  reread(handle: number): string | undefined {
    const path = this.handles[handle];
    return path === undefined ? undefined : this.files.get(path);
  }
  close(handle: number): void {
    this.handles[handle] = "";
  }
  read(path: string): string | undefined {
    return this.files.get(path);
  }
  list(path: string): string[] {
    const prefix = `${path}/`;
    return [...this.links.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }
  link(path: string): string | undefined {
    return this.links.get(path);
  }
  /** A server with the pane's master at fd 7 (pts 3) and another pane's at fd 9 (pts 4). */
  static healthy(): FakeProc {
    const proc = new FakeProc();
    proc.links.set(`/proc/${SERVER}/fd/3`, "socket:[1234]");
    proc.links.set(`/proc/${SERVER}/fd/7`, "/dev/ptmx");
    proc.links.set(`/proc/${SERVER}/fd/9`, "/dev/ptmx");
    proc.files.set(`/proc/${SERVER}/fdinfo/7`, "pos:\t0\nflags:\t0104002\nmnt_id:\t24\nino:\t91\ntty-index:\t3\n");
    proc.files.set(`/proc/${SERVER}/fdinfo/9`, "pos:\t0\nflags:\t0104002\nmnt_id:\t24\nino:\t92\ntty-index:\t4\n");
    proc.files.set(`/proc/${PANE}/stat`, statLine("S", SERVER, ttyNr(3), 3230854));
    return proc;
  }
}

const ids = { serverPid: SERVER, panePid: PANE, paneTty: "/dev/pts/3" };

describe("PaneProcess", () => {
  it("reads stat lines whose command name holds spaces and parentheses, fdinfo's tty-index, and pts numbers past 255", () => {
    expect(parseStat(statLine("S", 5, ttyNr(300), 42))).toEqual({ state: "S", ppid: 5, ttyNr: ttyNr(300), start: "42" });
    expect(parseStat("garbage")).toBeUndefined();
    expect(masterIndex("pos:\t0\ntty-index:\t12\n")).toBe(12);
    expect(masterIndex("pos:\t0\nflags:\t02\n")).toBeUndefined();
    expect(ptsIndex("/dev/pts/12")).toBe(12);
    expect(ptsIndex("/dev/tty1")).toBeUndefined();
    expect(ptsOf(ttyNr(300))).toBe(300);
    expect(ptsOf((4 << 8) | 1)).toBeUndefined(); // /dev/tty1: not a pty
  });

  it("vouches while the server holds the pane's master and the process is alive on it", () => {
    const proc = FakeProc.healthy();
    const found = PaneProcess.find(ids, proc);
    expect(found?.same()).toBe(true);
    proc.files.set(`/proc/${PANE}/stat`, statLine("R", SERVER, ttyNr(3), 3230854));
    expect(found?.same()).toBe(true);
  });

  it("finds nothing when a fact does not fit: another tty, another parent, no master, two masters, not a pts", () => {
    const cases: Array<(proc: FakeProc) => void> = [
      (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("S", SERVER, ttyNr(5), 3230854)),
      (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("S", 1, ttyNr(3), 3230854)),
      (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("Z", SERVER, ttyNr(3), 3230854)),
      (proc) => proc.links.delete(`/proc/${SERVER}/fd/7`),
      (proc) => proc.files.set(`/proc/${SERVER}/fdinfo/9`, "tty-index:\t3\n"),
      (proc) => proc.files.delete(`/proc/${PANE}/stat`),
    ];
    for (const change of cases) {
      const proc = FakeProc.healthy();
      change(proc);
      expect(PaneProcess.find(ids, proc)).toBeUndefined();
    }
    expect(PaneProcess.find({ ...ids, paneTty: "/dev/tty1" }, FakeProc.healthy())).toBeUndefined();
  });

  it("stops vouching when the pty is hung up, the master fd holds another pty or is closed, or the process died or is another", () => {
    const changes: Array<[string, (proc: FakeProc) => void]> = [
      ["hung up (respawn-pane -k; the old process ignores SIGHUP)", (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("S", SERVER, 0, 3230854))],
      ["the fd holds a new pty (the old one held elsewhere)", (proc) => proc.files.set(`/proc/${SERVER}/fdinfo/7`, "tty-index:\t6\n")],
      ["the fd is closed", (proc) => proc.files.delete(`/proc/${SERVER}/fdinfo/7`)],
      ["the process is a zombie", (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("Z", SERVER, ttyNr(3), 3230854))],
      ["the process is gone", (proc) => proc.files.delete(`/proc/${PANE}/stat`)],
      ["another process with the same pid", (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("S", SERVER, ttyNr(3), 9999999))],
      ["reparented (the server died)", (proc) => proc.files.set(`/proc/${PANE}/stat`, statLine("S", 1, ttyNr(3), 3230854))],
    ];
    for (const [name, change] of changes) {
      const proc = FakeProc.healthy();
      const found = PaneProcess.find(ids, proc);
      expect(found?.same(), name).toBe(true);
      change(proc);
      expect(found?.same(), name).toBe(false);
    }
  });

  it("vouches for nothing once closed", () => {
    const found = PaneProcess.find(ids, FakeProc.healthy());
    found?.close();
    expect(found?.same()).toBe(false);
  });
});
